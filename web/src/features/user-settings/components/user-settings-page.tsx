import { PagePlaceholder } from '@/components/page-placeholder/page-placeholder';

/** User settings (/user/setting) — placeholder until the feature ships. */
export default function UserSettingsPage() {
  return <PagePlaceholder titleKey="menu.user.setting" testId="user-settings-page" />;
}
