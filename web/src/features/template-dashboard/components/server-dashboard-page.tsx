import { Alert, Card, Col, Descriptions, Row, Skeleton, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useContentData, usePopularClicks } from '../api/content';
import { ContentSeriesChart, ContentTotals, DemoNote, LoadFailed, PopularCard } from './content-widgets';
import './template-dashboard.css';

/**
 * Server-side dashboard (menu entry): the same day's generated data as the content
 * dashboard, rendered as the server computed it (totals first), with the data date.
 */
export default function ServerDashboardPage() {
  const { t } = useTranslation();
  const series = useContentData();
  const clicks = usePopularClicks();
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="server-dashboard-page">
      <DemoNote />
      <Alert type="success" showIcon title={t('template.server.note')} />
      {series.isPending ? (
        <Skeleton active />
      ) : series.isError ? (
        <LoadFailed onRetry={() => void series.refetch()} testId="server-dashboard-error" />
      ) : (
        <Row gutter={[16, 16]}>
          <Col xs={24} xl={8}>
            <Card title={t('template.server.title')}>
              <Descriptions column={1} size="small">
                <Descriptions.Item label={t('template.server.generatedOn')}>
                  <span data-testid="server-dashboard-date">{series.data.at(-1)?.x}</span>
                </Descriptions.Item>
              </Descriptions>
              <ContentTotals series={series.data} clicks={clicks} />
            </Card>
          </Col>
          <Col xs={24} xl={16}>
            <Card title={t('template.content.series')}>
              <ContentSeriesChart series={series.data} />
            </Card>
          </Col>
        </Row>
      )}
      <PopularCard />
    </Space>
  );
}
