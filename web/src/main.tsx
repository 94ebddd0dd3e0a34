import { StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import './styles/global.css';
import { LoginApp } from './app/login-app';
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

if (!hasToken() && startsOnLoginPage(window.location.hash)) {
  // The login page alone (no router): React takes over the HTML form the page came with.
  if (!window.location.hash.startsWith('#/login')) window.history.replaceState(null, '', '#/login');
  const takeOver = () => {
    const shell = readLoginShell(container);
    if (shell?.locale) void changeLocale(shell.locale);
    // Synchronously, so no keystroke falls between reading the HTML form and replacing it.
    flushSync(() =>
      root.render(
        <StrictMode>
          <LoginApp initialValues={shell?.values} onLoggedIn={() => startConsole(true)} />
        </StrictMode>,
      ),
    );
    if (shell) resumeLoginShell(container, shell);
  };
  // On the HTML login page this script is loaded only once the form's first paint has been
  // reported (login-shell/early.ts), so React replaces a form already on screen.
  takeOver();
} else {
  void startConsole(false);
}
