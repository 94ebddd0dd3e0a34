/** Texts of the funding requests and funding review pages, registered when they load (see lazy-texts.ts). */
import enUS from './en-US/funding';
import { addTexts } from './lazy-texts';
import zhCN from './zh-CN/funding';

export const FUNDING_TEXTS = { 'zh-CN': zhCN, 'en-US': enUS };

addTexts('funding', FUNDING_TEXTS);
