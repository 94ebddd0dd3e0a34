import { describe, expect, it } from 'vitest';
import enUS from './en-US';
import zhCN from './zh-CN';

const placeholders = (text: string) => [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((match) => match[1]).sort();

describe('locales', () => {
  it('zh-CN and en-US have exactly the same keys', () => {
    const zhKeys = Object.keys(zhCN).sort();
    const enKeys = Object.keys(enUS).sort();
    expect(zhKeys.filter((key) => !(key in enUS))).toEqual([]);
    expect(enKeys.filter((key) => !(key in zhCN))).toEqual([]);
    expect(zhKeys).toEqual(enKeys);
  });

  it('have no empty strings', () => {
    for (const messages of [zhCN, enUS]) {
      for (const [key, value] of Object.entries(messages)) expect(value.trim(), key).not.toBe('');
    }
  });

  it('use the same interpolation variables in both languages', () => {
    for (const key of Object.keys(zhCN) as (keyof typeof zhCN)[]) {
      expect(placeholders(zhCN[key]), key).toEqual(placeholders(enUS[key]));
    }
  });

  it('carry the spec wording', () => {
    expect(enUS['login.form.username.errMsg']).toBe('username cannot be empty');
    expect(zhCN['login.form.username.errMsg']).toBe('用户名不能为空');
    expect(enUS['login.form.password.errMsg']).toBe('password cannot be empty');
    expect(zhCN['login.form.password.errMsg']).toBe('密码不能为空');
    expect(enUS['request.sessionEnded.title']).toBe('Confirm logout');
    expect(zhCN['request.sessionEnded.title']).toBe('确认退出');
    expect(enUS['request.sessionEnded.relogin']).toBe('Re-Login');
    expect(zhCN['request.sessionEnded.relogin']).toBe('重新登录');
    expect(enUS['exception.403.description']).toBe('Access to this resource on the server is denied');
    expect(enUS['exception.500.description']).toBe('Internal server error');
    expect(enUS['menu.user.googleAuth']).toBe('Two-Factor Authentication');
  });
});
