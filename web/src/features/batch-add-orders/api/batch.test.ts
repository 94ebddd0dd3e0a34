import { describe, expect, it } from 'vitest';
import { countPastedLines } from './batch';

describe('countPastedLines', () => {
  it('counts non-blank lines', () => {
    expect(countPastedLines('')).toBe(0);
    expect(countPastedLines('13800138000,MOBILE-DIRECT-10\n\n  \r\n13000000000\tUNICOM-DIRECT-10\r\n')).toBe(2);
  });
});
