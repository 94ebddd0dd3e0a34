/**
 * The number-segment table: an administrator exports it, uploads it back with one segment
 * moved to another province, sees exactly that change previewed and applies it; the lookup
 * the add-order form uses answers the new place. A file with bad lines is refused naming
 * them; a preview is discarded without change. Both locales.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expectNoAxeViolations } from './support/axe';
import { expect, loginAs, refused, test, useLocale } from './support/console';

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });

const csv = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text, 'utf8') });

test('an administrator moves one segment by uploading the exported table (zh-CN)', async ({ page }) => {
  await useLocale(page, 'zh-CN');
  await loginAs(page, 'admin');
  await page.goto('#/qoute/segments');
  await expect(page.getByTestId('segments-source')).toContainText('内置数据');
  await page.screenshot({ path: `${screenshots}segments-zh-CN.png`, fullPage: true });

  const downloading = page.waitForEvent('download');
  await page.getByTestId('segments-export').click();
  const exported = readFileSync(await (await downloading).path(), 'utf8');
  const lines = exported.split('\r\n');
  const at = lines.findIndex((line) => line.startsWith('1349999,'));
  expect(at).toBeGreaterThan(0);
  const moved = lines[at].includes('北京')
    ? '1349999,120000,天津,天津,,Tianjin,Tianjin'
    : '1349999,110000,北京,北京,,Beijing,Beijing';
  lines[at] = moved;
  await page
    .getByTestId('segments-page')
    .locator('input[type="file"]')
    .setInputFiles(csv('segments-moved.csv', lines.join('\r\n')));
  await expect(page.getByTestId('segments-summary')).toContainText('新增 0，变更 1，删除 0');
  await expect(page.getByTestId('segments-samples')).toContainText('1349999');
  await expectNoAxeViolations(page, 'segments preview zh-CN');
  await page.screenshot({ path: `${screenshots}segments-preview-zh-CN.png`, fullPage: true });

  await page.getByTestId('segments-apply').click();
  await page.locator('.ant-popconfirm .ant-btn-primary').click();
  await expect(page.getByTestId('segments-preview')).toHaveCount(0);
  await expect(page.getByTestId('segments-source')).toContainText('segments-moved.csv');
  const province = moved.includes('天津') ? '天津' : '北京';
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const answer = await page.request.post('/adminapi/segment/lookup', {
    data: { phone: '13499991234' },
    headers: { Authorization: `Bearer ${token}` },
  });
  expect((await answer.json()).data.province).toBe(province);
});

test('a file with bad lines is refused naming them, and a preview is discarded (en-US)', async ({ page, noise }) => {
  noise.allow(refused(422, '/adminapi/admin/segments/preview'), 'the file with bad lines this test sends');
  await useLocale(page, 'en-US');
  await loginAs(page, 'admin');
  await page.goto('#/qoute/segments');
  const file = page.getByTestId('segments-page').locator('input[type="file"]');
  await file.setInputFiles(
    csv('bad.csv', 'segment,province,city,carrier\n1380013,Atlantis,Beijing,mobile\n138001,北京,北京,mobile\n'),
  );
  const errors = page.getByTestId('segments-errors');
  await expect(errors).toContainText('Line 2: no province is called "Atlantis"');
  await expect(errors).toContainText('Line 3: the segment must be 7 digits starting with 1');
  await page.screenshot({ path: `${screenshots}segments-errors-en-US.png`, fullPage: true });

  await file.setInputFiles(csv('tiny.csv', '号段,省份,城市,运营商\n1380013,北京,北京,移动\n1380014,北京,北京,移动\n'));
  await expect(page.getByTestId('segments-summary')).toContainText('2 segments:');
  await expect(errors).toHaveCount(0);
  await expectNoAxeViolations(page, 'segments preview en-US');
  await page.screenshot({ path: `${screenshots}segments-preview-en-US.png`, fullPage: true });
  await page.getByTestId('segments-discard').click();
  await expect(page.getByTestId('segments-preview')).toHaveCount(0);
  await expect(page.getByTestId('segments-rows')).not.toHaveText('2');
});
