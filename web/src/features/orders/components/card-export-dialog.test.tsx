import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { saveBlob } from '@/lib/download';
import { changeLocale } from '@/lib/i18n';
import { ApiError, get, postBlob } from '@/lib/request';
import { withProviders } from '@/test/query-wrapper';
import { CARD_EXPORT_URL, type CardExportChoice, isStrongExportPassword } from '../api/card-export';
import { CardExportDialog } from './card-export-dialog';

vi.mock('@/lib/request', async (original) => ({ ...(await original<object>()), get: vi.fn(), postBlob: vi.fn() }));
vi.mock('@/lib/download', async (original) => ({ ...(await original<object>()), saveBlob: vi.fn() }));
vi.mock('@/lib/session', async (original) => ({ ...(await original<object>()), hasToken: () => true }));
const mockedGet = vi.mocked(get);
const mockedPost = vi.mocked(postBlob);
const mockedSave = vi.mocked(saveBlob);

function show(choice: CardExportChoice, count: number, onClose = vi.fn()) {
  render(<CardExportDialog choice={choice} count={count} onClose={onClose} />, { wrapper: withProviders() });
  return onClose;
}
const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });
const submit = () => act(async () => fireEvent.click(screen.getByTestId('card-export-submit')));

beforeEach(async () => {
  mockedGet.mockReset();
  mockedPost.mockReset();
  mockedSave.mockReset();
  mockedGet.mockResolvedValue({ enabled: false });
  await changeLocale('en-US');
});

describe('CardExportDialog', () => {
  it('checks the password rule and the confirmation before anything is sent', async () => {
    show({ orderIds: [3, 5] }, 2);
    expect(screen.getByTestId('card-export-count')).toHaveTextContent('Exports the 2 chosen orders');
    type('card-export-password', 'abcdefgh');
    await submit();
    expect(screen.getByText('8 to 64 characters, with both letters and digits')).toBeInTheDocument();
    type('card-export-password', 'abcdefg1');
    type('card-export-confirm', 'abcdefg2');
    await submit();
    expect(screen.getByText('The two passwords differ')).toBeInTheDocument();
    expect(mockedPost).not.toHaveBeenCalled();
  });

  it('posts the chosen ids and the password in the body, saves 卡密-<date>.xlsx and closes', async () => {
    mockedPost.mockResolvedValue(new Blob(['file']));
    const onClose = show({ orderIds: [3, 5] }, 2);
    type('card-export-password', 'Secret123');
    type('card-export-confirm', 'Secret123');
    await submit();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(mockedPost).toHaveBeenCalledTimes(1);
    expect(mockedPost).toHaveBeenCalledWith(
      CARD_EXPORT_URL,
      { order_ids: [3, 5], password: 'Secret123' },
      { quietErrors: true },
    );
    expect(mockedSave.mock.calls[0][1]).toMatch(/^卡密-\d{8}\.xlsx$/);
  });

  it('a double click sends one export', async () => {
    let answer: (blob: Blob) => void = () => undefined;
    mockedPost.mockReturnValue(new Promise<Blob>((resolve) => (answer = resolve)));
    show({ filter: { kind: 'card', sort: 'desc', status: 2 } }, 40);
    type('card-export-password', 'Secret123');
    type('card-export-confirm', 'Secret123');
    await submit();
    await submit();
    expect(mockedPost).toHaveBeenCalledTimes(1);
    expect(mockedPost.mock.calls[0][1]).toEqual({ filter: { kind: 'card', status: 2 }, password: 'Secret123' });
    await act(async () => answer(new Blob(['file'])));
  });

  it('asks for the two-factor code when it is on and shows a refusal in the dialog', async () => {
    mockedGet.mockResolvedValue({ enabled: true });
    mockedPost.mockRejectedValue(new ApiError('Wrong code', { kind: 'envelope', code: 40110 }));
    const onClose = show({ orderIds: [7] }, 1);
    expect(await screen.findByTestId('card-export-code-input')).toBeInTheDocument();
    type('card-export-password', 'Secret123');
    type('card-export-confirm', 'Secret123');
    await submit();
    expect(mockedPost).not.toHaveBeenCalled();
    type('card-export-code-input', '123456');
    await submit();
    expect(await screen.findByTestId('card-export-refusal')).toHaveTextContent('Wrong code');
    expect(mockedPost.mock.calls[0][1]).toEqual({ order_ids: [7], password: 'Secret123', code: '123456' });
    expect(onClose).not.toHaveBeenCalled();
  });

  it('refuses more than 10,000 orders before asking for a password', async () => {
    show({ filter: { kind: 'card', sort: 'desc' } }, 10_001);
    expect(screen.getByTestId('card-export-too-many')).toHaveTextContent('At most 10000 orders');
    expect(screen.getByTestId('card-export-submit')).toBeDisabled();
  });

  it('shows the count and rule in Chinese', async () => {
    await changeLocale('zh-CN');
    show({ filter: { kind: 'card', sort: 'desc' } }, 12);
    expect(screen.getByTestId('card-export-count')).toHaveTextContent('符合当前筛选条件的 12 笔订单');
    expect(screen.getByText('8 至 64 个字符，须同时包含字母和数字')).toBeInTheDocument();
  });
});

describe('isStrongExportPassword', () => {
  it('wants 8 to 64 characters with letters and digits', () => {
    expect(isStrongExportPassword('abcdefg1')).toBe(true);
    expect(isStrongExportPassword('卡密密码安全12')).toBe(true);
    for (const weak of ['', 'abc123', 'abcdefgh', '12345678', `a1${'x'.repeat(63)}`, 'abcdefg1\n']) {
      expect(isStrongExportPassword(weak)).toBe(false);
    }
  });
});
