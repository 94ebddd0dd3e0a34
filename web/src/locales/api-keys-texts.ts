/** Texts of the pages that use them (see lazy-texts.ts), registered when those load. */
import enUS from './en-US/api-keys';
import { addTexts } from './lazy-texts';
import zhCN from './zh-CN/api-keys';

export const API_KEYS_TEXTS = { 'zh-CN': zhCN, 'en-US': enUS };

addTexts('apiKeys', API_KEYS_TEXTS);
