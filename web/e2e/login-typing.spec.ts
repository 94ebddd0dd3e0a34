/**
 * Whatever is typed into the login page is kept, however it falls around React's takeover
 * of the HTML form (src/app/login-shell): keys typed as a person types them, from the moment
 * the form shows; a password manager's instant fill before, at and after the takeover; keys
 * typed while the console's script is held and then released mid-word; a submit before
 * React; and a deep link. The moment of the takeover is a race, so each case runs a few
 * times; the tests wait for states and requests, never for a fixed time.
 */
import type { Page } from '@playwright/test';
import { expect, setShellCookie, test, USERS } from './support/console';
import { holdConsoleScript, reactForm, shellForm } from './support/login-shell';

/** How often each timing is tried. */
const TRIES = 3;
/** A person's pace: a key every 60 ms. */
const KEY_DELAY = 60;
const TITLES = { 'zh-CN': '登录话费充值后台', 'en-US': 'Sign in to Top-up Backoffice' } as const;
const LOGIN_CALL = '/adminapi/login/login';

type Locale = keyof typeof TITLES;
type User = { username: string; password: string };

/** Counts the sign-in calls the page makes from now on. */
function countLoginCalls(page: Page): () => number {
  let calls = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.endsWith(LOGIN_CALL)) calls += 1;
  });
  return () => calls;
}

/**
 * Leave the console signed out, with a first page that is the HTML login form again: the
 * stored session (the origin's local storage, from a blank page, where no console runs to
 * notice) and its hint cookie go; the language comes back with `useLocale`'s init script.
 */
async function signedOut(page: Page, locale: Locale) {
  const origin = new URL(page.url()).origin;
  await page.goto('about:blank');
  const browser = await page.context().newCDPSession(page);
  await browser.send('Storage.clearDataForOrigin', { origin, storageTypes: 'local_storage' });
  await browser.detach();
  await page.context().clearCookies({ name: 'bo_signed_in' });
  await setShellCookie(page, 'bo_locale', locale);
}

/**
 * The console's language, stored and as hint cookie, before any page script runs. As
 * `useLocale`, but leaving pages of other origins alone: the blank page between rounds has
 * no local storage to read.
 */
async function pickLocale(page: Page, locale: Locale) {
  await page.addInitScript((value) => {
    if (window.location.protocol.startsWith('http') && !localStorage.getItem('locale')) {
      localStorage.setItem('locale', value);
    }
  }, locale);
  await setShellCookie(page, 'bo_locale', locale);
}

/** Open `address` and wait for the HTML form (not for 'load', which waits for a held script). */
async function openShell(page: Page, address: string, locale: Locale) {
  await page.goto(address, { waitUntil: 'commit' });
  await expect(page.getByTestId('login-username')).toBeVisible();
  await expect(page.getByTestId('login-title')).toHaveText(TITLES[locale]);
}

/** Type both fields key by key, as a person does, and press Enter. */
async function typeAndEnter(page: Page, user: User) {
  await page.getByTestId('login-username').click();
  await page.keyboard.type(user.username, { delay: KEY_DELAY });
  await page.keyboard.press('Tab');
  await page.keyboard.type(user.password, { delay: KEY_DELAY });
  await page.keyboard.press('Enter');
}

/**
 * Fill both fields at once, as a password manager does: Playwright's fill (the browser's
 * own editing), or the input's `value` set and input and change events sent (as some
 * extensions do). The password field has the focus afterwards.
 */
async function fillAtOnce(page: Page, user: User, how: 'fill' | 'value') {
  if (how === 'fill') {
    await page.getByTestId('login-username').fill(user.username);
    await page.getByTestId('login-password').fill(user.password);
    return;
  }
  await page.evaluate((values) => {
    for (const [name, value] of Object.entries(values)) {
      const input = document.querySelector<HTMLInputElement>(`input[name=${name}]`)!;
      input.focus();
      input.value = value;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      input.dispatchEvent(new Event('change', { bubbles: true }));
    }
  }, user);
}

