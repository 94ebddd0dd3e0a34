/**
 * The template pages' texts (§1), registered with i18n only when the server serves those
 * pages (the route guard loads this module), so they never weigh on the login page.
 */
import i18n from '@/lib/i18n';
import enUS from './en-US/template';
import zhCN from './zh-CN/template';

export const TEMPLATE_TEXTS = { 'zh-CN': zhCN, 'en-US': enUS } as const;

export function loadTemplateTexts(): void {
  for (const [language, texts] of Object.entries(TEMPLATE_TEXTS)) {
    // Merged into the main bundle; adding again is harmless.
    i18n.addResourceBundle(language, 'translation', texts, true, false);
  }
}
