import { describe, expect, it } from 'vitest';
import { niceMax } from './order-bar-chart';

describe('niceMax', () => {
  it('rounds the axis top up to 1, 2 or 5 × 10^n', () => {
    expect(niceMax(0)).toBe(1);
    expect(niceMax(1)).toBe(1);
    expect(niceMax(3)).toBe(5);
    expect(niceMax(70)).toBe(100);
    expect(niceMax(100)).toBe(100);
    expect(niceMax(101)).toBe(200);
    expect(niceMax(1800)).toBe(2000);
  });
});
