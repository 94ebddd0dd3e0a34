import { mutationOptions, useMutation } from '@tanstack/react-query';
import { type ApiSchema, post, type PostBody } from '@/lib/request';

export const ROTATE_WEBHOOK_SECRET_URL = '/adminapi/notify/rotateSecret';

/** The password, and a two-factor code when two-factor is on. */
export type RotateWebhookSecretRequest = PostBody<typeof ROTATE_WEBHOOK_SECRET_URL>;

export type RotatedWebhookSecret = ApiSchema<'RotateSecretResponse'>;

/** POST /adminapi/notify/rotateSecret: a new signing secret for callbacks. */
export function rotateWebhookSecret(request: RotateWebhookSecretRequest): Promise<RotatedWebhookSecret> {
  // The form shows a wrong password or code beside its field.
  return post(ROTATE_WEBHOOK_SECRET_URL, request, { quietErrors: true });
}

export const rotateWebhookSecretMutationOptions = () =>
  mutationOptions({ mutationKey: ['rotate-webhook-secret'], mutationFn: rotateWebhookSecret });

export function useRotateWebhookSecret() {
  return useMutation(rotateWebhookSecretMutationOptions());
}
