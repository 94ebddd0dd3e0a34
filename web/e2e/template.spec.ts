/**
 * The template and demo pages against the real server run
 * with --demo (which implies --template-pages): every template menu entry opens its page
 * without a console error, the policy list pages through its 55 rows and filters, and the
 * channel form refuses out-of-range values and submits a good one. Both locales.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import {
  expandFilters,
  expect,
  loginAs,
  openFromSideMenu,
  openOverlay,
  showInSideMenu,
  test,
  useLocale,
} from './support/console';

const directory = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(directory, { recursive: true });

test.setTimeout(240_000);

/** Console errors and warnings of the page (the fixture already fails on uncaught errors). */
function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  return problems;
}

const PAGES: { group: string; item: string; page: string }[] = [
  { group: 'dashboard', item: 'ContentDashboard', page: 'content-dashboard-page' },
  { group: 'dashboard', item: 'ServerDashboard', page: 'server-dashboard-page' },
  { group: 'visualization', item: 'DataVisualization', page: 'data-visualization-page' },
  { group: 'list', item: 'PolicyList', page: 'policy-list-page' },
  { group: 'list', item: 'TemplateCards', page: 'template-cards-page' },
  { group: 'form', item: 'ChannelForm', page: 'channel-form-page' },
  { group: 'profile', item: 'ParameterDetail', page: 'parameter-detail-page' },
  { group: 'help', item: 'Faq', page: 'faq-page' },
  { group: 'help', item: 'Documentation', page: 'documentation-page' },
];

