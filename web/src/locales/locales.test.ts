import { describe, expect, it } from 'vitest';
import enUS from './en-US';
import zhCN from './zh-CN';
import enResult from './en-US/result';
import enTemplate from './en-US/template';
import zhResult from './zh-CN/result';
import zhTemplate from './zh-CN/template';
import enApiKeys from './en-US/api-keys';
import enCatalogue from './en-US/catalogue';
import enMonitor from './en-US/monitor';
import zhMonitor from './zh-CN/monitor';
import zhCatalogue from './zh-CN/catalogue';
import enMerchantAdmin from './en-US/merchant-admin';
import enNotify from './en-US/notify';
import enReviewQueue from './en-US/review-queue';
import zhApiKeys from './zh-CN/api-keys';
import zhMerchantAdmin from './zh-CN/merchant-admin';
import zhNotify from './zh-CN/notify';
import zhReviewQueue from './zh-CN/review-queue';
import enStepUp from './en-US/step-up';
import enAudit from './en-US/audit';
import zhAudit from './zh-CN/audit';
import enStatement from './en-US/statement';
import zhStatement from './zh-CN/statement';
import enReport from './en-US/report';
import zhReport from './zh-CN/report';
import enReconciliation from './en-US/reconciliation';
import zhReconciliation from './zh-CN/reconciliation';
import zhStepUp from './zh-CN/step-up';
import enCardExport from './en-US/card-export';
import zhCardExport from './zh-CN/card-export';
import enChannels from './en-US/channels';
import zhChannels from './zh-CN/channels';
import enFunding from './en-US/funding';
import zhFunding from './zh-CN/funding';
import enBlocklist from './en-US/blocklist';
import zhBlocklist from './zh-CN/blocklist';
import enSegments from './en-US/segments';
import zhSegments from './zh-CN/segments';
import enWindows from './en-US/windows';
import zhWindows from './zh-CN/windows';
import enPortedNumbers from './en-US/ported-numbers';
import enRisk from './en-US/risk';
import zhPortedNumbers from './zh-CN/ported-numbers';
import zhRisk from './zh-CN/risk';
import enSecurity from './en-US/security';
import zhSecurity from './zh-CN/security';

const placeholders = (text: string) => [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((match) => match[1]).sort();

describe('locales', () => {
  it.each([
    ['template', zhTemplate, enTemplate],
    ['result', zhResult, enResult],
    ['api-keys', zhApiKeys, enApiKeys],
    ['merchant-admin', zhMerchantAdmin, enMerchantAdmin],
    ['notify', zhNotify, enNotify],
    ['review-queue', zhReviewQueue, enReviewQueue],
    ['catalogue', zhCatalogue, enCatalogue],
    ['monitor', zhMonitor, enMonitor],
    ['step-up', zhStepUp, enStepUp],
    ['audit', zhAudit, enAudit],
    ['statement', zhStatement, enStatement],
    ['report', zhReport, enReport],
    ['channels', zhChannels, enChannels],
    ['reconciliation', zhReconciliation, enReconciliation],
    ['card-export', zhCardExport, enCardExport],
    ['funding', zhFunding, enFunding],
    ['blocklist', zhBlocklist, enBlocklist],
    ['risk', zhRisk, enRisk],
    ['segments', zhSegments, enSegments],
    ['windows', zhWindows, enWindows],
    ['ported-numbers', zhPortedNumbers, enPortedNumbers],
    ['security', zhSecurity, enSecurity],
  ] as [string, Record<string, string>, Record<string, string>][])(
    '%s texts (loaded with their pages) pair up and never shadow the main texts',
    (_, zh, en) => {
      expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
      for (const key of Object.keys(zh)) {
        expect(key in zhCN, key).toBe(false);
        expect(zh[key].trim(), key).not.toBe('');
        expect(placeholders(zh[key]), key).toEqual(placeholders(en[key]));
      }
    },
  );

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

  it('carry the two-factor wording (word for word where the spec gives it)', () => {
    const given: [keyof typeof enUS, 'en' | 'zh', string][] = [
      ['twoFactor.loading', 'en', 'Loading two-factor authentication status...'],
      ['twoFactor.message.statusFailed', 'en', 'Failed to get two-factor authentication status'],
      ['twoFactor.message.setupFailed', 'en', 'Initialization failed'],
      ['twoFactor.message.qrFailed', 'en', 'QR code generation failed'],
      ['twoFactor.message.enableFailed', 'en', 'Verification code is incorrect, please try again'],
      ['twoFactor.message.regenerateFailed', 'zh', '重新生成备用验证码失败'],
      ['twoFactor.message.disableFailed', 'zh', '验证码错误，请重试'],
      ['twoFactor.message.noCodes', 'en', 'No backup codes available for download'],
      ['twoFactor.message.enabled', 'en', 'Two-factor authentication enabled successfully!'],
      ['twoFactor.message.secretCopied', 'en', 'Secret copied to clipboard'],
      ['twoFactor.message.codesDownloaded', 'en', 'Backup codes downloaded'],
      ['twoFactor.message.regenerated', 'zh', '备用验证码已重新生成'],
      ['twoFactor.message.disabled', 'zh', '双因素认证已禁用'],
      ['twoFactor.validation.sixDigits', 'en', 'Please enter a 6-digit verification code'],
      ['twoFactor.validation.sixDigits', 'zh', '请输入6位验证码'],
      ['authCode.codeInvalid', 'zh', '验证码必须是6位数字'],
      ['authCode.backupInvalid', 'zh', '备用验证码必须是8位数字'],
      ['authCode.forgot', 'en', 'Forgot code'],
      ['twoFactor.disable', 'en', 'Disable 2FA'],
      ['twoFactor.file.title', 'en', 'backup codes'],
      ['twoFactor.file.title', 'zh', '备用验证码'],
    ];
    for (const [key, locale, text] of given) expect((locale === 'en' ? enUS : zhCN)[key], key).toBe(text);
    // The other locale is a translation, not a copy.
    for (const [key, locale] of given) {
      expect(enUS[key], key).not.toBe(zhCN[key]);
      expect((locale === 'en' ? zhCN : enUS)[key], key).toBeTruthy();
    }
  });

  it('carry the user-centre wording', () => {
    const both = (key: keyof typeof zhCN, zh: string, en: string) => {
      expect(zhCN[key], key).toBe(zh);
      expect(enUS[key], key).toBe(en);
    };
    both('userSetting.rule.email.required', '请输入邮箱', 'please enter email');
    both('userSetting.rule.nickname.required', '请输入昵称', 'please enter nickname');
    both('userSetting.rule.countryRegion.required', '请选择国家/地区', 'please select country/region');
    both('userSetting.rule.area.required', '请选择所在区域', 'please select area');
    both('userSetting.rule.tooLong', '最多 {{max}} 个字符', 'at most {{max}} characters');
    both('common.submit.failed', '表单提交失败，请重试', 'Form submission failed, please retry');
    both('userSetting.cert.status.auditing', '审核中', 'Auditing');
    both('userSetting.cert.status.passed', '已通过', 'Passed');
    both('userSetting.cert.status.rejected', '已驳回', 'Rejected');
    both('userSetting.cert.view', '查看', 'View');
    both('userSetting.cert.withdraw', '撤回', 'Withdraw');
    both('userSetting.basic.ipWhitelist', 'IP 白名单', 'IP whitelist');
    both('userSetting.basic.notifyUrl', '回调地址', 'Callback URL');
    both('common.exampleData', '示例数据', 'Example data');
  });
});
