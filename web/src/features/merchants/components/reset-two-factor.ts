/**
 * What the reset-two-factor dialog does with a refusal (issue 16 point 4): the server answers
 * 40110 when the administrator's own code is missing or wrong (an administrator with two-factor
 * on must confirm with it), 40900 when the user has no two-factor, 42900 after too many wrong
 * codes. Its message is already in the reader's language.
 */
import { ApiError } from '@/lib/request';

export const OWN_CODE_MISSING_OR_WRONG = 40110;

export interface ResetRefusal {
  /** Show (keep showing) the field for the administrator's own code. */
  askCode: boolean;
  /** The line to show in the dialog, or null when asking for the code says it all. */
  message: string | null;
}

export function resetRefusal(error: unknown, codeSent: boolean, fallback: string): ResetRefusal {
  const message = (error instanceof Error && error.message) || fallback;
  if (error instanceof ApiError && error.code === OWN_CODE_MISSING_OR_WRONG) {
    // Sent without a code: the administrator has two-factor on after all; ask for it.
    return { askCode: true, message: codeSent ? message : null };
  }
  return { askCode: codeSent, message };
}
