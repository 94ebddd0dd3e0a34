import { useTranslation } from 'react-i18next';

/** The backup codes as a numbered two-column list. */
export function BackupCodeList({
  codes,
  testId = 'two-factor-backup-codes',
}: {
  codes: readonly string[];
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <ol className="two-factor-codes" aria-label={t('twoFactor.backupCodes.title')} data-testid={testId}>
      {codes.map((code) => (
        <li key={code} className="two-factor-codes__item" data-testid="two-factor-backup-code">
          {code}
        </li>
      ))}
    </ol>
  );
}
