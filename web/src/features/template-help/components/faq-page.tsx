import { Card, Collapse } from 'antd';
import { useTranslation } from 'react-i18next';

const QUESTIONS = [1, 2, 3, 4, 5];

/** FAQ (menu entry). */
export default function FaqPage() {
  const { t } = useTranslation();
  return (
    <Card title={t('template.faq.title')} data-testid="faq-page">
      <Collapse
        defaultActiveKey={['1']}
        items={QUESTIONS.map((id) => ({
          key: String(id),
          label: <span data-testid={`faq-question-${id}`}>{t(`template.faq.q${id}`)}</span>,
          children: <p style={{ margin: 0 }}>{t(`template.faq.a${id}`)}</p>,
        }))}
      />
    </Card>
  );
}
