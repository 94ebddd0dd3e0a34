import { describe, expect, it } from 'vitest';
import { codeLength, stripNonDigits, validateAuthCode } from './auth-code';

describe('stripNonDigits', () => {
  it('keeps ASCII digits only, up to the limit', () => {
    expect(stripNonDigits('12a 3-4.5б6')).toBe('123456');
    expect(stripNonDigits(' 1234 5678 9', 8)).toBe('12345678');
    expect(stripNonDigits('١٢٣٤٥٦')).toBe(''); // Arabic-Indic digits are not codes
    expect(stripNonDigits('１２３')).toBe(''); // nor full-width ones
  });
});

describe('validateAuthCode', () => {
  it('code mode: required, then exactly 6 digits', () => {
    expect(codeLength('code')).toBe(6);
    expect(validateAuthCode('code', '')).toBe('authCode.required');
    expect(validateAuthCode('code', '12345')).toBe('authCode.codeInvalid');
    expect(validateAuthCode('code', '1234567')).toBe('authCode.codeInvalid');
    expect(validateAuthCode('code', '12345a')).toBe('authCode.codeInvalid');
    expect(validateAuthCode('code', '123456')).toBeNull();
  });

  it('backup mode: required, digits only, exactly 8, one message', () => {
    expect(codeLength('backup')).toBe(8);
    expect(validateAuthCode('backup', '')).toBe('authCode.backupInvalid');
    expect(validateAuthCode('backup', '1234567')).toBe('authCode.backupInvalid');
    expect(validateAuthCode('backup', '123456789')).toBe('authCode.backupInvalid');
    expect(validateAuthCode('backup', '1234567x')).toBe('authCode.backupInvalid');
    expect(validateAuthCode('backup', '12345678')).toBeNull();
  });

  it('can be optional and take a form’s own messages', () => {
    expect(validateAuthCode('code', '', { required: false })).toBeNull();
    expect(validateAuthCode('code', '12', { required: false })).toBe('authCode.codeInvalid');
    const messages = { required: 'x.required', codeInvalid: 'x.six' };
    expect(validateAuthCode('code', '', { messages })).toBe('x.required');
    expect(validateAuthCode('code', '12', { messages })).toBe('x.six');
    expect(validateAuthCode('backup', '12', { messages })).toBe('authCode.backupInvalid');
  });
});
