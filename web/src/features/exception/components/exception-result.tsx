import { Button, Result } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

const WORKPLACE_PATH = '/dashboard/workplace';

export interface ExceptionResultProps {
  status: '403' | '404' | '500';
  testId: string;
  extra?: ReactNode;
}

/** A 403/404/500 result with a Back button (to the workplace). */
export function ExceptionResult({ status, testId, extra }: ExceptionResultProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      data-testid={testId}
      status={status}
      title={status}
      subTitle={t(`exception.${status}.description`)}
      extra={
        <>
          {extra}
          <Button type="primary" data-testid="exception-back" onClick={() => navigate(WORKPLACE_PATH)}>
            {t('common.back')}
          </Button>
        </>
      }
    />
  );
}
