import { ApiError } from '@/lib/api-error';

export const TOO_MANY_ATTEMPTS = 42900;
/** verify2FA: the pending sign-in is unknown, expired or used: start over with the password. */
export const PENDING_SIGN_IN_INVALID = 40120;

/** Seconds to wait after a 42900 answer (data.retry_after_seconds), else 0. */
export function retryAfterSeconds(error: unknown): number {
  if (error instanceof ApiError && error.code === TOO_MANY_ATTEMPTS) {
    const seconds = (error.data as { retry_after_seconds?: unknown } | undefined)?.retry_after_seconds;
    return typeof seconds === 'number' && seconds > 0 ? Math.ceil(seconds) : 0;
  }
  return 0;
}

/** What the code step does after verify2FA refused. */
export type TwoFactorFailure =
  /** 40120: back to the password step, showing why. */
  | { kind: 'restart'; message: string | null }
  /** 42900: stay, and wait before the next try. */
  | { kind: 'wait'; message: string | null; seconds: number }
  /** 40110 and anything else: stay, show the message, ask again. */
  | { kind: 'retry'; message: string | null };

export function twoFactorFailure(error: unknown): TwoFactorFailure {
  const message = error instanceof Error && error.message ? error.message : null;
  if (error instanceof ApiError && error.code === PENDING_SIGN_IN_INVALID) return { kind: 'restart', message };
  const seconds = retryAfterSeconds(error);
  if (seconds > 0) return { kind: 'wait', message, seconds };
  return { kind: 'retry', message };
}
