import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { showErrorMessage, showSuccessMessage } from '@/lib/feedback';
import { changeLocale } from '@/lib/i18n';
import { ApiError } from '@/lib/request';
import { withProviders } from '@/test/query-wrapper';
import type { Profile } from '../api/get-profile';
import { IntegrationForm } from './integration-form';

vi.setConfig({ testTimeout: 30_000 });
vi.mock('@/lib/feedback', () => ({ showErrorMessage: vi.fn(), showSuccessMessage: vi.fn() }));

// The demo merchant as it starts: none of the profile's required fields filled in.
const profile: Profile = {
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

async function renderForm(onSave = vi.fn()) {
  await act(async () => {
    render(<IntegrationForm profile={profile} onSave={onSave} />, { wrapper: withProviders() });
  });
  return onSave;
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

async function save() {
  await act(async () => {
    fireEvent.click(screen.getByTestId('integration-save'));
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

describe('<IntegrationForm>', () => {
  it('read-only (a role that may not save it): shows the values, disabled, with no save or reset', async () => {
    const onSave = vi.fn();
    await act(async () => {
      render(
        <IntegrationForm
          profile={{ ...profile, notify_url: 'https://shop.example/notify' }}
          onSave={onSave}
          readOnly
        />,
        { wrapper: withProviders() },
      );
    });
    const url = screen.getByTestId('integration-notify-url') as HTMLInputElement;
    expect(url.value).toBe('https://shop.example/notify');
    expect(url.disabled).toBe(true);
    expect((screen.getByTestId('integration-ip-whitelist') as HTMLTextAreaElement).disabled).toBe(true);
    expect(screen.queryByTestId('integration-save')).not.toBeVisible();
    expect(screen.getByTestId('integration-intro').textContent).toContain('只有所有者和开发者');
    expect(onSave).not.toHaveBeenCalled();
  });

  it('checks the IP whitelist: English commas and real addresses', async () => {
    await renderForm();
    await type('integration-ip-whitelist', '1.2.3.4，5.6.7.8');
    await expectErrors({ ip_whitelist: '多个 IP 请用英文逗号（,）分隔' });
    await type('integration-ip-whitelist', '1.2.3.4,999.1.1.1');
    await expectErrors({ ip_whitelist: '“999.1.1.1”不是有效的 IPv4、IPv6 地址或 CIDR 网段' });
    await act(async () => changeLocale('en-US'));
    await type('integration-ip-whitelist', '1.2.3.4，5.6.7.8');
    await expectErrors({ ip_whitelist: 'separate IP addresses with English commas (,)' });
    await type('integration-ip-whitelist', '1.2.3.4, 10.0.0.0/8');
    await expectErrors({ ip_whitelist: '' });
  });

  it('checks the callback URL', async () => {
    await changeLocale('en-US');
    const onSave = await renderForm();
    await type('integration-notify-url', 'ftp://example.com');
    await save();
    await expectErrors({ notify_url: 'the callback URL must be an http:// or https:// address' });
    expect(onSave).not.toHaveBeenCalled();
  });

  it('saves only its two fields, without the profile being complete, and shows what was stored', async () => {
    const stored = { ...profile, notify_url: 'https://shop.example.com/notify', ip_whitelist: '10.0.0.0/8,1.2.3.4' };
    const onSave = await renderForm(vi.fn().mockResolvedValue(stored));
    await type('integration-notify-url', ' https://shop.example.com/notify ');
    await type('integration-ip-whitelist', ' 10.1.2.3/8 , 1.2.3.4 ');
    await save();
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave.mock.calls[0][0]).toEqual({
      notify_url: 'https://shop.example.com/notify',
      ip_whitelist: '10.1.2.3/8 , 1.2.3.4',
    });
    await waitFor(() => expect(screen.getByTestId('integration-ip-whitelist')).toHaveValue('10.0.0.0/8,1.2.3.4'));
    expect(showSuccessMessage).toHaveBeenCalledWith('保存成功');
  });

  it('shows server field errors on their fields and the generic failure message', async () => {
    const failure = new ApiError('x', {
      kind: 'envelope',
      code: 40000,
      status: 400,
      data: { fields: { ip_whitelist: '服务端：白名单无效' }, keys: { ip_whitelist: 'profile.ip_whitelist.invalid' } },
    });
    await renderForm(vi.fn().mockRejectedValue(failure));
    await save();
    await expectErrors({ ip_whitelist: '服务端：白名单无效' });
    expect(showErrorMessage).toHaveBeenCalledWith('表单提交失败，请重试', 5);
  });
});
