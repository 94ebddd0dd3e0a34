import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLocale } from '@/lib/i18n';
import { ApiError, post, STEP_UP_REQUIRED_CODE } from '@/lib/request';
import { STEP_UP_CONFIRM_URL } from './step-up';
import { useStepUp } from './use-step-up';

vi.mock('@/lib/request', async (original) => ({ ...(await original<object>()), post: vi.fn() }));
const mockedPost = vi.mocked(post);

const stepUpRequired = () =>
  new ApiError('confirm first', { kind: 'envelope', code: STEP_UP_REQUIRED_CODE, status: 403 });

/** A money button whose action is guarded; shows what the guarded call ended with. */
function Harness({ action }: { action: () => Promise<string> }) {
  const stepUp = useStepUp();
  const [outcome, setOutcome] = useState('');
  return (
    <>
      <button
        data-testid="move-money"
        onClick={() => stepUp.guard(action).then(setOutcome, (error: Error) => setOutcome(`refused: ${error.message}`))}
      >
        go
      </button>
      <output data-testid="outcome">{outcome}</output>
      {stepUp.element}
    </>
  );
}
const typeCode = (code: string) =>
  fireEvent.change(screen.getByTestId('step-up-code-input'), { target: { value: code } });

beforeEach(async () => {
  mockedPost.mockReset();
  await changeLocale('en-US');
});

describe('useStepUp', () => {
  it('asks for the code on a step-up refusal, confirms it and runs the action again', async () => {
    const action = vi.fn().mockRejectedValueOnce(stepUpRequired()).mockResolvedValueOnce('moved');
    mockedPost.mockResolvedValue({ valid_until: '2026-11-24T02:05:00Z' });
    render(<Harness action={action} />);
    await act(async () => fireEvent.click(screen.getByTestId('move-money')));
    expect(await screen.findByText('Confirm money actions')).toBeInTheDocument();
    typeCode('123456');
    await act(async () => fireEvent.click(screen.getByTestId('step-up-confirm')));
    await waitFor(() => expect(screen.getByTestId('outcome')).toHaveTextContent('moved'));
    expect(mockedPost).toHaveBeenCalledWith(STEP_UP_CONFIRM_URL, { code: '123456' }, { quietErrors: true });
    expect(action).toHaveBeenCalledTimes(2);
  });

  it('keeps the dialog open with the refusal after a wrong code, and cancelling gives up', async () => {
    const action = vi.fn().mockRejectedValue(stepUpRequired());
    mockedPost.mockRejectedValue(new ApiError('Wrong code', { kind: 'envelope', code: 40110 }));
    render(<Harness action={action} />);
    await act(async () => fireEvent.click(screen.getByTestId('move-money')));
    typeCode('000000');
    await act(async () => fireEvent.click(screen.getByTestId('step-up-confirm')));
    expect(await screen.findByTestId('step-up-refusal')).toHaveTextContent('Wrong code');
    expect(action).toHaveBeenCalledTimes(1);
    await act(async () => fireEvent.click(screen.getByTestId('step-up-cancel')));
    await waitFor(() => expect(screen.getByTestId('outcome')).toHaveTextContent('refused: confirm first'));
  });

  it('passes every other answer through untouched', async () => {
    const action = vi.fn().mockRejectedValue(new ApiError('No such merchant', { kind: 'envelope', code: 40400 }));
    render(<Harness action={action} />);
    await act(async () => fireEvent.click(screen.getByTestId('move-money')));
    await waitFor(() => expect(screen.getByTestId('outcome')).toHaveTextContent('refused: No such merchant'));
    expect(screen.queryByTestId('step-up-confirm')).not.toBeInTheDocument();
  });
});
