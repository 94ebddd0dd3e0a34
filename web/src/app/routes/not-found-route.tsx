import NotFoundPage from '@/features/exception/components/not-found-page';
import { AntdProviders } from '../antd-providers';

/** The catch-all page, outside the default layout. */
export default function NotFoundRoute() {
  return (
    <AntdProviders>
      <div style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
        <NotFoundPage />
      </div>
    </AntdProviders>
  );
}
