import { useMutation } from '@tanstack/react-query';
import { post } from '@/lib/request';

/** The video/audio parameter group, with the step form's basic information. */
export interface ChannelForm {
  activityName: string;
  channelType: string;
  promoteLink: string;
  videoMode: string;
  videoAcquisitionResolution: string;
  videoAcquisitionFrameRate: number;
  videoEncodingResolution: string;
  videoEncodingRateMin: number;
  videoEncodingRateMax: number;
  videoEncodingRateDefault: number;
  videoEncodingFrameRate: number;
  videoEncodingProfile: string;
  audioMode: string;
  audioAcquisitionChannels: number;
  audioEncodingRate: number;
  audioEncodingChannels: number;
  audioEncodingProfile: string;
  description: string;
}

export interface ChannelFormReceipt {
  id: string;
  submittedAt: string;
  form: ChannelForm;
}

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
