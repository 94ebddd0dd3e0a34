import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { showErrorMessage, showSuccessMessage, showWarningMessage } from '@/lib/feedback';
import { changeLocale } from '@/lib/i18n';
import { ApiError, get as getCall, post as postCall } from '@/lib/request';
import { SESSION_KEYS } from '@/lib/session';
import TwoFactorPage from './two-factor-page';

vi.mock('@/lib/request', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/request')>()),
  get: vi.fn(),
  post: vi.fn(),
}));
vi.mock('@/lib/feedback', () => ({
  showErrorMessage: vi.fn(),
  showSuccessMessage: vi.fn(),
  showWarningMessage: vi.fn(),
}));

const get = vi.mocked(getCall);
const post = vi.mocked(postCall);

const OFF = { enabled: false, enabled_at: null, backup_codes_count: 0 };
const ON = { enabled: true, enabled_at: '2026-11-22T08:00:00Z', backup_codes_count: 10 };
const SETUP = {
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  qr_code_url: 'data:image/svg+xml;base64,PHN2Zy8+',
  backup_codes: ['11111111', '22222222'],
  temp_key: 'temp-key',
};

/** Answer GETs by URL; status answers come from a queue (the last one repeats). */
function server(statuses: unknown[]) {
  const queue = [...statuses];
  get.mockImplementation(async (url: string) => {
    if (url.endsWith('get2FAStatus')) {
      const next = queue.length > 1 ? queue.shift() : queue[0];
      if (next instanceof Error) throw next;
      return next;
    }
    if (url.endsWith('setup2FA')) return SETUP;
    throw new Error(`unexpected GET ${url}`);
  });
}

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <TwoFactorPage />
    </QueryClientProvider>,
  );
}

async function click(testId: string) {
  await act(async () => {
    fireEvent.click(screen.getByTestId(testId));
  });
}

beforeEach(() => {
  vi.clearAllMocks();
  // The status query runs only with a session.
  localStorage.setItem(SESSION_KEYS.token, 'test-token');
});
afterEach(async () => {
  cleanup();
  await changeLocale('zh-CN');
});

