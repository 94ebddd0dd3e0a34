import { Button, Card, Descriptions, Empty, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { lastReceipt } from '../api/channel-form';

/** Detail page (the menu's profile/detail entry): the parameter group last submitted in this tab. */
export default function ParameterDetailPage() {
  const { t } = useTranslation();
  const receipt = lastReceipt();
  if (!receipt) {
    return (
      <Card data-testid="parameter-detail-page">
        <Empty description={t('template.detail.empty')} data-testid="parameter-detail-empty">
          <Link to="/form/step">
            <Button type="primary">{t('template.detail.toForm')}</Button>
          </Link>
        </Empty>
      </Card>
    );
  }
  const { form } = receipt;
  const mode = (value: string) => t(`template.form.mode.${value}`);
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="parameter-detail-page">
      <Card title={t('template.detail.basic')}>
        <Descriptions column={{ xs: 1, md: 2, xl: 3 }} data-testid="parameter-detail-basic">
          <Descriptions.Item label={t('template.detail.id')}>{receipt.id}</Descriptions.Item>
          <Descriptions.Item label={t('template.detail.submittedAt')}>{receipt.submittedAt}</Descriptions.Item>
          <Descriptions.Item label={t('template.form.activityName')}>{form.activityName}</Descriptions.Item>
          <Descriptions.Item label={t('template.form.channelType')}>
            {t(`template.form.channelType.${form.channelType}`)}
          </Descriptions.Item>
          <Descriptions.Item label={t('template.form.promoteLink')}>{form.promoteLink}</Descriptions.Item>
        </Descriptions>
      </Card>
      <Card title={t('template.form.video')}>
        <Descriptions column={{ xs: 1, md: 2, xl: 3 }} data-testid="parameter-detail-video">
          <Descriptions.Item label={t('template.form.videoMode')}>{mode(form.videoMode)}</Descriptions.Item>
          <Descriptions.Item label={t('template.form.acquisitionResolution')}>
            {form.videoAcquisitionResolution}
          </Descriptions.Item>
          <Descriptions.Item label={t('template.form.acquisitionFrameRate')}>
            {form.videoAcquisitionFrameRate}
          </Descriptions.Item>
          <Descriptions.Item label={t('template.form.encodingResolution')}>
            {form.videoEncodingResolution}
          </Descriptions.Item>
          <Descriptions.Item label={t('template.form.encodingRateMin')}>{form.videoEncodingRateMin}</Descriptions.Item>
          <Descriptions.Item label={t('template.form.encodingRateMax')}>{form.videoEncodingRateMax}</Descriptions.Item>
          <Descriptions.Item label={t('template.form.encodingRateDefault')}>
            {form.videoEncodingRateDefault}
          </Descriptions.Item>
          <Descriptions.Item label={t('template.form.encodingFrameRate')}>
            {form.videoEncodingFrameRate}
          </Descriptions.Item>
          <Descriptions.Item label={t('template.form.encodingProfile')}>{form.videoEncodingProfile}</Descriptions.Item>
        </Descriptions>
      </Card>
      <Card title={t('template.form.audio')}>
        <Descriptions column={{ xs: 1, md: 2, xl: 3 }} data-testid="parameter-detail-audio">
          <Descriptions.Item label={t('template.form.audioMode')}>{mode(form.audioMode)}</Descriptions.Item>
          <Descriptions.Item label={t('template.form.acquisitionChannels')}>
            {form.audioAcquisitionChannels}
          </Descriptions.Item>
          <Descriptions.Item label={t('template.form.audioEncodingRate')}>{form.audioEncodingRate}</Descriptions.Item>
          <Descriptions.Item label={t('template.form.audioEncodingChannels')}>
            {form.audioEncodingChannels}
          </Descriptions.Item>
          <Descriptions.Item label={t('template.form.audioEncodingProfile')}>
            {form.audioEncodingProfile}
          </Descriptions.Item>
          <Descriptions.Item label={t('template.form.description')}>{form.description || '—'}</Descriptions.Item>
        </Descriptions>
      </Card>
    </Space>
  );
}