async function landsOnWorkplace(page: Page) {
  await expect(page.getByTestId('workplace-page')).toBeVisible();
  await expect(page).toHaveURL(/#\/dashboard\/workplace$/);
}

for (const locale of ['zh-CN', 'en-US'] as const) {
  test.describe(`the login form in ${locale}`, () => {
    test.beforeEach(async ({ page }) => {
      await pickLocale(page, locale);
    });

    // `#/user/login` is no page of the console (its login page is `#/login`), but the HTML
    // login form comes for it as for every address without a session.
    for (const address of ['#/login', '#/user/login']) {
      test(`typed key by key from the moment it shows at ${address}, then Enter, signs in`, async ({ page }) => {
        const loginCalls = countLoginCalls(page);
        for (let round = 1; round <= TRIES; round++) {
          await openShell(page, address, locale);
          await typeAndEnter(page, USERS.merchant);
          await landsOnWorkplace(page);
          expect(loginCalls()).toBe(round);
          await signedOut(page, locale);
        }
      });

      test(`filled at once as it shows at ${address}, then Enter, signs in`, async ({ page }) => {
        const loginCalls = countLoginCalls(page);
        for (let round = 1; round <= TRIES; round++) {
          await openShell(page, address, locale);
          await fillAtOnce(page, USERS.merchant, round % 2 === 1 ? 'fill' : 'value');
          await page.keyboard.press('Enter');
          await landsOnWorkplace(page);
          expect(loginCalls()).toBe(round);
          await signedOut(page, locale);
        }
      });
    }

    for (const moment of ['before', 'at', 'after'] as const) {
      test(`filled at once ${moment} the takeover, then Enter, signs in`, async ({ page }) => {
        const loginCalls = countLoginCalls(page);
        for (let round = 1; round <= TRIES; round++) {
          const release = await holdConsoleScript(page);
          await openShell(page, '#/login', locale);
          await expect(shellForm(page, 'ready')).toBeVisible();
          const how = round % 2 === 1 ? 'value' : 'fill';
          if (moment === 'before') {
            await fillAtOnce(page, USERS.merchant, how);
            await release();
          } else if (moment === 'at') {
            // The script goes on and the fill follows at once, while it loads and runs.
            await release();
            await fillAtOnce(page, USERS.merchant, how);
          } else {
            await release();
            await expect(reactForm(page)).toBeVisible();
            await fillAtOnce(page, USERS.merchant, how);
          }
          await page.keyboard.press('Enter');
          await landsOnWorkplace(page);
          expect(loginCalls()).toBe(round);
          await signedOut(page, locale);
        }
      });
    }

    test('keys typed while the script is held and released mid-word are all kept, caret and focus too', async ({
      page,
    }) => {
      const loginCalls = countLoginCalls(page);
      const { username, password } = USERS.merchant;
      for (let round = 1; round <= TRIES; round++) {
        const release = await holdConsoleScript(page);
        await openShell(page, '#/login', locale);
        await page.getByTestId('login-username').click();
        await page.keyboard.type(username.slice(0, 4), { delay: KEY_DELAY });
        await release();
        await page.keyboard.type(username.slice(4), { delay: KEY_DELAY });
        await expect(reactForm(page)).toBeVisible();
        const field = page.getByTestId('login-username');
        await expect(field).toHaveValue(username);
        await expect(field).toBeFocused();
        const caret = await field.evaluate((input: HTMLInputElement) => [input.selectionStart, input.selectionEnd]);
        expect(caret).toEqual([username.length, username.length]);
        await page.keyboard.press('Tab');
        await page.keyboard.type(password, { delay: KEY_DELAY });
        await page.keyboard.press('Enter');
        await landsOnWorkplace(page);
        expect(loginCalls()).toBe(round);
        await signedOut(page, locale);
      }
    });

    test('Enter before the takeover signs in once React is there, with one login call', async ({ page }) => {
      const loginCalls = countLoginCalls(page);
      for (let round = 1; round <= TRIES; round++) {
        const release = await holdConsoleScript(page);
        await openShell(page, '#/login', locale);
        await expect(shellForm(page, 'ready')).toBeVisible();
        await page.getByTestId('login-username').click();
        await page.keyboard.type(USERS.merchant.username, { delay: KEY_DELAY });
        await page.keyboard.press('Tab');
        await page.keyboard.type(USERS.merchant.password, { delay: KEY_DELAY });
        await page.keyboard.press('Enter');
        await expect(shellForm(page, 'submitted')).toBeVisible();
        expect(loginCalls()).toBe(round - 1);
        await release();
        await landsOnWorkplace(page);
        expect(loginCalls()).toBe(round);
        await signedOut(page, locale);
      }
    });

    test('a deep link to the monitor: the administrator signs in there', async ({ page }) => {
      const loginCalls = countLoginCalls(page);
      for (let round = 1; round <= TRIES; round++) {
        // The last round submits before React, the others type along as it takes over.
        const held = round === TRIES ? await holdConsoleScript(page) : null;
        await openShell(page, '#/dashboard/monitor', locale);
        await typeAndEnter(page, USERS.admin);
        if (held) {
          await expect(shellForm(page, 'submitted')).toBeVisible();
          await held();
        }
        await expect(page.getByTestId('monitor-page')).toBeVisible();
        await expect(page).toHaveURL(/#\/dashboard\/monitor$/);
        expect(loginCalls()).toBe(round);
        await signedOut(page, locale);
      }
    });
  });
}
