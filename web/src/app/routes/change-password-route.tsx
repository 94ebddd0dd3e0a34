import { QueryClientProvider } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { PageHeading } from '@/components/layout/page-heading';
import { queryClient } from '@/lib/query-client';
import { ForcedPasswordPage } from '@/features/user-settings/components/forced-password-page';
import { AntdProviders } from '../antd-providers';
import { LOGIN_PATH, WORKPLACE_PATH } from './route-names';

/** /change-password, outside the default layout: a temporary password is replaced first. */
export default function ChangePasswordRoute() {
  const navigate = useNavigate();
  return (
    <QueryClientProvider client={queryClient}>
      <AntdProviders>
        <main
          style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', padding: 16 }}
        >
          <PageHeading />
          <ForcedPasswordPage
            onChanged={() => navigate(WORKPLACE_PATH, { replace: true })}
            onSignOut={() => {
              void import('@/features/auth/session-actions')
                .then(({ logout }) => logout())
                .then(() => navigate(LOGIN_PATH, { replace: true }));
            }}
          />
        </main>
      </AntdProviders>
    </QueryClientProvider>
  );
}
