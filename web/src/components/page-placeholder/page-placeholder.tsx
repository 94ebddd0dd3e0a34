import { Card, Empty, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

export interface PagePlaceholderProps {
  /** i18n key of the page title. */
  titleKey: string;
  testId: string;
}

/** An honest page for a route whose feature arrives in a later release. */
export function PagePlaceholder({ titleKey, testId }: PagePlaceholderProps) {
  const { t } = useTranslation();
  const title = t(titleKey);
  return (
    <Card data-testid={testId}>
      <Typography.Title level={4} data-testid="page-title">
        {title}
      </Typography.Title>
      <Empty
        data-testid="page-placeholder"
        description={
          <>
            <Typography.Text strong>{t('placeholder.title')}</Typography.Text>
            <br />
            <Typography.Text type="secondary">{t('placeholder.description', { page: title })}</Typography.Text>
          </>
        }
      />
    </Card>
  );
}
