import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { get } from './request';
import { ensureSystemInfo, getSystemInfo, templatePagesOn, type SystemInfo } from './system-info';

vi.mock('./request', () => ({ get: vi.fn() }));

const info: SystemInfo = {
  name: 'backoffice',
  version: '1',
  timeZone: 'Asia/Shanghai',
  features: { templatePages: true },
};

describe('ensureSystemInfo', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.mocked(get).mockReset());

  it('asks once for callers while the answer is out, and stores it', async () => {
    let answer!: (value: SystemInfo) => void;
    vi.mocked(get).mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const first = ensureSystemInfo();
    const second = ensureSystemInfo();
    expect(get).toHaveBeenCalledTimes(1);
    answer(info);
    await Promise.all([first, second]);
    expect(getSystemInfo()).toEqual(info);
    expect(templatePagesOn()).toBe(true);
    await ensureSystemInfo();
    expect(get).toHaveBeenCalledTimes(1);
  });

  it('never rejects, and asks again after a failure', async () => {
    vi.mocked(get).mockRejectedValueOnce(new Error('offline'));
    await expect(ensureSystemInfo()).resolves.toBeUndefined();
    expect(getSystemInfo()).toBeNull();
    vi.mocked(get).mockResolvedValueOnce(info);
    await ensureSystemInfo();
    expect(get).toHaveBeenCalledTimes(2);
    expect(getSystemInfo()).toEqual(info);
  });
});
