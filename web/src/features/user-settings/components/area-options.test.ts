import { describe, expect, it } from 'vitest';
import { areaCodes, areaNames, loadAreaOptions } from './area-options';
import { profileExport, profileExportFileName } from './export-profile';

describe('area data', () => {
  it('loads provinces, cities and counties with their codes', async () => {
    const options = await loadAreaOptions();
    expect(options.length).toBeGreaterThanOrEqual(31);
    expect(areaNames(options, ['110000', '110100', '110101'])).toEqual(['北京市', '北京市', '东城区']);
    expect(areaNames(options, ['440000', '440300'])).toEqual(['广东省', '深圳市']);
    expect(areaNames(options, ['999999'])).toEqual([]);
  });

  it('reads stored areas as code paths only', () => {
    expect(areaCodes('110000/110100/110101')).toEqual(['110000', '110100', '110101']);
    expect(areaCodes('九龙')).toBeNull();
    expect(areaCodes('')).toBeNull();
  });
});

describe('export data', () => {
  it('is the profile as JSON with the time it was taken', () => {
    const now = new Date('2026-03-04T05:06:07Z');
    const profile = { username: 'merchant', nickname: '演示商户' } as never;
    expect(JSON.parse(profileExport(profile, now))).toEqual({
      exported_at: '2026-03-04T05:06:07.000Z',
      profile: { username: 'merchant', nickname: '演示商户' },
    });
    expect(profileExportFileName({ username: 'merchant' }, now)).toBe('profile-merchant-2026-03-04.json');
  });
});
