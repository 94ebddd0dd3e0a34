import { Button, Card, Form, Input, Result, Select, Space, Steps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { showErrorMessage } from '@/lib/feedback';
import { ApiError } from '@/lib/request';
import { useSubmitChannelForm, type ChannelForm, type ChannelFormReceipt } from '../api/channel-form';
import { ACTIVITY_NAME_MAX, CHANNEL_TYPES, isPromoteLink, maxLength } from './channel-rules';
import { PARAMETER_FIELDS, ParameterFields } from './parameter-fields';

const BASIC_FIELDS = ['activityName', 'channelType', 'promoteLink'] as const;
const ERROR_SECONDS = 5;

/** Sensible starting values within every range. */
const INITIAL: Partial<ChannelForm> = {
  channelType: 'app',
  videoMode: 'custom',
  videoAcquisitionResolution: '1920x1080',
  videoAcquisitionFrameRate: 30,
  videoEncodingResolution: '1280x720',
  videoEncodingRateMin: 300,
  videoEncodingRateMax: 1500,
  videoEncodingRateDefault: 800,
  videoEncodingFrameRate: 25,
  videoEncodingProfile: 'main',
  audioMode: 'auto',
  audioAcquisitionChannels: 2,
  audioEncodingRate: 128,
  audioEncodingChannels: 2,
  audioEncodingProfile: 'AAC-LC',
  description: '',
};

/** The server's per-field messages of a refused submit (mock envelope, code 50000). */
function fieldErrors(error: unknown): { name: string; errors: string[] }[] {
  if (!(error instanceof ApiError)) return [];
  const fields = (error.data as { fields?: Record<string, unknown> } | null)?.fields ?? {};
  return Object.entries(fields)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    .map(([name, message]) => ({ name, errors: [message] }));
}

/** Channel form (the form page): a step form with the video/audio parameter group. */
export default function ChannelFormPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const [step, setStep] = useState(0);
  const [receipt, setReceipt] = useState<ChannelFormReceipt | null>(null);
  const submit = useSubmitChannelForm();

  const next = async () => {
    await form.validateFields([...BASIC_FIELDS]);
    setStep(1);
  };

  const send = async () => {
    await form.validateFields([...PARAMETER_FIELDS]);
    try {
      const values = form.getFieldsValue(true) as ChannelForm;
      setReceipt(await submit.mutateAsync({ ...values, description: values.description ?? '' }));
      setStep(2);
    } catch (error) {
      const errors = fieldErrors(error);
      form.setFields(errors);
      const basic = errors.some((item) => (BASIC_FIELDS as readonly string[]).includes(item.name));
      if (basic) setStep(0);
      showErrorMessage(
        error instanceof Error && error.message ? error.message : t('template.form.submitFailed'),
        ERROR_SECONDS,
      );
    }
  };

  const again = () => {
    form.resetFields();
    setReceipt(null);
    setStep(0);
  };

  return (
    <Card title={t('template.form.title')} data-testid="channel-form-page">
      <Steps
        current={step}
        style={{ maxWidth: 760, margin: '0 auto 32px' }}
        items={[
          { title: t('template.form.step.basic'), content: t('template.form.step.basicDescription') },
          { title: t('template.form.step.params'), content: t('template.form.step.paramsDescription') },
          { title: t('template.form.step.done'), content: t('template.form.step.doneDescription') },
        ]}
      />
      <Form form={form} layout="vertical" initialValues={INITIAL} style={{ maxWidth: 960, margin: '0 auto' }}>
        {step === 0 ? (
          <>
            <Form.Item
              name="activityName"
              label={t('template.form.activityName')}
              rules={[
                { required: true, whitespace: true, message: t('template.form.activityName.required') },
                {
                  validator: (_, value: string | undefined) =>
                    maxLength(value, ACTIVITY_NAME_MAX)
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('template.form.activityName.max'))),
                },
              ]}
            >
              <Input placeholder={t('template.form.activityName.placeholder')} data-testid="channel-activityName" />
            </Form.Item>
            <Form.Item
              name="channelType"
              label={t('template.form.channelType')}
              rules={[{ required: true, message: t('template.form.required') }]}
            >
              <Select
                options={CHANNEL_TYPES.map((value) => ({ value, label: t(`template.form.channelType.${value}`) }))}
                data-testid="channel-channelType"
              />
            </Form.Item>
            <Form.Item
              name="promoteLink"
              label={t('template.form.promoteLink')}
              rules={[
                { required: true, whitespace: true, message: t('template.form.required') },
                {
                  validator: (_, value: string | undefined) =>
                    !value || isPromoteLink(value)
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('template.form.promoteLink.invalid'))),
                },
              ]}
            >
              <Input placeholder={t('template.form.promoteLink.placeholder')} data-testid="channel-promoteLink" />
            </Form.Item>
            <Button type="primary" onClick={() => void next().catch(() => undefined)} data-testid="channel-next">
              {t('template.form.next')}
            </Button>
          </>
        ) : null}
        {step === 1 ? (
          <>
            <ParameterFields form={form} />
            <Space>
              <Button onClick={() => setStep(0)} data-testid="channel-previous">
                {t('template.form.previous')}
              </Button>
              <Button
                type="primary"
                loading={submit.isPending}
                onClick={() => void send().catch(() => undefined)}
                data-testid="channel-submit"
              >
                {t('template.form.submit')}
              </Button>
            </Space>
          </>
        ) : null}
      </Form>
      {step === 2 && receipt ? (
        <Result
          status="success"
          title={t('template.form.successTitle')}
          subTitle={t('template.form.successSubTitle', { id: receipt.id })}
          data-testid="channel-success"
          extra={[
            <Link key="detail" to="/profile/basic">
              <Button type="primary" data-testid="channel-view-detail">
                {t('template.form.viewDetail')}
              </Button>
            </Link>,
            <Link key="progress" to="/result/success">
              <Button data-testid="channel-view-progress">{t('template.form.toResult')}</Button>
            </Link>,
            <Button key="again" onClick={again} data-testid="channel-again">
              {t('template.form.again')}
            </Button>,
          ]}
        />
      ) : null}
    </Card>
  );
}
