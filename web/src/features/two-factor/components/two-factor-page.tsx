import { SafetyCertificateOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Result, Spin } from 'antd';
import { useCallback, useEffect, useReducer } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuthCodeField } from '@/components/auth-code-input/use-auth-code-field';
import { copyText } from '@/components/layout/settings/copy-text';
import { showErrorMessage, showSuccessMessage, showWarningMessage } from '@/lib/feedback';
import { ERROR_MESSAGE_SECONDS } from '@/lib/request';
import { useDisableTwoFactor } from '../api/disable';
import { useEnableTwoFactor } from '../api/enable';
import { twoFactorStatusQueryKey, useTwoFactorStatus } from '../api/get-status';
import { useRegenerateBackupCodes } from '../api/regenerate-backup-codes';
import { useStartTwoFactorSetup } from '../api/start-setup';
import type { TwoFactorStatus } from '../api/types';
import { BackupCodesDialog } from './backup-codes-dialog';
import { BACKUP_CODES_FILE_NAME, backupCodesFileContent, downloadTextFile } from './backup-codes-file';
import { CodeDialog } from './code-dialog';
import { EnabledPanel } from './enabled-panel';
import { failureMessage, isStateConflict } from './failure-message';
import { downloadableCodes, initialPanelState, panelReducer, panelView } from './panel-state';
import { SetupWizard } from './setup-wizard';
import './two-factor-page.css';

const NOT_ENABLED: TwoFactorStatus = { enabled: false, enabledAt: null, backupCodesCount: 0 };

/**
 * Two-Factor Authentication (/user/google-auth): loading, not enabled, the three-step
 * setup wizard, enabled; the disable / regenerate dialogs and the backup codes. Each failure
 * shows one toast (the operation's own failure message) and stops its loading indicator.
 */
