import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadUserInfo } from '@/features/user/api/get-user-info';
import { useUserStore } from '@/stores/user-store';
import { guardDependencies } from './guard-dependencies';

vi.mock('@/features/user/api/get-user-info', () => ({ loadUserInfo: vi.fn(() => Promise.resolve()) }));

describe('guardDependencies.loadUserInfo', () => {
  afterEach(() => {
    useUserStore.getState().resetUser();
    vi.mocked(loadUserInfo).mockClear();
  });

  it('asks for the user info while the store has none', async () => {
    await guardDependencies.loadUserInfo();
    expect(loadUserInfo).toHaveBeenCalledTimes(1);
  });

  it('does not ask again when an earlier call answered while its code was loading', async () => {
    // The guard saw no role; the sign-in's own call (app-start) answered before the import
    // above resolved.
    const asked = guardDependencies.loadUserInfo();
    useUserStore.getState().setUserInfo({ ...useUserStore.getState().info, role: 'user' });
    await asked;
    expect(loadUserInfo).not.toHaveBeenCalled();
  });
});
