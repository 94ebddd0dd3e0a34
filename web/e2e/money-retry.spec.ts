/**
 * Money dialogs send one Idempotency-Key per opening: a top-up whose answer was lost
 * and is submitted again credits once.
 */
import type { Page } from '@playwright/test';
import { expect, loginAs, openOverlay, test, useLocale } from './support/console';

const TOPUP = '**/adminapi/admin/merchant/topup';

/** Next, then the second look that echoes the amount, then its confirm. */
async function confirmTwice(page: Page, amount: string) {
  await page.getByTestId('merchant-action-next').click();
  await expect(page.getByTestId('merchant-action-echo')).toContainText(`¥${amount}`);
  await page.getByTestId('merchant-action-confirm').click();
}

test('a top-up retried after a lost answer credits once', async ({ page, noise }) => {
  noise.allow(
    /^error: Failed to load resource: net::ERR_CONNECTION_RESET @ \S*\/adminapi\/admin\/merchant\/topup$/,
    'the answer this test loses on purpose',
  );
  await useLocale(page, 'en-US');
  await loginAs(page, 'admin');
  await page.goto('#/finance/merchants');
  const row = page.getByTestId('merchant-table').locator('tbody tr.ant-table-row').first();
  await expect(row).toBeVisible();
  const balanceCell = row.locator('td[data-column=balance_fen]');
  const fen = (text: string | null) => Number((text ?? '').replace(/[^0-9-]/g, ''));
  const before = fen(await balanceCell.textContent());

  const keys: string[] = [];
  let loseAnswer = true;
  await page.route(TOPUP, async (route) => {
    keys.push(route.request().headers()['idempotency-key'] ?? '');
    if (loseAnswer) {
      loseAnswer = false;
      // The server does the top-up; the browser never hears of it.
      await route.fetch();
      await route.abort('connectionreset');
      return;
    }
    await route.continue();
  });

  await openOverlay(page, row.getByTestId('merchant-topup'), page.getByTestId('merchant-action-amount'));
  await page.getByTestId('merchant-action-amount').fill('0.31');
  await confirmTwice(page, '0.31');
  await expect.poll(() => keys.length).toBe(1);
  // The dialog stays open after the failure, back at its form: submitting again is the retry.
  await expect(page.getByTestId('merchant-action-amount')).toBeVisible();
  await confirmTwice(page, '0.31');
  await expect(page.getByText('Done')).toBeVisible();
  expect(keys).toHaveLength(2);
  expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
  expect(keys[1]).toBe(keys[0]);
  await expect.poll(async () => fen(await balanceCell.textContent())).toBe(before + 31);

  // A new opening of the dialog is a new action with a new key.
  await openOverlay(page, row.getByTestId('merchant-topup'), page.getByTestId('merchant-action-amount'));
  await page.getByTestId('merchant-action-amount').fill('0.01');
  await confirmTwice(page, '0.01');
  await expect.poll(() => keys.length).toBe(3);
  expect(keys[2]).not.toBe(keys[0]);
  await expect.poll(async () => fen(await balanceCell.textContent())).toBe(before + 32);
});
