import { QueryClient } from '@tanstack/react-query';
import { hasToken, onSessionCleared } from './session';

/**
 * Server state cache. The request client already shows every failure to the user, so
 * failed queries are not retried behind their back. Queries run only with a session:
 * signing out clears the cache while the signed-in layout is still mounted, and its
 * queries (navbar badge, avatar, the open page) would otherwise refetch without a token,
 * get 50008 and open the 'Confirm logout' dialog over the login page.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, enabled: () => hasToken() },
    mutations: { retry: false },
  },
});

// Cached server data belongs to the session that fetched it.
onSessionCleared(() => queryClient.clear());
