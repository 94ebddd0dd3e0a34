import { ArrowDownOutlined, ArrowUpOutlined, ColumnHeightOutlined, SettingOutlined } from '@ant-design/icons';
import { Button, Checkbox, Dropdown, Popover, Space, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type ColumnSettings,
  DENSITIES,
  type Density,
  moveColumn,
  type SettingsChange,
  toggleColumn,
} from './column-settings';

export interface SettableColumn {
  key: string;
  title: ReactNode;
}

/** Show / hide and reorder a list's columns. */
export function ColumnSettingsButton({
  columns,
  settings,
  onChange,
  onReset,
}: {
  columns: SettableColumn[];
  settings: ColumnSettings;
  onChange: (change: SettingsChange) => void;
  onReset: () => void;
}) {
  const { t } = useTranslation();
  const titles = new Map(columns.map((column) => [column.key, column.title]));
  const visible = settings.order.filter((key) => !settings.hidden.includes(key)).length;
  const content = (
    <div className="list-columns" data-testid="column-settings">
      <div className="list-columns__head">
        <Typography.Text strong>{t('listPage.columns.title')}</Typography.Text>
        <Button type="link" size="small" onClick={onReset} data-testid="column-settings-reset">
          {t('listPage.columns.reset')}
        </Button>
      </div>
      {settings.order.map((key, index) => {
        const shown = !settings.hidden.includes(key);
        return (
          <div className="list-columns__row" key={key} data-testid={`column-setting-${key}`}>
            <Checkbox
              checked={shown}
              disabled={shown && visible <= 1}
              onChange={(event) => {
                const checked = event.target.checked;
                onChange((current) => toggleColumn(current, key, checked));
              }}
              data-testid={`column-toggle-${key}`}
            >
              {titles.get(key)}
            </Checkbox>
            <Space size={0}>
              <Button
                type="text"
                size="small"
                icon={<ArrowUpOutlined />}
                disabled={index === 0}
                aria-label={t('listPage.columns.up')}
                onClick={() => onChange((current) => moveColumn(current, key, -1))}
                data-testid={`column-up-${key}`}
              />
              <Button
                type="text"
                size="small"
                icon={<ArrowDownOutlined />}
                disabled={index === settings.order.length - 1}
                aria-label={t('listPage.columns.down')}
                onClick={() => onChange((current) => moveColumn(current, key, 1))}
                data-testid={`column-down-${key}`}
              />
            </Space>
          </div>
        );
      })}
    </div>
  );
  return (
    <Popover content={content} trigger="click" placement="bottomRight">
      <Tooltip title={t('listPage.columns.title')}>
        <Button
          icon={<SettingOutlined />}
          aria-label={t('listPage.columns.title')}
          data-testid="column-settings-open"
        />
      </Tooltip>
    </Popover>
  );
}

/** Row density: large (default antd), middle, compact. */
export function DensityButton({ value, onChange }: { value: Density; onChange: (density: Density) => void }) {
  const { t } = useTranslation();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [value],
        items: DENSITIES.map((density) => ({
          key: density,
          label: <span data-testid={`density-${density}`}>{t(`listPage.density.${density}`)}</span>,
        })),
        onClick: ({ key }) => onChange(key as Density),
      }}
    >
      <Tooltip title={t('listPage.density.title')}>
        <Button icon={<ColumnHeightOutlined />} aria-label={t('listPage.density.title')} data-testid="density-open" />
      </Tooltip>
    </Dropdown>
  );
}
