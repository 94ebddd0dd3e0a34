/** Texts of the maintenance windows page (see lazy-texts.ts), registered when it loads. */
import enUS from './en-US/windows';
import { addTexts } from './lazy-texts';
import zhCN from './zh-CN/windows';

export const WINDOWS_TEXTS = { 'zh-CN': zhCN, 'en-US': enUS };

addTexts('windows', WINDOWS_TEXTS);
