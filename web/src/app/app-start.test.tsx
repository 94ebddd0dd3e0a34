import type { Root } from 'react-dom/client';
import { describe, expect, it, vi } from 'vitest';
import { rehearseFirstScreen } from './layout/rehearsal';
import { mountConsole, showLoginAddress, warmSignedInConsole } from './app-start';

vi.mock('./layout/rehearsal', () => ({ rehearseFirstScreen: vi.fn() }));
vi.mock('./routes/preload-signed-in-shell', () => ({ preloadSignedInShell: vi.fn() }));

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('warming the signed-in console', () => {
  it('rehearses the first screen while the user is still on the login page', async () => {
    warmSignedInConsole();
    await vi.waitFor(() => expect(rehearseFirstScreen).toHaveBeenCalledTimes(1));
  });

  it('does not once the console is mounting (a sign-in right after the first click)', async () => {
    vi.mocked(rehearseFirstScreen).mockClear();
    const root = { render: vi.fn() } as unknown as Root;
    const mounted = mountConsole(root, false);
    warmSignedInConsole();
    await mounted;
    await settle();
    expect(root.render).toHaveBeenCalled();
    expect(rehearseFirstScreen).not.toHaveBeenCalled();
  });
});

describe('the login page at a deep link without a session', () => {
  it("names where the visitor was going, as the router's guard does", () => {
    const cases: [string, string][] = [
      ['#/dashboard/monitor', '#/login?redirect=Monitor'],
      ['#/order/list?x=1', '#/login?x=1&redirect=OrderList'],
      ['#/no/such/page', '#/login?redirect=not-found'],
      ['#/login?redirect=Monitor', '#/login?redirect=Monitor'],
      ['#/login', '#/login'],
    ];
    for (const [from, to] of cases) {
      window.history.replaceState(null, '', from);
      showLoginAddress();
      expect(window.location.hash).toBe(to);
    }
  });
});
