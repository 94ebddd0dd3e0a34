import { beforeEach, describe, expect, it } from 'vitest';
import { ROLE_PREVIEW_KEY, roleLabel, useUserStore } from './user-store';

describe('the local role switcher', () => {
  beforeEach(() => {
    sessionStorage.clear();
    useUserStore.getState().resetUser();
  });

  it('changes nothing for a merchant: the server would not grant the administrator view', () => {
    useUserStore.getState().setUserInfo({ role: 'user' });
    expect(useUserStore.getState().switchRole()).toBe('user');
    expect(useUserStore.getState().role).toBe('user');
    expect(useUserStore.getState().previewing).toBe(false);
    expect(sessionStorage.getItem(ROLE_PREVIEW_KEY)).toBeNull();
  });

  it('lets an administrator preview the merchant view and back', () => {
    useUserStore.getState().setUserInfo({ role: 'admin' });
    expect(useUserStore.getState().switchRole()).toBe('user');
    expect(useUserStore.getState()).toMatchObject({ role: 'user', previewing: true });
    expect(useUserStore.getState().info.role).toBe('admin');
    expect(useUserStore.getState().switchRole()).toBe('admin');
    expect(useUserStore.getState()).toMatchObject({ role: 'admin', previewing: false });
  });

  it('keeps the preview when user info is loaded again (a reload), ends it on sign-out', () => {
    useUserStore.getState().setUserInfo({ role: 'admin' });
    useUserStore.getState().switchRole();
    // A reload reads the flag back and user info arrives again.
    useUserStore.setState({ info: {}, role: '', previewing: sessionStorage.getItem(ROLE_PREVIEW_KEY) === 'user' });
    useUserStore.getState().setUserInfo({ role: 'admin', name: 'x' });
    expect(useUserStore.getState()).toMatchObject({ role: 'user', previewing: true });
    useUserStore.getState().resetUser();
    expect(sessionStorage.getItem(ROLE_PREVIEW_KEY)).toBeNull();
    useUserStore.getState().setUserInfo({ role: 'user' });
    expect(useUserStore.getState()).toMatchObject({ role: 'user', previewing: false });
  });
});

describe('roleLabel', () => {
  it("names a merchant user's own role beside the kind, in both languages", async () => {
    const { default: i18n } = await import('@/lib/i18n');
    const zh = i18n.getFixedT('zh-CN');
    const en = i18n.getFixedT('en-US');
    expect(roleLabel(zh, 'user', 'finance')).toBe('商户 · 财务');
    expect(roleLabel(en, 'user', 'owner')).toBe('Merchant · Owner');
    expect(roleLabel(en, 'user', '')).toBe('Merchant');
    expect(roleLabel(zh, 'admin', '')).toBe('管理员');
    expect(roleLabel(en, '', '')).toBe('-');
  });
});
