/**
 * The login page as HTML in the first page (src/app/login-shell): shown and usable before
 * any script runs, in the language of the hint cookie, then taken over by React with what
 * was typed. The console's entry script is held back by the test (a routed request that is
 * released on a condition) to act in the time before React.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, setShellCookie, test, useLocale, USERS } from './support/console';
import { holdConsoleScript, reactForm, shellForm } from './support/login-shell';

const directory = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(directory, { recursive: true });

test('typing and submitting before the script runs signs in once React takes over', async ({ page }) => {
  const release = await holdConsoleScript(page);
  // Not waiting for 'load': that comes only after the held script.
  await page.goto('#/login', { waitUntil: 'commit' });
  // The HTML form with the early script listening; React has not run (its script is held).
  await expect(shellForm(page, 'ready')).toBeVisible();
  await page.getByTestId('login-username').fill(USERS.merchant.username);
  await page.getByTestId('login-password').fill(USERS.merchant.password);
  await page.getByTestId('login-submit').click();
  await expect(shellForm(page, 'submitted')).toBeVisible();
  await expect(page).toHaveURL(/#\/login$/);
  await release();
  await expect(page.getByTestId('workplace-page')).toBeVisible();
  await expect(page).toHaveURL(/#\/dashboard\/workplace$/);
});

test('what was typed before React stays, with the focus', async ({ page }) => {
  const release = await holdConsoleScript(page);
  // Not waiting for 'load': that comes only after the held script.
  await page.goto('#/login', { waitUntil: 'commit' });
  await expect(shellForm(page, 'ready')).toBeVisible();
  await page.getByTestId('login-password').fill('half-typed');
  await page.getByTestId('login-username').fill('merchant');
  await release();
  await expect(reactForm(page)).toBeVisible();
  await expect(page.getByTestId('login-username')).toHaveValue('merchant');
  await expect(page.getByTestId('login-password')).toHaveValue('half-typed');
  await expect(page.getByTestId('login-username')).toBeFocused();
  // React's form now: an empty password is refused with its message.
  await page.getByTestId('login-password').fill('');
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('login-password-error')).not.toBeEmpty();
});

test('React takes over only once the HTML form is on screen, whose paint stays measurable', async ({ page }) => {
  // Notes, when React's form appears, whether the first contentful paint was reported yet.
  await page.addInitScript(() => {
    const observer = new MutationObserver(() => {
      if (!document.querySelector('form[data-testid=login-form]:not([data-login-shell])')) return;
      observer.disconnect();
      const takenOver = performance.now();
      const painted = performance.getEntriesByName('first-contentful-paint').length > 0;
      Object.assign(window, { takeover: { takenOver, painted } });
    });
    observer.observe(document, { childList: true, subtree: true });
  });
  await page.goto('#/login');
  await expect(reactForm(page)).toBeVisible();
  const takeover = await page.evaluate(
    () => (window as unknown as { takeover: { takenOver: number; painted: boolean } }).takeover,
  );
  expect(takeover.painted).toBe(true);
  // The sign-in button's Element Timing (bench/console.sh): the HTML one's paint, before the
  // takeover, is reported (a button replaced before its paint is reported loses its entry).
  const paintTimes = () =>
    page.evaluate(
      () =>
        new Promise<number[]>((resolve) =>
          new PerformanceObserver((list, observer) => {
            observer.disconnect();
            resolve(
              list
                .getEntries()
                .filter((entry) => (entry as PerformanceEntry & { identifier: string }).identifier === 'login-form')
                .map((entry) => (entry as PerformanceEntry & { renderTime: number }).renderTime),
            );
          }).observe({ type: 'element', buffered: true }),
        ),
    );
  await expect.poll(async () => (await paintTimes()).length).toBe(2);
  expect(Math.min(...(await paintTimes()))).toBeLessThan(takeover.takenOver);
});

for (const locale of ['zh-CN', 'en-US'] as const) {
  test(`the login page in ${locale} before any script and after React`, async ({ browser, baseURL }) => {
    const title = locale === 'zh-CN' ? '登录话费充值后台' : 'Sign in to Top-up Backoffice';
    const withoutScripts = await browser.newContext({ javaScriptEnabled: false, baseURL });
    const bare = await withoutScripts.newPage();
    if (locale === 'en-US') await setShellCookie(bare, 'bo_locale', 'en-US');
    await bare.goto('#/login');
    await expect(bare.getByTestId('login-title')).toHaveText(title);
    await expect(bare.locator('html')).toHaveAttribute('lang', locale);
    await expect(bare.getByTestId('login-submit')).toBeVisible();
    await bare.screenshot({ path: `${directory}${locale}-login-before-react.png`, fullPage: true });
    const before = await bare.getByTestId('login-form').boundingBox();
    await withoutScripts.close();

    const withScripts = await browser.newContext({ baseURL });
    const page = await withScripts.newPage();
    // The stored choice and its hint cookie, as the console keeps them.
    await useLocale(page, locale);
    await page.goto('#/login');
    await expect(reactForm(page)).toBeVisible();
    await expect(page.getByTestId('login-title')).toHaveText(title);
    await expect(page).toHaveTitle(locale === 'zh-CN' ? '登录 - 话费充值后台' : 'Login - Top-up Backoffice');
    // React's page lies exactly where the HTML one did: nothing moves on takeover.
    expect(await page.getByTestId('login-form').boundingBox()).toEqual(before);
    await page.screenshot({ path: `${directory}${locale}-login-after-react.png`, fullPage: true });
    await withScripts.close();
  });
}

test('the language chosen on the login page is the one its HTML comes in next time', async ({ page }) => {
  await page.goto('#/login');
  await expect(reactForm(page)).toBeVisible();
  await page.getByTestId('locale-option-en-US').click();
  await expect(page.getByTestId('login-title')).toHaveText('Sign in to Top-up Backoffice');
  const reloaded = await page.reload();
  expect(await reloaded!.text()).toContain('<html lang="en-US">');
  await expect(page.getByTestId('login-title')).toHaveText('Sign in to Top-up Backoffice');
  await page.getByTestId('locale-option-zh-CN').click();
  await expect(page.getByTestId('login-title')).toHaveText('登录话费充值后台');
});

test('with a session the first page is the bare console, not the login form', async ({ page }) => {
  await page.goto('#/login');
  await page.getByTestId('login-username').fill(USERS.merchant.username);
  await page.getByTestId('login-password').fill(USERS.merchant.password);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('workplace-page')).toBeVisible();
  const reloaded = await page.reload();
  const html = await reloaded!.text();
  expect(html).toContain('<div id="root"><div class="app-boot"');
  expect(html).not.toContain('login-form');
  await expect(page.getByTestId('workplace-page')).toBeVisible();
});

test('with the dark theme chosen, the login page HTML is dark before any script', async ({
  page,
  browser,
  baseURL,
}) => {
  await page.goto('#/login');
  await expect(reactForm(page)).toBeVisible();
  await page.evaluate(() => {
    const stored = JSON.parse(localStorage.getItem('backoffice-settings') ?? '{"state":{},"version":1}');
    stored.state.theme = 'dark';
    localStorage.setItem('backoffice-settings', JSON.stringify(stored));
  });
  await page.reload();
  // The console sets its theme hint on start (its scripts load after the first paint); the
  // next first page comes dark.
  await expect(reactForm(page)).toBeVisible();
  const cookies = await page.context().cookies();
  expect(cookies.find((cookie) => cookie.name === 'bo_theme')?.value).toBe('dark');
  const withoutScripts = await browser.newContext({
    javaScriptEnabled: false,
    baseURL,
  });
  await withoutScripts.addCookies(cookies);
  const bare = await withoutScripts.newPage();
  await bare.goto('#/login');
  await expect(bare.locator('body')).toHaveAttribute('data-theme', 'dark');
  await expect(bare.locator('body')).toHaveCSS('background-color', 'rgb(20, 20, 20)');
  await withoutScripts.close();
});
