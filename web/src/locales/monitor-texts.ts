/** Texts of the pages that use them (see lazy-texts.ts), registered when those load. */
import enUS from './en-US/monitor';
import { addTexts } from './lazy-texts';
import zhCN from './zh-CN/monitor';

export const MONITOR_TEXTS = { 'zh-CN': zhCN, 'en-US': enUS };

addTexts('monitor', MONITOR_TEXTS);
