/**
 * Channel coverage (issue 51 part 3) against the demo: the provincial `sim-south` (Guangdong
 * and Zhejiang) next to the national simulators. Its products drawer shows and edits each
 * row's provinces (one row and in bulk), the coverage file exports and imports (all lines or
 * none, each bad line named), and the routing preview says which channels cover a province
 * and why the others are out, in both languages.
 */
import { readFileSync } from 'node:fs';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import {
  addOption,
  chooseFromMenu,
  expect,
  loginAs,
  openOverlay,
  overlaysSettled,
  pageShot,
  pickOption,
  refused,
  requestsTo,
  test,
  useLocale,
  WITHOUT_TOASTS,
} from './support/console';

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });

const TEXTS = {
  'zh-CN': {
    south: '浙江、广东',
    guangdong: '广东',
    beijing: '北京',
    national: '全国',
    chosen: '指定省份',
    notCovered: '不覆盖该省份',
    candidate: '候选',
  },
  'en-US': {
    south: 'Zhejiang, Guangdong',
    guangdong: 'Guangdong',
    beijing: 'Beijing',
    national: 'National',
    chosen: 'Chosen provinces',
    notCovered: "Does not cover the number's province",
    candidate: 'Candidate',
  },
} as const;

/** Picks a province in the preview by typing its name (the list is virtual: far ones are not rendered). */
async function pickProvince(page: Page, name: string) {
  const select = page.getByTestId('routing-province');
  const option = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', {
    hasText: name,
  });
  await chooseFromMenu(
    () => select.locator('input').fill(name, { timeout: 3_000 }),
    option.first(),
    async () => ((await select.textContent()) ?? '').includes(name) && !(await option.first().isVisible()),
  );
}

for (const locale of ['zh-CN', 'en-US'] as const) {
  test(`coverage in the products drawer and the routing preview (${locale})`, async ({ page }) => {
    const text = TEXTS[locale];
    await useLocale(page, locale);
    await loginAs(page, 'admin');
    await page.goto('#/qoute/channels');
    await openOverlay(page, page.getByTestId('channel-products-sim-south'), page.getByTestId('supplies-table'));
    await expect(page.getByTestId('supply-coverage-MOBILE-DIRECT-10')).toHaveText(text.south);

    // Two rows get Guangdong alone, in bulk.
    const key = locale === 'zh-CN' ? 'UNICOM-DIRECT-20' : 'UNICOM-DIRECT-30';
    const other = locale === 'zh-CN' ? 'UNICOM-DIRECT-50' : 'UNICOM-DIRECT-100';
    const supplies = page.getByTestId('supplies-table');
    for (const row of [key, other])
      await supplies.locator('tr', { hasText: row }).first().locator('.ant-checkbox-input').check();
    await openOverlay(page, page.getByTestId('supplies-bulk-edit'), page.getByTestId('supplies-bulk-coverage'));
    await page.getByTestId('supplies-bulk-coverage').getByText(text.chosen).click();
    await addOption(page, 'supplies-bulk-provinces', text.guangdong);
    const saves = requestsTo(page, '/adminapi/admin/channel/products/save');
    await page.getByTestId('supplies-bulk-submit').dblclick();
    await expect(page.getByTestId(`supply-coverage-${key}`)).toHaveText(text.guangdong);
    await expect(page.getByTestId(`supply-coverage-${other}`)).toHaveText(text.guangdong);
    expect(saves).toHaveLength(1);
    await expect(page.getByTestId('supply-coverage-MOBILE-DIRECT-10')).toHaveText(text.south);
    await pageShot(page, `${screenshots}coverage-drawer-${locale}.png`, { style: WITHOUT_TOASTS });
    await page.getByTestId('supplies-drawer').locator('.ant-drawer-close').click();
    await overlaysSettled(page);

    // The preview: Guangdong goes to sim-south first; for Beijing it is out, and says why.
    await page.getByTestId('channels-tab-routing').click();
    await pickOption(page, 'routing-product', 'MOBILE-DIRECT-10');
    const routes = page.getByTestId('routing-table');
    const south = routes.locator('tr', { hasText: 'sim-south' });
    await pickProvince(page, text.guangdong);
    await expect(south.getByTestId('routing-candidate')).toHaveText(text.candidate);
    await expect(routes.locator('tbody tr.ant-table-row').first()).toContainText('sim-south');
    await pickProvince(page, text.beijing);
    await expect(south.getByTestId('routing-exclusion')).toHaveText(text.notCovered);
    await expect(routes.locator('tr', { hasText: 'sim-cheap' }).getByTestId('routing-candidate')).toBeVisible();
    await pageShot(page, `${screenshots}coverage-routing-${locale}.png`, { style: WITHOUT_TOASTS });

    // By number instead of province: typed key by key (Beijing), then pasted as people write
    // it (Shenzhen, with +86 and spaces).
    const province = page.getByTestId('routing-province');
    await province.hover();
    await province.locator('.ant-select-clear').click();
    const account = page.getByTestId('routing-account');
    await expect(account).toBeEnabled();
    await account.pressSequentially('13800138000', { delay: 40 });
    await expect(south.getByTestId('routing-exclusion')).toHaveText(text.notCovered);
    await account.fill('+86 134 1000 1234');
    await expect(south.getByTestId('routing-candidate')).toHaveText(text.candidate);
    await expect(routes.locator('tbody tr.ant-table-row').first()).toContainText('sim-south');
    await pageShot(page, `${screenshots}coverage-routing-number-${locale}.png`, { style: WITHOUT_TOASTS });
  });
}

