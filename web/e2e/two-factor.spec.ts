/**
 * Two-factor authentication in the browser, end to end, as the admin: set it up through the
 * wizard with codes computed from the secret the console shows (RFC 6238), download the
 * backup codes, sign in with an authenticator code and with a backup code, regenerate the
 * codes and turn two-factor off again with a backup code.
 *
 * The spec runs against a server of its own (own database), so the admin of the shared
 * server never has two-factor on, even if this spec fails half-way. Screenshots of every
 * state in both locales go to e2e/screenshots/.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Download, Locator, Page } from '@playwright/test';
import {
  chooseFromMenu,
  expect,
  loginAs,
  openOverlay,
  overlaysSettled,
  pageShot,
  refused,
  signOut,
  submitLogin,
  test,
  USERS,
  useLocale,
  WITHOUT_TOASTS,
} from './support/console';
import { useOwnServer } from './support/spec-server';
import { TotpCodes } from './support/totp';

const directory = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(directory, { recursive: true });

useOwnServer();

type Locale = 'zh-CN' | 'en-US';
const LOCALES: Locale[] = ['zh-CN', 'en-US'];

/** Switch the language in place (navbar dropdown or the login page's toggle), keeping the page state. */
async function switchLocale(page: Page, locale: Locale) {
  const html = page.locator('html');
  if ((await html.getAttribute('lang')) === locale) return;
  const option = page.getByTestId(`locale-option-${locale}`);
  if (await page.getByTestId('login-page').isVisible()) {
    await option.click();
  } else {
    await chooseFromMenu(
      () => page.getByTestId('locale-switch').click({ timeout: 3_000 }),
      option,
      async () => (await html.getAttribute('lang')) === locale,
    );
    await expect(option).toBeHidden();
  }
  await expect(html).toHaveAttribute('lang', locale);
}

async function shoot(page: Page, locale: Locale, name: string) {
  // antd's motion still running (step changes, a modal's zoom) is finished at once, not waited for.
  await pageShot(page, `${directory}${locale}-2fa-${name}.png`, { animations: 'disabled', style: WITHOUT_TOASTS });
}

/** The same state in both languages: Chinese first, then English, then back to Chinese. */
async function shootBoth(page: Page, name: string, check?: (locale: Locale) => Promise<void>) {
  for (const locale of LOCALES) {
    await switchLocale(page, locale);
    if (check) await check(locale);
    await shoot(page, locale, name);
  }
  await switchLocale(page, 'zh-CN');
}

/** A dialog in both languages (the modal mask blocks the navbar, so reopen it per language). */
async function shootDialog(page: Page, name: string, open: () => Promise<Locator>, close: () => Promise<void>) {
  for (const locale of LOCALES) {
    await switchLocale(page, locale);
    const dialog = await open();
    await expect(dialog).toBeVisible();
    await overlaysSettled(page);
    await shoot(page, locale, name);
    await close();
    await expect(dialog).toBeHidden();
  }
  await switchLocale(page, 'zh-CN');
}

async function toast(page: Page, text: string) {
  await expect(page.locator('.ant-message').getByText(text, { exact: true }).last()).toBeVisible();
}

async function downloadOf(page: Page, click: () => Promise<void>): Promise<{ download: Download; lines: string[] }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const path = await download.path();
  const lines = readFileSync(path, 'utf8').split('\n');
  return { download, lines };
}

function expectBackupFile(lines: string[], codes: string[], locale: Locale) {
  const title = locale === 'zh-CN' ? '备用验证码' : 'backup codes';
  const reminder =
    locale === 'zh-CN'
      ? '请将这些备用验证码保存在安全的地方。每个验证码只能使用一次。'
      : 'Store these backup codes in a safe place. Each code can be used only once.';
  expect(lines).toEqual([title, '', ...codes, '', reminder, '']);
}

async function codesIn(scope: Locator): Promise<string[]> {
  return scope.getByTestId('two-factor-backup-code').allInnerTexts();
}

