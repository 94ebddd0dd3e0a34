/** Texts of the pages that use them (see lazy-texts.ts), registered when those load. */
import enUS from './en-US/notify';
import { addTexts } from './lazy-texts';
import zhCN from './zh-CN/notify';

export const NOTIFY_TEXTS = { 'zh-CN': zhCN, 'en-US': enUS };

addTexts('notify', NOTIFY_TEXTS);
