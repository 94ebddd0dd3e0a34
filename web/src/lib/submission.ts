import { useCallback, useState } from 'react';
import { newIdempotencyKey } from './idempotency';

/**
 * The keys of one form's money-moving submissions. A key is made when the person submits;
 * submitting the same values again after a failure (a lost answer, a timeout, a second
 * click) sends the same key, so the server answers the first call's result instead of
 * moving money twice. That holds after a success too: a double click's second click may
 * come after a fast server's answer, and it means the same action. Other values make a new
 * action with a new key. While a submission is in flight, another one is refused outright.
 */
export class SubmissionKeys {
  private current: { values: string; key: string } | null = null;
  private inFlight = false;

  /** The key to send `values` with, or null while an earlier submission is still in flight. */
  begin(values: unknown): string | null {
    if (this.inFlight) return null;
    const fingerprint = stableJson(values);
    if (this.current?.values !== fingerprint) this.current = { values: fingerprint, key: newIdempotencyKey() };
    this.inFlight = true;
    return this.current.key;
  }

  /** The submission answered; its key stays with its values (a repeat is the same action). */
  end(): void {
    this.inFlight = false;
  }

  /** Forget the kept key (the form was closed: opening it again is a new action). */
  forget(): void {
    this.current = null;
  }
}

/** JSON with each object's keys sorted, so field order does not make other values. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

export interface Submission {
  /**
   * Submit `values` through `call` with their key. Returns undefined, calling nothing, while
   * an earlier submission is in flight (a form submitted twice by Enter or a double click).
   */
  run: <T>(values: unknown, call: (key: string) => Promise<T>) => Promise<T> | undefined;
  /** A submission is in flight: its button shows loading. */
  pending: boolean;
  forget: () => void;
}

/** One form's submissions: their idempotency keys and the guard against a second at once. */
export function useSubmission(): Submission {
  const [keys] = useState(() => new SubmissionKeys());
  const [pending, setPending] = useState(false);
  const run = useCallback(
    <T>(values: unknown, call: (key: string) => Promise<T>): Promise<T> | undefined => {
      const key = keys.begin(values);
      if (key === null) return undefined;
      setPending(true);
      let answer: Promise<T>;
      try {
        answer = call(key);
      } catch (error) {
        answer = Promise.reject(error);
      }
      return answer.then(
        (result) => {
          keys.end();
          setPending(false);
          return result;
        },
        (error: unknown) => {
          keys.end();
          setPending(false);
          throw error;
        },
      );
    },
    [keys],
  );
  const forget = useCallback(() => keys.forget(), [keys]);
  return { run, pending, forget };
}
