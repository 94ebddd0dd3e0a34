import { DownloadOutlined, ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { BackupCodeList } from './backup-code-list';

export interface BackupCodesDialogProps {
  open: boolean;
  /** Codes this console session holds (just enabled or regenerated), else null. */
  codes: readonly string[] | null;
  remaining: number;
  onClose: () => void;
  onDownload: () => void;
  onRegenerate: () => void;
}

/**
 * 'View backup codes'. The server never shows codes again after they are issued, so this
 * shows the set this session holds, or else the count and the way to a new set.
 */
export function BackupCodesDialog({
  open,
  codes,
  remaining,
  onClose,
  onDownload,
  onRegenerate,
}: BackupCodesDialogProps) {
  const { t } = useTranslation();
  const held = codes && codes.length > 0;
  return (
    <Modal
      open={open}
      title={t('twoFactor.codes.title')}
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="close" onClick={onClose} data-testid="two-factor-codes-close">
          {t('common.close')}
        </Button>,
      ]}
    >
      <div className="two-factor-dialog__form" data-testid="two-factor-codes-dialog">
        {held ? (
          <>
            <Alert type="warning" showIcon title={t('twoFactor.codes.newSet')} />
            <BackupCodeList codes={codes} testId="two-factor-dialog-codes" />
            <div>
              <Button icon={<DownloadOutlined />} onClick={onDownload} data-testid="two-factor-dialog-download">
                {t('twoFactor.backupCodes.download')}
              </Button>
            </div>
          </>
        ) : (
          <>
            <Alert type="info" showIcon title={t('twoFactor.codes.onlyOnce')} />
            <Typography.Paragraph data-testid="two-factor-codes-remaining">
              {t('twoFactor.codes.remaining', { count: remaining })}
            </Typography.Paragraph>
            <Typography.Paragraph type="secondary">{t('twoFactor.codes.regenerateHint')}</Typography.Paragraph>
            <div>
              <Button icon={<ReloadOutlined />} onClick={onRegenerate} data-testid="two-factor-codes-regenerate">
                {t('twoFactor.regenerate')}
              </Button>
            </div>
          </>
        )}
      </div>
    </Modal>
  );
}
