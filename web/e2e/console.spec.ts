import {
  chooseFromMenu,
  expect,
  loginAs,
  openOverlay,
  overlaysSettled,
  refused,
  signOut,
  submitLogin,
  test,
  useLocale,
  USERS,
} from './support/console';

test.describe('signing in', () => {
  test('a merchant logs in and lands on the workplace', async ({ page }) => {
    await loginAs(page, 'merchant');
    await expect(page.getByTestId('workplace-greeting')).toContainText('欢迎回来');
    await expect(page.getByTestId('workplace-money-panel')).toContainText('余额');
    await expect(page.getByTestId('workplace-money-panel')).toContainText('今日成功订单');
    await expect(page.getByTestId('menu-item-Workplace')).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
    // The route-change progress bar finishes and goes away.
    await expect(page.locator('#nprogress')).toHaveCount(0);
  });

  test('an empty form shows both required messages', async ({ page }) => {
    await page.goto('#/login');
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('login-username-error')).toHaveText('用户名不能为空');
    await expect(page.getByTestId('login-password-error')).toHaveText('密码不能为空');
  });

  test('a wrong password shows the server message and stores nothing', async ({ page, noise }) => {
    noise.allow(refused(401, '/adminapi/login/login'), 'the wrong password is the point of this test');
    await useLocale(page, 'en-US');
    await page.goto('#/login');
    await submitLogin(page, { username: 'merchant', password: 'not-the-password' });
    await expect(page.getByTestId('login-error')).toContainText('account or password wrong');
    await expect(page).toHaveURL(/#\/login/);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });

  test('a deep link survives the login redirect', async ({ page }) => {
    await page.goto('#/order/list?x=1');
    await expect(page).toHaveURL(/#\/login\?/);
    const query = new URLSearchParams(page.url().split('?')[1]);
    expect(query.get('redirect')).toBe('OrderList');
    expect(query.get('x')).toBe('1');
    await submitLogin(page, USERS.merchant);
    await expect(page).toHaveURL(/#\/order\/list\?x=1$/);
    await expect(page.getByTestId('order-list-page')).toBeVisible();
  });

  test('the root path leads to the login page', async ({ page }) => {
    await page.goto('');
    await expect(page).toHaveURL(/#\/login$/);
    await expect(page.getByTestId('login-form')).toBeVisible();
  });
});

test.describe('roles', () => {
  test('the monitor is absent from the merchant menu and its URL leads away', async ({ page }) => {
    await loginAs(page, 'merchant');
    await expect(page.getByTestId('menu-item-Workplace')).toBeVisible();
    await expect(page.getByTestId('menu-item-Monitor')).toHaveCount(0);
    await page.goto('#/dashboard/monitor');
    await expect(page).toHaveURL(/#\/dashboard\/workplace$/);
    await expect(page.getByTestId('monitor-page')).toHaveCount(0);
  });

  test('an admin opens the monitor and sees real, refreshing figures', async ({ page }) => {
    await useLocale(page, 'en-US');
    await loginAs(page, 'admin');
    await page.getByTestId('menu-item-Monitor').click();
    await expect(page).toHaveURL(/#\/dashboard\/monitor$/);
    await expect(page.getByTestId('monitor-database')).toContainText(/SQLite/);
    await expect(page.getByTestId('monitor-version')).toContainText(/\d+\.\d+/);
    await expect(page.getByTestId('monitor-uptime')).toContainText(/\d+d \d+h \d+m \d+s/);
    await expect(page.getByTestId('monitor-active-sessions')).toContainText(/[1-9]/);
    const total = page.getByTestId('monitor-total-requests');
    const first = Number((await total.innerText()).replace(/\D/g, ''));
    expect(first).toBeGreaterThan(0);
    // The server panel polls every 5 s; each poll is itself a request, so the total grows.
    await expect
      .poll(async () => Number((await total.innerText()).replace(/\D/g, '')), { timeout: 30_000 })
      .toBeGreaterThan(first);
  });

  test('the local role switcher changes only what the console shows', async ({ page }) => {
    await loginAs(page, 'admin');
    await page.goto('#/dashboard/monitor');
    await expect(page.getByTestId('monitor-page')).toBeVisible();
    await chooseFromMenu(
      () => page.getByTestId('user-dropdown').click({ timeout: 3_000 }),
      page.getByTestId('role-switch'),
      async () => /#\/dashboard\/workplace$/.test(page.url()),
    );
    await expect(page.getByTestId('menu-item-Monitor')).toHaveCount(0);
  });
});

test.describe('layout and settings', () => {
  test('the locale switch persists after a reload', async ({ page }) => {
    await page.goto('#/login');
    await expect(page.getByTestId('login-title')).toHaveText('登录话费充值后台');
    await page.getByTestId('locale-option-en-US').click();
    await expect(page.getByTestId('login-title')).toHaveText('Sign in to Top-up Backoffice');
    await page.reload();
    await expect(page.getByTestId('login-title')).toHaveText('Sign in to Top-up Backoffice');
    expect(await page.evaluate(() => localStorage.getItem('locale'))).toBe('en-US');
    await submitLogin(page, USERS.merchant);
    await expect(page.getByTestId('workplace-greeting')).toContainText('Welcome back');
  });

  test('the theme colour and dark mode restyle the console at once', async ({ page }) => {
    await loginAs(page, 'merchant');
    await openOverlay(page, page.getByTestId('navbar-settings'), page.getByTestId('settings-close'));
    const primaryButton = page.getByTestId('settings-copy');
    await expect(primaryButton).toHaveCSS('background-color', 'rgb(22, 93, 255)'); // #165DFF
    await page.getByTestId('setting-theme-color-722ED1').click();
    await expect(primaryButton).toHaveCSS('background-color', 'rgb(114, 46, 209)');

    const content = page.locator('.ant-drawer-section', { has: page.getByTestId('settings-drawer-body') });
    await expect(content).toHaveCSS('background-color', 'rgb(255, 255, 255)');
    await page.getByTestId('setting-switch-dark').click();
    await expect(content).not.toHaveCSS('background-color', 'rgb(255, 255, 255)');
    await expect(primaryButton).toHaveCSS('background-color', /rgb\(\d+, \d+, \d+\)/);
    // Both survive a reload (settings persist).
    await page.reload();
    await openOverlay(page, page.getByTestId('navbar-settings'), page.getByTestId('settings-close'));
    await expect(content).not.toHaveCSS('background-color', 'rgb(255, 255, 255)');
  });

  test('the navbar locale menu switches the signed-in console', async ({ page }) => {
    await loginAs(page, 'merchant');
    await chooseFromMenu(
      () => page.getByTestId('locale-switch').click({ timeout: 3_000 }),
      page.getByTestId('locale-option-en-US'),
      async () => (await page.locator('html').getAttribute('lang')) === 'en-US',
    );
    await expect(page.getByTestId('menu-item-Workplace')).toHaveText('Workplace');
    await page.reload();
    await expect(page.getByTestId('menu-item-Workplace')).toHaveText('Workplace');
  });

  test('hiding the navbar shows the floating settings button', async ({ page }) => {
    await loginAs(page, 'merchant');
    await expect(page.getByTestId('floating-settings-button')).toHaveCount(0);
    await openOverlay(page, page.getByTestId('navbar-settings'), page.getByTestId('settings-close'));
    await page.getByTestId('setting-switch-navbar').click();
    await expect(page.getByTestId('navbar')).toHaveCount(0);
    await page.getByTestId('settings-close').click();
    await expect(page.getByTestId('floating-settings-button')).toBeVisible();
    await page.reload();
    await expect(page.getByTestId('navbar')).toHaveCount(0);
    await openOverlay(page, page.getByTestId('floating-settings-button'), page.getByTestId('settings-close'));
    await expect(page.getByTestId('setting-switch-navbar')).toBeVisible();
    await page.getByTestId('setting-switch-navbar').click();
    await expect(page.getByTestId('navbar')).toBeVisible();
  });

  test('the tab bar keeps the workplace first and reloads a tab through /redirect', async ({ page }) => {
    await loginAs(page, 'merchant');
    await openOverlay(page, page.getByTestId('navbar-settings'), page.getByTestId('settings-close'));
    await page.getByTestId('setting-switch-tabBar').click();
    await page.getByTestId('settings-close').click();
    await page.getByTestId('shortcut-quotes').click();
    await expect(page.getByTestId('tab-QouteList')).toBeVisible();
    const tabs = page.getByTestId('tab-bar').locator('.ant-tabs-tab');
    await expect(tabs.first()).toContainText('工作台');
    await expect(tabs.first().locator('.ant-tabs-tab-remove')).toHaveCount(0);
    await expect(page.getByTestId('quote-table').locator('tbody tr.ant-table-row').first()).toBeVisible();
    // Reloading remounts the page through /redirect: its list is fetched again.
    let reloaded = false;
    page.on('request', (request) => {
      if (request.url().includes('/adminapi/quote/list')) reloaded = true;
    });
    await chooseFromMenu(
      () => page.getByTestId('tab-QouteList').click({ button: 'right', timeout: 3_000 }),
      page.getByText('重新加载'),
      async () => reloaded,
    );
    await expect(page).toHaveURL(/#\/qoute\/list$/);
    await expect(page.getByTestId('tab-Redirect')).toHaveCount(0);
    await tabs.nth(1).locator('.ant-tabs-tab-remove').click();
    await expect(page).toHaveURL(/#\/dashboard\/workplace$/);
  });

  test('menu from server loads the menu of the role with notifications', async ({ page }) => {
    await useLocale(page, 'en-US');
    await loginAs(page, 'merchant');
    await openOverlay(page, page.getByTestId('navbar-settings'), page.getByTestId('settings-close'));
    await page.getByTestId('setting-switch-menuFromServer').click();
    await expect(page.locator('.ant-notification')).toContainText('Menu loaded');
    await page.getByTestId('settings-close').click();
    await expect(page.getByTestId('menu-item-Workplace')).toBeVisible();
    await expect(page.getByTestId('menu-item-Monitor')).toHaveCount(0);
    // A page in the server menu opens; after a reload the menu is fetched again by the guard.
    await page.goto('#/qoute/list');
    await expect(page.getByTestId('quote-list-page')).toBeVisible();
    await page.reload();
    await expect(page.getByTestId('quote-list-page')).toBeVisible();
    await expect(page.getByTestId('menu-item-QouteList')).toBeAttached();
  });

  test('top-menu mode moves the menu into the navbar', async ({ page }) => {
    await loginAs(page, 'merchant');
    await expect(page.getByTestId('side-menu')).toBeVisible();
    await openOverlay(page, page.getByTestId('navbar-settings'), page.getByTestId('settings-close'));
    await page.getByTestId('setting-switch-topMenu').click();
    await page.getByTestId('settings-close').click();
    await expect(page.getByTestId('top-menu')).toBeVisible();
    await expect(page.getByTestId('side-menu')).toHaveCount(0);
  });

  test('colour-weak mode inverts the page', async ({ page }) => {
    await loginAs(page, 'merchant');
    await openOverlay(page, page.getByTestId('navbar-settings'), page.getByTestId('settings-close'));
    await page.getByTestId('setting-switch-colorWeak').click();
    expect(await page.evaluate(() => document.body.style.filter)).toBe('invert(80%)');
  });
});

test.describe('sessions', () => {
  test('an unknown token shows Confirm logout, and Re-Login returns to the login page', async ({ page, noise }) => {
    noise.allow(refused(401), 'the calls of the unknown token are refused: the point of this test');
    await useLocale(page, 'en-US');
    await loginAs(page, 'admin');
    await page.goto('#/dashboard/monitor');
    await expect(page.getByTestId('monitor-version')).toBeVisible();
    await page.evaluate(() => localStorage.setItem('token', 'not-a-real-token'));
    // The next 5-second refresh is answered with 50008.
    const dialog = page.locator('.ant-modal-confirm');
    await expect(dialog).toContainText('Confirm logout', { timeout: 30_000 });
    await expect(dialog).toContainText(
      'You have been logged out, you can cancel to stay on this page, or log in again',
    );
    await expect(page.locator('.ant-modal-confirm')).toHaveCount(1);
    await overlaysSettled(page);
    await page.getByTestId('session-ended-relogin').click();
    await expect(page).toHaveURL(/#\/login/);
    await expect(page.getByTestId('login-form')).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });

  test('logout returns to the login page and ends the session', async ({ page }) => {
    await loginAs(page, 'merchant');
    await signOut(page);
    await expect(page).toHaveURL(/#\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await page.goto('#/dashboard/workplace');
    await expect(page).toHaveURL(/#\/login\?redirect=Workplace$/);
  });
});
