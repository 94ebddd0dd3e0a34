/** Texts of the security history page, registered when it loads (see lazy-texts.ts). */
import enUS from './en-US/security';
import { addTexts } from './lazy-texts';
import zhCN from './zh-CN/security';

export const SECURITY_TEXTS = { 'zh-CN': zhCN, 'en-US': enUS };

addTexts('security', SECURITY_TEXTS);
