import { Card, Col, Row, Skeleton, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useContentData, usePopularClicks } from '../api/content';
import { ChatCard, ContentSeriesChart, ContentTotals, DemoNote, LoadFailed, PopularCard } from './content-widgets';
import './template-dashboard.css';

/** Content dashboard (template material): totals, the 8-day content series, popular items, chat. */
export default function ContentDashboardPage() {
  const { t } = useTranslation();
  const series = useContentData();
  const clicks = usePopularClicks();
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="content-dashboard-page">
      <DemoNote />
      <Card title={t('template.content.series')} data-testid="content-series-card">
        {series.isPending ? (
          <Skeleton active />
        ) : series.isError ? (
          <LoadFailed onRetry={() => void series.refetch()} testId="content-series-error" />
        ) : (
          <>
            <ContentTotals series={series.data} clicks={clicks} />
            <ContentSeriesChart series={series.data} />
          </>
        )}
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={14}>
          <PopularCard />
        </Col>
        <Col xs={24} xl={10}>
          <ChatCard />
        </Col>
      </Row>
    </Space>
  );
}
