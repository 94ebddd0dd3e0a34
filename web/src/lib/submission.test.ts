import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SubmissionKeys, useSubmission } from './submission';

const ORDER = { account: '13800138000', product_key: 'MOBILE-DIRECT-10' };

describe('SubmissionKeys', () => {
  it('sends a retry of the same values with the same key', () => {
    const keys = new SubmissionKeys();
    const first = keys.begin(ORDER);
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    keys.end();
    // The same values, their fields in another order: still the same submission.
    expect(keys.begin({ product_key: 'MOBILE-DIRECT-10', account: '13800138000' })).toBe(first);
  });

  it('keeps the key after a success: a second click after a fast answer is the same action', () => {
    const keys = new SubmissionKeys();
    const first = keys.begin(ORDER);
    keys.end();
    expect(keys.begin(ORDER)).toBe(first);
  });

  it('makes a new key when the values change', () => {
    const keys = new SubmissionKeys();
    const first = keys.begin(ORDER);
    keys.end();
    const edited = keys.begin({ ...ORDER, account: '13800138001' });
    expect(edited).not.toBe(first);
    keys.end();
    // Going back to the first values after an edit is another submission again.
    expect(keys.begin(ORDER)).not.toBe(edited);
  });

  it('refuses a second submission while the first is in flight', () => {
    const keys = new SubmissionKeys();
    const first = keys.begin(ORDER);
    expect(keys.begin(ORDER)).toBeNull();
    keys.end();
    expect(keys.begin(ORDER)).toBe(first);
  });

  it('makes a new key once forgotten (the form closed)', () => {
    const keys = new SubmissionKeys();
    const first = keys.begin(ORDER);
    keys.end();
    keys.forget();
    expect(keys.begin(ORDER)).not.toBe(first);
  });
});

describe('useSubmission', () => {
  it('calls once while in flight, says so, and keeps the key for a retry after a failure', async () => {
    const { result } = renderHook(() => useSubmission());
    const sent: string[] = [];
    let fail: (error: Error) => void = () => undefined;
    let first: Promise<unknown> | undefined;
    act(() => {
      first = result.current.run(ORDER, (key) => {
        sent.push(key);
        return new Promise((_resolve, reject) => {
          fail = reject;
        });
      });
    });
    expect(result.current.pending).toBe(true);
    // The double click: nothing is called.
    let second: Promise<unknown> | undefined;
    act(() => {
      second = result.current.run(ORDER, async (key) => sent.push(key));
    });
    expect(second).toBeUndefined();
    expect(sent).toHaveLength(1);

    await act(async () => {
      fail(new Error('network'));
      await expect(first).rejects.toThrow('network');
    });
    expect(result.current.pending).toBe(false);

    await act(async () => {
      await result.current.run(ORDER, async (key) => sent.push(key));
    });
    expect(sent).toHaveLength(2);
    expect(sent[1]).toBe(sent[0]);

    // After that success, the same values are still the same action: the same key (the
    // server answers the order placed), other values a new one.
    await act(async () => {
      await result.current.run(ORDER, async (key) => sent.push(key));
    });
    expect(sent[2]).toBe(sent[0]);
    await act(async () => {
      await result.current.run({ ...ORDER, account: '13900139000' }, async (key) => sent.push(key));
    });
    expect(sent[3]).not.toBe(sent[0]);
  });
});
