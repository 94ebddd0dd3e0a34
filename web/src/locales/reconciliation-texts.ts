/** Texts of the reconciliation page, registered when it loads (see lazy-texts.ts). */
import enUS from './en-US/reconciliation';
import { addTexts } from './lazy-texts';
import zhCN from './zh-CN/reconciliation';

export const RECONCILIATION_TEXTS = { 'zh-CN': zhCN, 'en-US': enUS };

addTexts('reconciliation', RECONCILIATION_TEXTS);
