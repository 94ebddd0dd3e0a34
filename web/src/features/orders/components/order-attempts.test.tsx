import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { changeLocale } from '@/lib/i18n';
import type { ChannelAttempt } from '../api/orders';
import { OrderAttemptsSection } from './order-attempts';

const attempts: ChannelAttempt[] = [
  {
    attempt_no: 1,
    channel_code: 'sim-cheap',
    channel_name: 'Cheap',
    upstream_order_id: 'S123',
    outcome: 'failed',
    cost_fen: 960,
    requested_at: '2026-11-24T04:00:00Z',
    latency_ms: 41,
    answer: 'order.failure.carrier_refused',
  },
  {
    attempt_no: 2,
    channel_code: 'sim-reliable',
    channel_name: 'Reliable',
    upstream_order_id: 'S123-2',
    outcome: 'success',
    cost_fen: 985,
    requested_at: '2026-11-24T04:00:01Z',
    latency_ms: null,
    answer: 'topped up',
  },
];

describe("the order drawer's channel attempts", () => {
  beforeEach(async () => {
    await changeLocale('en-US');
  });

  it('lists every attempt for administrators, with outcome, cost in yuan and the answer', () => {
    render(<OrderAttemptsSection attempts={attempts} />);
    const section = screen.getByTestId('order-attempts');
    expect(section).toHaveTextContent('Channel attempts');
    expect(screen.getAllByTestId('attempt-channel').map((cell) => cell.textContent)).toEqual([
      'Cheap (sim-cheap)',
      'Reliable (sim-reliable)',
    ]);
    expect(screen.getAllByTestId('attempt-outcome').map((tag) => tag.textContent)).toEqual(['Failed', 'Success']);
    expect(section).toHaveTextContent('S123-2');
    expect(section).toHaveTextContent('9.60');
    expect(section).toHaveTextContent('41 ms');
    expect(section).not.toHaveTextContent('order.failure.carrier_refused');
    expect(section).toHaveTextContent('topped up');
  });

  it("reads a card order's success without its card in the console's language", async () => {
    const cardless: ChannelAttempt = {
      ...attempts[0],
      outcome: 'unknown',
      answer: 'order.failure.card_not_delivered',
    };
    render(<OrderAttemptsSection attempts={[cardless]} />);
    const section = screen.getByTestId('order-attempts');
    expect(section).toHaveTextContent('The supplier reported success without delivering the card');
    expect(section).not.toHaveTextContent('order.failure.card_not_delivered');
    await changeLocale('zh-CN');
    expect(section).toHaveTextContent('上游报告成功但未交付卡密');
  });

  it('is absent when the server leaves attempts out (merchants): no empty section', () => {
    const { container } = render(<OrderAttemptsSection attempts={undefined} />);
    expect(container).toBeEmptyDOMElement();
    expect(screen.queryByTestId('order-attempts')).toBeNull();
  });

  it('says so when an administrator opens an order no channel has had yet', () => {
    render(<OrderAttemptsSection attempts={[]} />);
    expect(screen.getByTestId('order-attempts')).toHaveTextContent('Not handed to a channel yet');
  });
});
