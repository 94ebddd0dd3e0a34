import { describe, expect, it } from 'vitest';
import type { Channel } from './channels';
import { channelFormInitial, channelSaveRequest } from './channel-form';

const stored: Channel = {
  id: 2,
  code: 'sim-cheap',
  name: 'Cheap',
  adapter: 'http-json',
  base_url: 'https://supplier.example/api',
  has_secret: true,
  timeout_ms: 3000,
  enabled: true,
  low_balance_fen: 123456,
  figures: {
    today_orders: 0,
    in_flight: 0,
    unknown: 0,
    succeeded_hour: 0,
    failed_hour: 0,
    succeeded_today: 0,
    failed_today: 0,
  },
};

describe('channel form', () => {
  it('never fills the secret back, and shows the alert line in yuan', () => {
    const values = channelFormInitial(stored);
    expect(values.secret).toBe('');
    expect(values.low_balance).toBe('1234.56');
    expect(values.code).toBe('sim-cheap');
  });

  it('leaves a blank secret out of an edit, so the stored one stays', () => {
    const request = channelSaveRequest({ ...channelFormInitial(stored), secret: '   ', name: ' Cheap two ' });
    expect(request).not.toBeNull();
    expect(request).not.toHaveProperty('secret');
    expect(request).toMatchObject({ code: 'sim-cheap', name: 'Cheap two', low_balance_fen: 123456, timeout_ms: 3000 });
  });

  it('sends a typed secret and parses yuan into fen exactly (no float: 0.29 stays 29 fen)', () => {
    const request = channelSaveRequest({
      ...channelFormInitial(null),
      code: 'new-one',
      name: 'New',
      secret: ' s3cret ',
      low_balance: '1,000.29',
    });
    expect(request).toMatchObject({ secret: 's3cret', low_balance_fen: 100029, adapter: 'http-json', enabled: true });
  });

  it('refuses an alert line that is not a plain amount', () => {
    expect(channelSaveRequest({ ...channelFormInitial(null), low_balance: '1.234' })).toBeNull();
    expect(channelSaveRequest({ ...channelFormInitial(null), low_balance: '-5' })).toBeNull();
  });

  it('sends no address for the sandbox', () => {
    const sandbox = { ...stored, adapter: 'sandbox', base_url: 'ignored', has_secret: false };
    expect(channelSaveRequest(channelFormInitial(sandbox))?.base_url).toBe('');
  });
});
