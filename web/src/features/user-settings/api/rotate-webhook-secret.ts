import { mutationOptions, useMutation } from '@tanstack/react-query';
import { type ApiSchema, postJson } from '@/lib/request';

export const ROTATE_WEBHOOK_SECRET_URL = '/adminapi/notify/rotateSecret';

export interface RotateWebhookSecretRequest {
  password: string;
  /** A two-factor code, when two-factor is on. */
  code?: string;
}

export type RotatedWebhookSecret = ApiSchema<'RotateSecretResponse'>;

/** POST /adminapi/notify/rotateSecret: a new signing secret for callbacks. */
export function rotateWebhookSecret(request: RotateWebhookSecretRequest): Promise<RotatedWebhookSecret> {
  // The form shows a wrong password or code beside its field.
  // Still untyped: the document makes `code` required; the server takes it left out.
  return postJson<RotatedWebhookSecret>(ROTATE_WEBHOOK_SECRET_URL, request, { quietErrors: true });
}

export const rotateWebhookSecretMutationOptions = () =>
  mutationOptions({ mutationKey: ['rotate-webhook-secret'], mutationFn: rotateWebhookSecret });

export function useRotateWebhookSecret() {
  return useMutation(rotateWebhookSecretMutationOptions());
}
