import { QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from './query-client';
import { clearSession, SESSION_KEYS } from './session';

afterEach(() => queryClient.clear());

describe('queryClient', () => {
  it('runs queries only with a session, so nothing refetches after sign-out', async () => {
    const fetcher = vi.fn(async () => 'data');
    localStorage.setItem(SESSION_KEYS.token, 'tok');
    const observer = new QueryObserver(queryClient, { queryKey: ['probe'], queryFn: fetcher });
    const unsubscribe = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(fetcher).toHaveBeenCalledTimes(1));

    clearSession(); // also clears the cache
    observer.setOptions({ queryKey: ['probe'], queryFn: fetcher });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fetcher).toHaveBeenCalledTimes(1);
    unsubscribe();
  });
});
