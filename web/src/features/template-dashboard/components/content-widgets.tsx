import { RiseOutlined, FallOutlined, StarFilled, StarOutlined } from '@ant-design/icons';
import {
  Alert,
  Avatar,
  Button,
  Card,
  List,
  Result,
  Segmented,
  Skeleton,
  Statistic,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  POPULAR_TYPES,
  useChat,
  usePopular,
  type ContentPoint,
  type PopularItem,
  type PopularType,
} from '../api/content';
import { EChart, type EChartOption } from '@/components/echart/echart';

export function DemoNote() {
  const { t } = useTranslation();
  return <Alert type="info" showIcon title={t('template.demoNote')} data-testid="template-demo-note" />;
}

export function LoadFailed({ onRetry, testId }: { onRetry: () => void; testId: string }) {
  const { t } = useTranslation();
  return (
    <Result
      status="warning"
      title={t('template.loadFailed')}
      data-testid={testId}
      extra={<Button onClick={onRetry}>{t('template.retry')}</Button>}
    />
  );
}

/** Totals of the 8-day series: all 8 days and the last day. */
export function contentTotals(series: ContentPoint[]): { total: number; today: number } {
  return { total: series.reduce((sum, point) => sum + point.y, 0), today: series.at(-1)?.y ?? 0 };
}

export function ContentSeriesChart({ series }: { series: ContentPoint[] }) {
  const { t } = useTranslation();
  const option = useMemo(
    (): EChartOption => ({
      tooltip: { trigger: 'axis' },
      grid: { left: 48, right: 16, top: 24, bottom: 32 },
      xAxis: { type: 'category', data: series.map((point) => point.x.slice(5)), boundaryGap: false },
      yAxis: { type: 'value' },
      series: [
        {
          name: t('template.content.produced'),
          type: 'line',
          smooth: true,
          areaStyle: { opacity: 0.15 },
          data: series.map((p) => p.y),
        },
      ],
    }),
    [series, t],
  );
  return <EChart option={option} label={t('template.content.series')} testId="content-series-chart" />;
}

export function ContentTotals({ series, clicks }: { series: ContentPoint[]; clicks?: number }) {
  const { t } = useTranslation();
  const totals = contentTotals(series);
  return (
    <div className="template-totals" data-testid="content-totals">
      <Statistic title={t('template.content.totalProduced')} value={totals.total} />
      <Statistic title={t('template.content.todayProduced')} value={totals.today} />
      {clicks !== undefined ? <Statistic title={t('template.content.totalClicks')} value={clicks} /> : null}
    </div>
  );
}

function Increase({ value }: { value: number }) {
  const up = value >= 0;
  return (
    <Typography.Text type={up ? 'danger' : 'success'}>
      {up ? <RiseOutlined /> : <FallOutlined />} {Math.abs(value)}%
    </Typography.Text>
  );
}

export function PopularCard() {
  const { t } = useTranslation();
  const [type, setType] = useState<PopularType>('text');
  const popular = usePopular(type);
  return (
    <Card
      title={t('template.content.popular')}
      data-testid="popular-card"
      extra={
        <Segmented<PopularType>
          size="small"
          value={type}
          onChange={setType}
          options={POPULAR_TYPES.map((value) => ({ value, label: t(`template.content.type.${value}`) }))}
          data-testid="popular-type"
        />
      }
    >
      {popular.isError ? (
        <LoadFailed onRetry={() => void popular.refetch()} testId="popular-error" />
      ) : (
        <Table<PopularItem>
          size="small"
          rowKey="key"
          loading={popular.isFetching}
          pagination={false}
          dataSource={popular.data ?? []}
          data-testid="popular-table"
          columns={[
            { key: 'rank', title: t('template.content.rank'), width: 64, render: (_, __, index) => index + 1 },
            { key: 'title', title: t('template.content.title'), dataIndex: 'title', ellipsis: true },
            { key: 'clicks', title: t('template.content.clicks'), dataIndex: 'clickNumber', align: 'right' },
            {
              key: 'increases',
              title: t('template.content.increases'),
              dataIndex: 'increases',
              align: 'right',
              render: (value: number) => <Increase value={value} />,
            },
          ]}
        />
      )}
    </Card>
  );
}

/** The chat list; the collect toggle (isCollect) is kept on this page only. */
export function ChatCard() {
  const { t } = useTranslation();
  const chat = useChat();
  const [toggled, setToggled] = useState<Record<number, boolean>>({});
  const items = (chat.data ?? []).map((item) => ({ ...item, isCollect: toggled[item.id] ?? item.isCollect }));
  const collected = items.filter((item) => item.isCollect).length;
  return (
    <Card
      title={t('template.content.chat')}
      data-testid="chat-card"
      extra={<Tag data-testid="chat-collected">{t('template.chat.collected', { count: collected })}</Tag>}
    >
      {chat.isPending ? (
        <Skeleton active />
      ) : chat.isError ? (
        <LoadFailed onRetry={() => void chat.refetch()} testId="chat-error" />
      ) : (
        <List
          dataSource={items}
          renderItem={(item) => (
            <List.Item
              data-testid={`chat-item-${item.id}`}
              actions={[
                <Button
                  key="collect"
                  type="text"
                  size="small"
                  aria-label={item.isCollect ? t('template.chat.uncollect') : t('template.chat.collect')}
                  aria-pressed={item.isCollect}
                  icon={item.isCollect ? <StarFilled style={{ color: '#F7BA1E' }} /> : <StarOutlined />}
                  onClick={() => setToggled((current) => ({ ...current, [item.id]: !item.isCollect }))}
                  data-testid={`chat-collect-${item.id}`}
                />,
              ]}
            >
              <List.Item.Meta
                avatar={<Avatar>{item.username.slice(0, 1)}</Avatar>}
                title={
                  <span>
                    {item.username} <Typography.Text type="secondary">{item.time}</Typography.Text>
                  </span>
                }
                description={item.content}
              />
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}
