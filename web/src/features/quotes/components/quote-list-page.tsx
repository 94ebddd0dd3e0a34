import { PagePlaceholder } from '@/components/page-placeholder/page-placeholder';

/** Quote list (/qoute/list) — placeholder until the feature ships. */
export default function QuoteListPage() {
  return <PagePlaceholder titleKey="menu.qoute.list" testId="quote-list-page" />;
}