export default function TwoFactorPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const status = useTwoFactorStatus();
  const [state, dispatch] = useReducer(panelReducer, initialPanelState);
  const startSetup = useStartTwoFactorSetup();
  const enable = useEnableTwoFactor();
  const disable = useDisableTwoFactor();
  const regenerate = useRegenerateBackupCodes();

  const fail = useCallback(
    (error: unknown, messageKey: string) =>
      showErrorMessage(failureMessage(error, t(messageKey)), ERROR_MESSAGE_SECONDS),
    [t],
  );
  const reloadStatus = useCallback(
    () => queryClient.invalidateQueries({ queryKey: twoFactorStatusQueryKey }),
    [queryClient],
  );

  useEffect(() => {
    if (status.isError) fail(status.error, 'twoFactor.message.statusFailed');
  }, [status.isError, status.errorUpdatedAt, status.error, fail]);

  const view = panelView(state, status.data, status.isError);

  const beginSetup = () =>
    startSetup.mutate(undefined, {
      onSuccess: (setup) => dispatch({ type: 'setupStarted', setup }),
      onError: (error) => {
        fail(error, 'twoFactor.message.setupFailed');
        if (isStateConflict(error)) void reloadStatus();
      },
    });

  const enableWith = (code: string, password: string) => {
    if (!state.setup) return;
    enable.mutate(
      { code, tempKey: state.setup.tempKey, password },
      {
        onSuccess: (backupCodes) => {
          dispatch({ type: 'enabled', backupCodes });
          showSuccessMessage(t('twoFactor.message.enabled'));
          void reloadStatus();
        },
        onError: (error) => {
          fail(error, 'twoFactor.message.enableFailed');
          // Setup expired or replaced, or already on: start again from the status.
          if (isStateConflict(error)) {
            dispatch({ type: 'close' });
            void reloadStatus();
          }
        },
      },
    );
  };

  const download = (codes: readonly string[] | null | undefined) => {
    if (!codes?.length) {
      showWarningMessage(t('twoFactor.message.noCodes'));
      return;
    }
    const content = backupCodesFileContent(codes, {
      title: t('twoFactor.file.title'),
      reminder: t('twoFactor.file.reminder'),
    });
    downloadTextFile(BACKUP_CODES_FILE_NAME, content);
    showSuccessMessage(t('twoFactor.message.codesDownloaded'));
  };

  const copySecret = (secret: string) =>
    copyText(secret).then(
      () => showSuccessMessage(t('twoFactor.message.secretCopied')),
      () => showErrorMessage(t('twoFactor.message.copyFailed'), ERROR_MESSAGE_SECONDS),
    );

  const disableWith = (code: string, field: AuthCodeField) =>
    disable.mutate(
      { code },
      {
        onSuccess: () => {
          dispatch({ type: 'disabled' });
          queryClient.setQueryData(twoFactorStatusQueryKey, NOT_ENABLED);
          showSuccessMessage(t('twoFactor.message.disabled'));
          void reloadStatus();
        },
        onError: (error) => {
          fail(error, 'twoFactor.message.disableFailed');
          field.clear();
          if (isStateConflict(error)) {
            dispatch({ type: 'closeDialog' });
            void reloadStatus();
          }
        },
      },
    );

  const regenerateWith = (code: string, field: AuthCodeField) =>
    regenerate.mutate(
      { code },
      {
        onSuccess: (backupCodes) => {
          dispatch({ type: 'regenerated', backupCodes });
          showSuccessMessage(t('twoFactor.message.regenerated'));
          void reloadStatus();
        },
        onError: (error) => {
          fail(error, 'twoFactor.message.regenerateFailed');
          field.clear();
          if (isStateConflict(error)) {
            dispatch({ type: 'closeDialog' });
            void reloadStatus();
          }
        },
      },
    );

  let body;
  switch (view) {
    case 'loading':
      body = (
        <div className="two-factor-loading" data-testid="two-factor-loading">
          <Spin />
          <span>{t('twoFactor.loading')}</span>
        </div>
      );
      break;
    case 'loadFailed':
      body = (
        <Result
          status="warning"
          title={t('twoFactor.message.statusFailed')}
          data-testid="two-factor-load-failed"
          extra={
            <Button type="primary" loading={status.isFetching} onClick={() => void status.refetch()}>
              {t('twoFactor.loadFailed.retry')}
            </Button>
          }
        />
      );
      break;
    case 'notEnabled':
      body = (
        <div className="two-factor-not-enabled" data-testid="two-factor-not-enabled">
          <Alert
            type="info"
            showIcon
            title={t('twoFactor.notEnabled.title')}
            description={t('twoFactor.notEnabled.description')}
          />
          <div>
            <Button
              type="primary"
              icon={<SafetyCertificateOutlined />}
              loading={startSetup.isPending}
              onClick={beginSetup}
              data-testid="two-factor-begin-setup"
            >
              {t('twoFactor.setup.begin')}
            </Button>
          </div>
        </div>
      );
      break;
    case 'setup':
      body = (
        <SetupWizard
          state={state}
          dispatch={dispatch}
          enabling={enable.isPending}
          onEnable={enableWith}
          onDownload={download}
          onCopySecret={(secret) => void copySecret(secret)}
          onQrError={() => showErrorMessage(t('twoFactor.message.qrFailed'), ERROR_MESSAGE_SECONDS)}
        />
      );
      break;
    case 'enabled':
      body = (
        <EnabledPanel
          status={status.data!}
          onRegenerate={() => dispatch({ type: 'openDialog', dialog: 'regenerate' })}
          onDisable={() => dispatch({ type: 'openDialog', dialog: 'disable' })}
          onViewCodes={() => dispatch({ type: 'openDialog', dialog: 'codes' })}
          onDownload={() => download(downloadableCodes(state))}
        />
      );
      break;
  }

  return (
    <Card title={t('menu.user.googleAuth')} className="two-factor-page" data-testid="two-factor-page" data-view={view}>
      {body}
      <CodeDialog
        kind="disable"
        open={state.dialog === 'disable'}
        busy={disable.isPending}
        onCancel={() => dispatch({ type: 'closeDialog' })}
        onSubmit={disableWith}
      />
      <CodeDialog
        kind="regenerate"
        open={state.dialog === 'regenerate'}
        busy={regenerate.isPending}
        onCancel={() => dispatch({ type: 'closeDialog' })}
        onSubmit={regenerateWith}
      />
      <BackupCodesDialog
        open={state.dialog === 'codes'}
        codes={state.backupCodes}
        remaining={status.data?.backupCodesCount ?? 0}
        onClose={() => dispatch({ type: 'closeDialog' })}
        onDownload={() => download(downloadableCodes(state))}
        onRegenerate={() => dispatch({ type: 'openDialog', dialog: 'regenerate' })}
      />
    </Card>
  );
}
