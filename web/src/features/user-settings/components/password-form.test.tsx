import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { showErrorMessage, showSuccessMessage } from '@/lib/feedback';
import { changeLocale } from '@/lib/i18n';
import { ApiError } from '@/lib/request';
import { PasswordForm } from './password-form';

// antd forms validate asynchronously; give a busy machine time (the first render also
// loads the area data).
vi.setConfig({ testTimeout: 30_000 });

vi.mock('@/lib/feedback', () => ({ showErrorMessage: vi.fn(), showSuccessMessage: vi.fn() }));

async function renderForm(onChange = vi.fn()) {
  await act(async () => {
    render(<PasswordForm onChange={onChange} />);
  });
  return onChange;
}

async function fill(values: { current?: string; next?: string; confirm?: string }) {
  await act(async () => {
    if (values.current !== undefined)
      fireEvent.change(screen.getByTestId('password-current'), { target: { value: values.current } });
    if (values.next !== undefined)
      fireEvent.change(screen.getByTestId('password-new'), { target: { value: values.next } });
    if (values.confirm !== undefined)
      fireEvent.change(screen.getByTestId('password-confirm'), { target: { value: values.confirm } });
  });
}

async function submit() {
  await act(async () => {
    fireEvent.click(screen.getByTestId('password-submit'));
  });
}

const errorOf = (field: string) => document.querySelector(`[id$="${field}_help"]`)?.textContent ?? '';

beforeEach(() => {
  vi.mocked(showErrorMessage).mockReset();
  vi.mocked(showSuccessMessage).mockReset();
});
afterEach(async () => {
  cleanup();
  await changeLocale('zh-CN');
});

describe('<PasswordForm> (password rule)', () => {
  it('explains each rule in Chinese', async () => {
    const onChange = await renderForm();
    await fill({ next: 'Ab1' });
    await submit();
    await waitFor(() => expect(errorOf('new_password')).toBe('密码至少 6 位'));
    expect(errorOf('current_password')).toBe('请输入当前密码');
    await fill({ next: 'abcdef1' });
    await waitFor(() => expect(errorOf('new_password')).toBe('密码必须同时包含数字、大写字母和小写字母'));
    await fill({ next: 'Abc 1234' });
    await waitFor(() => expect(errorOf('new_password')).toBe('密码只能包含数字、字母和非空格的特殊字符'));
    await fill({ next: 'Abc12345', confirm: 'Abc12346' });
    await waitFor(() => expect(errorOf('confirm_password')).toBe('两次输入的新密码不一致'));
    expect(onChange).not.toHaveBeenCalled();
  });

  it('explains each rule in English', async () => {
    await changeLocale('en-US');
    await renderForm();
    await fill({ next: 'Ab1' });
    await submit();
    await waitFor(() => expect(errorOf('new_password')).toBe('password must be at least 6 characters'));
    expect(errorOf('current_password')).toBe('please enter the current password');
    await fill({ next: 'ABCDEF1' });
    await waitFor(() =>
      expect(errorOf('new_password')).toBe('password must contain digits and both upper and lower case letters'),
    );
    await fill({ next: 'Abc 1234' });
    await waitFor(() =>
      expect(errorOf('new_password')).toBe(
        'password may contain only digits, letters and non-space special characters',
      ),
    );
    await fill({ confirm: 'other' });
    await waitFor(() => expect(errorOf('confirm_password')).toBe('the two new passwords do not match'));
  });

  it('changes the password and says how many other sessions ended', async () => {
    const onChange = await renderForm(vi.fn().mockResolvedValue({ changed: true, other_sessions_ended: 2 }));
    await fill({ current: 'Merchant123', next: 'Merchant456', confirm: 'Merchant456' });
    await submit();
    await waitFor(() =>
      expect(onChange).toHaveBeenCalledWith({ current_password: 'Merchant123', new_password: 'Merchant456' }),
    );
    await waitFor(() => expect(showSuccessMessage).toHaveBeenCalledWith('密码已修改，其他 2 个登录会话已退出'));
    expect(screen.getByTestId('password-new')).toHaveValue('');
  });

  it('treats a blank new password as no change', async () => {
    const onChange = await renderForm(vi.fn().mockResolvedValue({ changed: false, other_sessions_ended: 0 }));
    await submit();
    await waitFor(() => expect(onChange).toHaveBeenCalledWith({ current_password: '', new_password: '' }));
    await waitFor(() => expect(showSuccessMessage).toHaveBeenCalledWith('新密码为空，密码未修改'));
  });

  it('puts a wrong current password on its field', async () => {
    const wrong = new ApiError('当前密码错误', {
      kind: 'envelope',
      code: 40000,
      data: { fields: { current_password: '当前密码错误' }, keys: { current_password: 'password.current.wrong' } },
    });
    await renderForm(vi.fn().mockRejectedValue(wrong));
    await fill({ current: 'Nope1234', next: 'Merchant456', confirm: 'Merchant456' });
    await submit();
    await waitFor(() => expect(errorOf('current_password')).toBe('当前密码错误'));
    expect(showErrorMessage).toHaveBeenCalledWith('表单提交失败，请重试', 5);
  });
});