for (const locale of ['zh-CN', 'en-US'] as const) {
  test.describe(`template pages (${locale})`, () => {
    test.beforeEach(async ({ page }) => {
      await useLocale(page, locale);
    });

    test('every template menu entry opens its page without a console error', async ({ page }) => {
      const problems = watchConsole(page);
      await loginAs(page, 'admin');
      // system_info was stored at sign-in, with the template flag on.
      const info = await page.evaluate(() => JSON.parse(localStorage.getItem('system_info') ?? 'null'));
      expect(info?.features?.templatePages).toBe(true);
      for (const { group, item, page: testId } of PAGES) {
        await openFromSideMenu(page, group, item);
        await expect(page.getByTestId(testId)).toBeVisible();
        await expect(page.locator('.ant-skeleton')).toHaveCount(0);
        await page.screenshot({ path: `${directory}template-${item}-${locale}.png` });
      }
      // The dashboards and charts have their data.
      await openFromSideMenu(page, 'dashboard', 'ContentDashboard');
      await expect(page.getByTestId('content-series-chart').locator('canvas')).toBeVisible();
      await expect(page.getByTestId('popular-table').locator('tbody tr')).toHaveCount(5);
      const collected = page.getByTestId('chat-collected');
      const before = await collected.textContent();
      const firstCollect = page.getByTestId('chat-collect-1');
      const pressed = await firstCollect.getAttribute('aria-pressed');
      await firstCollect.click();
      await expect(firstCollect).toHaveAttribute('aria-pressed', pressed === 'true' ? 'false' : 'true');
      await expect(collected).not.toHaveText(before ?? '');
      await openFromSideMenu(page, 'visualization', 'DataVisualization');
      await expect(page.getByTestId('viz-ratio')).toBeVisible();
      await openFromSideMenu(page, 'list', 'TemplateCards');
      await expect(page.getByTestId('quality-cards').locator('.ant-card')).toHaveCount(6);
      await page.getByTestId('cards-tab-rules').click();
      await expect(page.getByTestId('rule-cards').locator('.ant-switch')).toHaveCount(6);
      // External links open in a new tab without handing this page over.
      const design = await showInSideMenu(page, 'dashboard', 'DesignSystem');
      await expect(design).toHaveAttribute('target', '_blank');
      await expect(design).toHaveAttribute('rel', 'noopener noreferrer');
      await openFromSideMenu(page, 'help', 'Documentation');
      await expect(page.getByTestId('docs-link-designSystem')).toHaveAttribute('rel', 'noopener noreferrer');
      // User info shows the generated projects (with contributors) next to the real figures.
      await page.goto('#/user/info');
      await expect(page.getByTestId('user-info-template-extras')).toBeVisible();
      await page.getByTestId('user-info-tab-project').click();
      await expect(page.getByTestId('template-project-1')).toBeVisible();
      await page.screenshot({ path: `${directory}template-user-info-${locale}.png`, fullPage: true });
      expect(problems).toEqual([]);
    });

    test('the policy list pages through 55 rows and filters', async ({ page }) => {
      const problems = watchConsole(page);
      await loginAs(page, 'merchant');
      await page.goto('#/list/policy');
      const rows = page.getByTestId('policy-table').locator('tbody tr.ant-table-row');
      const total = page.getByTestId('policy-total');
      await expect(total).toHaveText(locale === 'zh-CN' ? '共 55 条' : '55 in total');
      await expect(rows).toHaveCount(10);
      const pager = page.getByTestId('policy-pagination');
      await pager.locator('.ant-pagination-item-6').click();
      await expect(rows).toHaveCount(5);
      await pager.locator('.ant-pagination-item-1').click();
      await expect(rows).toHaveCount(10);
      await page.screenshot({ path: `${directory}template-policy-${locale}.png`, fullPage: true });
      // Filter by status: every row online, the total counts only those.
      await expandFilters(page, 'policy-filters');
      await page.getByTestId('policy-filter-status').click();
      const online = locale === 'zh-CN' ? '已上线' : 'Online';
      await page.locator('.ant-select-dropdown:visible').getByText(online, { exact: true }).click();
      await page.getByTestId('policy-search').click();
      await expect(page).toHaveURL(/status=online/);
      // The previous page stays on screen until the filtered one arrives: wait for it.
      await expect
        .poll(async () => {
          const statuses = await rows.locator('td .ant-tag').allTextContents();
          return statuses.length > 0 && statuses.every((text) => text === online);
        })
        .toBe(true);
      const filtered = Number((await total.textContent())?.match(/\d+/)?.[0]);
      expect(filtered).toBeGreaterThan(0);
      expect(filtered).toBeLessThan(55);
      // A number filter finds its row.
      const number = (await rows.first().locator('td').first().textContent())?.trim() ?? '';
      await page.getByTestId('policy-reset').click();
      await expect(total).toHaveText(locale === 'zh-CN' ? '共 55 条' : '55 in total');
      await page.getByTestId('policy-filter-number').fill(number);
      await page.getByTestId('policy-search').click();
      await expect(total).toHaveText(locale === 'zh-CN' ? '共 1 条' : '1 in total');
      await expect(rows.first().locator('td').first()).toHaveText(number);
      expect(problems).toEqual([]);
    });

    test('the channel form refuses out-of-range values and submits a good one', async ({ page }) => {
      const problems = watchConsole(page);
      await loginAs(page, 'merchant');
      await page.goto('#/form/step');
      await expect(page.getByTestId('channel-form-page')).toBeVisible();
      // Step 1: activity name at most 20 characters, an http(s) link.
      await page.getByTestId('channel-activityName').fill('名'.repeat(21));
      await page.getByTestId('channel-promoteLink').fill('example.com');
      await page.getByTestId('channel-next').click();
      const form = page.getByTestId('channel-form-page');
      await expect(form).toContainText(
        locale === 'zh-CN' ? '活动名称最多 20 个字符' : 'The activity name is at most 20 characters',
      );
      await expect(form).toContainText(
        locale === 'zh-CN' ? '链接必须以 http:// 或 https:// 开头' : 'The link must start with http:// or https://',
      );
      await page.getByTestId('channel-activityName').fill('名'.repeat(20));
      await page.getByTestId('channel-promoteLink').fill('http://example.com/launch');
      await page.getByTestId('channel-next').click();
      await expect(page.getByTestId('channel-ranges-help')).toBeVisible();
      await page.screenshot({ path: `${directory}template-channel-form-${locale}.png`, fullPage: true });
      // Step 2: one past each edge of the form's allowed ranges.
      const fill = async (name: string, value: string) => {
        const input = page.getByTestId(`channel-${name}`);
        await input.fill(value);
      };
      await fill('videoEncodingRateMin', '149');
      await fill('videoEncodingRateMax', '1801');
      await fill('videoEncodingFrameRate', '31');
      await fill('videoAcquisitionFrameRate', '0');
      await fill('description', 'x'.repeat(201));
      await page.getByTestId('channel-submit').click();
      const rate = locale === 'zh-CN' ? '请输入 150 到 1800 之间的整数' : 'Enter a whole number from 150 to 1800';
      const frames = locale === 'zh-CN' ? '请输入 1 到 30 之间的整数' : 'Enter a whole number from 1 to 30';
      await expect(form.getByText(rate)).toHaveCount(2);
      await expect(form.getByText(frames)).toHaveCount(2);
      await expect(form).toContainText(
        locale === 'zh-CN' ? '参数描述最多 200 个字符' : 'The description is at most 200 characters',
      );
      await page.screenshot({ path: `${directory}template-channel-errors-${locale}.png`, fullPage: true });
      // Both edges are good.
      await fill('videoEncodingRateMin', '150');
      await fill('videoEncodingRateMax', '1800');
      await fill('videoEncodingFrameRate', '30');
      await fill('videoAcquisitionFrameRate', '1');
      await fill('description', 'x'.repeat(200));
      await page.getByTestId('channel-submit').click();
      await expect(page.getByTestId('channel-success')).toBeVisible();
      await page.getByTestId('channel-view-detail').click();
      await expect(page.getByTestId('parameter-detail-video')).toContainText('1800');
      await expect(page.getByTestId('parameter-detail-basic')).toContainText('名'.repeat(20));
      await page.screenshot({ path: `${directory}template-detail-${locale}.png`, fullPage: true });
      expect(problems).toEqual([]);
    });

    test('the settings drawer search switch hides and shows the navbar search', async ({ page }) => {
      await loginAs(page, 'merchant');
      const search = page.getByTestId('navbar-search');
      await expect(search).toBeVisible();
      await openOverlay(page, page.getByTestId('navbar-settings'), page.getByTestId('setting-switch-search'));
      await page.getByTestId('setting-switch-search').click();
      await expect(search).toHaveCount(0);
      await page.getByTestId('setting-switch-search').click();
      await expect(search).toBeVisible();
    });
  });
}
