import { QueryClient } from '@tanstack/react-query';
import { onSessionCleared } from './session';

/**
 * Server state cache. The request client already shows every failure to the user, so
 * failed queries are not retried behind their back.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});

// Cached server data belongs to the session that fetched it.
onSessionCleared(() => queryClient.clear());
