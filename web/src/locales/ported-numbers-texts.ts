/** Texts of the pages that use them (see lazy-texts.ts), registered when those load. */
import enUS from './en-US/ported-numbers';
import { addTexts } from './lazy-texts';
import zhCN from './zh-CN/ported-numbers';

export const PORTED_NUMBERS_TEXTS = { 'zh-CN': zhCN, 'en-US': enUS };

addTexts('ported-numbers', PORTED_NUMBERS_TEXTS);
