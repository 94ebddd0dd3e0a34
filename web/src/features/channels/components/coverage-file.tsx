import { Alert, Button, Space, Tooltip, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSuccessMessage } from '@/lib/feedback';
import { serverFieldErrors } from '@/lib/form-errors';
import { type Channel, exportCoverage, importCoverage, useChannelChange } from '../api/channels';

/**
 * A channel's coverage as a file: the export (CSV, safe in Excel) and its import, which
 * applies every line or none; the bad lines are listed, each by its number.
 */
export function CoverageFile({ channel }: { channel: Channel }) {
  const { t } = useTranslation();
  const upload = useChannelChange(importCoverage);
  const [errors, setErrors] = useState<string[]>([]);
  const [exporting, setExporting] = useState(false);
  const download = () => {
    setExporting(true);
    exportCoverage(channel)
      // The request client already showed the failure.
      .catch(() => undefined)
      .finally(() => setExporting(false));
  };
  return (
    <Space orientation="vertical" size={8} style={{ width: '100%', marginBottom: 12 }}>
      <Space wrap>
        <Button onClick={download} loading={exporting} data-testid="coverage-export">
          {t('channels.supplies.export')}
        </Button>
        <Upload
          accept=".csv,.xlsx,.txt"
          showUploadList={false}
          beforeUpload={(file) => {
            setErrors([]);
            upload.mutate(
              { channelId: channel.id, file },
              {
                onSuccess: (result) => showSuccessMessage(t('channels.supplies.imported', { count: result.lines })),
                onError: (error) => setErrors(serverFieldErrors(error).map((item) => item.message)),
              },
            );
            return false;
          }}
        >
          <Tooltip title={t('channels.supplies.importHelp')}>
            <Button loading={upload.isPending} data-testid="coverage-import">
              {t('channels.supplies.import')}
            </Button>
          </Tooltip>
        </Upload>
      </Space>
      {errors.length ? (
        <Alert
          type="error"
          showIcon
          closable
          onClose={() => setErrors([])}
          title={t('channels.supplies.importErrors')}
          description={
            <ul style={{ margin: 0, paddingInlineStart: 20 }} data-testid="coverage-import-errors">
              {errors.map((error) => (
                <li key={error}>{error}</li>
              ))}
            </ul>
          }
        />
      ) : null}
    </Space>
  );
}
