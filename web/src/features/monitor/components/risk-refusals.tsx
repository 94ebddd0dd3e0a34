import { Card, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LiveSnapshot } from '../api/live-stream';
import '@/locales/risk-texts';

type RefusalCount = LiveSnapshot['refused_today'][number];

/** Orders refused today by the merchants' risk controls, by reason (every reason listed). */
export function RiskRefusals({ refused }: { refused: RefusalCount[] }) {
  const { t } = useTranslation();
  return (
    <Card size="small" title={t('risk.refused.title')} data-testid="live-risk-refusals">
      <Table<RefusalCount>
        size="small"
        rowKey="reason"
        pagination={false}
        showHeader={false}
        dataSource={refused}
        columns={[
          { key: 'reason', render: (_, row) => t(`risk.refused.${row.reason}`) },
          {
            dataIndex: 'count',
            align: 'right',
            onCell: (row) => ({ 'data-testid': `refused-${row.reason}` }) as object,
          },
        ]}
      />
    </Card>
  );
}
