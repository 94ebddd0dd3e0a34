import { StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import './styles/global.css';
import { LoginApp } from './app/login-app';
import { SHELL_FORM_ATTRIBUTE } from './app/login-shell/login-shell-html';
import { readLoginShell, resumeLoginShell, startsOnLoginPage } from './app/login-shell/takeover';
import { changeLocale, syncLocaleHint } from './lib/i18n';
import { hasToken, syncSignedInHint } from './lib/session';

// The server picks the first page (login form as HTML, or the bare console) by these.
syncLocaleHint();
syncSignedInHint();

const container = document.getElementById('root')!;
const root = createRoot(container);
const startConsole = (afterLogin: boolean) =>
  import('./app/app-start').then((module) => module.mountConsole(root, afterLogin));

const signedIn = hasToken();
const hash = window.location.hash;
// Without a session the server sends the login form as HTML for every address (it cannot
// see the hash), a deep link included: that form is taken over too, not replaced by the
// router's own login page (which would drop what was typed meanwhile).
const shellForm = signedIn ? null : container.querySelector(`form[${SHELL_FORM_ATTRIBUTE}]`);
if (!signedIn && (startsOnLoginPage(hash) || shellForm)) {
  // The login page alone (no router): React takes over the HTML form the page came with.
  if (startsOnLoginPage(hash)) {
    if (!hash.startsWith('#/login')) window.history.replaceState(null, '', '#/login');
  } else {
    // The address the router's guard would have given (`#/login?redirect=…`), so that
    // sign-in returns to the deep link; its route table comes with the console's start.
    void import('./app/app-start').then((module) => module.showLoginAddress());
  }
  const takeOver = () => {
    const shell = readLoginShell(container);
    if (shell?.locale) void changeLocale(shell.locale);
    // Synchronously, so no keystroke falls between reading the HTML form and replacing it
    // (and should one, the resume reads the replaced form's inputs again).
    flushSync(() =>
      root.render(
        <StrictMode>
          <LoginApp initialValues={shell?.values} onLoggedIn={() => startConsole(true)} />
        </StrictMode>,
      ),
    );
    if (!shell) return;
    const carried = resumeLoginShell(container, shell);
    if (carried.locale && carried.locale !== shell.locale) void changeLocale(carried.locale);
  };
  // On the HTML login page this script is loaded only once the form's first paint has been
  // reported (login-shell/early.ts), so React replaces a form already on screen.
  takeOver();
} else {
  void startConsole(false);
}
