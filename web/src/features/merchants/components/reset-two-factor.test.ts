import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/request';
import { resetRefusal } from './reset-two-factor';

const envelope = (code: number, message: string) => new ApiError(message, { kind: 'envelope', code, status: 400 });

describe('resetRefusal', () => {
  it('asks for the code, without an error line, when the server wants one that was not sent', () => {
    expect(resetRefusal(envelope(40110, 'Verification code is incorrect'), false, 'failed')).toEqual({
      askCode: true,
      message: null,
    });
  });

  it('says the code was wrong and keeps asking when one was sent', () => {
    expect(resetRefusal(envelope(40110, '验证码错误，请重试'), true, 'failed')).toEqual({
      askCode: true,
      message: '验证码错误，请重试',
    });
  });

  it("shows the server's reason for other refusals (two-factor not on, too many tries)", () => {
    expect(resetRefusal(envelope(40900, 'Two-factor authentication is not enabled'), false, 'failed')).toEqual({
      askCode: false,
      message: 'Two-factor authentication is not enabled',
    });
    expect(resetRefusal(envelope(42900, 'Too many attempts'), true, 'failed')).toEqual({
      askCode: true,
      message: 'Too many attempts',
    });
  });

  it('falls back to its own text when the error has none', () => {
    expect(resetRefusal(new ApiError('', { kind: 'transport' }), false, 'Could not reset')).toEqual({
      askCode: false,
      message: 'Could not reset',
    });
  });
});
