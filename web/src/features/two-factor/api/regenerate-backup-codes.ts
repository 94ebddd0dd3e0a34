import { mutationOptions, useMutation } from '@tanstack/react-query';
import { post } from '@/lib/request';
import type { TwoFactorCodeForm } from './types';

export const REGENERATE_URL = '/adminapi/google-auth/regenerateBackupCodes';

/** POST /adminapi/google-auth/regenerateBackupCodes; resolves with the new set (the old one is void). */
export async function postRegenerateBackupCodes(form: TwoFactorCodeForm): Promise<string[]> {
  const answer = await post(REGENERATE_URL, { code: form.code }, { quietErrors: true });
  return answer?.backup_codes ?? [];
}

export const regenerateMutationOptions = () =>
  mutationOptions({ mutationKey: ['two-factor', 'regenerate'], mutationFn: postRegenerateBackupCodes });

export function useRegenerateBackupCodes() {
  return useMutation(regenerateMutationOptions());
}
