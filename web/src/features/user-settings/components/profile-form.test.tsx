import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { showErrorMessage, showSuccessMessage } from '@/lib/feedback';
import { changeLocale } from '@/lib/i18n';
import { ApiError } from '@/lib/request';
import { withProviders } from '@/test/query-wrapper';
import type { Profile } from '../api/get-profile';
import { ProfileForm, toChangeInfoRequest, toFormValues } from './profile-form';

// antd forms validate asynchronously; give a busy machine time (the first render also
// loads the area data).
vi.setConfig({ testTimeout: 30_000 });

vi.mock('@/lib/feedback', () => ({ showErrorMessage: vi.fn(), showSuccessMessage: vi.fn() }));
vi.mock('@/lib/avatar', () => ({ AVATAR_URL: '/adminapi/merchant/avatar' }));
vi.mock('@/components/avatar/use-avatar-url', () => ({ useAvatarUrl: () => undefined, invalidateAvatar: vi.fn() }));

const emptyProfile: Profile = {
  username: 'merchant',
  nickname: '',
  email: '',
  country_region: '',
  area: '',
  address: '',
  contact_phone: '',
  introduction: '',
  personal_website: '',
  office_location: '',
  notify_url: '',
  ip_whitelist: '',
  account_id: '10001',
  registration_date: '2026-01-02T03:04:05Z',
  has_avatar: false,
  security_question: '',
  security_answer_set: false,
  security_email: '',
  security_phone: '',
};

const filledProfile: Profile = {
  ...emptyProfile,
  nickname: '演示商户',
  email: 'shop@example.com',
  country_region: 'HK',
  area: '九龙',
};

async function renderForm(profile: Profile = emptyProfile, onSave = vi.fn()) {
  await act(async () => {
    render(<ProfileForm profile={profile} onSave={onSave} />, { wrapper: withProviders() });
  });
  // The area data loads on demand; let it arrive before the test acts.
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 50));
  });
  return onSave;
}

async function save() {
  await act(async () => {
    fireEvent.click(screen.getByTestId('profile-save'));
  });
}

const errorOf = (field: string) => document.querySelector(`#${field}_help, [id$="${field}_help"]`)?.textContent ?? '';

async function expectErrors(expected: Record<string, string>) {
  await waitFor(() => {
    for (const [field, message] of Object.entries(expected)) expect(errorOf(field), field).toBe(message);
  });
}

async function type(testId: string, value: string) {
  await act(async () => {
    fireEvent.change(screen.getByTestId(testId), { target: { value } });
  });
}

beforeEach(() => {
  vi.mocked(showErrorMessage).mockReset();
  vi.mocked(showSuccessMessage).mockReset();
});
afterEach(async () => {
  cleanup();
  await changeLocale('zh-CN');
});

describe('<ProfileForm> validation', () => {
  it('names the four required fields in Chinese', async () => {
    const onSave = await renderForm({ ...emptyProfile, nickname: '' });
    await save();
    await expectErrors({
      nickname: '请输入昵称',
      email: '请输入邮箱',
      country_region: '请选择国家/地区',
      area: '请选择所在区域',
    });
    expect(onSave).not.toHaveBeenCalled();
  });

  it('names the four required fields in English', async () => {
    await changeLocale('en-US');
    await renderForm();
    await save();
    await expectErrors({
      nickname: 'please enter nickname',
      email: 'please enter email',
      country_region: 'please select country/region',
      area: 'please select area',
    });
  });

  it('limits the personal profile to 200 characters, in both languages', async () => {
    await renderForm(filledProfile);
    await type('profile-introduction', '简'.repeat(201));
    await save();
    await expectErrors({ introduction: '最多 200 个字符' });
    await act(async () => changeLocale('en-US'));
    await type('profile-introduction', 'x'.repeat(202));
    await expectErrors({ introduction: 'at most 200 characters' });
    await type('profile-introduction', '简'.repeat(200));
    await expectErrors({ introduction: '' });
  });

  it('checks email, URLs and phone when given', async () => {
    await changeLocale('en-US');
    await renderForm(filledProfile);
    await type('profile-email', 'not-an-email');
    await type('profile-personal-website', 'example.com');
    await type('profile-contact-phone', '12ab');
    await save();
    await expectErrors({
      email: 'please enter a valid email address',
      personal_website: 'the website must be an http:// or https:// address',
      contact_phone: 'please enter a valid phone number',
    });
  });
});

