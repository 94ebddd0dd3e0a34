/** Texts of the channels page and the order drawer's attempts (see lazy-texts.ts), registered when those load. */
import enUS from './en-US/channels';
import { addTexts } from './lazy-texts';
import zhCN from './zh-CN/channels';

export const CHANNELS_TEXTS = { 'zh-CN': zhCN, 'en-US': enUS };

addTexts('channels', CHANNELS_TEXTS);
