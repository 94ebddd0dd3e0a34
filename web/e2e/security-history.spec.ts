/**
 * The security history (issue 52 §1): the demo merchant's owner signs in, finds that
 * sign-in on the Security history page with this browser, filters by kind and exports the
 * filtered list as CSV (and xlsx). Both locales.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expectNoAxeViolations } from './support/axe';
import { csvRows } from './support/csv';
import {
  expect,
  loginAs,
  nextAnswer,
  openEveryMenuGroup,
  overlaysSettled,
  pickOption,
  tableShown,
  test,
  useLocale,
} from './support/console';

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });

const LIST = '/adminapi/security/list';

const TEXTS = {
  'zh-CN': { title: '安全记录', signedIn: '登录成功', code: '事件代码', browser: '浏览器' },
  'en-US': { title: 'Security history', signedIn: 'Signed in', code: 'Event code', browser: 'Browser' },
} as const;

for (const locale of ['zh-CN', 'en-US'] as const) {
  const texts = TEXTS[locale];

  test(`an owner sees their own sign-in with the browser, filters by kind and exports (${locale})`, async ({
    page,
  }) => {
    await useLocale(page, locale);
    await loginAs(page, 'merchant');
    const browser = await page.evaluate(() => navigator.userAgent);
    await openEveryMenuGroup(page);
    const entry = page.getByTestId('menu-item-SecurityHistory');
    await expect(entry).toHaveText(texts.title);
    const listed = nextAnswer(page, LIST);
    await entry.click();
    expect((await listed).ok()).toBe(true);
    const rows = await tableShown(page, 'security-table');

    // The newest sign-in is this one: its kind, its address and this browser.
    const own = rows.filter({ hasText: texts.signedIn }).first();
    await expect(own).toContainText('merchant');
    await expect(own).toContainText('127.0.0.1');
    await expect(own.getByTestId('security-browser')).toHaveAttribute('title', browser);
    await overlaysSettled(page);
    await expectNoAxeViolations(page, `security history ${locale}`);
    await page.screenshot({ path: `${screenshots}security-history-${locale}.png`, fullPage: true });

    // Filtered by kind: only sign-ins, as the list answer says.
    await pickOption(page, 'security-filter-kind', texts.signedIn);
    const filtered = nextAnswer(page, LIST, (body) => body.kind === 'sign_in');
    await page.getByTestId('security-search').click();
    const answer = (await (await filtered).json()) as { data: { total: number } };
    await tableShown(page, 'security-table');
    await expect(page).toHaveURL(/kind=sign_in/);
    for (const kind of await page.getByTestId('security-kind').all()) await expect(kind).toHaveText(texts.signedIn);

    // The export holds exactly the filtered rows.
    const download = page.waitForEvent('download');
    await page.getByTestId('export-csv').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^security-history-\d{8}-\d{6}\.csv$/);
    const [header, ...lines] = csvRows(readFileSync(await file.path(), 'utf8'));
    const code = header.indexOf(texts.code);
    expect(code).toBeGreaterThan(0);
    expect(header).toContain(texts.browser);
    expect(lines).toHaveLength(answer.data.total);
    for (const line of lines) expect(line[code]).toBe('sign_in');
    expect(lines.some((line) => line.includes(browser))).toBe(true);
    const xlsx = page.waitForEvent('download');
    await page.getByTestId('export-xlsx').click();
    expect((await xlsx).suggestedFilename()).toMatch(/^security-history-.*\.xlsx$/);
  });
}
