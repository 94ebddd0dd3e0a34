/**
 * Server refusals that name fields (`data.fields` {field: localized message} and
 * `data.keys` {field: stable key}) shown on the matching form fields: validation failures
 * (40000), a wrong current password (40300) and values the current state refuses (40900,
 * e.g. a repayment above the credit in use). The request client has already shown the
 * toast; these helpers put each message under its field.
 */
import { ApiError } from './request';

export const VALIDATION_FAILED_CODE = 40000;
/**
 * The codes whose answers may name fields (docs/api.md); 40940–40943 are the risk controls'
 * refusals at placement (the number, or the merchant's daily cap).
 */
const FIELD_CODES = new Set([VALIDATION_FAILED_CODE, 40300, 40900, 40940, 40941, 40942, 40943]);

export interface ServerFieldError {
  /** The form field the message belongs to. */
  name: string;
  message: string;
  /** The server's stable message key, e.g. 'profile.email.required'. */
  key?: string;
}

function stringRecord(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}

/**
 * The field errors of an answer that names fields, renamed by `fieldMap` (server name →
 * form name; a field mapped to null is dropped). Empty for any other error.
 */
export function serverFieldErrors(error: unknown, fieldMap: Record<string, string | null> = {}): ServerFieldError[] {
  if (!(error instanceof ApiError) || error.code === undefined || !FIELD_CODES.has(error.code)) return [];
  const data = error.data as { fields?: unknown; keys?: unknown } | null | undefined;
  const fields = stringRecord(data?.fields);
  const keys = stringRecord(data?.keys);
  const errors: ServerFieldError[] = [];
  for (const [field, message] of Object.entries(fields)) {
    const name = field in fieldMap ? fieldMap[field] : field;
    if (name === null) continue;
    errors.push({ name, message, key: keys[field] });
  }
  return errors;
}

type FieldErrors = { name: string; errors: string[] }[];

/**
 * The part of antd's FormInstance the mapping needs (keeps this file free of antd). Any
 * FormInstance<Values> fits: its field names are narrower than string, hence `never`.
 */
export interface FieldErrorTarget {
  setFields: (fields: never) => void;
}

/**
 * Put the server's field messages on the form. Fields the form does not have are left out
 * (their message is still in the toast). Returns the errors that were shown.
 */
export function applyServerFieldErrors(
  form: FieldErrorTarget,
  error: unknown,
  options: { fieldMap?: Record<string, string | null>; knownFields?: readonly string[] } = {},
): ServerFieldError[] {
  const known = options.knownFields ? new Set(options.knownFields) : null;
  const errors = serverFieldErrors(error, options.fieldMap).filter((item) => !known || known.has(item.name));
  const target = form as unknown as { setFields: (fields: FieldErrors) => void };
  if (errors.length) target.setFields(errors.map((item) => ({ name: item.name, errors: [item.message] })));
  return errors;
}
