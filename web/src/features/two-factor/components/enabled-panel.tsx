import { DownloadOutlined, EyeOutlined, ReloadOutlined, StopOutlined } from '@ant-design/icons';
import { Alert, Button, Space, Statistic } from 'antd';
import { formatTime } from '@/lib/platform-time';
import { useTranslation } from 'react-i18next';
import type { TwoFactorStatus } from '../api/types';

export interface EnabledPanelProps {
  status: TwoFactorStatus;
  onRegenerate: () => void;
  onDisable: () => void;
  onViewCodes: () => void;
  onDownload: () => void;
}

/** Two-factor is on: when, what it means, the backup codes left, and what can be done about it. */
export function EnabledPanel({ status, onRegenerate, onDisable, onViewCodes, onDownload }: EnabledPanelProps) {
  const { t } = useTranslation();
  const since = formatTime(status.enabledAt);
  return (
    <div className="two-factor-enabled" data-testid="two-factor-enabled">
      <Alert
        type="success"
        showIcon
        title={t('twoFactor.enabled.title')}
        description={
          <>
            <div data-testid="two-factor-enabled-at">{t('twoFactor.enabled.since', { time: since })}</div>
            <div>{t('twoFactor.enabled.loginNotice')}</div>
          </>
        }
      />
      <Statistic
        className="two-factor-remaining"
        title={t('twoFactor.enabled.remaining')}
        value={status.backupCodesCount}
        valueRender={(node) => <span data-testid="two-factor-remaining">{node}</span>}
      />
      <Space wrap>
        <Button icon={<ReloadOutlined />} onClick={onRegenerate} data-testid="two-factor-regenerate">
          {t('twoFactor.regenerate')}
        </Button>
        <Button danger icon={<StopOutlined />} onClick={onDisable} data-testid="two-factor-disable">
          {t('twoFactor.disable')}
        </Button>
        <Button icon={<EyeOutlined />} onClick={onViewCodes} data-testid="two-factor-view-codes">
          {t('twoFactor.viewCodes')}
        </Button>
        {status.backupCodesCount > 0 ? (
          <Button icon={<DownloadOutlined />} onClick={onDownload} data-testid="two-factor-download-codes">
            {t('twoFactor.backupCodes.download')}
          </Button>
        ) : null}
      </Space>
    </div>
  );
}
