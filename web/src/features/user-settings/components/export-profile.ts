import type { Profile } from '../api/get-profile';

/** The JSON the 'Export data' entry downloads: the profile as stored, plus when it was taken. */
export function profileExport(profile: Profile, now: Date = new Date()): string {
  return `${JSON.stringify({ exported_at: now.toISOString(), profile }, null, 2)}\n`;
}

export function profileExportFileName(profile: Pick<Profile, 'username'>, now: Date = new Date()): string {
  const day = now.toISOString().slice(0, 10);
  return `profile-${profile.username || 'user'}-${day}.json`;
}

/** Save a text as a file through a temporary object URL. */
export function downloadText(text: string, fileName: string, type = 'application/json'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
