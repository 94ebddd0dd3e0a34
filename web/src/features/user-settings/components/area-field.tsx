import { ReloadOutlined } from '@ant-design/icons';
import { Button, Cascader, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAreaOptions } from './area-options';

export interface AreaCascaderProps {
  value?: string[];
  onChange?: (value: string[]) => void;
  id?: string;
}

/** Province / city / county picker; its data loads the first time it is shown. */
export function AreaCascader({ value, onChange, id }: AreaCascaderProps) {
  const { t } = useTranslation();
  const options = useAreaOptions();

  if (options.isError) {
    return (
      <Space data-testid="area-load-failed">
        <Typography.Text type="danger">{t('userSetting.basic.area.loadFailed')}</Typography.Text>
        <Button size="small" icon={<ReloadOutlined />} onClick={() => void options.refetch()}>
          {t('common.retry')}
        </Button>
      </Space>
    );
  }

  return (
    <Cascader
      id={id}
      data-testid="profile-area"
      options={options.data ?? []}
      value={value}
      onChange={(next) => onChange?.((next ?? []) as string[])}
      changeOnSelect={false}
      disabled={options.isPending}
      placeholder={options.isPending ? t('userSetting.basic.area.loading') : t('userSetting.basic.area.placeholder')}
      showSearch={{
        filter: (input, path) => path.some((option) => String(option.label).includes(input.trim())),
      }}
      allowClear
      style={{ width: '100%' }}
    />
  );
}
