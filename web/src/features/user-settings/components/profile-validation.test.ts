import { describe, expect, it } from 'vitest';
import {
  characterCount,
  checkIpWhitelist,
  checkNewPassword,
  isEmail,
  isHttpUrl,
  isIpEntry,
  isPhone,
  isPlainCertificateNumber,
  isOrganizationCode,
  isResidentId,
  isUnifiedSocialCreditCode,
  whitelistEntries,
} from './profile-validation';

describe('IP whitelist (several IPs separated by English commas)', () => {
  it('accepts IPv4, IPv6 and CIDR ranges, with spaces and empty entries', () => {
    expect(checkIpWhitelist('')).toBeNull();
    expect(checkIpWhitelist('   ')).toBeNull();
    expect(checkIpWhitelist(undefined)).toBeNull();
    expect(
      checkIpWhitelist(' 192.168.1.10, 10.1.2.3/8 ,2001:0db8::0001, ::1,192.168.1.10,, 2001:db8::1234/32'),
    ).toBeNull();
    expect(checkIpWhitelist('::ffff:1.2.3.4,0.0.0.0/0,::/0')).toBeNull();
  });

  it('names a Chinese comma before anything else', () => {
    expect(checkIpWhitelist('1.2.3.4，5.6.7.8')).toEqual({ reason: 'chinese_comma' });
    expect(checkIpWhitelist('bad，1.2.3.4')).toEqual({ reason: 'chinese_comma' });
  });

  it('names the first entry that is not an address or range', () => {
    for (const bad of [
      '256.1.1.1',
      '1.2.3',
      '1.2.3.4/33',
      '::1/129',
      '1.2.3.4/',
      '1.2.3.4/+8',
      'localhost',
      '1.2.3.4 5.6.7.8',
      '01.2.3.4',
      'fe80::1%eth0',
      '1.2.3.4;5.6.7.8',
    ]) {
      expect(checkIpWhitelist(`10.0.0.1,${bad}`), bad).toEqual({ reason: 'invalid', entry: bad });
    }
  });

  it('limits the number of entries to 50', () => {
    const entries = (count: number) => Array.from({ length: count }, (_, index) => `10.0.0.${index}`).join(',');
    expect(checkIpWhitelist(entries(50))).toBeNull();
    expect(checkIpWhitelist(entries(51))).toEqual({ reason: 'too_many', max: 50 });
  });

  it('splits on English commas only', () => {
    expect(whitelistEntries(' 1.1.1.1 ,, 2.2.2.2 ')).toEqual(['1.1.1.1', '2.2.2.2']);
    expect(isIpEntry('2001:db8::/32')).toBe(true);
    expect(isIpEntry('2001:db8::/abc')).toBe(false);
  });
});

describe('password', () => {
  it('treats blank as no change', () => {
    expect(checkNewPassword('')).toBeNull();
    expect(checkNewPassword(undefined)).toBeNull();
  });

  it('needs 6 characters, digits, upper and lower case, no spaces', () => {
    expect(checkNewPassword('Ab1')).toBe('too_short');
    expect(checkNewPassword('abcdef1')).toBe('weak');
    expect(checkNewPassword('ABCDEF1')).toBe('weak');
    expect(checkNewPassword('Abcdefg')).toBe('weak');
    expect(checkNewPassword('Abc 123')).toBe('invalid_character');
    expect(checkNewPassword('Abc１23')).toBe('invalid_character');
    expect(checkNewPassword(`Ab1${'x'.repeat(126)}`)).toBe('too_long');
    expect(checkNewPassword('Abc123')).toBeNull();
    expect(checkNewPassword('Merchant123!@#')).toBeNull();
  });
});

describe('other fields', () => {
  it('checks emails like the server', () => {
    expect(isEmail('a.b+c@mail.example.cn')).toBe(true);
    expect(isEmail('用户@例子.中国')).toBe(true);
    for (const bad of ['plain', '@example.com', 'a@b', 'a@@b.com', 'a b@c.com', 'a@-b.com', 'a@b..com']) {
      expect(isEmail(bad), bad).toBe(false);
    }
  });

  it('checks phones and http(s) addresses', () => {
    expect(isPhone('+86 138-0013-8000')).toBe(true);
    expect(isPhone('010-12345678')).toBe(true);
    expect(isPhone('12ab5678')).toBe(false);
    expect(isPhone('123')).toBe(false);
    expect(isHttpUrl('https://shop.example.com/notify')).toBe(true);
    expect(isHttpUrl('http://10.0.0.1:8080/cb?x=1')).toBe(true);
    for (const bad of ['ftp://example.com', 'javascript:alert(1)', 'example.com', 'http://', 'http://exa mple.com']) {
      expect(isHttpUrl(bad), bad).toBe(false);
    }
  });

  it('counts characters as the server does', () => {
    expect(characterCount('简'.repeat(200))).toBe(200);
    expect(characterCount('😀')).toBe(1);
  });

  it('checks certificate numbers', () => {
    expect(isResidentId('11010519491231002X')).toBe(true);
    expect(isResidentId('11010519491231002x')).toBe(true);
    expect(isResidentId('440524188001010014')).toBe(true);
    expect(isResidentId('110105194912310021')).toBe(false);
    expect(isResidentId('11010519491231002')).toBe(false);
    expect(isPlainCertificateNumber('91350100M000100Y43')).toBe(true);
    expect(isPlainCertificateNumber('E1234567')).toBe(true);
    expect(isPlainCertificateNumber('12 34')).toBe(false);
    expect(isPlainCertificateNumber('123')).toBe(false);
  });

  it('checks the credit code’s check character (GB 32100-2015) and the organisation code’s', () => {
    for (const code of ['91350100M000100Y43', '91110000802100433B', '9144030071526726XG', '91110108551385082q']) {
      expect(isUnifiedSocialCreditCode(code)).toBe(true);
    }
    for (const code of ['91350100M000100Y44', '91350100M000100Y4', '93150100M000100Y43', 'x', '91350100I000100Y43']) {
      expect(isUnifiedSocialCreditCode(code)).toBe(false);
    }
    expect(isOrganizationCode('M000100Y-4')).toBe(true);
    expect(isOrganizationCode('802100433')).toBe(true);
    expect(isOrganizationCode('M000100Y5')).toBe(false);
    expect(isOrganizationCode('x')).toBe(false);
  });
});
