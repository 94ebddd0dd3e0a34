/**
 * The login page comes as HTML and React takes it over once the console's entry script has
 * run (src/app/login-shell): helpers to act on either side of that moment.
 */
import type { Page, Route } from '@playwright/test';

/**
 * Hold the console's entry script until the returned function is called. That function
 * resolves once the script's request goes on (the script then loads and takes over).
 */
export async function holdConsoleScript(page: Page): Promise<() => Promise<void>> {
  let held: Route | null = null;
  let release: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (release = resolve));
  const entry = /\/web\/assets\/index-[^/]+\.js$/;
  await page.route(
    entry,
    (route) => {
      held = route;
      release();
    },
    { times: 1 },
  );
  return async () => {
    await arrived;
    await held!.continue();
  };
}

/** The HTML form in the given state of the early script ('ready', 'submitted'). */
export const shellForm = (page: Page, state: string) => page.locator(`form[data-login-shell="${state}"]`);

/** React's login form (the HTML one has been taken over). */
export const reactForm = (page: Page) => page.locator('form[data-testid=login-form]:not([data-login-shell])');
