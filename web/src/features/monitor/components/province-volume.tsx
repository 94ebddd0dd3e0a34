import { Card, Empty, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatFen } from '@/lib/money';
import { provinceKey } from '@/lib/provinces';
import type { LiveSnapshot } from '../api/live-stream';
import { formatRatio } from './live-format';

type ProvinceVolume = LiveSnapshot['provinces_today'][number];

/**
 * Today's orders by the number's province (归属地), by amount, with how those already finished
 * ended: a provincial channel or a carrier's provincial outage shows here first.
 */
export function ProvinceVolumes({ provinces }: { provinces: ProvinceVolume[] }) {
  const { t } = useTranslation();
  return (
    <Card size="small" title={t('monitor.live.provinces')}>
      <Table<ProvinceVolume>
        size="small"
        rowKey={(row) => row.province ?? 0}
        pagination={false}
        dataSource={provinces}
        data-testid="live-provinces"
        locale={{ emptyText: <Empty description={t('monitor.live.noOrdersToday')} /> }}
        onRow={(row) => ({ 'data-testid': `live-province-${row.province ?? 'unknown'}` }) as object}
        columns={[
          {
            title: t('monitor.live.province'),
            key: 'province',
            render: (_, row) =>
              row.province == null ? t('monitor.live.provinceUnknown') : t(provinceKey(row.province)),
          },
          { title: t('monitor.live.orders'), dataIndex: 'orders', align: 'right' },
          {
            title: t('monitor.live.amount'),
            dataIndex: 'amount_fen',
            align: 'right',
            render: (fen: number) => `¥${formatFen(fen)}`,
          },
          {
            title: t('monitor.live.ratioSoFar'),
            key: 'ratio',
            align: 'right',
            render: (_, row) => formatRatio(row.success_permille, row.succeeded, row.failed),
          },
        ]}
      />
    </Card>
  );
}
