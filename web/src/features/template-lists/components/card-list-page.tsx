import {
  AudioOutlined,
  BarChartOutlined,
  BulbOutlined,
  CodeOutlined,
  NotificationOutlined,
  PictureOutlined,
} from '@ant-design/icons';
import {
  Alert,
  Avatar,
  Button,
  Card,
  Col,
  Descriptions,
  Result,
  Row,
  Skeleton,
  Space,
  Switch,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useQualityInspection,
  useRulePresets,
  useServices,
  type QualityInspection,
  type RulePreset,
  type ServiceItem,
} from '../api/cards';

const ICONS: Record<string, ReactNode> = {
  code: <CodeOutlined />,
  bulb: <BulbOutlined />,
  'bar-chart': <BarChartOutlined />,
  notification: <NotificationOutlined />,
  picture: <PictureOutlined />,
  audio: <AudioOutlined />,
};

function Cards<T extends { id: number }>({
  query,
  testId,
  render,
}: {
  query: UseQueryResult<T[]>;
  testId: string;
  render: (item: T) => ReactNode;
}) {
  const { t } = useTranslation();
  if (query.isPending) return <Skeleton active />;
  if (query.isError) {
    return (
      <Result
        status="warning"
        title={t('template.loadFailed')}
        extra={<Button onClick={() => void query.refetch()}>{t('template.retry')}</Button>}
      />
    );
  }
  return (
    <Row gutter={[16, 16]} data-testid={testId}>
      {query.data.map((item) => (
        <Col key={item.id} xs={24} md={12} xl={8}>
          {render(item)}
        </Col>
      ))}
    </Row>
  );
}

function QualityCard({ item }: { item: QualityInspection }) {
  const { t } = useTranslation();
  const value = (entry: { label: string; value: number }) =>
    entry.label === 'backlogHours' ? t('template.cards.backlogValue', { count: entry.value }) : entry.value;
  return (
    <Card
      size="small"
      title={item.title}
      extra={
        <Button size="small" type="link">
          {t('template.cards.inspect')}
        </Button>
      }
      data-testid={`quality-card-${item.id}`}
    >
      <Descriptions column={1} size="small">
        {item.data.map((entry) => (
          <Descriptions.Item key={entry.label} label={t(`template.cards.${entry.label}`)}>
            {value(entry)}
          </Descriptions.Item>
        ))}
      </Descriptions>
      <Typography.Text type="secondary">{t('template.cards.updatedAt', { time: item.description })}</Typography.Text>
    </Card>
  );
}

function ServiceCard({ item }: { item: ServiceItem }) {
  const { t } = useTranslation();
  const [enabled, setEnabled] = useState(item.enable);
  return (
    <Card size="small" data-testid={`service-card-${item.id}`}>
      <Card.Meta
        avatar={<Avatar icon={ICONS[item.icon]} style={{ backgroundColor: '#165DFF' }} />}
        title={
          <Space>
            {item.title}
            {enabled ? <Tag color="success">{t('template.cards.opened')}</Tag> : null}
          </Space>
        }
        description={item.description}
      />
      <Space style={{ marginTop: 12 }} wrap>
        {enabled ? (
          <>
            <Button size="small" onClick={() => setEnabled(false)}>
              {t('template.cards.cancel')}
            </Button>
            {item.expires ? (
              <>
                <Button size="small" type="primary">
                  {t('template.cards.renew')}
                </Button>
                <Typography.Text type="secondary">
                  {t('template.cards.expires', { date: item.expires })}
                </Typography.Text>
              </>
            ) : null}
          </>
        ) : (
          <Button size="small" type="primary" onClick={() => setEnabled(true)} data-testid={`service-open-${item.id}`}>
            {t('template.cards.open')}
          </Button>
        )}
      </Space>
    </Card>
  );
}

function RuleCard({ item }: { item: RulePreset }) {
  const [enabled, setEnabled] = useState(item.enable);
  return (
    <Card
      size="small"
      title={item.title}
      extra={
        <Switch
          size="small"
          checked={enabled}
          onChange={setEnabled}
          aria-label={item.title}
          data-testid={`rule-switch-${item.id}`}
        />
      }
      data-testid={`rule-card-${item.id}`}
    >
      <Typography.Text type="secondary">{item.description}</Typography.Text>
    </Card>
  );
}

/** Card list: quality-inspection queues, services and rule presets. */
export default function CardListPage() {
  const { t } = useTranslation();
  const quality = useQualityInspection();
  const services = useServices();
  const rules = useRulePresets();
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="template-cards-page">
      <Alert type="info" showIcon title={t('template.demoNote')} />
      <Card>
        <Tabs
          items={[
            {
              key: 'quality',
              label: <span data-testid="cards-tab-quality">{t('template.cards.quality')}</span>,
              children: <Cards query={quality} testId="quality-cards" render={(item) => <QualityCard item={item} />} />,
            },
            {
              key: 'service',
              label: <span data-testid="cards-tab-service">{t('template.cards.service')}</span>,
              children: (
                <Cards query={services} testId="service-cards" render={(item) => <ServiceCard item={item} />} />
              ),
            },
            {
              key: 'rules',
              label: <span data-testid="cards-tab-rules">{t('template.cards.rules')}</span>,
              children: <Cards query={rules} testId="rule-cards" render={(item) => <RuleCard item={item} />} />,
            },
          ]}
        />
      </Card>
    </Space>
  );
}
