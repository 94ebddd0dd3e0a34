/**
 * React taking over the HTML login page (./login-shell-html.ts): what the user typed,
 * where the caret was, and a submit or language choice made before the script ran all
 * carry over to the real form.
 *
 * The state is read twice: once for React's first render (the form's initial values), and
 * again from the HTML form's own elements once React's form has replaced them. The second
 * read is what the user sees kept: anything typed, filled or submitted after the first read
 * (were the render ever to yield to the browser) is still in those elements, detached or not.
 */
import { isLocale, type Locale } from '@/lib/i18n';
import { SHELL_FORM_ATTRIBUTE } from './login-shell-html';

type Field = 'username' | 'password';
const FIELDS = ['username', 'password'] as const;

export interface ShellState {
  values: Record<Field, string>;
  focused: Field | null;
  selection: [number, number] | null;
  submitted: boolean;
  locale: Locale | null;
  /** The HTML form, kept to be read again after React's form has replaced it. */
  form: HTMLFormElement;
}

/** Without a session, these addresses open the login page (the index redirects there). */
export function startsOnLoginPage(hash: string): boolean {
  const path = hash.replace(/^#/, '').split('?')[0];
  return path === '' || path === '/' || path === '/login';
}

const inputOf = (root: ParentNode, name: Field) => root.querySelector<HTMLInputElement>(`input[name=${name}]`);

/** The field of the HTML form that last took the focus (kept on the form, see below). */
const FOCUSED_ATTRIBUTE = 'data-login-shell-focused';

function stateOf(form: HTMLFormElement, focused: Field | null): ShellState {
  const values = { username: inputOf(form, 'username')?.value ?? '', password: inputOf(form, 'password')?.value ?? '' };
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
    form,
  };
}

/** What the HTML login page holds now, or null when the page has none (e.g. the bare shell). */
export function readLoginShell(root: ParentNode): ShellState | null {
  const form = root.querySelector<HTMLFormElement>(`form[${SHELL_FORM_ATTRIBUTE}]`);
  if (!form) return null;
  const focused = FIELDS.find((name) => inputOf(form, name) === document.activeElement) ?? null;
  if (focused) form.setAttribute(FOCUSED_ATTRIBUTE, focused);
  // A removed element loses the focus without a trace, so the field focused last is noted
  // on the form for the second read.
  form.addEventListener('focusin', (event) => {
    const name = (event.target as HTMLInputElement).name;
    if (name === 'username' || name === 'password') form.setAttribute(FOCUSED_ATTRIBUTE, name);
  });
  return stateOf(form, focused);
}

/**
 * The HTML form's state now. Read after React's form has replaced it: its inputs, detached,
 * still hold their values and carets, and the form its submit and language marks.
 */
export function rereadLoginShell(state: ShellState): ShellState {
  const focused = state.form.getAttribute(FOCUSED_ATTRIBUTE);
  return stateOf(state.form, focused === 'username' || focused === 'password' ? focused : state.focused);
}

/**
 * After React rendered the real form: the HTML form read again, its values put into React's
 * inputs where they differ (the form's inputs are uncontrolled, the page reads them on
 * submit), focus and caret back, and a pending submit sent once. Returns what was carried.
 */
export function resumeLoginShell(root: ParentNode, state: ShellState): ShellState {
  const live = rereadLoginShell(state);
  const form = root.querySelector<HTMLFormElement>('form');
  for (const name of FIELDS) {
    const input = form ? inputOf(form, name) : null;
    if (input && input.value !== live.values[name]) input.value = live.values[name];
  }
  if (live.focused) {
    const input = form ? inputOf(form, live.focused) : null;
    input?.focus();
    if (input && live.selection) input.setSelectionRange(live.selection[0], live.selection[1]);
  }
  // Once: the HTML form is no longer marked submitted, so a second resume sends nothing.
  state.form.setAttribute(SHELL_FORM_ATTRIBUTE, 'taken-over');
  if (live.submitted) form?.requestSubmit();
  return live;
}
