import { beforeEach, describe, expect, it, vi } from 'vitest';
import { get, post } from '@/lib/request';
import { saveSession, saveSystemInfo } from '@/lib/session';
import { useUserStore } from '@/stores/user-store';
import { guardDependencies } from './guard-dependencies';
import { resolveNavigation, type NavigationTarget } from './route-access';

vi.mock('@/lib/request', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/request')>()),
  get: vi.fn(),
  post: vi.fn(),
}));

const workplace: NavigationTarget = { name: 'Workplace', meta: { requiresAuth: true, roles: ['*'] }, query: {} };
const system = { name: 'backoffice', version: '1', timeZone: 'Asia/Shanghai', features: { templatePages: false } };

describe('the guard with the real dependencies', () => {
  beforeEach(() => {
    localStorage.clear();
    useUserStore.getState().resetUser();
    vi.mocked(get).mockReset();
    vi.mocked(post).mockReset();
    saveSession('token', { user_id: 2, username: 'merchant', role: 'user', mid: 10001, must_change_password: false });
  });

  it('lets the first page through without a call when sign-in brought the profile and system information', async () => {
    useUserStore.getState().setUserInfo({ username: 'merchant', role: 'user' });
    saveSystemInfo(system);
    await expect(resolveNavigation(workplace, guardDependencies)).resolves.toEqual({ kind: 'allow' });
    expect(post).not.toHaveBeenCalled();
    expect(get).not.toHaveBeenCalled();
  });

  it('asks for what is missing (a session from before sign-in brought them), each once', async () => {
    vi.mocked(post).mockResolvedValue({ username: 'merchant', role: 'user' });
    vi.mocked(get).mockResolvedValue(system);
    await expect(resolveNavigation(workplace, guardDependencies)).resolves.toEqual({ kind: 'allow' });
    expect(post).toHaveBeenCalledTimes(1);
    expect(get).toHaveBeenCalledTimes(1);
    expect(useUserStore.getState().role).toBe('user');
  });
});
