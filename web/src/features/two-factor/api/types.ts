/** Two-factor entities, in the console's own (camelCase) shape. */

export interface TwoFactorStatus {
  enabled: boolean;
  /** RFC 3339, or null when two-factor is off. */
  enabledAt: string | null;
  /** Unused backup codes left. */
  backupCodesCount: number;
}

export interface TwoFactorSetup {
  /** Base32 secret, for typing into the authenticator app. */
  secret: string;
  /** A data: URL of the QR code (SVG) drawn by the server. */
  qrCodeUrl: string;
  /** The backup codes that enabling puts in force. */
  backupCodes: string[];
  /** Handle of the pending secret on the server (10 minutes, once). */
  tempKey: string;
}

/** The code of the verification, disable and regenerate forms (passed as given). */
export interface TwoFactorCodeForm {
  code: string;
}
