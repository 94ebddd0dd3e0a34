import { DatePicker, Form, Input, InputNumber, Modal, Radio, Select, TimePicker, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { showSuccessMessage } from '@/lib/feedback';
import { applyServerFieldErrors } from '@/lib/form-errors';
import { useSubmission } from '@/lib/submission';
import { PROVINCE_CODES, provinceKey } from '@/lib/provinces';
import { type MaintenanceWindow, saveWindow, useChannelChoices, useWindowChange } from '../api/windows';
import { crossesMidnight, EMPTY_VALUES, fromWindow, toRequest, type WindowValues } from './window-values';

const CARRIERS = ['mobile', 'unicom', 'telecom', 'broadnet'];
const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7];

/** Create a window, or edit `editing`: scope, repetition, times, title and note. */
export function WindowDialog({
  editing,
  open,
  onClose,
}: {
  editing?: MaintenanceWindow;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<WindowValues>();
  const save = useWindowChange(saveWindow);
  // A double click submits twice before the first answer: one window, not two.
  const submission = useSubmission();
  const channels = useChannelChoices(open);
  const scope = Form.useWatch('scope', form);
  const recurrence = Form.useWatch('recurrence', form);
  const spanStart = Form.useWatch('span_start', form);
  const spanEnd = Form.useWatch('span_end', form);
  const required = (message: string) => [{ required: true, message }];

  const submit = (values: WindowValues) => {
    const request = { id: editing?.id, form: toRequest(values) };
    submission
      .run(request, () => save.mutateAsync(request))
      ?.then(() => {
        showSuccessMessage(t('windows.saved'));
        onClose();
      })
      .catch((error: unknown) => applyServerFieldErrors(form, error));
  };

  return (
    <Modal
      open={open}
      title={t(editing ? 'windows.edit' : 'windows.create')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={submission.pending}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'window-submit' } as Record<string, string>}
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={editing ? fromWindow(editing) : EMPTY_VALUES}
        onFinish={submit}
        data-testid="window-form"
      >
        <Form.Item
          name="title"
          label={t('windows.title')}
          extra={t('windows.titleHint')}
          rules={required(t('windows.titleRequired'))}
        >
          <Input maxLength={60} data-testid="window-title" />
        </Form.Item>
        <Form.Item name="scope" label={t('windows.scope')}>
          <Radio.Group
            optionType="button"
            options={(['carrier', 'province', 'channel'] as const).map((value) => ({
              value,
              label: t(`windows.scope.${value}`),
            }))}
            data-testid="window-scope"
          />
        </Form.Item>
        {scope !== 'channel' ? (
          <Form.Item name="carrier" label={t('windows.carrier')} rules={required(t('windows.carrierRequired'))}>
            <Select
              options={CARRIERS.map((value) => ({ value, label: t(`common.carrier.${value}`) }))}
              data-testid="window-carrier"
            />
          </Form.Item>
        ) : null}
        {scope === 'province' ? (
          <Form.Item name="province" label={t('windows.province')} rules={required(t('windows.provinceRequired'))}>
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              options={PROVINCE_CODES.map((code) => ({ value: code, label: t(provinceKey(code)) }))}
              data-testid="window-province"
            />
          </Form.Item>
        ) : null}
        {scope === 'channel' ? (
          <Form.Item name="channel_id" label={t('windows.channel')} rules={required(t('windows.channelRequired'))}>
            <Select
              loading={channels.isFetching}
              options={(channels.data ?? []).map((channel) => ({ value: channel.id, label: channel.name }))}
              data-testid="window-channel"
            />
          </Form.Item>
        ) : null}
        <Form.Item name="recurrence" label={t('windows.recurrence')}>
          <Radio.Group
            optionType="button"
            options={(['once', 'daily', 'weekly', 'monthly'] as const).map((value) => ({
              value,
              label: t(`windows.recurrence.${value}`),
            }))}
            data-testid="window-recurrence"
          />
        </Form.Item>
        {recurrence === 'once' ? (
          <Form.Item
            name="range"
            label={t('windows.range')}
            extra={t('windows.beijing')}
            rules={required(t('windows.rangeRequired'))}
          >
            <DatePicker.RangePicker
              showTime={{ format: 'HH:mm' }}
              format="YYYY-MM-DD HH:mm"
              data-testid="window-range"
            />
          </Form.Item>
        ) : (
          <>
            {recurrence === 'weekly' ? (
              <Form.Item name="day" label={t('windows.weekday')} rules={required(t('windows.dayRequired'))}>
                <Select
                  options={WEEKDAYS.map((day) => ({ value: day, label: t(`windows.weekday.${day}`) }))}
                  data-testid="window-weekday"
                />
              </Form.Item>
            ) : null}
            {recurrence === 'monthly' ? (
              <Form.Item
                name="day"
                label={t('windows.monthDay')}
                extra={t('windows.monthDayHint')}
                rules={required(t('windows.dayRequired'))}
              >
                <InputNumber min={1} max={31} precision={0} data-testid="window-month-day" />
              </Form.Item>
            ) : null}
            <Form.Item label={t('windows.span')} extra={t('windows.beijing')} required>
              <Form.Item name="span_start" noStyle rules={required(t('windows.spanRequired'))}>
                <TimePicker
                  format="HH:mm"
                  needConfirm={false}
                  placeholder={t('windows.spanStart')}
                  data-testid="window-span-start"
                />
              </Form.Item>
              <span style={{ margin: '0 8px' }}>–</span>
              <Form.Item name="span_end" noStyle rules={required(t('windows.spanRequired'))}>
                <TimePicker
                  format="HH:mm"
                  needConfirm={false}
                  placeholder={t('windows.spanEnd')}
                  data-testid="window-span-end"
                />
              </Form.Item>
              {crossesMidnight(spanStart, spanEnd) ? (
                <Typography.Text type="secondary" style={{ marginLeft: 8 }} data-testid="window-next-day">
                  {t('windows.nextDay')}
                </Typography.Text>
              ) : null}
            </Form.Item>
          </>
        )}
        <Form.Item name="note" label={t('windows.note')}>
          <Input.TextArea maxLength={200} showCount rows={2} data-testid="window-note" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
