/** Texts of the pages that use them (see lazy-texts.ts), registered when those load. */
import enUS from './en-US/segments';
import { addTexts } from './lazy-texts';
import zhCN from './zh-CN/segments';

export const SEGMENTS_TEXTS = { 'zh-CN': zhCN, 'en-US': enUS };

addTexts('segments', SEGMENTS_TEXTS);
