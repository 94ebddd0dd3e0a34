import { PageHeading } from '@/components/layout/page-heading';
import NotFoundPage from '@/features/exception/components/not-found-page';
import { AntdProviders } from '../antd-providers';

/** The catch-all page, outside the default layout. */
export default function NotFoundRoute() {
  return (
    <AntdProviders>
      <main style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
        <PageHeading />
        <NotFoundPage />
      </main>
    </AntdProviders>
  );
}
