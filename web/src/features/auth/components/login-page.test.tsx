import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLocale } from '@/lib/i18n';
import { ApiError } from '@/lib/request';
import type { LoginResult } from '../api/sign-in-requests';
import { login, verifyTwoFactorLogin } from '../session-actions';
import { LoginPage } from './login-page';

vi.mock('../session-actions', () => ({ login: vi.fn(), verifyTwoFactorLogin: vi.fn() }));
const mockedLogin = vi.mocked(login);
const mockedVerify = vi.mocked(verifyTwoFactorLogin);

const challenge = { need_2fa: true as const, pending_token: 'pending-1', expires_at: '2030-01-01T00:00:00Z' };
// The page only tells a session from a challenge: the profile and the server's information
// that come with a session are left out.
const session = {
  token: 't',
  loginfo: { user_id: 1, username: 'admin', role: 'admin', mid: null, must_change_password: false },
  expires_at: '2030-01-01T00:00:00Z',
} as LoginResult;

async function click(testId: string) {
  await act(async () => {
    fireEvent.click(screen.getByTestId(testId));
  });
}

async function passwordStep(username = 'admin', password = 'Admin123') {
  fireEvent.change(screen.getByTestId('login-username'), { target: { value: username } });
  fireEvent.change(screen.getByTestId('login-password'), { target: { value: password } });
  await click('login-submit');
}

function typeCode(value: string) {
  fireEvent.change(screen.getByTestId('login-2fa-code-input'), { target: { value } });
}

beforeEach(() => {
  mockedLogin.mockReset();
  mockedVerify.mockReset();
});
afterEach(async () => {
  cleanup();
  vi.useRealTimers();
  await changeLocale('zh-CN');
});

describe('<LoginPage> with two-factor', () => {
  it('without two-factor the password step signs in directly', async () => {
    mockedLogin.mockResolvedValueOnce(session);
    const onLoggedIn = vi.fn();
    render(<LoginPage onLoggedIn={onLoggedIn} />);
    await passwordStep();
    expect(onLoggedIn).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId('login-2fa-form')).toBeNull();
  });

  it('need_2fa: asks for the code, then signs in with the pending token and the code', async () => {
    mockedLogin.mockResolvedValueOnce(challenge);
    mockedVerify.mockResolvedValueOnce(session);
    const onLoggedIn = vi.fn();
    render(<LoginPage onLoggedIn={onLoggedIn} />);
    await passwordStep(' admin ');
    expect(onLoggedIn).not.toHaveBeenCalled();
    expect(screen.queryByTestId('login-form')).toBeNull();
    expect(screen.getByTestId('login-2fa-title')).toHaveTextContent('双因素认证');
    expect(screen.getByTestId('login-2fa-form')).toHaveTextContent('正在登录：admin');
    expect(screen.getByTestId('login-2fa-code-input')).toHaveFocus();

    await click('login-2fa-submit');
    expect(screen.getByTestId('login-2fa-code-error')).toHaveTextContent('请输入验证码');
    expect(mockedVerify).not.toHaveBeenCalled();

    typeCode('12a3456');
    await click('login-2fa-submit');
    expect(mockedVerify).toHaveBeenCalledWith({ pending_token: 'pending-1', code: '123456' });
    expect(onLoggedIn).toHaveBeenCalledTimes(1);
  });

  it('accepts a backup code after "Forgot code"', async () => {
    mockedLogin.mockResolvedValueOnce(challenge);
    mockedVerify.mockResolvedValueOnce(session);
    await changeLocale('en-US');
    render(<LoginPage onLoggedIn={vi.fn()} />);
    await passwordStep();
    await click('login-2fa-code-forgot');
    expect(screen.getByTestId('login-2fa-hint')).toHaveTextContent('8-digit backup codes');
    typeCode('1234567');
    await click('login-2fa-submit');
    expect(screen.getByTestId('login-2fa-code-error')).toHaveTextContent('The backup code must be 8 digits');
    typeCode('12345678');
    await click('login-2fa-submit');
    expect(mockedVerify).toHaveBeenCalledWith({ pending_token: 'pending-1', code: '12345678' });
  });

  it('40110: shows the message, clears the code and stays on the code step', async () => {
    mockedLogin.mockResolvedValueOnce(challenge);
    mockedVerify.mockRejectedValueOnce(new ApiError('验证码错误，请重试', { kind: 'envelope', code: 40110 }));
    const onLoggedIn = vi.fn();
    render(<LoginPage onLoggedIn={onLoggedIn} />);
    await passwordStep();
    typeCode('000000');
    await click('login-2fa-submit');
    expect(screen.getByTestId('login-2fa-error')).toHaveTextContent('验证码错误，请重试');
    expect(screen.getByTestId('login-2fa-code-input')).toHaveValue('');
    expect(screen.getByTestId('login-2fa-code-error')).toBeEmptyDOMElement();
    expect(screen.getByTestId('login-2fa-form')).toBeInTheDocument();
    expect(onLoggedIn).not.toHaveBeenCalled();
  });

  it('40120: back to the password step with the reason and the username kept', async () => {
    mockedLogin.mockResolvedValueOnce(challenge);
    mockedVerify.mockRejectedValueOnce(new ApiError('登录验证已失效，请重新登录', { kind: 'envelope', code: 40120 }));
    render(<LoginPage onLoggedIn={vi.fn()} />);
    await passwordStep();
    typeCode('123456');
    await click('login-2fa-submit');
    expect(screen.queryByTestId('login-2fa-form')).toBeNull();
    expect(screen.getByTestId('login-error')).toHaveTextContent('登录验证已失效，请重新登录');
    expect(screen.getByTestId('login-username')).toHaveValue('admin');
    expect(screen.getByTestId('login-password')).toHaveValue('');
  });

  it('42900: counts down before the next try', async () => {
    vi.useFakeTimers();
    mockedLogin.mockResolvedValueOnce(challenge);
    mockedVerify.mockRejectedValueOnce(
      new ApiError('尝试次数过多', { kind: 'envelope', code: 42900, data: { retry_after_seconds: 2 } }),
    );
    render(<LoginPage onLoggedIn={vi.fn()} />);
    await passwordStep();
    typeCode('123456');
    await click('login-2fa-submit');
    expect(screen.getByTestId('login-2fa-error')).toHaveTextContent('尝试次数过多');
    expect(screen.getByTestId('login-2fa-submit')).toBeDisabled();
    expect(screen.getByTestId('login-2fa-submit')).toHaveTextContent('(2s)');
    for (let second = 0; second < 2; second++) {
      await act(async () => {
        vi.advanceTimersByTime(1000);
      });
    }
    expect(screen.getByTestId('login-2fa-submit')).toBeEnabled();
  });

  it('"Back" returns to the password step without a message', async () => {
    mockedLogin.mockResolvedValueOnce(challenge);
    render(<LoginPage onLoggedIn={vi.fn()} />);
    await passwordStep();
    await click('login-2fa-back');
    expect(screen.getByTestId('login-form')).toBeInTheDocument();
    expect(screen.queryByTestId('login-error')).toBeNull();
    expect(screen.getByTestId('login-username')).toHaveValue('admin');
  });
});
