import { Layout } from 'antd';
import { useTranslation } from 'react-i18next';

export function AppFooter() {
  const { t } = useTranslation();
  return (
    <Layout.Footer data-testid="footer" style={{ textAlign: 'center', padding: '16px 0', background: 'transparent' }}>
      {t('footer.copyright', { year: new Date().getFullYear() })}
    </Layout.Footer>
  );
}
