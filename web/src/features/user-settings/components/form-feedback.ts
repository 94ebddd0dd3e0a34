/** What every settings form does after a save: the generic messages and field errors. */
import i18n from '@/lib/i18n';
import { applyServerFieldErrors, type FieldErrorTarget } from '@/lib/form-errors';
import { showErrorMessage, showSuccessMessage } from '@/lib/feedback';
import { ERROR_MESSAGE_SECONDS } from '@/lib/request';

export function reportSaved(messageKey = 'common.save.success'): void {
  showSuccessMessage(i18n.t(messageKey));
}

/**
 * A failed save: the server's field messages go under their fields (the request client
 * has toasted the first one already), then 'Form submission failed, please retry'.
 */
export function reportSaveFailed(
  form: FieldErrorTarget,
  error: unknown,
  options: { fieldMap?: Record<string, string | null>; knownFields?: readonly string[] } = {},
): void {
  applyServerFieldErrors(form, error, options);
  showErrorMessage(i18n.t('common.submit.failed'), ERROR_MESSAGE_SECONDS);
}
