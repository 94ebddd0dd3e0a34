import { DownOutlined, UpOutlined } from '@ant-design/icons';
import { Button, Card, Col, DatePicker, Form, type FormInstance, type GetProps, Grid, Row, Space } from 'antd';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DATE_PRESETS, presetRange } from './date-presets';
import { actionCells, cellsPerRow, collapsedCount } from './filter-layout';
import type { FilterValues } from './url-filters';
import './list-page.css';

export interface FilterField {
  name: string;
  label: ReactNode;
  tooltip?: ReactNode;
  /** The input (Select, Input, DateRangeFilter …). */
  input: ReactNode;
  /** Two cells wide (a date-time range). */
  wide?: boolean;
}

export interface FilterCardProps {
  form: FormInstance;
  fields: FilterField[];
  /** The applied filters (from the address): the form shows them and follows their changes. */
  values: FilterValues;
  onSearch: (values: FilterValues) => void;
  onReset: () => void;
  title?: ReactNode;
  /** At the right of the card's heading (the saved views). */
  extra?: ReactNode;
  testId: string;
  searchTestId: string;
  resetTestId?: string;
}

function isSet(value: FilterValues[string]): boolean {
  if (Array.isArray(value)) return value.some(Boolean);
  return value !== undefined && value !== null && value !== '';
}

/** A date-time range with the today / last 7 days / this month presets (Beijing days). */
export function DateRangeFilter(props: GetProps<typeof DatePicker.RangePicker>) {
  const { t } = useTranslation();
  const presets = useMemo(
    () => DATE_PRESETS.map((preset) => ({ label: t(`listPage.preset.${preset}`), value: () => presetRange(preset) })),
    [t],
  );
  return (
    <DatePicker.RangePicker {...props} showTime allowEmpty={[true, true]} presets={presets} style={{ width: '100%' }} />
  );
}

/**
 * The filter card of a list: fields in a grid, search / reset, and "expand" for the fields
 * beyond the first row (collapsed by default, as antd Pro tables do). Collapsed fields keep
 * their values; the expand button counts those that are set.
 */
export function FilterCard({
  form,
  fields,
  values,
  onSearch,
  onReset,
  title,
  extra,
  testId,
  searchTestId,
  resetTestId,
}: FilterCardProps) {
  const { t } = useTranslation();
  const perRow = cellsPerRow(Grid.useBreakpoint());
  const [expanded, setExpanded] = useState(false);

  // The address is the source of truth: show what it says whenever it changes.
  useEffect(() => {
    form.resetFields();
    form.setFieldsValue(values);
  }, [form, values]);

  const widths = fields.map((field) => (field.wide ? 2 : 1));
  const shown = expanded ? fields.length : collapsedCount(widths, perRow);
  const hiddenSet = fields.slice(shown).filter((field) => isSet(values[field.name])).length;
  const cell = 24 / perRow;
  const buttons = actionCells(widths.slice(0, shown), perRow);

  return (
    <Card title={title} extra={extra} size="small" className="list-filters" data-testid={`${testId}-card`}>
      <Form form={form} layout="vertical" onFinish={onSearch} data-testid={testId}>
        <Row gutter={16}>
          {fields.map((field, index) => (
            <Col
              key={field.name}
              span={Math.min(24, cell * (field.wide ? 2 : 1))}
              style={index < shown ? undefined : { display: 'none' }}
            >
              <Form.Item name={field.name} label={field.label} tooltip={field.tooltip}>
                {field.input}
              </Form.Item>
            </Col>
          ))}
          <Col span={cell * buttons} className="list-filters__actions">
            <Form.Item label={perRow > 1 ? ' ' : undefined} colon={false}>
              <Space wrap>
                <Button type="primary" htmlType="submit" data-testid={searchTestId}>
                  {t('common.filter.search')}
                </Button>
                <Button
                  data-testid={resetTestId}
                  onClick={() => {
                    form.resetFields();
                    onReset();
                  }}
                >
                  {t('common.filter.reset')}
                </Button>
                {fields.length > collapsedCount(widths, perRow) ? (
                  <Button
                    type="link"
                    onClick={() => setExpanded(!expanded)}
                    data-testid={`${testId}-expand`}
                    aria-expanded={expanded}
                    icon={expanded ? <UpOutlined /> : <DownOutlined />}
                    iconPlacement="end"
                  >
                    {expanded
                      ? t('listPage.collapse')
                      : hiddenSet
                        ? t('listPage.expandSet', { count: hiddenSet })
                        : t('listPage.expand')}
                  </Button>
                ) : null}
              </Space>
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </Card>
  );
}
