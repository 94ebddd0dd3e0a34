import { act, cleanup, screen } from '@testing-library/react';
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import zhPublic from '@/locales/zh-CN/public';
import { LoginApp } from '../login-app';
import { loginShellHtml } from './login-shell-html';
import { readLoginShell, resumeLoginShell, startsOnLoginPage } from './takeover';

// Focusing the login form starts loading the signed-in console in the background
// (login-app.tsx). Here that load would still be running when a later test resets the
// module registry and mocks the sign-in call, and could hand that test's form the real
// sign-in call: the console's start is replaced by a stub that loads nothing.
vi.mock('../app-start', () => ({ warmSignedInConsole: vi.fn(), mountConsole: vi.fn(), showLoginAddress: vi.fn() }));

let root: Root | null = null;
let container: HTMLElement | null = null;

/** The page as the server sends it: the HTML form in #root (plus the early script's work). */
function serveShell(): HTMLElement {
  container = document.createElement('div');
  container.id = 'root';
  container.innerHTML = loginShellHtml('zh-CN', zhPublic, 2030);
  document.body.append(container);
  return container;
}

/** What main.tsx does: read the HTML form, render React over it at once, resume. */
function takeOver(element: HTMLElement, onLoggedIn: () => Promise<void>) {
  const shell = readLoginShell(element);
  root = createRoot(element);
  act(() => {
    flushSync(() => root!.render(<LoginApp initialValues={shell?.values} onLoggedIn={onLoggedIn} />));
  });
  if (shell) resumeLoginShell(element, shell);
  return shell;
}

afterEach(() => {
  act(() => root?.unmount());
  root = null;
  container?.remove();
  cleanup();
});

