import { describe, expect, it } from 'vitest';
import { targetLabel } from './audit-log-page';

describe('targetLabel', () => {
  const t = (key: string, options?: Record<string, unknown>) => `${key}${options ? `(${String(options.id)})` : ''}`;
  it('names known kinds and keeps anything else as stored', () => {
    expect(targetLabel('merchant:10001', t)).toBe('audit.target.merchant(10001)');
    expect(targetLabel('user:7', t)).toBe('audit.target.user(7)');
    expect(targetLabel('port:13910010001', t)).toBe('audit.target.port(13910010001)');
    expect(targetLabel('server', t)).toBe('audit.target.server');
    expect(targetLabel('', t)).toBe('-');
    expect(targetLabel('product:3', t)).toBe('product:3');
  });
  it('names the target when the server knows its name', () => {
    expect(targetLabel('channel:3', t)).toBe('audit.target.channel(3)');
    const named = (key: string, options?: Record<string, unknown>) =>
      key === 'audit.target.named'
        ? `${String(options?.label)} = ${String(options?.name)}`
        : `${key}#${String(options?.id)}`;
    expect(targetLabel('channel:3', named, 'Sandbox')).toBe('audit.target.channel#3 = Sandbox');
    expect(targetLabel('user:7', named, '')).toBe('audit.target.user#7');
  });
});
