/** The result pages' texts (demo material), registered when a result page loads. */
import enUS from './en-US/result';
import { addTexts } from './lazy-texts';
import zhCN from './zh-CN/result';

export const RESULT_TEXTS = { 'zh-CN': zhCN, 'en-US': enUS };

addTexts('result', RESULT_TEXTS);
