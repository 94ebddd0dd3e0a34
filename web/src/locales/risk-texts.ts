/** Texts of the pages that use them (see lazy-texts.ts), registered when those load. */
import enUS from './en-US/risk';
import { addTexts } from './lazy-texts';
import zhCN from './zh-CN/risk';

export const RISK_TEXTS = { 'zh-CN': zhCN, 'en-US': enUS };

addTexts('risk', RISK_TEXTS);
