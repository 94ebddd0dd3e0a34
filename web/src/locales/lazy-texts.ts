/**
 * Texts that load with the pages using them instead of with the login page: each set is
 * still written in locales/{zh-CN,en-US} and merged into the one i18n bundle once.
 */
import i18n from '@/lib/i18n';

type Texts = Record<string, string>;
const added = new Set<string>();

export function addTexts(name: string, texts: { 'zh-CN': Texts; 'en-US': Texts }): void {
  // Once per set: adding a bundle re-renders every translated component.
  if (added.has(name)) return;
  added.add(name);
  for (const [language, set] of Object.entries(texts)) {
    i18n.addResourceBundle(language, 'translation', set, true, false);
  }
}