describe('React taking over the HTML login form', () => {
  it('keeps what was typed, the focus and the caret', () => {
    const element = serveShell();
    const username = element.querySelector<HTMLInputElement>('input[name=username]')!;
    element.querySelector<HTMLInputElement>('input[name=password]')!.value = 'Secret1';
    username.value = 'merchant';
    username.focus();
    username.setSelectionRange(3, 3);
    const shellInput = username;

    const shell = takeOver(element, () => Promise.resolve());

    expect(shell).toMatchObject({ values: { username: 'merchant', password: 'Secret1' }, focused: 'username' });
    const replaced = screen.getByTestId<HTMLInputElement>('login-username');
    expect(replaced).not.toBe(shellInput);
    expect(replaced.value).toBe('merchant');
    expect(screen.getByTestId<HTMLInputElement>('login-password').value).toBe('Secret1');
    expect(document.activeElement).toBe(replaced);
    expect([replaced.selectionStart, replaced.selectionEnd]).toEqual([3, 3]);
    expect(element.querySelector('form[data-login-shell]')).toBeNull();
  });

  it('keeps keys typed and a field changed between reading the HTML form and the swap', () => {
    const element = serveShell();
    const username = element.querySelector<HTMLInputElement>('input[name=username]')!;
    const password = element.querySelector<HTMLInputElement>('input[name=password]')!;
    username.focus();
    username.value = 'merc';
    username.setSelectionRange(4, 4);
    const shell = readLoginShell(element)!;
    expect(shell.values.username).toBe('merc');
    // Keys and a field change that arrive while React renders (were it ever to yield).
    username.value = 'merchant';
    username.setSelectionRange(8, 8);
    password.focus();
    password.value = 'Sec';
    password.setSelectionRange(1, 2);
    root = createRoot(element);
    act(() => {
      flushSync(() => root!.render(<LoginApp initialValues={shell.values} onLoggedIn={() => Promise.resolve()} />));
    });
    // The HTML inputs are gone from the page now: what they held is carried all the same.
    expect(username.isConnected).toBe(false);
    const carried = resumeLoginShell(element, shell);

    expect(carried).toMatchObject({ values: { username: 'merchant', password: 'Sec' }, focused: 'password' });
    expect(screen.getByTestId<HTMLInputElement>('login-username').value).toBe('merchant');
    const replaced = screen.getByTestId<HTMLInputElement>('login-password');
    expect(replaced.value).toBe('Sec');
    expect(document.activeElement).toBe(replaced);
    expect([replaced.selectionStart, replaced.selectionEnd]).toEqual([1, 2]);
  });

  it('sends a submit made before the script ran once React is there', async () => {
    const element = serveShell();
    element.querySelector<HTMLInputElement>('input[name=username]')!.value = 'merchant';
    element.querySelector<HTMLInputElement>('input[name=password]')!.value = 'Secret1';
    // What the early script records when the form is submitted before React.
    element.querySelector('form')!.setAttribute('data-login-shell', 'submitted');
    const login = vi.fn(() => Promise.resolve());
    vi.doMock('@/features/auth/session-actions', () => ({ login, verifyTwoFactorLogin: vi.fn() }));
    vi.resetModules();
    const { LoginApp: FreshLoginApp } = await import('../login-app');
    const { readLoginShell: read, resumeLoginShell: resume } = await import('./takeover');
    const shell = read(element)!;
    expect(shell.submitted).toBe(true);
    root = createRoot(element);
    const onLoggedIn = vi.fn(() => Promise.resolve());
    act(() => {
      flushSync(() => root!.render(<FreshLoginApp initialValues={shell.values} onLoggedIn={onLoggedIn} />));
    });
    await act(async () => resume(element, shell));
    // A second resume finds the submit already carried out.
    await act(async () => resume(element, shell));
    await vi.waitFor(() => expect(login).toHaveBeenCalledTimes(1), { timeout: 15_000 });
    expect(login).toHaveBeenCalledWith({ username: 'merchant', password: 'Secret1' });
    await vi.waitFor(() => expect(onLoggedIn).toHaveBeenCalledTimes(1), { timeout: 15_000 });
    vi.doUnmock('@/features/auth/session-actions');
  });

  it('sends a submit made after the HTML form was read, once', async () => {
    const element = serveShell();
    const login = vi.fn(() => Promise.resolve());
    vi.doMock('@/features/auth/session-actions', () => ({ login, verifyTwoFactorLogin: vi.fn() }));
    vi.resetModules();
    const { LoginApp: FreshLoginApp } = await import('../login-app');
    const { readLoginShell: read, resumeLoginShell: resume } = await import('./takeover');
    const shell = read(element)!;
    expect(shell.submitted).toBe(false);
    // Filled at once, as a password manager does, and sent (the early script marks it).
    element.querySelector<HTMLInputElement>('input[name=username]')!.value = 'merchant';
    element.querySelector<HTMLInputElement>('input[name=password]')!.value = 'Secret1';
    element.querySelector('form')!.setAttribute('data-login-shell', 'submitted');
    root = createRoot(element);
    act(() => {
      flushSync(() =>
        root!.render(<FreshLoginApp initialValues={shell.values} onLoggedIn={() => Promise.resolve()} />),
      );
    });
    await act(async () => resume(element, shell));
    // The form validates before it sends: wait for the call, not for a fixed moment.
    await vi.waitFor(() => expect(login).toHaveBeenCalledTimes(1), { timeout: 15_000 });
    expect(login).toHaveBeenCalledWith({ username: 'merchant', password: 'Secret1' });
    vi.doUnmock('@/features/auth/session-actions');
  });

  it('finds nothing to carry over on the bare console page', () => {
    const element = document.createElement('div');
    expect(readLoginShell(element)).toBeNull();
  });
});

describe('startsOnLoginPage', () => {
  it('is the login page, the index and no address at all', () => {
    for (const hash of ['', '#', '#/', '#/login', '#/login?redirect=Monitor'])
      expect(startsOnLoginPage(hash)).toBe(true);
    for (const hash of ['#/dashboard/workplace', '#/loginx', '#/order/list?x=1'])
      expect(startsOnLoginPage(hash)).toBe(false);
  });
});
