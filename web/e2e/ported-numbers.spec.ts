/**
 * Ported numbers (携号转网记录): the demo suppliers answer 13910010001–6 as moved to another
 * carrier, so orders for them record ports through the real supplier path. An administrator
 * finds them on the page by number and by carrier, follows a record to its order, and
 * removes two with a reason typed key by key, the second with a double click on confirm:
 * one removal, one audit entry each, and the number is priced by its segment again. Both
 * locales.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import {
  api,
  apiLogin,
  expect,
  loginAs,
  nextAnswer,
  openOverlay,
  pickOption,
  test,
  useLocale,
} from './support/console';

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });

const LIST = '/adminapi/admin/ports/list';
const DELETE = '/adminapi/admin/ports/delete';

const TEXTS = {
  'zh-CN': { numbers: ['13910010001', '13910010002'], mobile: '中国移动', reason: '供应商误报', removed: '已删除' },
  'en-US': {
    numbers: ['13910010003', '13910010004'],
    mobile: 'China Mobile',
    reason: 'wrong answer',
    removed: 'removed',
  },
} as const;

type PortPage = { list: { number: string }[]; total: number };

/**
 * Orders for `numbers`; the demo suppliers' code 13 answers record them. Waited for until
 * the orders are final: a later answer (the next channel's) would record the port again.
 */
async function portsRecorded(request: APIRequestContext, admin: string, numbers: readonly string[]) {
  const merchant = await apiLogin(request, 'merchant');
  for (const account of numbers) {
    const placed = await api<{ order: { id: number } }>(request, merchant, '/adminapi/order/add', {
      account,
      product_key: 'MOBILE-DIRECT-10',
    });
    await expect
      .poll(
        async () => {
          const detail = await api<{ order: { status: number } }>(request, merchant, '/adminapi/order/detail', {
            order_id: placed.order.id,
          });
          return [2, 3].includes(detail.order.status);
        },
        { timeout: 60_000 },
      )
      .toBe(true);
  }
  await expect
    .poll(
      async () => {
        const listed = await api<PortPage>(request, admin, LIST, { number: '139 1001 000' });
        return numbers.every((number) => listed.list.some((port) => port.number === number));
      },
      { timeout: 60_000 },
    )
    .toBe(true);
}

for (const locale of ['zh-CN', 'en-US'] as const) {
  const texts = TEXTS[locale];
  const [first, second] = texts.numbers;

  test(`an administrator finds ported numbers and removes wrong ones with a reason (${locale})`, async ({ page }) => {
    const admin = await apiLogin(page.request, 'admin');
    await portsRecorded(page.request, admin, texts.numbers);
    await useLocale(page, locale);
    await loginAs(page, 'admin');
    const listed = nextAnswer(page, LIST);
    await page.goto('#/qoute/portedNumbers');
    expect((await listed).ok()).toBe(true);
    const table = page.getByTestId('ports-table');
    await expect(table).toContainText(first);

    // By number, typed as people write it.
    await page.getByTestId('ports-filter-number').fill(`+86 ${first.slice(0, 3)} ${first.slice(3)}`);
    let answer = nextAnswer(page, LIST, (body) => body.number !== undefined);
    await page.getByTestId('ports-search').click();
    expect((await answer).ok()).toBe(true);
    await expect(table.locator('tbody tr.ant-table-row')).toHaveCount(1);
    await expect(table).toContainText(texts.mobile);
    await expect(page.getByTestId(`ports-order-${first}`)).toHaveAttribute('href', /orderNo=/);

    // By the carrier left: both numbers of this test.
    await page.getByTestId('ports-filter-number').fill('');
    await pickOption(page, 'ports-filter-carrier', texts.mobile);
    answer = nextAnswer(page, LIST, (body) => body.from_carrier === 'mobile' && body.number === undefined);
    await page.getByTestId('ports-search').click();
    expect((await answer).ok()).toBe(true);
    await expect(table).toContainText(second);
    await page.screenshot({ path: `${screenshots}ported-numbers-${locale}.png`, fullPage: true });

    const deletes: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith(DELETE)) deletes.push(request.postData() ?? '');
    });

    // The reason typed key by key (an input method's way), then confirmed.
    const reason = page.getByTestId('ports-remove-reason');
    await openOverlay(page, page.getByTestId(`ports-remove-${first}`), reason);
    await reason.pressSequentially(texts.reason);
    await expect(reason).toHaveValue(texts.reason);
    await expectNoAxeViolations(page, `ported numbers removal ${locale}`);
    await page.screenshot({ path: `${screenshots}ported-numbers-remove-${locale}.png` });
    await page.getByTestId('ports-remove-confirm').click();
    await expect(page.getByText(texts.removed).first()).toBeVisible();
    await expect(table.locator('tr', { hasText: first })).toHaveCount(0);

    // A double click on confirm removes once.
    await openOverlay(page, page.getByTestId(`ports-remove-${second}`), reason);
    await reason.pressSequentially(texts.reason);
    await page.getByTestId('ports-remove-confirm').dblclick();
    await expect(table.locator('tr', { hasText: second })).toHaveCount(0);
    await expect(page.locator('.ant-modal')).toHaveCount(0);
    expect(deletes).toHaveLength(2);
    expect(deletes.map((body) => (JSON.parse(body) as { number: string }).number)).toEqual([first, second]);

    // Audited once each, with the reason; the numbers are priced by their segment again.
    const audit = await api<{ list: { target: string; detail: string }[] }>(
      page.request,
      admin,
      '/adminapi/admin/audit/list',
      { action: 'number_port_removed' },
    );
    for (const number of [first, second]) {
      const rows = audit.list.filter((row) => row.target === `port:${number}`);
      expect(rows).toHaveLength(1);
      expect(rows[0].detail).toContain(texts.reason);
    }
    const merchant = await apiLogin(page.request, 'merchant');
    const price = await api<{ ported_from: string | null }>(page.request, merchant, '/adminapi/order/price', {
      account: first,
    });
    expect(price.ported_from).toBeNull();
  });
}
