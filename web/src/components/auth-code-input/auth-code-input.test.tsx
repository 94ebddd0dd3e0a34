import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { changeLocale } from '@/lib/i18n';
import type { AuthCodeRules } from './auth-code';
import { AuthCodeInput } from './auth-code-input';
import { useAuthCodeField } from './use-auth-code-field';

/** The input inside a form, as the login step and the dialogs use it. */
function Harness({
  onCode,
  rules,
  allowBackup,
}: {
  onCode: (code: string) => void;
  rules?: AuthCodeRules;
  allowBackup?: boolean;
}) {
  const field = useAuthCodeField(rules);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        const code = field.validate();
        if (code) onCode(code);
      }}
    >
      <AuthCodeInput field={field} allowBackup={allowBackup} />
      <button type="submit" data-testid="submit">
        ok
      </button>
    </form>
  );
}

const input = () => screen.getByTestId('auth-code-input') as HTMLInputElement;
const type = (value: string) => fireEvent.change(input(), { target: { value } });
const submit = () => act(() => fireEvent.click(screen.getByTestId('submit')));
const error = () => screen.getByTestId('auth-code-error');

afterEach(async () => {
  cleanup();
  await changeLocale('zh-CN');
});

describe('<AuthCodeInput>', () => {
  it('strips non-digits and stops at 6 digits', () => {
    render(<Harness onCode={vi.fn()} />);
    type('12 a3-45');
    expect(input()).toHaveValue('12345');
    type('1234567890');
    expect(input()).toHaveValue('123456');
    expect(input()).toHaveAttribute('maxlength', '6');
    expect(input()).toHaveAttribute('inputmode', 'numeric');
  });

  it('shows no error before the first submit, then the 6-digit rules in Chinese', async () => {
    const onCode = vi.fn();
    render(<Harness onCode={onCode} />);
    type('123');
    expect(error()).toBeEmptyDOMElement();
    await submit();
    expect(error()).toHaveTextContent('验证码必须是6位数字');
    expect(input()).toHaveAttribute('aria-invalid', 'true');
    type('');
    expect(error()).toHaveTextContent('请输入验证码');
    type('123456');
    expect(error()).toBeEmptyDOMElement();
    await submit();
    expect(onCode).toHaveBeenCalledWith('123456');
  });

  it('speaks English too', async () => {
    await changeLocale('en-US');
    render(<Harness onCode={vi.fn()} />);
    type('12');
    await submit();
    expect(error()).toHaveTextContent('The verification code must be 6 digits');
    fireEvent.click(screen.getByTestId('auth-code-forgot'));
    expect(screen.getByText('Backup code')).toBeInTheDocument();
    await submit();
    expect(error()).toHaveTextContent('The backup code must be 8 digits');
    expect(screen.getByTestId('auth-code-use-code')).toHaveTextContent('Use an authenticator code');
  });

  it("'Forgot code' switches to an 8-digit backup code, and back", async () => {
    const onCode = vi.fn();
    render(<Harness onCode={onCode} />);
    type('12345');
    fireEvent.click(screen.getByTestId('auth-code-forgot'));
    expect(screen.getByTestId('auth-code')).toHaveAttribute('data-mode', 'backup');
    expect(input()).toHaveValue('');
    expect(input()).toHaveAttribute('maxlength', '8');
    expect(input()).toHaveAttribute('placeholder', '8位备用验证码');
    expect(input()).toHaveFocus();
    await submit();
    expect(error()).toHaveTextContent('备用验证码必须是8位数字');
    type('1234 5678 99');
    expect(input()).toHaveValue('12345678');
    expect(error()).toBeEmptyDOMElement();
    await submit();
    expect(onCode).toHaveBeenCalledWith('12345678');

    fireEvent.click(screen.getByTestId('auth-code-use-code'));
    expect(screen.getByTestId('auth-code')).toHaveAttribute('data-mode', 'code');
    expect(input()).toHaveValue('');
    expect(input()).toHaveAttribute('maxlength', '6');
    expect(screen.getByTestId('auth-code-forgot')).toHaveTextContent('忘记验证码');
    expect(error()).toBeEmptyDOMElement();
  });

  it('takes a form’s own code-mode messages and can hide the backup switch', async () => {
    render(
      <Harness
        onCode={vi.fn()}
        allowBackup={false}
        rules={{ messages: { codeInvalid: 'twoFactor.validation.sixDigits' } }}
      />,
    );
    expect(screen.queryByTestId('auth-code-forgot')).toBeNull();
    type('1');
    await submit();
    expect(error()).toHaveTextContent('请输入6位验证码');
  });
});
