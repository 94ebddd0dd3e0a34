import { act, renderHook } from '@testing-library/react';
import dayjs from 'dayjs';
import { useLocation, useNavigate } from 'react-router';
import { describe, expect, it } from 'vitest';
import { paramsToValues, valuesToParams } from '@/components/list-page/url-filters';
import { withProviders } from '@/test/query-wrapper';
import { DIMENSIONS } from '../api/reports';
import { REPORT_SCHEMA, type ReportRules, readReportFilters, reportValues, useReportFilters } from './report-filters';

const TODAY = dayjs('2026-12-10T12:00:00');
const PROFIT: ReportRules = { dimensions: DIMENSIONS, merchant: true };
const SALES_MERCHANT: ReportRules = { dimensions: ['product'], merchant: false };
const DEFAULTS = { start: '2026-11-11', end: '2026-12-10', grain: 'day', groupBy: [] };

/** The filters a hand-written address gives. */
const read = (query: string, rules: ReportRules = PROFIT) =>
  readReportFilters(paramsToValues(new URLSearchParams(query), REPORT_SCHEMA), rules, TODAY);

describe('report filters in the address', () => {
  it('open with the last 30 days by day, unbroken, every merchant', () => {
    expect(read('')).toEqual(DEFAULTS);
  });

  it('read a range, the month grain, a breakdown in the server’s order and a merchant', () => {
    expect(read('range=2026-01-01~2026-06-30&grain=month&groupBy=product,merchant,product&merchantId=10001')).toEqual({
      start: '2026-01-01',
      end: '2026-06-30',
      grain: 'month',
      groupBy: ['merchant', 'product'],
      merchantId: 10001,
    });
  });

  it('take 366 days, one day, and a leap day', () => {
    expect(read('range=2026-01-01~2027-01-01')).toMatchObject({ start: '2026-01-01', end: '2027-01-01' });
    expect(read('range=2026-03-05~2026-03-05')).toMatchObject({ start: '2026-03-05', end: '2026-03-05' });
    expect(read('range=2028-02-29~2028-03-01')).toMatchObject({ start: '2028-02-29', end: '2028-03-01' });
  });

  it('put the default back for each field the address gets wrong, keeping the others', () => {
    for (const range of [
      'yesterday~today',
      '2026-02-30~2026-03-10',
      '2026-13-01~2026-12-31',
      '2026-1-1~2026-01-31',
      '2026-03-10~2026-03-01',
      '2026-01-01~2027-01-02',
      '2026-01-01',
      '2026-01-01~2026-01-02~2026-01-03',
    ]) {
      expect(read(`range=${range}&grain=month`), range).toEqual({ ...DEFAULTS, grain: 'month' });
    }
    expect(read('grain=week&groupBy=channel')).toEqual({ ...DEFAULTS, groupBy: ['channel'] });
    expect(read('groupBy=channel,colour&grain=month')).toEqual({ ...DEFAULTS, grain: 'month' });
    expect(read('merchantId=0')).toEqual(DEFAULTS);
    expect(read('merchantId=-3')).toEqual(DEFAULTS);
    expect(read('merchantId=1.5')).toEqual(DEFAULTS);
  });

  it('keep to what the report offers: the sales report by product only, its merchant the caller’s', () => {
    expect(read('groupBy=product&merchantId=10002', SALES_MERCHANT)).toEqual({ ...DEFAULTS, groupBy: ['product'] });
    expect(read('groupBy=merchant', SALES_MERCHANT)).toEqual(DEFAULTS);
  });

  it('write only what differs from the defaults, and read it back the same', () => {
    expect(reportValues(read(''), TODAY)).toEqual({});
    const filters = read('range=2026-01-01~2026-06-30&grain=month&groupBy=carrier,channel&merchantId=7');
    const params = valuesToParams(reportValues(filters, TODAY), REPORT_SCHEMA);
    expect(params).toEqual({
      range: '2026-01-01~2026-06-30',
      grain: 'month',
      groupBy: 'channel,carrier',
      merchantId: '7',
    });
    expect(read(new URLSearchParams(params).toString())).toEqual(filters);
  });
});

describe('useReportFilters', () => {
  function renderFilters(path: string) {
    return renderHook(() => ({ state: useReportFilters(PROFIT), location: useLocation(), navigate: useNavigate() }), {
      wrapper: withProviders(undefined, path),
    });
  }

  it('keeps each change as a step the back button returns to', () => {
    const { result } = renderFilters('/finance/profit');
    act(() => result.current.state.change({ ...result.current.state.filters, grain: 'month' }));
    act(() => result.current.state.change({ ...result.current.state.filters, groupBy: ['channel', 'merchant'] }));
    expect(result.current.location.search).toBe('?grain=month&groupBy=merchant%2Cchannel');
    expect(result.current.state.filters).toMatchObject({ grain: 'month', groupBy: ['merchant', 'channel'] });
    act(() => void result.current.navigate(-1));
    expect(result.current.location.search).toBe('?grain=month');
    expect(result.current.state.filters).toMatchObject({ grain: 'month', groupBy: [] });
  });

  it('applies a view’s filters as the address would, dropping what is wrong in them', () => {
    const { result } = renderFilters('/finance/profit?grain=month');
    act(() => result.current.state.applyView({ groupBy: 'product', range: '2026-05-01~2026-04-01', junk: '1' }));
    expect(result.current.location.search).toBe('?groupBy=product');
    // A step of its own, as any change on a page with filters.
    act(() => void result.current.navigate(-1));
    expect(result.current.location.search).toBe('?grain=month');
  });
});
