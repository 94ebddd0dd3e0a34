import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { toOrderQuery, valuesToOrderFilters } from './order-query';

describe('toOrderQuery', () => {
  it('sends only the kind and sort without filters', () => {
    expect(toOrderQuery('ordinary', {})).toEqual({ kind: 'ordinary', sort: 'desc' });
    expect(toOrderQuery('card', {}, 'asc')).toEqual({ kind: 'card', sort: 'asc' });
  });

  it('maps every filter to its API field', () => {
    expect(
      toOrderQuery('behalf', {
        status: 3,
        orderType: 'history',
        carrier: 'unicom',
        faceValueFen: 5000,
        province: 440000,
        duration: 's10to60',
        hasSerial: 'no',
        buyback: 'buyback',
        merchantOrderId: '  M-1 ',
        orderNo: '2026',
        account: '13800138000',
        startTime: '2026-01-01T00:00:00+08:00',
        endTime: '2026-01-02T00:00:00+08:00',
        merchantId: 10001,
      }),
    ).toEqual({
      kind: 'behalf',
      sort: 'desc',
      status: 3,
      order_type: 'history',
      carrier: 'unicom',
      face_value_fen: 5000,
      province: 440000,
      duration_min_ms: 10_000,
      duration_max_ms: 60_000,
      has_serial: false,
      buyback: true,
      merchant_order_id: 'M-1',
      order_no: '2026',
      account: '13800138000',
      start_time: '2026-01-01T00:00:00+08:00',
      end_time: '2026-01-02T00:00:00+08:00',
      merchant_id: 10001,
    });
  });

  it('keeps status 0 and open-ended duration ranges', () => {
    expect(toOrderQuery('ordinary', { status: 0, duration: 'under10s' })).toEqual({
      kind: 'ordinary',
      sort: 'desc',
      status: 0,
      duration_max_ms: 10_000,
    });
    expect(toOrderQuery('ordinary', { duration: 'over5m', hasSerial: 'yes', buyback: 'normal' })).toEqual({
      kind: 'ordinary',
      sort: 'desc',
      duration_min_ms: 300_000,
      has_serial: true,
      buyback: false,
    });
  });

  it('drops blank text filters', () => {
    expect(toOrderQuery('ordinary', { account: '   ', orderNo: '' })).toEqual({ kind: 'ordinary', sort: 'desc' });
  });
});

describe('valuesToOrderFilters', () => {
  it('keeps a province only when it is a province code (a hand-edited link still opens)', () => {
    expect(valuesToOrderFilters({ province: 440000 })).toEqual({ province: 440000 });
    expect(valuesToOrderFilters({ province: 440100 })).toEqual({});
    expect(valuesToOrderFilters({ province: '440000' })).toEqual({});
  });

  it('reads the form or the address, range ends included to the second', () => {
    expect(
      valuesToOrderFilters({
        kind: 'all',
        status: 3,
        orderNo: ' 2026 ',
        range: [dayjs('2026-11-24T00:00:00'), dayjs('2026-11-24T23:59:59')],
      }),
    ).toEqual({
      kind: 'all',
      status: 3,
      orderNo: '2026',
      startTime: '2026-11-24T00:00:00+08:00',
      endTime: '2026-11-25T00:00:00+08:00',
    });
  });

  it('drops values the API would refuse', () => {
    expect(
      valuesToOrderFilters({ kind: 'nope', status: 9, carrier: 'broadnet', orderType: 'tomorrow', merchantId: 0 }),
    ).toEqual({});
  });

  it('lets the ordinary list show every kind', () => {
    expect(toOrderQuery('ordinary', { kind: 'all', status: 3 })).toEqual({ kind: 'all', sort: 'desc', status: 3 });
  });

  it('asks for orders not final yet (the workplace in-flight figure) or final ones', () => {
    expect(toOrderQuery('ordinary', valuesToOrderFilters({ kind: 'all', progress: 'inFlight' }))).toEqual({
      kind: 'all',
      sort: 'desc',
      in_flight: true,
    });
    expect(toOrderQuery('ordinary', { progress: 'finished' })).toMatchObject({ in_flight: false });
    expect(valuesToOrderFilters({ progress: 'soon' })).toEqual({});
  });
});
