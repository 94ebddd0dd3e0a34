import { CloseCircleOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Result, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
// Their texts load with these pages, not with the login page.
import '@/locales/result-texts';
import { useNavigate } from 'react-router';

const FILING_PROCESS_URL = 'https://beian.miit.gov.cn/';

/** Demo failure result page: back-to-home, return-to-edit and an error-detail block. */
export default function ErrorResultPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Card data-testid="result-error">
      <Alert type="info" showIcon title={t('result.demoNote')} style={{ marginBottom: 16 }} />
      <Result
        status="error"
        title={t('result.error.title')}
        subTitle={t('result.error.subTitle')}
        extra={
          <Space>
            <Button data-testid="result-return-to-edit" onClick={() => navigate(-1)}>
              {t('result.error.returnToEdit')}
            </Button>
            <Button type="primary" data-testid="result-back-home" onClick={() => navigate('/dashboard/workplace')}>
              {t('result.error.backHome')}
            </Button>
          </Space>
        }
      >
        <div data-testid="result-error-detail">
          <Typography.Paragraph>
            <Typography.Text strong style={{ fontSize: 16 }}>
              {t('result.error.detailTitle')}
            </Typography.Text>
          </Typography.Paragraph>
          <Typography.Paragraph>
            <CloseCircleOutlined style={{ color: 'var(--ant-color-error, #ff4d4f)' }} />{' '}
            {t('result.error.detailLine.submit')}
          </Typography.Paragraph>
          <Typography.Paragraph>
            <CloseCircleOutlined style={{ color: 'var(--ant-color-error, #ff4d4f)' }} />{' '}
            {t('result.error.detailLine.record')}
            <Typography.Link href={FILING_PROCESS_URL} target="_blank" rel="noopener noreferrer">
              {t('result.error.detailLine.recordLink')}
            </Typography.Link>
          </Typography.Paragraph>
          <Typography.Paragraph>
            <CloseCircleOutlined style={{ color: 'var(--ant-color-error, #ff4d4f)' }} />{' '}
            {t('result.error.detailLine.auth')}
            <Typography.Link onClick={() => navigate('/exception/403')}>
              {t('result.error.detailLine.authLink')}
            </Typography.Link>
          </Typography.Paragraph>
        </div>
      </Result>
    </Card>
  );
}
