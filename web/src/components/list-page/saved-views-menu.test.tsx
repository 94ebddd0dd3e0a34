import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLocale } from '@/lib/i18n';
import { post } from '@/lib/request';
import { withProviders } from '@/test/query-wrapper';
import type { ViewState } from './saved-views';
import type { SavedView } from './saved-views-api';
import { SavedViewsMenu } from './saved-views-menu';

vi.mock('@/lib/feedback', () => ({ showErrorMessage: vi.fn(), showSuccessMessage: vi.fn() }));
vi.mock('@/lib/request', async (original) => ({ ...(await original<object>()), post: vi.fn() }));
const mockedPost = vi.mocked(post);

const view = (id: number, name: string, mine = true): SavedView => ({
  id,
  page: 'orders-ordinary',
  name,
  state: { filters: { status: String(id) }, density: 'small', sort: 'asc' },
  shared: !mine,
  mine,
  owner: mine ? 'merchant' : 'colleague',
  updated_at: '2026-12-02T00:00:00Z',
});

function answer(views: SavedView[], defaultId: number | null) {
  mockedPost.mockReset().mockImplementation(async (url: string) => {
    if (url === '/adminapi/views/list') return { views, default_id: defaultId };
    if (url === '/adminapi/views/create') return view(9, 'new');
    throw new Error(`unexpected ${url}`);
  });
}

async function renderMenu(search: string, onApply = vi.fn(), capture = (): ViewState => ({ filters: {} })) {
  await act(async () => {
    render(<SavedViewsMenu page="orders-ordinary" search={search} capture={capture} onApply={onApply} />, {
      wrapper: withProviders(),
    });
  });
  return onApply;
}

beforeEach(async () => {
  await changeLocale('en-US');
});

describe('the saved views of a list page', () => {
  it('applies the default view when the page opens without filters', async () => {
    answer([view(1, 'failed'), view(2, 'today')], 2);
    const onApply = await renderMenu('');
    await waitFor(() => expect(onApply).toHaveBeenCalledTimes(1));
    expect(onApply).toHaveBeenCalledWith({ filters: { status: '2' }, density: 'small', sort: 'asc' });
  });

  it('leaves a page opened with filters (a link) as it is', async () => {
    answer([view(1, 'failed')], 1);
    const onApply = await renderMenu('status=3');
    await waitFor(() => expect(mockedPost).toHaveBeenCalled());
    await act(async () => {});
    expect(onApply).not.toHaveBeenCalled();
  });

  it("lists one's own views and those shared with one, and applies the one picked", async () => {
    answer([view(1, 'failed'), view(3, 'team', false)], null);
    const onApply = await renderMenu('');
    await userEvent.click(screen.getByTestId('saved-views-open'));
    expect(await screen.findByText('My views')).toBeInTheDocument();
    expect(screen.getByText('Shared with me')).toBeInTheDocument();
    expect(screen.getByText('by colleague')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('saved-view-team'));
    expect(onApply).toHaveBeenCalledWith({ filters: { status: '3' }, density: 'small', sort: 'asc' });
  });

  it('saves the page as it is under a name', async () => {
    answer([], null);
    const state: ViewState = { filters: { status: '3' }, density: 'large' };
    await renderMenu('status=3', vi.fn(), () => state);
    await userEvent.click(screen.getByTestId('saved-views-open'));
    await userEvent.click(await screen.findByTestId('saved-views-save'));
    await userEvent.type(await screen.findByTestId('saved-view-name'), 'Failed today');
    await userEvent.click(screen.getByTestId('saved-view-shared'));
    await userEvent.click(screen.getByTestId('saved-view-submit'));
    await waitFor(() =>
      expect(mockedPost).toHaveBeenCalledWith('/adminapi/views/create', {
        page: 'orders-ordinary',
        name: 'Failed today',
        shared: true,
        state,
      }),
    );
    // Not made the default unless asked.
    expect(mockedPost.mock.calls.some(([url]) => url === '/adminapi/views/default')).toBe(false);
  });
});