test('the admin sets up two-factor, signs in with a code and a backup code, regenerates and disables it', async ({
  page,
  context,
  noise,
}) => {
  test.setTimeout(480_000);
  noise.allow(refused(401, '/adminapi/login/verify2FA'), 'the wrong code this test types at sign-in');
  noise.allow(refused(401, '/adminapi/google-auth/disable2FA'), 'the void backup code this test tries');
  await useLocale(page, 'zh-CN');
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);

  // Loading: hold the status answer until the spinner has been photographed.
  let releaseStatus = () => {};
  const statusHeld = new Promise<void>((resolve) => (releaseStatus = resolve));
  await page.route('**/adminapi/google-auth/get2FAStatus', async (route) => {
    await statusHeld;
    await route.continue();
  });
  await loginAs(page, 'admin');
  await page.goto('#/user/google-auth');
  await expect(page.getByTestId('two-factor-loading')).toContainText('正在加载双因素认证状态...');
  await shootBoth(page, 'loading', async (locale) => {
    if (locale === 'en-US') {
      await expect(page.getByTestId('two-factor-loading')).toContainText('Loading two-factor authentication status...');
    }
  });
  // From here on the route lets every status answer through at once.
  releaseStatus();

  // Not enabled.
  await expect(page.getByTestId('two-factor-not-enabled')).toContainText('双因素认证未启用');
  await shootBoth(page, 'not-enabled');

  // Step 1: QR code, secret, backup codes.
  await page.getByTestId('two-factor-begin-setup').click();
  const step1 = page.getByTestId('two-factor-step-1');
  await expect(step1).toBeVisible();
  await expect(page.getByTestId('two-factor-qr')).toBeVisible();
  await expect(page.getByTestId('two-factor-qr-loading')).toHaveCount(0);
  const secret = await page.getByTestId('two-factor-secret').inputValue();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expect(page.getByTestId('two-factor-secret')).toHaveAttribute('readonly');
  const setupCodes = await codesIn(step1);
  expect(setupCodes).toHaveLength(10);
  for (const code of setupCodes) expect(code).toMatch(/^\d{8}$/);
  await page.getByTestId('two-factor-copy-secret').click();
  await toast(page, '密钥已复制到剪贴板');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  const step1File = await downloadOf(page, () => page.getByTestId('two-factor-download-codes').click());
  expect(step1File.download.suggestedFilename()).toBe('backup-codes.txt');
  expectBackupFile(step1File.lines, setupCodes, 'zh-CN');
  await toast(page, '备用验证码已下载');
  await shootBoth(page, 'step-1');

  // Step 2: the code rules, then a real code, submitted with Enter.
  const totp = new TotpCodes(secret);
  await page.getByTestId('two-factor-next').click();
  await expect(page.getByTestId('two-factor-step-2')).toBeVisible();
  await page.getByTestId('two-factor-code').fill('12a3');
  await expect(page.getByTestId('two-factor-code')).toHaveValue('123');
  await page.getByTestId('two-factor-enable').click();
  await expect(page.getByTestId('two-factor-code-error')).toHaveText('请输入6位验证码');
  await page.getByTestId('two-factor-code').fill('');
  await shootBoth(page, 'step-2', async (locale) => {
    await expect(page.getByTestId('two-factor-code-error')).toHaveText(
      locale === 'zh-CN' ? '请输入验证码' : 'Please enter the verification code',
    );
  });
  // The current password is asked for too: a session alone cannot turn two-factor on.
  await page.getByTestId('two-factor-code').fill(await totp.next());
  await page.getByTestId('two-factor-code').press('Enter');
  await expect(page.getByTestId('two-factor-password-error')).toHaveText('请输入当前密码');
  await page.getByTestId('two-factor-password').fill(USERS.admin.password);
  await page.getByTestId('two-factor-code').press('Enter');

  // Step 3: success and the codes in force (the ones step 1 showed).
  const step3 = page.getByTestId('two-factor-step-3');
  await expect(step3).toContainText('双因素认证启用成功！');
  expect(await codesIn(step3)).toEqual(setupCodes);
  await shootBoth(page, 'step-3');
  await switchLocale(page, 'en-US');
  const step3File = await downloadOf(page, () => step3.getByTestId('two-factor-download-codes').click());
  expectBackupFile(step3File.lines, setupCodes, 'en-US');
  await toast(page, 'Backup codes downloaded');
  await switchLocale(page, 'zh-CN');

  // Enabled.
  await page.getByTestId('two-factor-complete').click();
  const enabled = page.getByTestId('two-factor-enabled');
  await expect(enabled).toContainText('双因素认证已启用');
  await expect(enabled).toContainText('现在登录时需要输入身份验证器中的验证码。');
  await expect(page.getByTestId('two-factor-enabled-at')).toContainText(
    /启用时间：\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/,
  );
  await expect(page.getByTestId('two-factor-remaining')).toHaveText('10');
  // This session still holds the codes it was just given.
  const enabledFile = await downloadOf(page, () => page.getByTestId('two-factor-download-codes').click());
  expectBackupFile(enabledFile.lines, setupCodes, 'zh-CN');
  await shootBoth(page, 'enabled');

  // The two dialogs, each opened with an empty code field.
  await shootDialog(
    page,
    'disable-dialog',
    async () => {
      await page.getByTestId('two-factor-disable').click();
      await expect(page.getByTestId('two-factor-disable-code-input')).toHaveValue('');
      return page.getByTestId('two-factor-disable-dialog');
    },
    () => page.getByTestId('two-factor-disable-cancel').click(),
  );
  await shootDialog(
    page,
    'regenerate-dialog',
    async () => {
      await page.getByTestId('two-factor-regenerate').click();
      await expect(page.getByTestId('two-factor-regenerate-code-input')).toHaveValue('');
      return page.getByTestId('two-factor-regenerate-dialog');
    },
    () => page.getByTestId('two-factor-regenerate-cancel').click(),
  );

  // Sign in again: the password step now leads to the code step.
  await signOut(page);
  await submitLogin(page, USERS.admin);
  await expect(page.getByTestId('login-2fa-form')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  await shootBoth(page, 'login-code', async (locale) => {
    await expect(page.getByTestId('login-2fa-title')).toHaveText(
      locale === 'zh-CN' ? '双因素认证' : 'Two-factor authentication',
    );
  });
  await page.getByTestId('login-2fa-code-forgot').click();
  await expect(page.getByTestId('login-2fa-code')).toHaveAttribute('data-mode', 'backup');
  await page.getByTestId('login-2fa-submit').click();
  await shootBoth(page, 'login-backup', async (locale) => {
    await expect(page.getByTestId('login-2fa-code-error')).toHaveText(
      locale === 'zh-CN' ? '备用验证码必须是8位数字' : 'The backup code must be 8 digits',
    );
  });
  await page.getByTestId('login-2fa-code-use-code').click();
  // A wrong code: the message, and the step stays.
  await page.getByTestId('login-2fa-code-input').fill(totp.wrong());
  await page.getByTestId('login-2fa-submit').click();
  await expect(page.getByTestId('login-2fa-error')).toHaveText('验证码错误，请重试');
  await expect(page.getByTestId('login-2fa-code-input')).toHaveValue('');
  await page.getByTestId('login-2fa-code-input').fill(await totp.next());
  await page.getByTestId('login-2fa-submit').click();
  await expect(page).toHaveURL(/#\/dashboard\/workplace$/);
  await expect(page.getByTestId('workplace-page')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();

  // Sign in with a backup code (the phone is lost), straight to a deep link.
  await signOut(page);
  await page.goto('#/user/google-auth');
  await expect(page).toHaveURL(/#\/login\?/);
  await submitLogin(page, USERS.admin);
  await page.getByTestId('login-2fa-code-forgot').click();
  await page.getByTestId('login-2fa-code-input').fill(setupCodes[0]);
  await page.getByTestId('login-2fa-submit').click();
  await expect(page).toHaveURL(/#\/user\/google-auth$/);
  await expect(page.getByTestId('two-factor-remaining')).toHaveText('9');

  // This new session holds no codes: view explains, download warns.
  await page.getByTestId('two-factor-download-codes').click();
  await toast(page, '没有可下载的备用验证码');
  await openOverlay(page, page.getByTestId('two-factor-view-codes'), page.getByTestId('two-factor-codes-dialog'));
  await expect(page.getByTestId('two-factor-codes-dialog')).toContainText('未使用的备用验证码：9 个');
  await openOverlay(
    page,
    page.getByTestId('two-factor-codes-regenerate'),
    page.getByTestId('two-factor-regenerate-dialog'),
  );

  // Regenerate with an authenticator code: the new set is shown once and downloadable.
  await expect(page.getByTestId('two-factor-regenerate-dialog')).toBeVisible();
  await page.getByTestId('two-factor-regenerate-code-input').fill(await totp.next());
  await page.getByTestId('two-factor-regenerate-confirm').click();
  await toast(page, '备用验证码已重新生成');
  const dialogCodes = page.getByTestId('two-factor-dialog-codes');
  await expect(dialogCodes).toBeVisible();
  const newCodes = await codesIn(dialogCodes);
  expect(newCodes).toHaveLength(10);
  expect(newCodes.filter((code) => setupCodes.includes(code))).toEqual([]);
  const newFile = await downloadOf(page, () => page.getByTestId('two-factor-dialog-download').click());
  expectBackupFile(newFile.lines, newCodes, 'zh-CN');
  await page.getByTestId('two-factor-codes-close').click();
  await expect(page.getByTestId('two-factor-remaining')).toHaveText('10');

  // The old set is void: disabling with one of its codes is refused.
  await openOverlay(page, page.getByTestId('two-factor-disable'), page.getByTestId('two-factor-disable-dialog'));
  await page.getByTestId('two-factor-disable-code-forgot').click();
  await page.getByTestId('two-factor-disable-code-input').fill(setupCodes[1]);
  await page.getByTestId('two-factor-disable-confirm').click();
  await toast(page, '验证码错误，请重试');
  await expect(page.getByTestId('two-factor-disable-code-input')).toHaveValue('');
  await expect(page.getByTestId('two-factor-disable-confirm')).not.toHaveClass(/ant-btn-loading/);

  // Disable with a backup code of the new set: back to not enabled.
  await page.getByTestId('two-factor-disable-code-input').fill(newCodes[0]);
  await page.getByTestId('two-factor-disable-confirm').click();
  await toast(page, '双因素认证已禁用');
  await expect(page.getByTestId('two-factor-not-enabled')).toBeVisible();
  await expect(page.getByTestId('two-factor-disable-dialog')).toBeHidden();

  // And the password alone signs in again.
  await signOut(page);
  await submitLogin(page, USERS.admin);
  await expect(page).toHaveURL(/#\/dashboard\/workplace$/);
});
