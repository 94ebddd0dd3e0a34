import { CopyOutlined, DownloadOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Input, Result, Space, Steps, Typography } from 'antd';
import { useState, type Dispatch } from 'react';
import { useTranslation } from 'react-i18next';
import { AUTH_CODE_LENGTH, stripNonDigits } from '@/components/auth-code-input/auth-code';
import { BackupCodeList } from './backup-code-list';
import { validateSetupCode } from './code-rules';
import type { PanelAction, PanelState } from './panel-state';
import { QrCodeImage } from './qr-code-image';

export interface SetupWizardProps {
  state: PanelState;
  dispatch: Dispatch<PanelAction>;
  enabling: boolean;
  onEnable: (code: string, password: string) => void;
  onDownload: (codes: readonly string[]) => void;
  onCopySecret: (secret: string) => void;
  onQrError: () => void;
}

function BackupCodesBlock({ codes, onDownload }: { codes: readonly string[]; onDownload: () => void }) {
  const { t } = useTranslation();
  return (
    <section className="two-factor-section" data-testid="two-factor-backup-block">
      <Typography.Title level={5}>{t('twoFactor.backupCodes.title')}</Typography.Title>
      <Alert type="warning" showIcon title={t('twoFactor.backupCodes.hint')} />
      <BackupCodeList codes={codes} />
      <Button icon={<DownloadOutlined />} onClick={onDownload} data-testid="two-factor-download-codes">
        {t('twoFactor.backupCodes.download')}
      </Button>
    </section>
  );
}

/** Step 1: QR code, secret with copy, backup codes with download; Cancel and Next. */
function ScanStep({ state, dispatch, onDownload, onCopySecret, onQrError }: SetupWizardProps) {
  const { t } = useTranslation();
  const setup = state.setup!;
  return (
    <div data-testid="two-factor-step-1">
      <div className="two-factor-scan">
        <QrCodeImage key={setup.qrCodeUrl} src={setup.qrCodeUrl} onError={onQrError} />
        <div className="two-factor-scan__text">
          <Typography.Paragraph>{t('twoFactor.step1.scanHint')}</Typography.Paragraph>
          <Typography.Paragraph type="secondary">{t('twoFactor.step1.secretLabel')}</Typography.Paragraph>
          <Space.Compact className="two-factor-secret">
            <Input
              readOnly
              value={setup.secret}
              data-testid="two-factor-secret"
              aria-label={t('twoFactor.step1.copySecret')}
            />
            <Button
              icon={<CopyOutlined />}
              onClick={() => onCopySecret(setup.secret)}
              data-testid="two-factor-copy-secret"
            >
              {t('twoFactor.step1.copySecret')}
            </Button>
          </Space.Compact>
        </div>
      </div>
      <BackupCodesBlock codes={setup.backupCodes} onDownload={() => onDownload(setup.backupCodes)} />
      <div className="two-factor-actions">
        <Button onClick={() => dispatch({ type: 'close' })} data-testid="two-factor-cancel">
          {t('common.cancel')}
        </Button>
        <Button type="primary" onClick={() => dispatch({ type: 'next' })} data-testid="two-factor-next">
          {t('twoFactor.next')}
        </Button>
      </div>
    </div>
  );
}

/**
 * Step 2: the 6-digit code and the current password (whoever holds only a stolen session
 * cannot bind their own authenticator); Previous and Verify-and-enable (Enter submits too).
 */
function VerifyStep({ state, dispatch, enabling, onEnable }: SetupWizardProps) {
  const { t } = useTranslation();
  const [checked, setChecked] = useState(false);
  const [password, setPassword] = useState('');
  const error = checked ? validateSetupCode(state.code) : null;
  const passwordError = checked && !password ? 'twoFactor.validation.passwordRequired' : null;
  const submit = () => {
    setChecked(true);
    if (enabling || validateSetupCode(state.code) || !password) return;
    onEnable(state.code, password);
  };
  return (
    <div data-testid="two-factor-step-2">
      <Typography.Paragraph>{t('twoFactor.step2.hint')}</Typography.Paragraph>
      <Form layout="vertical" component="div" className="two-factor-verify">
        <Form.Item
          label={t('twoFactor.code.label')}
          required
          className="two-factor-verify__item"
          validateStatus={error ? 'error' : undefined}
          help={error ? <span data-testid="two-factor-code-error">{t(error)}</span> : undefined}
        >
          <Input
            size="large"
            value={state.code}
            maxLength={AUTH_CODE_LENGTH}
            inputMode="numeric"
            autoComplete="one-time-code"
            placeholder={t('twoFactor.code.placeholder')}
            autoFocus
            className="two-factor-verify__input"
            data-testid="two-factor-code"
            onChange={(event) =>
              dispatch({ type: 'codeChanged', code: stripNonDigits(event.target.value, AUTH_CODE_LENGTH) })
            }
            onPressEnter={submit}
          />
        </Form.Item>
        <Form.Item
          label={t('twoFactor.password.label')}
          required
          className="two-factor-verify__item"
          validateStatus={passwordError ? 'error' : undefined}
          help={passwordError ? <span data-testid="two-factor-password-error">{t(passwordError)}</span> : undefined}
        >
          <Input.Password
            value={password}
            autoComplete="current-password"
            placeholder={t('twoFactor.password.placeholder')}
            data-testid="two-factor-password"
            onChange={(event) => setPassword(event.target.value)}
            onPressEnter={submit}
          />
        </Form.Item>
      </Form>
      <div className="two-factor-actions">
        <Button onClick={() => dispatch({ type: 'previous' })} disabled={enabling} data-testid="two-factor-previous">
          {t('twoFactor.previous')}
        </Button>
        <Button type="primary" loading={enabling} onClick={submit} data-testid="two-factor-enable">
          {t('twoFactor.enable')}
        </Button>
      </div>
    </div>
  );
}

/** Step 3: success, the backup codes again with download, Complete. */
function DoneStep({ state, dispatch, onDownload }: SetupWizardProps) {
  const { t } = useTranslation();
  const codes = state.backupCodes ?? [];
  return (
    <div data-testid="two-factor-step-3">
      <Result
        status="success"
        title={<span data-testid="two-factor-success">{t('twoFactor.message.enabled')}</span>}
        subTitle={t('twoFactor.step3.description')}
        className="two-factor-done"
      />
      <BackupCodesBlock codes={codes} onDownload={() => onDownload(codes)} />
      <div className="two-factor-actions">
        <Button type="primary" onClick={() => dispatch({ type: 'close' })} data-testid="two-factor-complete">
          {t('twoFactor.complete')}
        </Button>
      </div>
    </div>
  );
}

/** The three-step setup wizard. */
export function SetupWizard(props: SetupWizardProps) {
  const { t } = useTranslation();
  const { step } = props.state;
  return (
    <div className="two-factor-wizard" data-testid="two-factor-wizard" data-step={step}>
      <Steps
        current={step - 1}
        className="two-factor-steps"
        data-testid="two-factor-steps"
        items={[
          { title: t('twoFactor.steps.scan') },
          { title: t('twoFactor.steps.verify') },
          { title: t('twoFactor.steps.done') },
        ]}
      />
      {step === 1 && props.state.setup ? <ScanStep {...props} /> : null}
      {step === 2 ? <VerifyStep {...props} /> : null}
      {step === 3 ? <DoneStep {...props} /> : null}
    </div>
  );
}
