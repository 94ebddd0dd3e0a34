/**
 * The error every failed API call rejects with (lib/request.ts). On its own so the login
 * page can tell its errors apart without loading the HTTP client up front.
 */
export type ApiErrorKind = 'envelope' | 'transport';

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  /** Envelope code, when the server answered with one. */
  readonly code?: number;
  /** Envelope data (e.g. {fields} for 40000, {retry_after_seconds} for 42900). */
  readonly data?: unknown;
  /** HTTP status, when there was a response. */
  readonly status?: number;

  constructor(message: string, options: { kind: ApiErrorKind; code?: number; data?: unknown; status?: number }) {
    super(message);
    this.name = 'ApiError';
    this.kind = options.kind;
    this.code = options.code;
    this.data = options.data;
    this.status = options.status;
  }
}
