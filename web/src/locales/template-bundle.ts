/**
 * The template pages' texts, registered with i18n only when the server serves those
 * pages (the route guard loads this module), so they never weigh on the login page.
 */
import enUS from './en-US/template';
import { addTexts } from './lazy-texts';
import zhCN from './zh-CN/template';

export const TEMPLATE_TEXTS = { 'zh-CN': zhCN, 'en-US': enUS };

export function loadTemplateTexts(): void {
  addTexts('template', TEMPLATE_TEXTS);
}
