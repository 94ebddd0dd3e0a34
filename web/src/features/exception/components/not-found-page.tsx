import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { reloadPage } from '@/lib/browser';
import { ExceptionResult } from './exception-result';

/** 404: the page is gone; offers Retry (reload) and Back. Also the catch-all page. */
export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <ExceptionResult
      status="404"
      testId="exception-404"
      extra={
        <Button data-testid="exception-retry" onClick={reloadPage} style={{ marginRight: 16 }}>
          {t('common.retry')}
        </Button>
      }
    />
  );
}
