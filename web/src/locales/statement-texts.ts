/** Texts of the statements page, registered when it loads (see lazy-texts.ts). */
import enUS from './en-US/statement';
import { addTexts } from './lazy-texts';
import zhCN from './zh-CN/statement';

export const STATEMENT_TEXTS = { 'zh-CN': zhCN, 'en-US': enUS };

addTexts('statement', STATEMENT_TEXTS);
