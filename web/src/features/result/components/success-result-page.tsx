import { Alert, Button, Card, Result, Steps, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
// Their texts load with these pages, not with the login page.
import '@/locales/result-texts';

/** The steps of the demo application flow; the first is in progress, the rest not started. */
const STEPS = [
  'result.success.submitApplication',
  'result.success.leaderReview',
  'result.success.purchaseCertificate',
  'result.success.safetyTest',
  'result.success.launched',
];
const CURRENT_STEP = 0;

/** Demo success result page with a progress timeline. */
export default function SuccessResultPage() {
  const { t } = useTranslation();
  return (
    <Card data-testid="result-success">
      <Alert type="info" showIcon title={t('result.demoNote')} style={{ marginBottom: 16 }} />
      <Result
        status="success"
        title={t('result.success.title')}
        subTitle={t('result.success.subTitle')}
        extra={
          <Button type="primary" onClick={() => window.print()}>
            {t('result.success.print')}
          </Button>
        }
      />
      <Typography.Title level={5}>{t('result.success.progress')}</Typography.Title>
      <Steps
        current={CURRENT_STEP}
        items={STEPS.map((key, index) => ({
          title: t(key),
          status: index === CURRENT_STEP ? 'process' : 'wait',
          content: index === CURRENT_STEP ? t('result.success.inProgress') : t('result.success.notStarted'),
        }))}
      />
    </Card>
  );
}
