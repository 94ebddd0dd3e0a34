/**
 * A rehearsal of the first signed-in screen while the user types credentials. The antd
 * components of the layout and the workplace render once, off the document (no layout,
 * nothing shown) and at low priority (a transition, which yields to keystrokes): antd's theme
 * token and each component's CSS variables are then computed and cached (a global cache
 * keyed by the theme; the same key as the console's, see useAntdTheme), and V8 has run the
 * components' code once, so the render after the click has less to do.
 *
 * It stays mounted until the console's layout has mounted: antd drops a cache entry when its
 * last user unmounts, so ending earlier would throw the work away.
 */
import {
  Alert,
  Avatar,
  Badge,
  Button,
  Card,
  Col,
  ConfigProvider,
  Drawer,
  Dropdown,
  Empty,
  Input,
  Layout,
  Menu,
  Popover,
  Row,
  Select,
  Skeleton,
  Space,
  Statistic,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { startTransition } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { useAntdTheme } from '../antd-providers';

let rehearsal: Root | null = null;

/** Renders the rehearsal (once; again only after endRehearsal). */
export function rehearseFirstScreen(): void {
  if (rehearsal) return;
  const root = createRoot(document.createElement('div'));
  rehearsal = root;
  startTransition(() => root.render(<Rehearsal />));
}

/** Unmounts the rehearsal, if any: the console's own components hold the cache now. */
export function endRehearsal(): void {
  rehearsal?.unmount();
  rehearsal = null;
}

const MENU_ITEMS = [
  { key: 'a', label: 'a', children: [{ key: 'a1', label: 'a1' }] },
  { key: 'b', label: 'b' },
];

function Rehearsal() {
  return (
    <ConfigProvider theme={useAntdTheme()}>
      <Layout>
        <Layout.Header>
          <Input.Search />
          <Badge count={1}>
            <Button>b</Button>
          </Badge>
          <Dropdown menu={{ items: MENU_ITEMS }}>
            <Avatar>a</Avatar>
          </Dropdown>
          <Popover content="p">
            <Button type="text">p</Button>
          </Popover>
          <Tooltip title="t">
            <Button type="primary">t</Button>
          </Tooltip>
        </Layout.Header>
        <Layout hasSider>
          <Layout.Sider collapsible theme="light">
            <Menu mode="inline" items={MENU_ITEMS} defaultOpenKeys={['a']} />
          </Layout.Sider>
          <Layout.Content>
            <Space orientation="vertical">
              <Card title="c">
                <Typography.Title level={4}>
                  t<Tag color="blue">t</Tag>
                </Typography.Title>
                <Typography.Text type="secondary">t</Typography.Text>
              </Card>
              <Row gutter={16}>
                <Col span={12}>
                  <Card size="small">
                    <Skeleton active paragraph={{ rows: 1 }} />
                    <Statistic title="s" value={1} prefix="¥" />
                  </Card>
                </Col>
              </Row>
              <Select options={[{ value: 1, label: '1' }]} value={1} />
              <Alert type="error" title="a" />
              <Empty />
            </Space>
          </Layout.Content>
        </Layout>
        <Layout.Footer>f</Layout.Footer>
      </Layout>
      <Drawer open={false} />
    </ConfigProvider>
  );
}
