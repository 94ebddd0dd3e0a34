/** Texts of the pages that use them (see lazy-texts.ts), registered when those load. */
import enUS from './en-US/merchant-admin';
import { addTexts } from './lazy-texts';
import zhCN from './zh-CN/merchant-admin';

export const MERCHANT_ADMIN_TEXTS = { 'zh-CN': zhCN, 'en-US': enUS };

addTexts('merchantAdmin', MERCHANT_ADMIN_TEXTS);
