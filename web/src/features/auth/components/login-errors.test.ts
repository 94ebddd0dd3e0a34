import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/request';
import { retryAfterSeconds, twoFactorFailure } from './login-errors';

const apiError = (code: number, message: string, data?: unknown) =>
  new ApiError(message, { kind: 'envelope', code, data });

describe('twoFactorFailure', () => {
  it('40120: back to the password step with the reason', () => {
    expect(twoFactorFailure(apiError(40120, 'The sign-in has expired'))).toEqual({
      kind: 'restart',
      message: 'The sign-in has expired',
    });
  });

  it('40110: stay and ask again', () => {
    expect(twoFactorFailure(apiError(40110, 'Verification code is incorrect, please try again'))).toEqual({
      kind: 'retry',
      message: 'Verification code is incorrect, please try again',
    });
  });

  it('42900: wait for retry_after_seconds (rounded up)', () => {
    expect(twoFactorFailure(apiError(42900, 'Too many attempts', { retry_after_seconds: 59.2 }))).toEqual({
      kind: 'wait',
      message: 'Too many attempts',
      seconds: 60,
    });
  });

  it('anything else (network): stay', () => {
    expect(twoFactorFailure(new ApiError('Network Error', { kind: 'transport' }))).toMatchObject({ kind: 'retry' });
    expect(twoFactorFailure('weird')).toEqual({ kind: 'retry', message: null });
  });
});

describe('retryAfterSeconds', () => {
  it('reads 42900 data only', () => {
    expect(retryAfterSeconds(apiError(42900, 'x', { retry_after_seconds: 3 }))).toBe(3);
    expect(retryAfterSeconds(apiError(42900, 'x', null))).toBe(0);
    expect(retryAfterSeconds(apiError(40100, 'x', { retry_after_seconds: 3 }))).toBe(0);
  });
});
