import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RiskRefusals } from './risk-refusals';

describe('risk refusals panel', () => {
  it('lists each reason with today’s count', () => {
    render(
      <RiskRefusals
        refused={[
          { reason: 'number_in_flight', count: 19 },
          { reason: 'merchant_daily_cap', count: 0 },
        ]}
      />,
    );
    expect(screen.getByTestId('refused-number_in_flight').textContent).toBe('19');
    expect(screen.getByTestId('refused-merchant_daily_cap').textContent).toBe('0');
  });
});
