import { mutationOptions, useMutation } from '@tanstack/react-query';
import { get } from '@/lib/request';
import type { TwoFactorSetup } from './types';

export const SETUP_URL = '/adminapi/google-auth/setup2FA';

/**
 * GET /adminapi/google-auth/setup2FA: a new pending secret (each call replaces the last),
 * so it runs as a mutation, never cached or refetched.
 */
export async function getTwoFactorSetup(): Promise<TwoFactorSetup> {
  const answer = await get(SETUP_URL, undefined, { quietErrors: true });
  return {
    secret: answer.secret,
    qrCodeUrl: answer.qr_code_url,
    backupCodes: answer.backup_codes ?? [],
    tempKey: answer.temp_key,
  };
}

export const startSetupMutationOptions = () =>
  mutationOptions({ mutationKey: ['two-factor', 'setup'], mutationFn: getTwoFactorSetup });

export function useStartTwoFactorSetup() {
  return useMutation(startSetupMutationOptions());
}
