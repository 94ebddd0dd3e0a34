import { ApiError } from '@/lib/request';

/** Codes whose server message says more than the operation's own failure message. */
const SERVER_EXPLAINS: readonly number[] = [
  40000, // enable2FA: the current password is missing or wrong
  40900, // already on / not on / setup expired or replaced
  42900, // too many wrong codes: when to retry
];

export const STATE_CONFLICT = 40900;

/**
 * The toast text for a failed two-factor call: the operation's own failure message, or the
 * server's own message when it explains a state conflict or a lock-out.
 */
export function failureMessage(error: unknown, operationMessage: string): string {
  if (error instanceof ApiError && error.code !== undefined && SERVER_EXPLAINS.includes(error.code) && error.message) {
    return error.message;
  }
  return operationMessage;
}

export function isStateConflict(error: unknown): boolean {
  return error instanceof ApiError && error.code === STATE_CONFLICT;
}
