import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLocale } from '@/lib/i18n';
import { ApiError, get, post, postForm } from '@/lib/request';
import { withProviders } from '@/test/query-wrapper';
import { SEGMENTS_APPLY_URL, type SegmentPreview } from '../api/segments';
import SegmentsPage from './segments-page';

vi.mock('@/lib/feedback', () => ({ showErrorMessage: vi.fn(), showSuccessMessage: vi.fn() }));
vi.mock('@/lib/request', async (original) => ({
  ...(await original<object>()),
  get: vi.fn(),
  post: vi.fn(),
  postForm: vi.fn(),
}));
const [mockedGet, mockedPost, mockedPostForm] = [vi.mocked(get), vi.mocked(post), vi.mocked(postForm)];

const shenzhen = {
  province_code: '440000',
  province: '广东',
  city: '深圳',
  province_en: 'Guangdong',
  city_en: 'Shenzhen',
  carrier: 'mobile' as const,
};

const preview: SegmentPreview = {
  upload_id: 7,
  file_name: 'next.csv',
  format: 'csv',
  rows: 3,
  added: 1,
  changed: 1,
  removed: 1,
  unchanged: 0,
  samples: [
    {
      prefix: '1380014',
      change: 'changed',
      before: shenzhen,
      after: { ...shenzhen, city: '广州', city_en: 'Guangzhou' },
    },
    { prefix: '1390000', change: 'added', before: null, after: shenzhen },
  ],
  provinces: [{ province_code: '440000', before: 1, after: 2 }],
};

async function renderPage() {
  mockedGet.mockReset().mockResolvedValue({
    rows: 331118,
    provinces: 31,
    cities: 340,
    source: 'default',
    file_name: null,
    applied_by: null,
    applied_at: null,
  });
  mockedPost.mockReset().mockResolvedValue({ rows: 3 });
  await act(async () => {
    render(<SegmentsPage />, { wrapper: withProviders() });
  });
  await screen.findByText('331,118');
}

const upload = (name: string) => {
  const input = document.querySelector('input[type="file"]') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [new File(['x'], name, { type: 'text/csv' })] } });
};

beforeEach(async () => {
  await changeLocale('en-US');
});

describe('segments page', () => {
  it('previews a file and applies it once, however often the button is pressed', async () => {
    await renderPage();
    mockedPostForm.mockReset().mockResolvedValue(preview);
    await act(async () => upload('next.csv'));
    expect(await screen.findByText('3 segments: 1 added, 1 changed, 1 removed, 0 unchanged')).toBeInTheDocument();
    expect(screen.getAllByText('Shenzhen, Guangdong · China Mobile')).toHaveLength(2);
    expect(screen.getByText('Guangzhou, Guangdong · China Mobile')).toBeInTheDocument();
    expect(screen.getByText('+1')).toBeInTheDocument();
    await act(async () => fireEvent.click(screen.getByTestId('segments-apply')));
    const confirm = await screen.findByRole('button', { name: 'OK' });
    await act(async () => {
      fireEvent.click(confirm);
      fireEvent.click(confirm);
    });
    await waitFor(() => expect(screen.queryByTestId('segments-preview')).not.toBeInTheDocument());
    expect(mockedPost.mock.calls.filter(([url]) => url === SEGMENTS_APPLY_URL)).toEqual([
      [SEGMENTS_APPLY_URL, { upload_id: 7 }],
    ]);
  });

  it('names every bad line of a refused file and keeps no preview', async () => {
    await renderPage();
    mockedPostForm.mockReset().mockRejectedValue(
      new ApiError('Line 3: the segment must be 7 digits starting with 1', {
        kind: 'envelope',
        code: 40000,
        status: 422,
        data: {
          fields: {
            'line:3': 'Line 3: the segment must be 7 digits starting with 1',
            'line:5': 'Line 5: the same segment as line 2',
          },
          keys: { 'line:3': 'segment.line.prefix', 'line:5': 'segment.line.repeated' },
        },
      }),
    );
    await act(async () => upload('bad.csv'));
    const errors = await screen.findByTestId('segments-errors');
    expect(errors).toHaveTextContent('Line 3: the segment must be 7 digits starting with 1');
    expect(errors).toHaveTextContent('Line 5: the same segment as line 2');
    expect(screen.queryByTestId('segments-preview')).not.toBeInTheDocument();
  });
});
