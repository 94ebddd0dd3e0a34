import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLocale } from '@/lib/i18n';
import { getBlob, post } from '@/lib/request';
import { useUserStore } from '@/stores/user-store';
import { withProviders } from '@/test/query-wrapper';
import {
  CERTIFICATION_DETAIL_URL,
  CERTIFICATION_LICENCE_URL,
  CERTIFICATION_LIST_URL,
  CERTIFICATION_REVIEW_URL,
  type CertificationRecord,
} from '../api/certification';
import { CertificationReview } from './certification-review';
import { CertificationTab } from './certification-tab';

vi.mock('@/lib/feedback', () => ({ showErrorMessage: vi.fn(), showSuccessMessage: vi.fn() }));
vi.mock('@/lib/request', async (original) => {
  const post = vi.fn();
  return { ...(await original<object>()), post, getBlob: vi.fn() };
});
const mockedPost = vi.mocked(post);
const mockedBlob = vi.mocked(getBlob);
// jsdom has no object URLs.
Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:licence'), revokeObjectURL: vi.fn() });
let detailHasLicence = true;

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
  has_licence: false,
});

beforeEach(async () => {
  await changeLocale('en-US');
  detailHasLicence = true;
  mockedBlob.mockReset().mockResolvedValue(new Blob(['jpeg'], { type: 'image/jpeg' }));
  mockedPost.mockReset().mockImplementation(async (url: string, body?: unknown) => {
    if (url === CERTIFICATION_LIST_URL) {
      const status = (body as { status?: number }).status;
      // The admin's own list (no status) has nothing; the review list has one auditing record.
      return status === 0 ? [record(7, 0, 'shop')] : [];
    }
    if (url === CERTIFICATION_REVIEW_URL) return { ...record(7, 1, 'shop') };
    if (url === CERTIFICATION_DETAIL_URL) {
      // The evidence in full: a valid ID number, a credit code with a wrong check character.
      return {
        ...record(7, 0, 'shop'),
        legal_person_certificate_number: '11010519491231002X',
        enterprise_certificate_number: '91350100M000100Y44',
        organization_code: '',
        numbers_masked: false,
        has_licence: detailHasLicence,
      };
    }
    throw new Error(`unexpected POST ${url}`);
  });
});

async function renderTab(role: 'admin' | 'user') {
  useUserStore.setState({ role });
  await act(async () => {
    render(<CertificationTab username="admin" />, { wrapper: withProviders() });
  });
}

async function renderReview() {
  useUserStore.setState({ role: 'admin' });
  await act(async () => {
    render(<CertificationReview />, { wrapper: withProviders() });
  });
  expect(await screen.findByText('Enterprise 7')).toBeInTheDocument();
  await act(async () => {
    fireEvent.click(screen.getByTestId('certification-open-7'));
  });
  await screen.findByTestId('evidence-enterprise-number');
}

describe('certification review', () => {
  it('shows the evidence in full, with the check characters, before deciding', async () => {
    await renderReview();
    expect(screen.getByTestId('evidence-person-number')).toHaveTextContent('11010519491231002X');
    expect(screen.getByTestId('evidence-enterprise-number')).toHaveTextContent('91350100M000100Y44');
    const checks = screen.getAllByTestId('certification-check').map((tag) => tag.textContent);
    expect(checks).toEqual(['Check character wrong', 'Check character correct']);
    expect(screen.getByText('Contained in the unified social credit code')).toBeInTheDocument();
    // The licence image, read with the session (not a plain URL).
    const image = await screen.findByTestId('evidence-licence');
    expect(image.querySelector('img')?.getAttribute('src') ?? image.getAttribute('src')).toBe('blob:licence');
    expect(mockedBlob).toHaveBeenCalledWith(CERTIFICATION_LICENCE_URL, { params: { id: 7 } });
  });

  it('says when no licence image was uploaded', async () => {
    detailHasLicence = false;
    await renderReview();
    expect(screen.getByTestId('evidence-licence-missing')).toHaveTextContent('No licence image uploaded');
    expect(mockedBlob).not.toHaveBeenCalled();
  });

  it('approves only after a confirmation naming the enterprise', async () => {
    await renderReview();
    await act(async () => {
      fireEvent.click(screen.getByTestId('certification-approve-7'));
    });
    expect(await screen.findByText('Approve the enterprise certification of “Enterprise 7”?')).toBeInTheDocument();
    expect(mockedPost).not.toHaveBeenCalledWith(CERTIFICATION_REVIEW_URL, expect.anything());
    await act(async () => {
      fireEvent.click(screen.getByTestId('certification-approve-confirm'));
    });
    await waitFor(() =>
      expect(mockedPost).toHaveBeenCalledWith(CERTIFICATION_REVIEW_URL, { id: 7, decision: 'approve' }),
    );
  });

  it('needs a reason to reject, then sends it', async () => {
    await renderReview();
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
      expect(mockedPost).toHaveBeenCalledWith(CERTIFICATION_REVIEW_URL, {
        id: 7,
        decision: 'reject',
        reason: 'licence expired',
      }),
    );
  });

  it('has its own page: the administrator’s settings tab points there', async () => {
    await renderTab('admin');
    expect(await screen.findByTestId('certification-review-goto')).toBeInTheDocument();
    expect(screen.queryByTestId('certification-review')).not.toBeInTheDocument();
  });

  it('is not shown to a merchant', async () => {
    await renderTab('user');
    await screen.findByTestId('certification-tab');
    expect(screen.queryByTestId('certification-review')).not.toBeInTheDocument();
    expect(mockedPost).not.toHaveBeenCalledWith(CERTIFICATION_LIST_URL, { status: 0 });
  });
});
