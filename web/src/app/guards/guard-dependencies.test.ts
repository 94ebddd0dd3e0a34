import { beforeEach, describe, expect, it, vi } from 'vitest';
import { getJson, postJson } from '@/lib/request';
import { saveSession, saveSystemInfo } from '@/lib/session';
import { useUserStore } from '@/stores/user-store';
import { guardDependencies } from './guard-dependencies';
import { resolveNavigation, type NavigationTarget } from './route-access';

vi.mock('@/lib/request', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/request')>()),
  getJson: vi.fn(),
  postJson: vi.fn(),
}));

const workplace: NavigationTarget = { name: 'Workplace', meta: { requiresAuth: true, roles: ['*'] }, query: {} };
const system = { name: 'backoffice', version: '1', timeZone: 'Asia/Shanghai', features: { templatePages: false } };

describe('the guard with the real dependencies', () => {
  beforeEach(() => {
    localStorage.clear();
    useUserStore.getState().resetUser();
    vi.mocked(getJson).mockReset();
    vi.mocked(postJson).mockReset();
    saveSession('token', { user_id: 2, username: 'merchant', role: 'user', mid: 10001 });
  });

  it('lets the first page through without a call when sign-in brought the profile and system information', async () => {
    useUserStore.getState().setUserInfo({ username: 'merchant', role: 'user' });
    saveSystemInfo(system);
    await expect(resolveNavigation(workplace, guardDependencies)).resolves.toEqual({ kind: 'allow' });
    expect(postJson).not.toHaveBeenCalled();
    expect(getJson).not.toHaveBeenCalled();
  });

  it('asks for what is missing (a session from before sign-in brought them), each once', async () => {
    vi.mocked(postJson).mockResolvedValue({ username: 'merchant', role: 'user' });
    vi.mocked(getJson).mockResolvedValue(system);
    await expect(resolveNavigation(workplace, guardDependencies)).resolves.toEqual({ kind: 'allow' });
    expect(postJson).toHaveBeenCalledTimes(1);
    expect(getJson).toHaveBeenCalledTimes(1);
    expect(useUserStore.getState().role).toBe('user');
  });
});
