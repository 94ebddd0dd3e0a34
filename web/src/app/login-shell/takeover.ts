/**
 * React taking over the HTML login page (./login-shell-html.ts): what the user typed,
 * where the caret was, and a submit or language choice made before the script ran all
 * carry over to the real form.
 */
import { isLocale, type Locale } from '@/lib/i18n';
import { SHELL_FORM_ATTRIBUTE } from './login-shell-html';

type Field = 'username' | 'password';

export interface ShellState {
  values: Record<Field, string>;
  focused: Field | null;
  selection: [number, number] | null;
  submitted: boolean;
  locale: Locale | null;
}

/** Without a session, these addresses open the login page (the index redirects there). */
export function startsOnLoginPage(hash: string): boolean {
  const path = hash.replace(/^#/, '').split('?')[0];
  return path === '' || path === '/' || path === '/login';
}

const inputOf = (root: ParentNode, name: Field) => root.querySelector<HTMLInputElement>(`form input[name=${name}]`);

/** What the HTML login page holds now, or null when the page has none (e.g. the bare shell). */
export function readLoginShell(root: ParentNode): ShellState | null {
  const form = root.querySelector<HTMLFormElement>(`form[${SHELL_FORM_ATTRIBUTE}]`);
  if (!form) return null;
  const values = { username: inputOf(form, 'username')?.value ?? '', password: inputOf(form, 'password')?.value ?? '' };
  const active = document.activeElement;
  const focused = (['username', 'password'] as const).find((name) => inputOf(form, name) === active) ?? null;
  const input = focused ? inputOf(form, focused) : null;
  const selection: [number, number] | null =
    input && input.selectionStart !== null && input.selectionEnd !== null
      ? [input.selectionStart, input.selectionEnd]
      : null;
  const locale = form.dataset.locale;
  return {
    values,
    focused,
    selection,
    submitted: form.getAttribute(SHELL_FORM_ATTRIBUTE) === 'submitted',
    locale: isLocale(locale) ? locale : null,
  };
}

/** After React rendered the real form: focus and caret back, and a pending submit sent. */
export function resumeLoginShell(root: ParentNode, state: ShellState): void {
  if (state.focused) {
    const input = inputOf(root, state.focused);
    input?.focus();
    if (input && state.selection) input.setSelectionRange(state.selection[0], state.selection[1]);
  }
  if (state.submitted) root.querySelector<HTMLFormElement>('form')?.requestSubmit();
}
