import { DatePicker, Form, Radio } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { Grain, ReportRange } from '../api/reports';
import { MAX_DAYS } from './report-filters';

/** The range and grain fields of both reports' filter forms. */
export function ReportRangeFields({ value, onChange }: { value: ReportRange; onChange: (range: ReportRange) => void }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item label={t('report.range')}>
        <DatePicker.RangePicker
          value={[dayjs(value.start), dayjs(value.end)]}
          allowClear={false}
          // A range longer than the server reads cannot be picked.
          disabledDate={(day, info) => {
            const from = info.from;
            return Boolean(from && Math.abs(day.diff(from, 'day')) >= MAX_DAYS);
          }}
          onChange={(days) => {
            const [start, end] = days ?? [];
            if (start && end) {
              onChange({ ...value, start: start.format('YYYY-MM-DD'), end: end.format('YYYY-MM-DD') });
            }
          }}
          data-testid="report-range"
        />
      </Form.Item>
      <Form.Item label={t('report.grain')}>
        <Radio.Group
          value={value.grain}
          optionType="button"
          onChange={(event) => onChange({ ...value, grain: event.target.value as Grain })}
          data-testid="report-grain"
          options={[
            { value: 'day', label: t('report.day') },
            { value: 'month', label: t('report.month') },
          ]}
        />
      </Form.Item>
    </>
  );
}
