/** Texts of the pages that use them (see lazy-texts.ts), registered when those load. */
import enUS from './en-US/review-queue';
import { addTexts } from './lazy-texts';
import zhCN from './zh-CN/review-queue';

export const REVIEW_QUEUE_TEXTS = { 'zh-CN': zhCN, 'en-US': enUS };

addTexts('reviewQueue', REVIEW_QUEUE_TEXTS);
