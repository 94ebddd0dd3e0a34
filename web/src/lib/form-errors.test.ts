import { describe, expect, it, vi } from 'vitest';
import { applyServerFieldErrors, serverFieldErrors, VALIDATION_FAILED_CODE } from './form-errors';
import { ApiError } from './request';

const validation = (fields: Record<string, string>, keys: Record<string, string> = {}) =>
  new ApiError(Object.values(fields)[0] ?? 'invalid', {
    kind: 'envelope',
    code: VALIDATION_FAILED_CODE,
    data: { fields, keys },
    status: 400,
  });

describe('server field errors', () => {
  it('reads data.fields with their stable keys', () => {
    const error = validation(
      { email: 'please enter email', ip_whitelist: 'separate IP addresses with English commas (,)' },
      { email: 'profile.email.required', ip_whitelist: 'profile.ip_whitelist.chinese_comma' },
    );
    expect(serverFieldErrors(error)).toEqual([
      { name: 'email', message: 'please enter email', key: 'profile.email.required' },
      {
        name: 'ip_whitelist',
        message: 'separate IP addresses with English commas (,)',
        key: 'profile.ip_whitelist.chinese_comma',
      },
    ]);
  });

  it('renames or drops fields by the map', () => {
    const error = validation({ new_password: 'password must be at least 6 characters', id: 'x' });
    expect(serverFieldErrors(error, { new_password: 'password', id: null })).toEqual([
      { name: 'password', message: 'password must be at least 6 characters', key: undefined },
    ]);
  });

  it('reads the fields of a wrong current password (40300) and a state refusal (40900)', () => {
    const wrong = new ApiError('wrong', {
      kind: 'envelope',
      code: 40300,
      data: { fields: { password: 'wrong' }, keys: { password: 'password.current.wrong' } },
    });
    expect(serverFieldErrors(wrong)).toEqual([{ name: 'password', message: 'wrong', key: 'password.current.wrong' }]);
    const conflict = new ApiError('too much', {
      kind: 'envelope',
      code: 40900,
      data: { fields: { amount_fen: 'too much' }, keys: { amount_fen: 'credit.repayment_too_large' } },
    });
    expect(serverFieldErrors(conflict).map((item) => item.name)).toEqual(['amount_fen']);
  });

  it('is empty for answers that name no fields', () => {
    expect(serverFieldErrors(new ApiError('denied', { kind: 'envelope', code: 40300, data: null }))).toEqual([]);
    expect(
      serverFieldErrors(new ApiError('throttled', { kind: 'envelope', code: 42900, data: { fields: { a: 'x' } } })),
    ).toEqual([]);
    expect(serverFieldErrors(new ApiError('down', { kind: 'transport' }))).toEqual([]);
    expect(serverFieldErrors(new Error('plain'))).toEqual([]);
    expect(serverFieldErrors(validation({}))).toEqual([]);
    // A body that was not JSON: 40000 with data null.
    expect(serverFieldErrors(new ApiError('bad', { kind: 'envelope', code: 40000, data: null }))).toEqual([]);
    // Non-string messages are ignored rather than shown as [object Object].
    const odd = new ApiError('odd', { kind: 'envelope', code: 40000, data: { fields: { a: 1, b: 'fine' } } });
    expect(serverFieldErrors(odd).map((item) => item.name)).toEqual(['b']);
  });

  it('puts the messages on the form, leaving out fields it does not have', () => {
    const form = { setFields: vi.fn() };
    const error = validation({ nickname: 'please enter nickname', account_type: 'already under audit' });
    const shown = applyServerFieldErrors(form, error, { knownFields: ['nickname', 'email'] });
    expect(shown.map((item) => item.name)).toEqual(['nickname']);
    expect(form.setFields).toHaveBeenCalledWith([{ name: 'nickname', errors: ['please enter nickname'] }]);
  });

  it('does not touch the form when there is nothing to show', () => {
    const form = { setFields: vi.fn() };
    expect(applyServerFieldErrors(form, new ApiError('down', { kind: 'transport' }))).toEqual([]);
    expect(form.setFields).not.toHaveBeenCalled();
  });
});
