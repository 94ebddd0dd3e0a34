/**
 * The login page's HTML names the console's scripts in a meta tag instead of loading them
 * (vite.config.ts, loginShellPages): the early script (./early.ts) loads them once the
 * form's first paint has been reported. Fetched and compiled with the page, they competed
 * with its first frame for the machine's cores (bench/README.md, "Console speed").
 */
export const CONSOLE_SCRIPTS_META = 'console-scripts';

/**
 * Loads the scripts the meta tag names: the first is the console's entry, run as a module;
 * the others are its imports, preloaded beside it so they are not found one by one.
 */
export function loadConsoleScripts(): void {
  const meta = document.querySelector<HTMLMetaElement>(`meta[name="${CONSOLE_SCRIPTS_META}"]`);
  const [entry, ...imports] = meta?.content.split(' ').filter(Boolean) ?? [];
  if (!entry) return;
  for (const href of imports) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.append(link);
  }
  const script = document.createElement('script');
  script.type = 'module';
  script.crossOrigin = '';
  script.src = entry;
  document.head.append(script);
}
