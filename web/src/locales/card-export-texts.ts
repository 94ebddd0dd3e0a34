/** Texts of the card-secret export (see lazy-texts.ts), registered when its dialog loads. */
import enUS from './en-US/card-export';
import { addTexts } from './lazy-texts';
import zhCN from './zh-CN/card-export';

export const CARD_EXPORT_TEXTS = { 'zh-CN': zhCN, 'en-US': enUS };

addTexts('cardExport', CARD_EXPORT_TEXTS);
