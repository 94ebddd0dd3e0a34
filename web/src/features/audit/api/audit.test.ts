import { describe, expect, it } from 'vitest';
import { toAuditQuery } from './audit';

describe('toAuditQuery', () => {
  it('maps the audit filters and drops empty ones', () => {
    expect(toAuditQuery({})).toEqual({});
    expect(toAuditQuery({ actor: '  ', target: ' ' })).toEqual({});
    expect(
      toAuditQuery({
        actor: ' admin ',
        action: 'money_top_up',
        target: ' merchant:10001 ',
        startTime: '2026-01-01T00:00:00+08:00',
        endTime: '2026-02-01T00:00:00+08:00',
      }),
    ).toEqual({
      actor: 'admin',
      action: 'money_top_up',
      target: 'merchant:10001',
      start_time: '2026-01-01T00:00:00+08:00',
      end_time: '2026-02-01T00:00:00+08:00',
    });
  });
});
