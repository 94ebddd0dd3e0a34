/**
 * Readable text for the audit trail's action codes (GET /adminapi/merchant/activity).
 * Unknown codes (from a newer server) fall back to a generic line naming the code.
 */
import type { TFunction } from 'i18next';

export const KNOWN_ACTIONS = [
  'login',
  'login_failed',
  'login_throttled',
  'logout',
  'user_created',
  'profile_changed',
  'password_changed',
  'security_question_changed',
  'security_email_changed',
  'security_phone_changed',
  'avatar_changed',
  'certification_submitted',
  'certification_withdrawn',
  'certification_approved',
  'certification_rejected',
] as const;

export type KnownAction = (typeof KNOWN_ACTIONS)[number];

export function isKnownAction(action: string): action is KnownAction {
  return (KNOWN_ACTIONS as readonly string[]).includes(action);
}

/** The locale key of an action's label. */
export function activityLabelKey(action: string): string {
  return isKnownAction(action) ? `activity.action.${action}` : 'activity.action.unknown';
}

export function activityLabel(t: TFunction, action: string): string {
  return t(activityLabelKey(action), { action });
}

/** Events that call for attention (shown in a warning colour). */
export function isWarningAction(action: string): boolean {
  return action === 'login_failed' || action === 'login_throttled' || action === 'certification_rejected';
}
