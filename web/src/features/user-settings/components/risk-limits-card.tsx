import { Card, Descriptions, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatFen } from '@/lib/money';
import { type OwnRiskLimits, useOwnRiskLimits } from '../api/get-risk-limits';
import '@/locales/risk-texts';

/** The lines of the card: each limit as shown (0 is no limit). */
export function riskLimitRows(limits: OwnRiskLimits, t: (key: string) => string): [string, string][] {
  const count = (value: number) => (value === 0 ? t('risk.unlimited') : String(value));
  const money = (fen: number) => (fen === 0 ? t('risk.unlimited') : `¥${formatFen(fen)}`);
  return [
    [t('risk.singleFlight'), limits.single_flight ? t('risk.on') : t('risk.off')],
    [t('risk.numberDailyOrders'), count(limits.number_daily_orders)],
    [t('risk.numberDailyYuan'), money(limits.number_daily_fen)],
    [t('risk.dailyCapYuan'), money(limits.daily_cap_fen)],
  ];
}

/** The merchant's risk controls, read-only: orders past them are refused when placed. */
export function RiskLimitsCard() {
  const { t } = useTranslation();
  const limits = useOwnRiskLimits(true);
  return (
    <Card title={t('risk.title')} style={{ maxWidth: 760, marginTop: 24 }} data-testid="risk-limits-card">
      <Typography.Paragraph type="secondary">{t('risk.readOnly')}</Typography.Paragraph>
      {limits.data ? (
        <Descriptions column={1} size="small" bordered>
          {riskLimitRows(limits.data, t).map(([label, value]) => (
            <Descriptions.Item key={label} label={label}>
              {value}
            </Descriptions.Item>
          ))}
        </Descriptions>
      ) : (
        <Skeleton active />
      )}
    </Card>
  );
}
