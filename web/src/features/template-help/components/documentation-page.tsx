import { ApiOutlined, BgColorsOutlined } from '@ant-design/icons';
import { Avatar, Card, List, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** The design-system site the template pages follow (also the mock menu's external entry). */
export const DESIGN_SYSTEM_URL = 'https://arco.design';
/** The API reference this server publishes. */
export const API_REFERENCE_URL = '/api-docs/ui/';

const DOCS = [
  { key: 'api', href: API_REFERENCE_URL, icon: <ApiOutlined /> },
  { key: 'designSystem', href: DESIGN_SYSTEM_URL, icon: <BgColorsOutlined /> },
];

/** Documentation (menu entry): links open in a new tab, without handing this page over. */
export default function DocumentationPage() {
  const { t } = useTranslation();
  return (
    <Card title={t('template.docs.title')} data-testid="documentation-page">
      <Typography.Paragraph>{t('template.docs.intro')}</Typography.Paragraph>
      <List
        dataSource={DOCS}
        renderItem={(doc) => (
          <List.Item
            actions={[
              <a
                key="open"
                href={doc.href}
                target="_blank"
                rel="noopener noreferrer"
                data-testid={`docs-link-${doc.key}`}
              >
                {t('template.docs.open')}
              </a>,
            ]}
          >
            <List.Item.Meta
              avatar={<Avatar icon={doc.icon} style={{ backgroundColor: '#165DFF' }} />}
              title={t(`template.docs.${doc.key}`)}
              description={t(`template.docs.${doc.key}Description`)}
            />
          </List.Item>
        )}
      />
    </Card>
  );
}