describe('<TwoFactorPage>', () => {
  it('loads, then offers the setup while two-factor is off', async () => {
    server([OFF]);
    renderPage();
    expect(screen.getByTestId('two-factor-loading')).toHaveTextContent('正在加载双因素认证状态...');
    expect(await screen.findByTestId('two-factor-not-enabled')).toHaveTextContent('双因素认证未启用');
    expect(screen.getByTestId('two-factor-begin-setup')).toBeEnabled();
  });

  it('a failed status load shows its failure message once and stops loading', async () => {
    server([new ApiError('boom', { kind: 'envelope', code: 50000 })]);
    await changeLocale('en-US');
    renderPage();
    expect(await screen.findByTestId('two-factor-load-failed')).toHaveTextContent(
      'Failed to get two-factor authentication status',
    );
    expect(screen.queryByTestId('two-factor-loading')).toBeNull();
    expect(showErrorMessage).toHaveBeenCalledWith('Failed to get two-factor authentication status', 5);
  });

  it('runs the wizard: scan, verify (rules, Enter), success, complete → enabled', async () => {
    server([OFF, ON]);
    post.mockResolvedValueOnce({ backup_codes: ['33333333', '44444444'] });
    renderPage();
    await screen.findByTestId('two-factor-begin-setup');
    await click('two-factor-begin-setup');

    const step1 = await screen.findByTestId('two-factor-step-1');
    expect(screen.getByTestId('two-factor-qr-loading')).toBeInTheDocument();
    fireEvent.load(screen.getByTestId('two-factor-qr'));
    expect(screen.queryByTestId('two-factor-qr-loading')).toBeNull();
    expect(screen.getByTestId('two-factor-secret')).toHaveValue(SETUP.secret);
    expect(screen.getByTestId('two-factor-secret')).toHaveAttribute('readonly');
    expect(
      within(step1)
        .getAllByTestId('two-factor-backup-code')
        .map((item) => item.textContent),
    ).toEqual(SETUP.backup_codes);
    expect(screen.queryByTestId('two-factor-previous')).toBeNull();

    await click('two-factor-next');
    expect(screen.getByTestId('two-factor-step-2')).toBeInTheDocument();
    await click('two-factor-enable');
    expect(screen.getByTestId('two-factor-code-error')).toHaveTextContent('请输入验证码');
    fireEvent.change(screen.getByTestId('two-factor-code'), { target: { value: '12x3' } });
    expect(screen.getByTestId('two-factor-code')).toHaveValue('123');
    expect(screen.getByTestId('two-factor-code-error')).toHaveTextContent('请输入6位验证码');
    expect(post).not.toHaveBeenCalled();

    fireEvent.change(screen.getByTestId('two-factor-code'), { target: { value: '123456' } });
    // The current password is asked for too.
    await click('two-factor-enable');
    expect(screen.getByTestId('two-factor-password-error')).toHaveTextContent('请输入当前密码');
    expect(post).not.toHaveBeenCalled();
    fireEvent.change(screen.getByTestId('two-factor-password'), { target: { value: 'Merchant123' } });
    await act(async () => {
      fireEvent.keyDown(screen.getByTestId('two-factor-code'), { key: 'Enter', code: 'Enter', keyCode: 13 });
    });
    expect(post).toHaveBeenCalledWith(
      '/adminapi/google-auth/enable2FA',
      { code: '123456', temp_key: 'temp-key', password: 'Merchant123' },
      { quietErrors: true },
    );
    const step3 = await screen.findByTestId('two-factor-step-3');
    expect(step3).toHaveTextContent('双因素认证启用成功！');
    expect(showSuccessMessage).toHaveBeenCalledWith('双因素认证启用成功！');
    expect(
      within(step3)
        .getAllByTestId('two-factor-backup-code')
        .map((item) => item.textContent),
    ).toEqual(['33333333', '44444444']);
    // The status was reloaded.
    await waitFor(() => expect(get.mock.calls.filter(([url]) => url.endsWith('get2FAStatus'))).toHaveLength(2));

    await click('two-factor-complete');
    expect(await screen.findByTestId('two-factor-enabled')).toHaveTextContent(
      '现在登录时需要输入身份验证器中的验证码。',
    );
    expect(screen.getByTestId('two-factor-remaining')).toHaveTextContent('10');
    expect(screen.getByTestId('two-factor-download-codes')).toBeInTheDocument();
  });

  it('a refused enable shows its failure message and stops loading; cancel returns to not enabled', async () => {
    server([OFF]);
    post.mockRejectedValueOnce(new ApiError('x', { kind: 'envelope', code: 40110 }));
    await changeLocale('en-US');
    renderPage();
    await screen.findByTestId('two-factor-begin-setup');
    await click('two-factor-begin-setup');
    await click('two-factor-next');
    fireEvent.change(screen.getByTestId('two-factor-code'), { target: { value: '000000' } });
    fireEvent.change(screen.getByTestId('two-factor-password'), { target: { value: 'Merchant123' } });
    await click('two-factor-enable');
    await waitFor(() =>
      expect(showErrorMessage).toHaveBeenCalledWith('Verification code is incorrect, please try again', 5),
    );
    expect(screen.getByTestId('two-factor-enable')).not.toHaveClass('ant-btn-loading');
    await click('two-factor-previous');
    await click('two-factor-cancel');
    expect(screen.getByTestId('two-factor-not-enabled')).toBeInTheDocument();
    // Starting again begins at step 1 with an empty code.
    await click('two-factor-begin-setup');
    await click('two-factor-next');
    expect(screen.getByTestId('two-factor-code')).toHaveValue('');
  });

  it('enabled: download without held codes warns; disable with a backup code returns to not enabled', async () => {
    server([ON, OFF]);
    post.mockRejectedValueOnce(new ApiError('x', { kind: 'envelope', code: 40110 })).mockResolvedValueOnce(null);
    renderPage();
    await screen.findByTestId('two-factor-enabled');
    await click('two-factor-download-codes');
    expect(showWarningMessage).toHaveBeenCalledWith('没有可下载的备用验证码');

    await click('two-factor-disable');
    const dialog = await screen.findByTestId('two-factor-disable-dialog');
    expect(dialog).toHaveTextContent('这会降低账户的安全性');
    expect(screen.getByTestId('two-factor-disable-code-input')).toHaveValue('');
    fireEvent.change(screen.getByTestId('two-factor-disable-code-input'), { target: { value: '12' } });
    await click('two-factor-disable-confirm');
    expect(screen.getByTestId('two-factor-disable-code-error')).toHaveTextContent('请输入6位验证码');
    fireEvent.change(screen.getByTestId('two-factor-disable-code-input'), { target: { value: '123456' } });
    await click('two-factor-disable-confirm');
    await waitFor(() => expect(showErrorMessage).toHaveBeenCalledWith('验证码错误，请重试', 5));
    expect(screen.getByTestId('two-factor-disable-code-input')).toHaveValue('');

    await click('two-factor-disable-code-forgot');
    fireEvent.change(screen.getByTestId('two-factor-disable-code-input'), { target: { value: '8765-4321' } });
    await click('two-factor-disable-confirm');
    expect(post).toHaveBeenLastCalledWith(
      '/adminapi/google-auth/disable2FA',
      { code: '87654321' },
      { quietErrors: true },
    );
    expect(await screen.findByTestId('two-factor-not-enabled')).toBeInTheDocument();
    expect(showSuccessMessage).toHaveBeenCalledWith('双因素认证已禁用');
  });

  it('regenerate replaces the codes and shows them once; view codes explains otherwise', async () => {
    server([ON]);
    post
      .mockRejectedValueOnce(new ApiError('x', { kind: 'envelope', code: 40110 }))
      .mockResolvedValueOnce({ backup_codes: ['55555555', '66666666'] });
    renderPage();
    await screen.findByTestId('two-factor-enabled');
    await click('two-factor-view-codes');
    expect(await screen.findByTestId('two-factor-codes-dialog')).toHaveTextContent('未使用的备用验证码：10 个');
    await click('two-factor-codes-regenerate');
    expect(await screen.findByTestId('two-factor-regenerate-dialog')).toHaveTextContent('替换现有的全部备用验证码');
    fireEvent.change(screen.getByTestId('two-factor-regenerate-code-input'), { target: { value: '111111' } });
    await click('two-factor-regenerate-confirm');
    await waitFor(() => expect(showErrorMessage).toHaveBeenCalledWith('重新生成备用验证码失败', 5));
    fireEvent.change(screen.getByTestId('two-factor-regenerate-code-input'), { target: { value: '222222' } });
    await click('two-factor-regenerate-confirm');
    await waitFor(() => expect(showSuccessMessage).toHaveBeenCalledWith('备用验证码已重新生成'));
    const codes = await screen.findByTestId('two-factor-dialog-codes');
    expect(
      within(codes)
        .getAllByTestId('two-factor-backup-code')
        .map((item) => item.textContent),
    ).toEqual(['55555555', '66666666']);
  });
});
