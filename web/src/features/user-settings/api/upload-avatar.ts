import { mutationOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateAvatar } from '@/components/avatar/use-avatar-url';
import { AVATAR_URL } from '@/lib/avatar';
import { type ApiSchema, postForm } from '@/lib/request';

export const MAX_AVATAR_BYTES = 2 * 1024 * 1024;
export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

export type AvatarSaved = ApiSchema<'AvatarSaved'>;

/** POST /adminapi/merchant/avatar, multipart field `file` (PNG, JPEG, GIF or WebP, ≤ 2 MiB). */
export function uploadAvatar(file: Blob): Promise<AvatarSaved> {
  const form = new FormData();
  form.append('file', file);
  return postForm(AVATAR_URL, form);
}

export const uploadAvatarMutationOptions = () =>
  mutationOptions({ mutationKey: ['upload-avatar'], mutationFn: uploadAvatar });

/** Uploads, then refreshes the image everywhere (navbar, this page, user info). */
export function useUploadAvatar() {
  const client = useQueryClient();
  return useMutation({
    ...uploadAvatarMutationOptions(),
    onSuccess: () => invalidateAvatar(client),
  });
}
