import { Alert, Col, Divider, Form, Input, InputNumber, Row, Select } from 'antd';
import type { FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  AUDIO_ACQUISITION_CHANNELS,
  AUDIO_ENCODING_CHANNELS,
  AUDIO_ENCODING_RATE,
  AUDIO_PROFILES,
  checkRateOrder,
  DESCRIPTION_MAX,
  ENCODING_RATE,
  FRAME_RATE,
  maxLength,
  MODES,
  rangeRule,
  RESOLUTIONS,
  VIDEO_PROFILES,
  type Range,
} from './channel-rules';

export const PARAMETER_FIELDS = [
  'videoMode',
  'videoAcquisitionResolution',
  'videoAcquisitionFrameRate',
  'videoEncodingResolution',
  'videoEncodingRateMin',
  'videoEncodingRateMax',
  'videoEncodingRateDefault',
  'videoEncodingFrameRate',
  'videoEncodingProfile',
  'audioMode',
  'audioAcquisitionChannels',
  'audioEncodingRate',
  'audioEncodingChannels',
  'audioEncodingProfile',
  'description',
] as const;

/** The video/audio parameter group, each field within its allowed range. */
export function ParameterFields({ form }: { form: FormInstance }) {
  const { t } = useTranslation();
  const required = { required: true, message: t('template.form.required') };
  const choices = (values: readonly string[], prefix?: string) =>
    values.map((value) => ({ value, label: prefix ? t(`${prefix}.${value}`) : value }));
  const number = (name: string, label: string, range: Range, unit?: string, extraRules: object[] = []) => (
    <Col xs={24} md={12} xl={8}>
      <Form.Item name={name} label={t(label)} rules={[rangeRule(range, t), ...extraRules]} required>
        <InputNumber
          style={{ width: '100%' }}
          placeholder={t('template.form.rangePlaceholder', { min: range.min, max: range.max })}
          suffix={unit ? t(unit) : undefined}
          data-testid={`channel-${name}`}
        />
      </Form.Item>
    </Col>
  );
  const select = (name: string, label: string, options: { value: string; label: string }[]) => (
    <Col xs={24} md={12} xl={8}>
      <Form.Item name={name} label={t(label)} rules={[required]}>
        <Select options={options} data-testid={`channel-${name}`} />
      </Form.Item>
    </Col>
  );
  // The default rate lies between min and max; shown on whichever field is at fault.
  const orderRule = (field: string) => ({
    validator: () => {
      const problem = checkRateOrder(
        form.getFieldValue('videoEncodingRateMin'),
        form.getFieldValue('videoEncodingRateMax'),
        form.getFieldValue('videoEncodingRateDefault'),
        t,
      );
      return problem && problem.field === field ? Promise.reject(new Error(problem.message)) : Promise.resolve();
    },
  });

  return (
    <>
      <Alert
        type="info"
        showIcon
        title={t('template.form.rangesHelp')}
        style={{ marginBottom: 16 }}
        data-testid="channel-ranges-help"
      />
      <Divider titlePlacement="start">{t('template.form.video')}</Divider>
      <Row gutter={16}>
        {select('videoMode', 'template.form.videoMode', choices(MODES, 'template.form.mode'))}
        {select('videoAcquisitionResolution', 'template.form.acquisitionResolution', choices(RESOLUTIONS))}
        {number('videoAcquisitionFrameRate', 'template.form.acquisitionFrameRate', FRAME_RATE, 'template.form.fps')}
        {select('videoEncodingResolution', 'template.form.encodingResolution', choices(RESOLUTIONS))}
        {number('videoEncodingRateMin', 'template.form.encodingRateMin', ENCODING_RATE, 'template.form.kbps', [
          orderRule('videoEncodingRateMin'),
        ])}
        {number('videoEncodingRateMax', 'template.form.encodingRateMax', ENCODING_RATE, 'template.form.kbps')}
        {number('videoEncodingRateDefault', 'template.form.encodingRateDefault', ENCODING_RATE, 'template.form.kbps', [
          orderRule('videoEncodingRateDefault'),
        ])}
        {number('videoEncodingFrameRate', 'template.form.encodingFrameRate', FRAME_RATE, 'template.form.fps')}
        {select('videoEncodingProfile', 'template.form.encodingProfile', choices(VIDEO_PROFILES))}
      </Row>
      <Divider titlePlacement="start">{t('template.form.audio')}</Divider>
      <Row gutter={16}>
        {select('audioMode', 'template.form.audioMode', choices(MODES, 'template.form.mode'))}
        {number('audioAcquisitionChannels', 'template.form.acquisitionChannels', AUDIO_ACQUISITION_CHANNELS)}
        {number('audioEncodingRate', 'template.form.audioEncodingRate', AUDIO_ENCODING_RATE, 'template.form.kbps')}
        {number('audioEncodingChannels', 'template.form.audioEncodingChannels', AUDIO_ENCODING_CHANNELS)}
        {select('audioEncodingProfile', 'template.form.audioEncodingProfile', choices(AUDIO_PROFILES))}
      </Row>
      <Form.Item
        name="description"
        label={t('template.form.description')}
        rules={[
          {
            validator: (_, value: string | undefined) =>
              maxLength(value, DESCRIPTION_MAX)
                ? Promise.resolve()
                : Promise.reject(new Error(t('template.form.description.max'))),
          },
        ]}
      >
        <Input.TextArea
          rows={3}
          showCount={{ formatter: ({ count }) => `${count} / ${DESCRIPTION_MAX}` }}
          placeholder={t('template.form.description.placeholder')}
          data-testid="channel-description"
        />
      </Form.Item>
    </>
  );
}
