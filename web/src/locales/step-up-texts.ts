/** Texts of the step-up dialog, registered with the pages that move money (see lazy-texts.ts). */
import enUS from './en-US/step-up';
import { addTexts } from './lazy-texts';
import zhCN from './zh-CN/step-up';

export const STEP_UP_TEXTS = { 'zh-CN': zhCN, 'en-US': enUS };

addTexts('stepUp', STEP_UP_TEXTS);