test('the coverage file: export, a bad import refused line by line, a good one applied', async ({ page, noise }) => {
  noise.allow(refused(422, '/adminapi/admin/channel/coverage/import'), 'the bad coverage file this test imports');
  await useLocale(page, 'en-US');
  await loginAs(page, 'admin');
  await page.goto('#/qoute/channels');
  await openOverlay(page, page.getByTestId('channel-products-sim-south'), page.getByTestId('supplies-table'));

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('coverage-export').click()]);
  expect(download.suggestedFilename()).toBe('coverage-sim-south.csv');
  const lines = readFileSync(await download.path(), 'utf8')
    .trim()
    .split('\n');
  expect(lines[0]).toContain('"Product key","Provinces","Cost (yuan)","Priority","Weight"');
  expect(lines).toContainEqual(expect.stringMatching(/^"MOBILE-DIRECT-10","Zhejiang;Guangdong",9\.50,"20",1$/));

  const drawer = page.getByTestId('supplies-drawer');
  const input = drawer.locator('input[type=file]');
  const bad =
    'Product key,Provinces,Cost (yuan),Priority,Weight\nTELECOM-DIRECT-50,Shanghai;Guangdong,47.5,20,1\nTELECOM-DIRECT-100,Atlantis,95,20,1\n';
  await input.setInputFiles({ name: 'coverage.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
  await expect(page.getByTestId('coverage-import-errors')).toContainText('Line 3: provinces must be names or codes');
  await expect(page.getByTestId('supply-coverage-TELECOM-DIRECT-50')).toHaveText('Zhejiang, Guangdong');
  await pageShot(page, `${screenshots}coverage-import-errors-en-US.png`, { style: WITHOUT_TOASTS });

  const good = 'Product key,Provinces,Cost (yuan),Priority,Weight\nTELECOM-DIRECT-50,Shanghai;Guangdong,47.5,20,1\n';
  await input.setInputFiles({ name: 'coverage.csv', mimeType: 'text/csv', buffer: Buffer.from(good) });
  await expect(page.getByTestId('supply-coverage-TELECOM-DIRECT-50')).toHaveText('Shanghai, Guangdong');
  await expect(page.getByTestId('supply-cost-TELECOM-DIRECT-50')).toHaveText('47.50');
  await expect(page.getByTestId('coverage-import-errors')).toHaveCount(0);
});
