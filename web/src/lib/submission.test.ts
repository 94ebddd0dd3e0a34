import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SubmissionKeys, useSubmission } from './submission';

const ORDER = { account: '13800138000', product_key: 'MOBILE-DIRECT-10' };

describe('SubmissionKeys', () => {
  it('sends a retry of the same values with the same key', () => {
    const keys = new SubmissionKeys();
    const first = keys.begin(ORDER);
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    keys.end(false);
    // The same values, their fields in another order: still the same submission.
    expect(keys.begin({ product_key: 'MOBILE-DIRECT-10', account: '13800138000' })).toBe(first);
  });

  it('makes a new key after a success', () => {
    const keys = new SubmissionKeys();
    const first = keys.begin(ORDER);
    keys.end(true);
    const second = keys.begin(ORDER);
    expect(second).toMatch(/^[0-9a-f]{32}$/);
    expect(second).not.toBe(first);
  });

  it('makes a new key when the values change', () => {
    const keys = new SubmissionKeys();
    const first = keys.begin(ORDER);
    keys.end(false);
    const edited = keys.begin({ ...ORDER, account: '13800138001' });
    expect(edited).not.toBe(first);
    keys.end(false);
    // Going back to the first values after an edit is another submission again.
    expect(keys.begin(ORDER)).not.toBe(edited);
  });

  it('refuses a second submission while the first is in flight', () => {
    const keys = new SubmissionKeys();
    const first = keys.begin(ORDER);
    expect(keys.begin(ORDER)).toBeNull();
    keys.end(false);
    expect(keys.begin(ORDER)).toBe(first);
  });

  it('makes a new key once forgotten (the form closed)', () => {
    const keys = new SubmissionKeys();
    const first = keys.begin(ORDER);
    keys.end(false);
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

    // After that success, the same values are a new order with a new key.
    await act(async () => {
      await result.current.run(ORDER, async (key) => sent.push(key));
    });
    expect(sent[2]).not.toBe(sent[0]);
  });
});
