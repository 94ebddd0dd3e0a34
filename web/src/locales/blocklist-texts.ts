/** Texts of the pages that use them (see lazy-texts.ts), registered when those load. */
import enUS from './en-US/blocklist';
import { addTexts } from './lazy-texts';
import zhCN from './zh-CN/blocklist';

export const BLOCKLIST_TEXTS = { 'zh-CN': zhCN, 'en-US': enUS };

addTexts('blocklist', BLOCKLIST_TEXTS);
