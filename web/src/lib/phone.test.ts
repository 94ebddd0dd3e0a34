import { describe, expect, it } from 'vitest';
import { carrierMatches, checkPhone, normalizePhone } from './phone';

describe('checkPhone', () => {
  it('recognises the carriers by segment', () => {
    expect(checkPhone('13800138000')).toEqual({ ok: true, carrier: 'mobile' });
    expect(checkPhone('13000000000')).toEqual({ ok: true, carrier: 'unicom' });
    expect(checkPhone('18912345678')).toEqual({ ok: true, carrier: 'telecom' });
    expect(checkPhone('19212345678')).toEqual({ ok: true, carrier: 'broadnet' });
  });

  it('uses the four-digit prefixes of split segments', () => {
    expect(checkPhone('13412345678')).toEqual({ ok: true, carrier: 'mobile' });
    expect(checkPhone('13491234567')).toEqual({ ok: true, carrier: 'telecom' });
    expect(checkPhone('17031234567')).toEqual({ ok: true, carrier: 'mobile' });
    expect(checkPhone('17041234567')).toEqual({ ok: true, carrier: 'unicom' });
    expect(checkPhone('17001234567')).toEqual({ ok: true, carrier: 'telecom' });
    expect(checkPhone('17401234567')).toEqual({ ok: true, carrier: 'telecom' });
    expect(checkPhone('17411234567')).toEqual({ ok: false, reason: 'segment' });
  });

  it('tolerates spaces and dashes', () => {
    expect(normalizePhone('138 0013-8000')).toBe('13800138000');
    expect(checkPhone(' 138 0013 8000 ')).toEqual({ ok: true, carrier: 'mobile' });
  });

  it('reads the spellings the server reads as the same number', () => {
    for (const text of [
      '+8613900139000',
      '+86 139 0013 9000',
      '8613900139000',
      '0086 139-0013-9000',
      '(+86) 139 0013 9000',
      '\uff11\uff13\uff19\uff10\uff10\uff11\uff13\uff19\uff10\uff10\uff10',
      '\uff0b\uff18\uff16\u3000139\uff0d0013\uff0d9000',
      '139\u00a00013\u20139000',
    ]) {
      expect(normalizePhone(text)).toBe('13900139000');
      expect(checkPhone(text)).toEqual({ ok: true, carrier: 'mobile' });
    }
    for (const text of ['+85213800138', '+86 10 1234 5678', '138.0013.8000', '(138) 0013 8000']) {
      expect(checkPhone(text).ok).toBe(false);
    }
  });

  it('rejects what is not an allocated mainland mobile number', () => {
    expect(checkPhone('')).toEqual({ ok: false, reason: 'empty' });
    expect(checkPhone('123')).toEqual({ ok: false, reason: 'format' });
    expect(checkPhone('1380013800')).toEqual({ ok: false, reason: 'format' });
    expect(checkPhone('138001380000')).toEqual({ ok: false, reason: 'format' });
    expect(checkPhone('23800138000')).toEqual({ ok: false, reason: 'format' });
    expect(checkPhone('1380013800a')).toEqual({ ok: false, reason: 'format' });
    expect(checkPhone('12000000000')).toEqual({ ok: false, reason: 'segment' });
    expect(checkPhone('14000000000')).toEqual({ ok: false, reason: 'segment' });
  });
});

describe('carrierMatches', () => {
  it('compares the segment carrier with the product carrier', () => {
    expect(carrierMatches('13800138000', 'mobile')).toBe(true);
    expect(carrierMatches('13000000000', 'mobile')).toBe(false);
    expect(carrierMatches('123', 'mobile')).toBeUndefined();
  });
});
