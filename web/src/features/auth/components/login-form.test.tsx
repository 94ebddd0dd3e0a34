import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLocale } from '@/lib/i18n';
import { ApiError } from '@/lib/request';
import { login } from '../session-actions';
import { LoginForm } from './login-form';

vi.mock('../session-actions', () => ({ login: vi.fn() }));
const mockedLogin = vi.mocked(login);

function fill(username: string, password: string) {
  fireEvent.change(screen.getByTestId('login-username'), { target: { value: username } });
  fireEvent.change(screen.getByTestId('login-password'), { target: { value: password } });
}

async function submit() {
  await act(async () => {
    fireEvent.click(screen.getByTestId('login-submit'));
  });
}

beforeEach(() => mockedLogin.mockReset());
afterEach(async () => {
  cleanup();
  vi.useRealTimers();
  await changeLocale('zh-CN');
});

describe('<LoginForm>', () => {
  it('requires both fields, in Chinese by default', async () => {
    render(<LoginForm onLoggedIn={vi.fn()} />);
    await submit();
    expect(screen.getByTestId('login-username-error')).toHaveTextContent('用户名不能为空');
    expect(screen.getByTestId('login-password-error')).toHaveTextContent('密码不能为空');
    expect(mockedLogin).not.toHaveBeenCalled();
  });

  it("clears a field's message as it is filled in after a refused submit", async () => {
    render(<LoginForm onLoggedIn={vi.fn()} />);
    await submit();
    expect(screen.getByTestId('login-username-error')).toHaveTextContent('用户名不能为空');
    const input = screen.getByTestId<HTMLInputElement>('login-username');
    input.value = 'm';
    fireEvent.input(input);
    expect(screen.getByTestId('login-username-error')).toBeEmptyDOMElement();
    expect(screen.getByTestId('login-password-error')).toHaveTextContent('密码不能为空');
  });

  it('requires both fields in English too, and treats a blank username as empty', async () => {
    await changeLocale('en-US');
    render(<LoginForm onLoggedIn={vi.fn()} />);
    fill('   ', '');
    await submit();
    expect(screen.getByTestId('login-username-error')).toHaveTextContent('username cannot be empty');
    expect(screen.getByTestId('login-password-error')).toHaveTextContent('password cannot be empty');
  });

  it('logs in with the trimmed username and reports success', async () => {
    mockedLogin.mockResolvedValueOnce({} as never);
    const onLoggedIn = vi.fn();
    render(<LoginForm onLoggedIn={onLoggedIn} />);
    fill(' merchant ', 'Merchant123');
    await submit();
    expect(mockedLogin).toHaveBeenCalledWith({ username: 'merchant', password: 'Merchant123' });
    expect(onLoggedIn).toHaveBeenCalledTimes(1);
  });

  it('sends what a password manager filled in through the inputs themselves', async () => {
    mockedLogin.mockResolvedValueOnce({} as never);
    render(<LoginForm onLoggedIn={vi.fn()} />);
    // As some password managers fill: the element's own `value`, then an input event.
    for (const [testId, value] of [
      ['login-username', 'merchant'],
      ['login-password', 'Merchant123'],
    ]) {
      const input = screen.getByTestId<HTMLInputElement>(testId);
      input.value = value;
      fireEvent.input(input);
    }
    await submit();
    expect(screen.getByTestId('login-username-error')).toBeEmptyDOMElement();
    expect(mockedLogin).toHaveBeenCalledWith({ username: 'merchant', password: 'Merchant123' });
  });

  it('sends once when submitted again while the first sign-in is on its way', async () => {
    let answer: (value: never) => void = () => undefined;
    mockedLogin.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    render(<LoginForm onLoggedIn={vi.fn()} />);
    fill('merchant', 'Merchant123');
    const form = screen.getByTestId<HTMLFormElement>('login-form');
    await act(async () => {
      fireEvent.submit(form);
      fireEvent.submit(form);
    });
    await act(async () => answer({} as never));
    expect(mockedLogin).toHaveBeenCalledTimes(1);
  });

  it('shows the server message, clears the password and stays on the form', async () => {
    mockedLogin.mockRejectedValueOnce(new ApiError('account or password wrong', { kind: 'envelope', code: 40100 }));
    const onLoggedIn = vi.fn();
    render(<LoginForm onLoggedIn={onLoggedIn} />);
    fill('merchant', 'bad');
    await submit();
    expect(screen.getByTestId('login-error')).toHaveTextContent('account or password wrong');
    expect(screen.getByTestId('login-password')).toHaveValue('');
    expect(onLoggedIn).not.toHaveBeenCalled();
  });

  it('disables the button while throttled and counts down', async () => {
    vi.useFakeTimers();
    mockedLogin.mockRejectedValueOnce(
      new ApiError('too many attempts', { kind: 'envelope', code: 42900, data: { retry_after_seconds: 2 } }),
    );
    render(<LoginForm onLoggedIn={vi.fn()} />);
    fill('merchant', 'bad');
    await submit();
    expect(screen.getByTestId('login-error')).toHaveTextContent('too many attempts');
    expect(screen.getByTestId('login-error')).toHaveTextContent('2');
    expect(screen.getByTestId('login-submit')).toBeDisabled();
    for (let second = 0; second < 2; second++) {
      await act(async () => {
        vi.advanceTimersByTime(1000);
      });
    }
    expect(screen.getByTestId('login-submit')).toBeEnabled();
  });
});
