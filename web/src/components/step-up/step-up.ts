/**
 * Step-up for money (issue 12): an administrator with two-factor on confirms money actions
 * with a code; the server answers STEP_UP_REQUIRED_CODE until this session has confirmed
 * within the last 5 minutes.
 */
import { ApiError, type ApiSchema, post, STEP_UP_REQUIRED_CODE } from '@/lib/request';

export const STEP_UP_CONFIRM_URL = '/adminapi/admin/stepUp/confirm';

export function isStepUpRequired(error: unknown): boolean {
  return error instanceof ApiError && error.code === STEP_UP_REQUIRED_CODE;
}

/** Confirms this session's money actions; the dialog shows a refusal itself. */
export function confirmStepUp(code: string): Promise<ApiSchema<'StepUpResponse'>> {
  return post(STEP_UP_CONFIRM_URL, { code }, { quietErrors: true });
}
