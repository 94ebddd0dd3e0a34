import { useMutation } from '@tanstack/react-query';
import { type ApiSchema, post } from '@/lib/request';

/** The video/audio parameter group, with the step form's basic information. */
export type ChannelForm = ApiSchema<'ChannelForm'>;

export type ChannelFormReceipt = ApiSchema<'ChannelFormReceipt'>;

/**
 * The last submitted group, for the detail page: kept in this browser tab only (the
 * server stores nothing of the template pages).
 */
const LAST_SUBMITTED_KEY = 'template-channel-form';

export function rememberReceipt(receipt: ChannelFormReceipt): void {
  sessionStorage.setItem(LAST_SUBMITTED_KEY, JSON.stringify(receipt));
}

export function lastReceipt(): ChannelFormReceipt | null {
  try {
    const parsed = JSON.parse(sessionStorage.getItem(LAST_SUBMITTED_KEY) ?? 'null') as ChannelFormReceipt | null;
    return parsed?.form ? parsed : null;
  } catch {
    return null;
  }
}

/** POST the channel-form submit call; the server checks every range (channel-rules.ts) again. */
export const submitChannelForm = (form: ChannelForm) =>
  post('/api/template/channel-form/submit', form, { quietErrors: true });

export function useSubmitChannelForm() {
  return useMutation({ mutationFn: submitChannelForm, onSuccess: rememberReceipt });
}
