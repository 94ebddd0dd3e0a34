import { Card, Empty, List, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTimeAs } from '@/lib/platform-time';
import { provinceKey } from '@/lib/provinces';
import { type UpcomingWindow, useUpcomingWindows } from '../api/windows';

/** Maintenance windows of the next seven days: while one runs, fast orders it closes are refused. */
export function UpcomingWindows() {
  const { t } = useTranslation();
  const windows = useUpcomingWindows();
  const scope = (window: UpcomingWindow) => {
    if (window.scope === 'channel') return t('workplace.windows.someChannels');
    const carrier = window.carrier ? t(`common.carrier.${window.carrier}`) : '';
    return window.province ? `${carrier} · ${t(provinceKey(window.province))}` : carrier;
  };
  const list = windows.data ?? [];
  return (
    <Card title={t('workplace.windows.title')} data-testid="workplace-windows" loading={windows.isLoading}>
      {list.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('workplace.windows.none')} />
      ) : (
        <List
          size="small"
          dataSource={list.slice(0, 10)}
          renderItem={(window) => (
            <List.Item data-testid="workplace-window">
              <Typography.Text strong>{window.title}</Typography.Text>
              <Typography.Text type="secondary">{scope(window)}</Typography.Text>
              <span>
                {formatTimeAs(window.starts_at, 'MM-DD HH:mm')} – {formatTimeAs(window.ends_at, 'MM-DD HH:mm')}
                {window.running ? (
                  <Tag color="orange" style={{ marginLeft: 8 }}>
                    {t('workplace.windows.running')}
                  </Tag>
                ) : null}
              </span>
            </List.Item>
          )}
        />
      )}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('workplace.windows.hint')}
      </Typography.Text>
    </Card>
  );
}
