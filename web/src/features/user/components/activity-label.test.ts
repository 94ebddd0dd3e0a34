import { afterEach, describe, expect, it } from 'vitest';
import i18n, { changeLocale } from '@/lib/i18n';
import enUS from '@/locales/en-US';
import zhCN from '@/locales/zh-CN';
import { activityLabel, activityLabelKey, isWarningAction, KNOWN_ACTIONS } from './activity-label';

afterEach(async () => {
  await changeLocale('zh-CN');
});

describe('activity labels', () => {
  it('translate every action code the server records, in both languages', () => {
    for (const action of KNOWN_ACTIONS) {
      const key = activityLabelKey(action) as keyof typeof zhCN;
      expect(zhCN[key], action).toBeTruthy();
      expect(enUS[key], action).toBeTruthy();
      expect(zhCN[key]).not.toContain(action);
    }
    // The codes the brief names among them.
    expect(KNOWN_ACTIONS).toEqual(
      expect.arrayContaining([
        'login',
        'login_failed',
        'password_changed',
        'profile_changed',
        'security_question_changed',
        'security_email_changed',
        'security_phone_changed',
        'avatar_changed',
        'certification_submitted',
        'certification_withdrawn',
        'user_created',
      ]),
    );
  });

  it('read naturally', async () => {
    expect(activityLabel(i18n.t, 'login')).toBe('登录成功');
    expect(activityLabel(i18n.t, 'password_changed')).toBe('修改了登录密码');
    expect(activityLabel(i18n.t, 'security_email_changed')).toBe('修改了安全邮箱');
    await changeLocale('en-US');
    expect(activityLabel(i18n.t, 'login_failed')).toBe('Sign-in failed (wrong password)');
    expect(activityLabel(i18n.t, 'certification_submitted')).toBe('Submitted an enterprise certification');
    expect(activityLabel(i18n.t, 'user_created')).toBe('Account created');
  });

  it('name an unknown code instead of hiding it', async () => {
    expect(activityLabel(i18n.t, 'api_key_rotated')).toBe('其他操作（api_key_rotated）');
    await changeLocale('en-US');
    expect(activityLabel(i18n.t, 'api_key_rotated')).toBe('Other action (api_key_rotated)');
  });

  it('flag failed sign-ins', () => {
    expect(isWarningAction('login_failed')).toBe(true);
    expect(isWarningAction('login')).toBe(false);
  });
});
