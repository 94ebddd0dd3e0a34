import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { listLink, paramsToValues, valuesToParams } from './url-filters';

const SCHEMA = { texts: ['kind', 'orderNo'], numbers: ['status'], ranges: ['range'] };

describe('filters in the address', () => {
  it('round-trip texts, numbers (0 included) and ranges, leaving empty ones out', () => {
    const values = {
      kind: 'all',
      orderNo: '  2026 ',
      status: 0,
      range: [dayjs('2026-11-24T00:00:00'), null] as [dayjs.Dayjs, null],
      ignored: 'x',
    };
    const params = valuesToParams(values, SCHEMA);
    expect(params).toEqual({ kind: 'all', orderNo: '2026', status: '0', range: '2026-11-24T00:00:00~' });
    const back = paramsToValues(new URLSearchParams(params), SCHEMA);
    expect(back.kind).toBe('all');
    expect(back.status).toBe(0);
    const [from, to] = back.range as [dayjs.Dayjs | null, dayjs.Dayjs | null];
    expect(from?.format('YYYY-MM-DD HH:mm:ss')).toBe('2026-11-24 00:00:00');
    expect(to).toBeNull();
    expect(valuesToParams({ kind: '', status: undefined, range: [null, null] }, SCHEMA)).toEqual({});
  });

  it('ignore what a hand-edited address gets wrong', () => {
    const values = paramsToValues(
      new URLSearchParams('status=abc&range=yesterday~2026-13-45T00:00:00&other=1&orderNo=%20'),
      SCHEMA,
    );
    expect(values).toEqual({});
  });

  it('build links to a filtered list', () => {
    expect(listLink('/order/list', { status: 3, kind: 'all' }, SCHEMA)).toBe('/order/list?kind=all&status=3');
    expect(listLink('/order/list', {}, SCHEMA)).toBe('/order/list');
  });
});
