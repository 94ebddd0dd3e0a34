/** Texts of the staff page (see lazy-texts.ts), registered when it loads. */
import enUS from './en-US/staff';
import { addTexts } from './lazy-texts';
import zhCN from './zh-CN/staff';

export const STAFF_TEXTS = { 'zh-CN': zhCN, 'en-US': enUS };

addTexts('staff', STAFF_TEXTS);
