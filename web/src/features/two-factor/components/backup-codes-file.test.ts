import { afterEach, describe, expect, it, vi } from 'vitest';
import enUS from '@/locales/en-US';
import zhCN from '@/locales/zh-CN';
import { BACKUP_CODES_FILE_NAME, backupCodesFileContent, downloadTextFile } from './backup-codes-file';

const codes = ['12345678', '23456789', '34567890'];

describe('backupCodesFileContent', () => {
  it('is titled, has one code per line and a reminder (English)', () => {
    const content = backupCodesFileContent(codes, {
      title: enUS['twoFactor.file.title'],
      reminder: enUS['twoFactor.file.reminder'],
    });
    expect(content.split('\n')).toEqual([
      'backup codes',
      '',
      '12345678',
      '23456789',
      '34567890',
      '',
      'Store these backup codes in a safe place. Each code can be used only once.',
      '',
    ]);
  });

  it('is titled 备用验证码 in Chinese', () => {
    const content = backupCodesFileContent(codes, {
      title: zhCN['twoFactor.file.title'],
      reminder: zhCN['twoFactor.file.reminder'],
    });
    const lines = content.split('\n');
    expect(lines[0]).toBe('备用验证码');
    expect(lines.filter((line) => /^\d{8}$/.test(line))).toEqual(codes);
    expect(content).toContain('请将这些备用验证码保存在安全的地方');
  });
});

describe('downloadTextFile', () => {
  const original = { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL };
  afterEach(() => {
    vi.restoreAllMocks();
    Object.assign(URL, original);
  });

  it('clicks a link to a text blob with the file name', async () => {
    const createObjectURL = vi.fn((blob: Blob) => {
      void blob;
      return 'blob:x';
    });
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.download).toBe(BACKUP_CODES_FILE_NAME);
      expect(this.getAttribute('href')).toBe('blob:x');
    });
    downloadTextFile(BACKUP_CODES_FILE_NAME, 'a\nb\n');
    expect(click).toHaveBeenCalledTimes(1);
    const blob = createObjectURL.mock.calls[0][0];
    expect(blob.type).toBe('text/plain;charset=utf-8');
    expect(await blob.text()).toBe('a\nb\n');
    expect(document.querySelector('a[download]')).toBeNull();
  });
});
