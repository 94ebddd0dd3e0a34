/** Texts of the pages that use them (see lazy-texts.ts), registered when those load. */
import enUS from './en-US/catalogue';
import { addTexts } from './lazy-texts';
import zhCN from './zh-CN/catalogue';

export const CATALOGUE_TEXTS = { 'zh-CN': zhCN, 'en-US': enUS };

addTexts('catalogue', CATALOGUE_TEXTS);
