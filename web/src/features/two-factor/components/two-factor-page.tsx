import { PagePlaceholder } from '@/components/page-placeholder/page-placeholder';

/** Two-Factor Authentication (/user/google-auth) — placeholder until the feature ships. */
export default function TwoFactorPage() {
  return <PagePlaceholder titleKey="menu.user.googleAuth" testId="two-factor-page" />;
}
