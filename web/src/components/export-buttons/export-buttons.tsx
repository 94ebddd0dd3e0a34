import { DownloadOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
/** The formats the API's export endpoints write. */
export type ExportFormat = 'csv' | 'xlsx';

/** CSV and Excel export of the current filter. */
export function ExportButtons({ onExport }: { onExport: (format: ExportFormat) => Promise<void> }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const run = async (format: ExportFormat) => {
    setBusy(format);
    try {
      await onExport(format);
    } catch {
      // The request client already showed the failure.
    } finally {
      setBusy(null);
    }
  };
  return (
    <Space>
      <Button icon={<DownloadOutlined />} loading={busy === 'csv'} onClick={() => void run('csv')} data-testid="export-csv">
        {t('common.export.csv')}
      </Button>
      <Button
        icon={<DownloadOutlined />}
        loading={busy === 'xlsx'}
        onClick={() => void run('xlsx')}
        data-testid="export-xlsx"
      >
        {t('common.export.xlsx')}
      </Button>
    </Space>
  );
}
