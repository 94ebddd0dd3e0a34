/** Texts of the report pages, registered when one loads (see lazy-texts.ts). */
import enUS from './en-US/report';
import { addTexts } from './lazy-texts';
import zhCN from './zh-CN/report';

export const REPORT_TEXTS = { 'zh-CN': zhCN, 'en-US': enUS };

addTexts('report', REPORT_TEXTS);
