/**
 * The downloaded backup-code file: a text file titled 'backup codes' (备用验证码), one
 * code per line, and a reminder to store them safely.
 */

export const BACKUP_CODES_FILE_NAME = 'backup-codes.txt';

export interface BackupCodesFileText {
  /** 'backup codes' / '备用验证码'. */
  title: string;
  /** The reminder to keep them safe. */
  reminder: string;
}

/** The file's text: title, blank line, one code per line, blank line, reminder. */
export function backupCodesFileContent(codes: readonly string[], text: BackupCodesFileText): string {
  return [text.title, '', ...codes, '', text.reminder, ''].join('\n');
}

/** Hand the file to the browser as a download. */
export function downloadTextFile(fileName: string, content: string): void {
  const url = URL.createObjectURL(new Blob([content], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Let the download start before the URL goes away.
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}
