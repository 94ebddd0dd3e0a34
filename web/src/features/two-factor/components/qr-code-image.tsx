import { ExclamationCircleOutlined } from '@ant-design/icons';
import { Spin } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The setup QR code: a spinner until it has loaded, 'QR code generation failed' if it cannot. */
export function QrCodeImage({ src, onError }: { src: string; onError: () => void }) {
  const { t } = useTranslation();
  const [state, setState] = useState<'loading' | 'loaded' | 'failed'>('loading');
  return (
    <div className="two-factor-qr" data-testid="two-factor-qr-box" data-state={state}>
      {state === 'loading' ? <Spin data-testid="two-factor-qr-loading" /> : null}
      {state === 'failed' ? (
        <div className="two-factor-qr__failed" role="alert" data-testid="two-factor-qr-error">
          <ExclamationCircleOutlined />
          <span>{t('twoFactor.message.qrFailed')}</span>
        </div>
      ) : (
        <img
          src={src}
          alt={t('twoFactor.step1.qrAlt')}
          width={200}
          height={200}
          hidden={state !== 'loaded'}
          data-testid="two-factor-qr"
          onLoad={() => setState('loaded')}
          onError={() => {
            setState('failed');
            onError();
          }}
        />
      )}
    </div>
  );
}
