/**
 * Warms what the first screen after login needs (the default layout with antd, antd's
 * locale data and the workplace page) while the user is still typing credentials.
 *
 * Nothing is fetched when the login page opens, so the login page itself stays small;
 * the first focus or keystroke in the form says the user is about to sign in, and the
 * download and module evaluation then overlap with typing instead of following the
 * login request.
 */
import { loadAntdLocale } from '@/lib/antd-locale';
import { currentLocale } from '@/lib/i18n';
import { APP_LEAVES } from './route-table';

let started = false;

export function preloadSignedInShell(): void {
  if (started) return;
  started = true;
  const workplace = APP_LEAVES.find((leaf) => leaf.name === 'Workplace');
  // Failures are ignored: the routes load the same modules again when they are needed.
  void Promise.all([import('../layout/default-layout'), loadAntdLocale(currentLocale()), workplace?.load?.()]).catch(
    () => {
      started = false;
    },
  );
}
