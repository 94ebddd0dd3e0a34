import { Alert, Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRevalidator } from 'react-router';
import { ActingMerchantPicker } from '@/components/acting-merchant/acting-merchant-picker';
import { showSuccessMessage } from '@/lib/feedback';
import { useUserStore } from '@/stores/user-store';

/**
 * Shown on every page while an administrator previews the merchant view: says so, picks the
 * merchant whose figures the workplace shows, and ends the preview. Without it a reload
 * would leave the administrator wondering why the monitor is gone.
 */
export function PreviewBanner() {
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  const previewing = useUserStore((state) => state.previewing);
  const switchRole = useUserStore((state) => state.switchRole);
  if (!previewing) return null;
  return (
    <Alert
      type="warning"
      showIcon
      banner
      data-testid="preview-banner"
      title={t('navbar.preview.banner')}
      action={
        <Space wrap>
          <ActingMerchantPicker width={220} />
          <Button
            size="small"
            data-testid="preview-exit"
            onClick={() => {
              const next = switchRole();
              if (next) showSuccessMessage(t('navbar.user.switchRole.done', { role: t(`role.${next}`) }));
              void revalidator.revalidate();
            }}
          >
            {t('navbar.preview.exit')}
          </Button>
        </Space>
      }
    />
  );
}
