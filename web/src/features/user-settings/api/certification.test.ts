import { describe, expect, it } from 'vitest';
import { canSubmitCertification, currentCertification, statusName, type CertificationRecord } from './certification';

const record = (id: number, status: number) => ({ id, status }) as CertificationRecord;

describe('certification records', () => {
  it('name the four statuses', () => {
    expect([0, 1, 2, 3].map(statusName)).toEqual(['auditing', 'passed', 'rejected', 'withdrawn']);
    expect(statusName(9)).toBeUndefined();
  });

  it('show a passed record as current, else the newest', () => {
    expect(currentCertification([record(3, 2), record(2, 1), record(1, 3)])?.id).toBe(2);
    expect(currentCertification([record(3, 3), record(2, 2)])?.id).toBe(3);
    expect(currentCertification([])).toBeUndefined();
  });

  it('allow a new submission unless one is auditing or passed', () => {
    expect(canSubmitCertification([])).toBe(true);
    expect(canSubmitCertification([record(2, 2), record(1, 3)])).toBe(true);
    expect(canSubmitCertification([record(2, 0)])).toBe(false);
    expect(canSubmitCertification([record(3, 3), record(2, 1)])).toBe(false);
  });
});
