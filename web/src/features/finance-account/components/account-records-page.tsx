import { PagePlaceholder } from '@/components/page-placeholder/page-placeholder';

/** Account-change records (/finance/account) — placeholder until the feature ships. */
export default function AccountRecordsPage() {
  return <PagePlaceholder titleKey="menu.finance.account" testId="account-records-page" />;
}
