import { FallOutlined, RiseOutlined, TeamOutlined } from '@ant-design/icons';
import { Avatar, Card, Col, List, Row, Skeleton, Space, Statistic, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  useTemplateActivity,
  useTemplateProjects,
  useTemplateTeams,
  useTemplateVisits,
} from '../api/get-template-extras';

const COLORS = ['#165DFF', '#14C9C9', '#F7BA1E', '#722ED1', '#F53F3F'];

function ExampleTag() {
  const { t } = useTranslation();
  return (
    <Tag color="orange" data-testid="example-data-tag">
      {t('common.exampleData')}
    </Tag>
  );
}

/** Projects with their contributors (name, email, avatar), from the template calls. */
export function TemplateProjects() {
  const { t } = useTranslation();
  const projects = useTemplateProjects(true);
  if (!projects.data) return <Skeleton active />;
  return (
    <Row gutter={[16, 16]} data-testid="user-info-projects">
      {projects.data.map((project) => (
        <Col key={project.id} xs={24} sm={12} xl={8}>
          <Card size="small" title={project.name} extra={<ExampleTag />} data-testid={`template-project-${project.id}`}>
            <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ minHeight: 44 }}>
              {project.description}
            </Typography.Paragraph>
            <Space>
              <Avatar.Group size="small" max={{ count: 4 }}>
                {project.contributors.map((contributor, index) => (
                  <Tooltip key={contributor.email} title={`${contributor.name} <${contributor.email}>`}>
                    <Avatar
                      src={contributor.avatar || undefined}
                      style={{ backgroundColor: COLORS[index % COLORS.length] }}
                    >
                      {contributor.name.slice(0, 1)}
                    </Avatar>
                  </Tooltip>
                ))}
              </Avatar.Group>
              <Typography.Text type="secondary">
                {t('template.user.people', { count: project.peopleNumber })}
              </Typography.Text>
            </Space>
          </Card>
        </Col>
      ))}
    </Row>
  );
}

export function TemplateTeams() {
  const { t } = useTranslation();
  const teams = useTemplateTeams(true);
  if (!teams.data) return <Skeleton active />;
  return (
    <Row gutter={[16, 16]} data-testid="user-info-team">
      {teams.data.map((team) => (
        <Col key={team.id} xs={24} md={12} xl={6}>
          <Card size="small">
            <Space>
              <Avatar icon={<TeamOutlined />} style={{ backgroundColor: '#165DFF' }} />
              <Space orientation="vertical" size={0}>
                <Space size={6}>
                  <Typography.Text strong>{team.name}</Typography.Text>
                  <ExampleTag />
                </Space>
                <Typography.Text type="secondary">
                  {t('template.user.people', { count: team.peopleNumber })}
                </Typography.Text>
              </Space>
            </Space>
          </Card>
        </Col>
      ))}
    </Row>
  );
}

/** Visits and team activity, shown next to the real figures and activity. */
export function TemplateOverviewExtras() {
  const { t } = useTranslation();
  const visits = useTemplateVisits(true);
  const activity = useTemplateActivity(true);
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="user-info-template-extras">
      <Card size="small" title={t('template.user.visits')} extra={<ExampleTag />}>
        {visits.data ? (
          <Row gutter={16}>
            {visits.data.map((row) => (
              <Col key={row.name} span={8}>
                <Statistic title={row.name} value={row.visits} />
                <Typography.Text type={row.growth >= 0 ? 'danger' : 'success'}>
                  {row.growth >= 0 ? <RiseOutlined /> : <FallOutlined />}{' '}
                  {t('template.user.growth', { value: row.growth })}
                </Typography.Text>
              </Col>
            ))}
          </Row>
        ) : (
          <Skeleton active paragraph={{ rows: 1 }} />
        )}
      </Card>
      <Card size="small" title={t('template.user.latestActivity')} extra={<ExampleTag />}>
        {activity.data ? (
          <List
            size="small"
            dataSource={activity.data}
            renderItem={(item) => (
              <List.Item>
                <List.Item.Meta
                  avatar={<Avatar>{item.title.slice(0, 1)}</Avatar>}
                  title={item.title}
                  description={item.description}
                />
              </List.Item>
            )}
          />
        ) : (
          <Skeleton active />
        )}
      </Card>
    </Space>
  );
}
