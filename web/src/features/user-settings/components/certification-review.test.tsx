import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLocale } from '@/lib/i18n';
import { postJson } from '@/lib/request';
import { useUserStore } from '@/stores/user-store';
import { withProviders } from '@/test/query-wrapper';
import { CERTIFICATION_LIST_URL, CERTIFICATION_REVIEW_URL, type CertificationRecord } from '../api/certification';
import { CertificationTab } from './certification-tab';

vi.mock('@/lib/feedback', () => ({ showErrorMessage: vi.fn(), showSuccessMessage: vi.fn() }));
vi.mock('@/lib/request', async (original) => ({ ...(await original<object>()), postJson: vi.fn() }));
const mockedPost = vi.mocked(postJson);

const record = (id: number, status: number, username: string): CertificationRecord => ({
  id,
  mid: 10000 + id,
  username,
  certification_type: 'enterprise',
  certification_content: '示例企业 / legal person 张三',
  status,
  reject_reason: '',
  time: '2026-11-20T08:00:00Z',
  decided_at: null,
  legal_person: '张三',
  legal_person_certificate_type: 'id_card',
  legal_person_certificate_number: '1101**********1234',
  enterprise_name: `Enterprise ${id}`,
  enterprise_certificate_type: 'unified_social_credit_code',
  enterprise_certificate_number: '9111**********12',
  organization_code: 'MA01',
  numbers_masked: true,
});

beforeEach(async () => {
  await changeLocale('en-US');
  mockedPost.mockReset().mockImplementation(async (url: string, body?: unknown) => {
    if (url === CERTIFICATION_LIST_URL) {
      const status = (body as { status?: number }).status;
      // The admin's own list (no status) has nothing; the review list has one auditing record.
      return status === 0 ? [record(7, 0, 'shop')] : [];
    }
    if (url === CERTIFICATION_REVIEW_URL) return { ...record(7, 1, 'shop') };
    throw new Error(`unexpected POST ${url}`);
  });
});

async function renderTab(role: 'admin' | 'user') {
  useUserStore.setState({ role });
  await act(async () => {
    render(<CertificationTab username="admin" />, { wrapper: withProviders() });
  });
}

describe('certification review', () => {
  it('lets an administrator approve a record under audit', async () => {
    await renderTab('admin');
    expect(await screen.findByText('Enterprise 7')).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(screen.getByTestId('certification-approve-7'));
    });
    // The confirmation's own Approve button (the table's link button has the same name).
    await waitFor(() => expect(document.querySelector('.ant-popconfirm-buttons .ant-btn-primary')).not.toBeNull());
    await act(async () => {
      fireEvent.click(document.querySelector('.ant-popconfirm-buttons .ant-btn-primary')!);
    });
    await waitFor(() => expect(mockedPost).toHaveBeenCalledWith(CERTIFICATION_REVIEW_URL, { id: 7, decision: 'approve' }));
  });

  it('needs a reason to reject, then sends it', async () => {
    await renderTab('admin');
    await screen.findByText('Enterprise 7');
    await act(async () => {
      fireEvent.click(screen.getByTestId('certification-reject-7'));
    });
    await act(async () => {
      fireEvent.click(await screen.findByTestId('certification-reject-submit'));
    });
    expect(await screen.findByText('Please enter the reason')).toBeInTheDocument();
    expect(mockedPost).not.toHaveBeenCalledWith(CERTIFICATION_REVIEW_URL, expect.anything());
    await act(async () => {
      fireEvent.change(screen.getByTestId('certification-reject-reason'), { target: { value: ' licence expired ' } });
    });
    await act(async () => {
      fireEvent.click(screen.getByTestId('certification-reject-submit'));
    });
    await waitFor(() =>
      expect(mockedPost).toHaveBeenCalledWith(CERTIFICATION_REVIEW_URL, { id: 7, decision: 'reject', reason: 'licence expired' }),
    );
  });

  it('is not shown to a merchant', async () => {
    await renderTab('user');
    await screen.findByTestId('certification-tab');
    expect(screen.queryByTestId('certification-review')).not.toBeInTheDocument();
    expect(mockedPost).not.toHaveBeenCalledWith(CERTIFICATION_LIST_URL, { status: 0 });
  });
});
