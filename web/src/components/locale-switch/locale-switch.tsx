import { GlobalOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { changeLocale, currentLocale, SUPPORTED_LOCALES, type Locale } from '@/lib/i18n';

export interface LocaleSwitchProps {
  /** Show the current language's name next to the icon. */
  showLabel?: boolean;
  type?: 'text' | 'default';
}

/** Language menu (zh-CN / en-US); the choice is remembered in localStorage. */
export function LocaleSwitch({ showLabel = false, type = 'text' }: LocaleSwitchProps) {
  const { t, i18n } = useTranslation();
  const active = currentLocale();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [i18n.language],
        items: SUPPORTED_LOCALES.map((locale) => ({
          key: locale,
          label: <span data-testid={`locale-option-${locale}`}>{t(`locale.${locale}`)}</span>,
        })),
        onClick: ({ key }) => void changeLocale(key as Locale),
      }}
    >
      <Button type={type} icon={<GlobalOutlined />} aria-label={t('navbar.language')} data-testid="locale-switch">
        {showLabel ? t(`locale.${active}`) : null}
      </Button>
    </Dropdown>
  );
}