describe('<ProfileForm> saving', () => {
  it('sends the trimmed form, shows what the server stored and the save message', async () => {
    const stored = { ...filledProfile, nickname: '新昵称', contact_phone: '+86 138-0013-8000' };
    const onSave = await renderForm(filledProfile, vi.fn().mockResolvedValue(stored));
    await type('profile-contact-phone', ' +86 138-0013-8000 ');
    await type('profile-nickname', '  新昵称 ');
    await save();
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave.mock.calls[0][0]).toMatchObject({
      nickname: '新昵称',
      email: 'shop@example.com',
      country_region: 'HK',
      area: '九龙',
      contact_phone: '+86 138-0013-8000',
    });
    // The integration settings have their own form: this one leaves them out.
    expect(onSave.mock.calls[0][0]).not.toHaveProperty('notify_url');
    expect(onSave.mock.calls[0][0]).not.toHaveProperty('ip_whitelist');
    await waitFor(() => expect(screen.getByTestId('profile-nickname')).toHaveValue('新昵称'));
    expect(showSuccessMessage).toHaveBeenCalledWith('保存成功');
  });

  it('saves a Chinese mainland area picked as province / city / county codes', async () => {
    const mainland = { ...filledProfile, country_region: 'CN', area: '440000/440300/440305' };
    const onSave = await renderForm(mainland, vi.fn().mockResolvedValue(mainland));
    await waitFor(() => expect(screen.getByTestId('profile-area')).toHaveTextContent('广东省 / 深圳市 / 南山区'));
    await save();
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave.mock.calls[0][0]).toMatchObject({ country_region: 'CN', area: '440000/440300/440305' });
    expect(errorOf('area')).toBe('');
  });

  it('shows server field errors on their fields and the generic failure message', async () => {
    const failure = new ApiError('“10.0.0.300”不是有效的 IPv4、IPv6 地址或 CIDR 网段', {
      kind: 'envelope',
      code: 40000,
      status: 400,
      data: {
        fields: { contact_phone: '服务端：电话无效', email: '服务端：邮箱无效' },
        keys: { contact_phone: 'profile.phone.invalid', email: 'profile.email.invalid' },
      },
    });
    await renderForm(filledProfile, vi.fn().mockRejectedValue(failure));
    await save();
    await expectErrors({ contact_phone: '服务端：电话无效', email: '服务端：邮箱无效' });
    expect(showErrorMessage).toHaveBeenCalledWith('表单提交失败，请重试', 5);
    expect(showSuccessMessage).not.toHaveBeenCalled();
  });

  it('says the failure in English too', async () => {
    await changeLocale('en-US');
    await renderForm(filledProfile, vi.fn().mockRejectedValue(new ApiError('Request Error', { kind: 'transport' })));
    await save();
    await waitFor(() => expect(showErrorMessage).toHaveBeenCalledWith('Form submission failed, please retry', 5));
  });
});

describe('form values', () => {
  it('turns area codes into the cascader path and back', () => {
    const values = toFormValues({ ...filledProfile, country_region: 'CN', area: '110000/110100/110101' });
    expect(values.area).toEqual(['110000', '110100', '110101']);
    expect(toChangeInfoRequest(values).area).toBe('110000/110100/110101');
    expect(toFormValues(filledProfile).area).toBe('九龙');
    expect(toFormValues({ ...emptyProfile, country_region: '' }).country_region).toBeUndefined();
  });
});
