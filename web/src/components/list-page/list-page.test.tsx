import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { changeLocale } from '@/lib/i18n';
import '@/locales/review-queue-texts';
import { ListTotal } from './list-page';

beforeEach(async () => {
  await changeLocale('en-US');
});

describe('the total above a list', () => {
  const total = { testId: 'total' };

  it('counts the rows, or says "more than" when the server stopped counting', () => {
    const { rerender } = render(<ListTotal data={{ list: [], total: 42 }} total={total} />);
    expect(screen.getByTestId('total')).toHaveTextContent('42 in total');
    rerender(<ListTotal data={{ list: [], total: 10000, total_capped: true }} total={total} />);
    expect(screen.getByTestId('total')).toHaveTextContent('More than 10000');
    rerender(<ListTotal data={{ list: [], total: 10000, total_capped: false }} total={total} />);
    expect(screen.getByTestId('total')).toHaveTextContent('10000 in total');
  });

  it("takes the list's own wording, and what to show before the first page", () => {
    const own = { testId: 'total', textKey: 'reviewQueue.title', beforeLoad: 'Orders' };
    const { rerender } = render(<ListTotal data={undefined} total={own} />);
    expect(screen.getByTestId('total')).toHaveTextContent(/^Orders$/);
    rerender(<ListTotal data={{ list: [], total: 3 }} total={own} />);
    expect(screen.getByTestId('total')).toHaveTextContent('Waiting for a decision: 3');
    rerender(<ListTotal data={undefined} total={{ testId: 'total' }} />);
    expect(screen.getByTestId('total')).toHaveTextContent('0 in total');
  });
});
