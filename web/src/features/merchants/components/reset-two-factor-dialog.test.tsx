import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { showSuccessMessage } from '@/lib/feedback';
import { changeLocale } from '@/lib/i18n';
import { ApiError, get, post } from '@/lib/request';
import { withProviders } from '@/test/query-wrapper';
import { type MerchantUser, RESET_TWO_FACTOR_URL } from '../api/merchants';
import { ResetTwoFactorDialog } from './reset-two-factor-dialog';

vi.mock('@/lib/feedback', () => ({ showErrorMessage: vi.fn(), showSuccessMessage: vi.fn() }));
vi.mock('@/lib/session', async (original) => ({ ...(await original<object>()), hasToken: () => true }));
vi.mock('@/lib/request', async (original) => ({
  ...(await original<object>()),
  post: vi.fn(),
  get: vi.fn(),
}));
const mockedPost = vi.mocked(post);
const mockedGet = vi.mocked(get);

const alice: MerchantUser = {
  user_id: 7,
  username: 'alice',
  name: 'Alice',
  role: 'finance',
  disabled: false,
  removed: false,
  must_change_password: false,
  created_at: '2026-11-20T08:00:00Z',
  last_sign_in: null,
  two_factor_enabled: true,
};

async function open(ownEnabled: boolean) {
  mockedGet.mockReset().mockResolvedValue({ enabled: ownEnabled, backup_codes_count: 0 });
  const onClose = vi.fn();
  await act(async () => {
    render(<ResetTwoFactorDialog user={alice} onClose={onClose} />, { wrapper: withProviders() });
  });
  await waitFor(() => expect(screen.getByTestId('reset-2fa-confirm')).not.toHaveClass('ant-btn-loading'));
  return onClose;
}

const confirm = () => act(async () => fireEvent.click(screen.getByTestId('reset-2fa-confirm')));

beforeEach(async () => {
  mockedPost.mockReset();
  vi.mocked(showSuccessMessage).mockReset();
  await changeLocale('en-US');
});

describe('reset two-factor dialog', () => {
  it('says what follows, then resets with the session alone for an administrator without two-factor', async () => {
    mockedPost.mockResolvedValue(null);
    const onClose = await open(false);
    expect(screen.getByText(/Turn off two-factor authentication of alice\?/)).toBeInTheDocument();
    expect(screen.queryByTestId('reset-2fa-code-input')).not.toBeInTheDocument();
    await confirm();
    expect(mockedPost).toHaveBeenCalledWith(RESET_TWO_FACTOR_URL, { user_id: 7 }, { quietErrors: true });
    expect(showSuccessMessage).toHaveBeenCalledWith('Two-factor authentication of alice is off');
    expect(onClose).toHaveBeenCalled();
  });

  it('asks an administrator with two-factor on for their own code and sends it', async () => {
    mockedPost.mockResolvedValue(null);
    await open(true);
    expect(screen.getByText(/enter your own code/)).toBeInTheDocument();
    await confirm();
    // The field's own rule stops an empty code before the server sees it.
    expect(mockedPost).not.toHaveBeenCalled();
    fireEvent.change(screen.getByTestId('reset-2fa-code-input'), { target: { value: '123456' } });
    await confirm();
    expect(mockedPost).toHaveBeenCalledWith(
      RESET_TWO_FACTOR_URL,
      { user_id: 7, code: '123456' },
      { quietErrors: true },
    );
  });

  it('shows the code field when the server asks for it, and a wrong code in the dialog', async () => {
    mockedPost
      .mockRejectedValueOnce(new ApiError('Verification code is incorrect', { kind: 'envelope', code: 40110 }))
      .mockRejectedValueOnce(new ApiError('Verification code is incorrect', { kind: 'envelope', code: 40110 }));
    const onClose = await open(false);
    await confirm();
    expect(await screen.findByTestId('reset-2fa-code-input')).toBeInTheDocument();
    expect(screen.queryByTestId('reset-2fa-refusal')).not.toBeInTheDocument();
    fireEvent.change(screen.getByTestId('reset-2fa-code-input'), { target: { value: '654321' } });
    await confirm();
    expect(await screen.findByTestId('reset-2fa-refusal')).toHaveTextContent('Verification code is incorrect');
    expect(screen.getByTestId('reset-2fa-code-input')).toHaveValue('');
    expect(onClose).not.toHaveBeenCalled();
    expect(showSuccessMessage).not.toHaveBeenCalled();
  });

  it("shows the server's reason when the user has no two-factor", async () => {
    mockedPost.mockRejectedValueOnce(
      new ApiError('Two-factor authentication is not enabled', { kind: 'envelope', code: 40900 }),
    );
    await open(false);
    await confirm();
    expect(await screen.findByTestId('reset-2fa-refusal')).toHaveTextContent(
      'Two-factor authentication is not enabled',
    );
    expect(screen.queryByTestId('reset-2fa-code-input')).not.toBeInTheDocument();
  });
});
