/** Texts of the audit log page, registered when it loads (see lazy-texts.ts). */
import enUS from './en-US/audit';
import { addTexts } from './lazy-texts';
import zhCN from './zh-CN/audit';

export const AUDIT_TEXTS = { 'zh-CN': zhCN, 'en-US': enUS };

addTexts('audit', AUDIT_TEXTS);
