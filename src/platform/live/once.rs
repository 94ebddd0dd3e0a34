//! Figures that several servers feed (`Aggregate::sharing`): each event is applied through
//! the memory of `recent.rs`, and recorded while the figures are re-read.

use super::aggregate::Aggregate;
use super::event::LiveEvent;

/// The figures' handling of events from several servers; the counting is `aggregate.rs`'s.
impl Aggregate {
    /// A life-cycle event (recorded too while the figures are re-read).
    pub fn apply(&mut self, event: LiveEvent, now: i64) {
        if let Some(log) = self.recent.as_deref_mut().and_then(|recent| recent.recording.as_mut()) {
            log.push(event);
        }
        match event {
            LiveEvent::Placed(order) => self.placed(order, now),
            LiveEvent::Moved { id, created_at, status } => self.moved(id, created_at, status),
            LiveEvent::Finished(order) => self.finished(order, now),
            LiveEvent::Reversed(order) => self.reversed(order, now),
        }
    }

    pub fn is_sharing(&self) -> bool {
        self.recent.is_some()
    }

    /// Records the events applied from now on (sharing figures only).
    pub fn start_recording(&mut self) {
        if let Some(recent) = self.recent.as_deref_mut() {
            recent.recording = Some(Vec::new());
        }
    }

    /// The events recorded since `start_recording`; recording stops.
    pub fn take_recording(&mut self) -> Vec<LiveEvent> {
        self.recent.as_deref_mut().and_then(|recent| recent.recording.take()).unwrap_or_default()
    }

    /// Forgets the ids of old events (sharing figures only; once a second).
    pub fn forget_old(&mut self, now: i64) {
        if let Some(recent) = self.recent.as_deref_mut() {
            recent.placed.forget_old(now);
            recent.finished.forget_old(now);
            recent.reversed.forget_old(now);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::OrderStatus;
    use crate::platform::live::aggregate::{Finished, Placed};
    use std::collections::HashMap;

    const NOW: i64 = 1_800_000_000_000;

    fn placed(id: i64) -> LiveEvent {
        LiveEvent::Placed(Placed { id, merchant_id: 1, price_fen: 1_000, created_at: NOW - 1_000, province: 0 })
    }

    fn success(id: i64) -> Finished {
        Finished { id, carrier: 1, created_at: NOW - 1_000, finished_at: NOW, success: true, province: 0 }
    }

    fn finished(id: i64) -> LiveEvent {
        LiveEvent::Finished(success(id))
    }

    fn moved(id: i64) -> LiveEvent {
        LiveEvent::Moved { id, created_at: NOW - 1_000, status: OrderStatus::Processing }
    }

    /// (placed, succeeded, in flight, today's amount) of the figures.
    fn figures(aggregate: &Aggregate) -> (u64, u64, u64, i64) {
        let snapshot = aggregate.snapshot(NOW, &HashMap::new());
        let placed = snapshot.minutes.iter().map(|minute| minute.placed).sum();
        let succeeded = snapshot.minutes.iter().map(|minute| minute.succeeded).sum();
        let amount = snapshot.top_merchants.iter().map(|merchant| merchant.amount_fen).sum();
        (placed, succeeded, snapshot.in_flight, amount)
    }

    #[test]
    fn shared_events_count_once_in_any_order() {
        let mut shared = Aggregate::sharing(NOW);
        // Order 1 in order, twice over; order 2 finished before it is known placed, and moved late.
        for event in [placed(1), moved(1), finished(1), placed(1), finished(1), finished(2), placed(2), moved(2)] {
            shared.apply(event, NOW);
        }
        assert_eq!(figures(&shared), (2, 2, 0, 2_000));
        // One server alone counts what it is told, as before.
        let mut alone = Aggregate::new(NOW);
        for event in [finished(2), placed(2)] {
            alone.apply(event, NOW);
        }
        assert_eq!(figures(&alone), (1, 1, 1, 1_000));
    }

    fn reversed(id: i64) -> LiveEvent {
        LiveEvent::Reversed(Finished { success: false, ..success(id) })
    }

    /// (succeeded, failed) of the minutes, of the carrier in the last five minutes, and of
    /// today's unknown province.
    fn results(aggregate: &Aggregate) -> [(u64, u64); 3] {
        let snapshot = aggregate.snapshot(NOW, &HashMap::new());
        let minutes =
            snapshot.minutes.iter().fold((0, 0), |sum, minute| (sum.0 + minute.succeeded, sum.1 + minute.failed));
        let carrier = snapshot.carriers.first().map_or((0, 0), |carrier| (carrier.succeeded_5m, carrier.failed_5m));
        let province =
            snapshot.provinces_today.first().map_or((0, 0), |province| (province.succeeded, province.failed));
        [minutes, carrier, province]
    }

    #[test]
    fn a_reversed_success_becomes_a_failure_once() {
        for mut aggregate in [Aggregate::new(NOW), Aggregate::sharing(NOW)] {
            for event in [placed(1), finished(1), placed(2), finished(2), reversed(1)] {
                aggregate.apply(event, NOW);
            }
            assert_eq!(results(&aggregate), [(1, 1); 3]);
        }
        // Sharing: the echo of a reversal, and one for an order the database read reversed
        // already, change nothing.
        let mut shared = Aggregate::sharing(NOW);
        for event in [placed(1), finished(1), reversed(1), reversed(1)] {
            shared.apply(event, NOW);
        }
        assert_eq!(results(&shared), [(0, 1); 3]);
        let mut read = Aggregate::sharing(NOW);
        read.apply(placed(3), NOW);
        read.finished(Finished { success: false, ..success(3) }, NOW);
        read.reversed_already(3, NOW);
        read.apply(reversed(3), NOW);
        assert_eq!(results(&read), [(0, 1); 3]);
    }

    #[test]
    fn a_reread_keeps_the_events_seen_meanwhile_and_counts_none_twice() {
        let mut current = Aggregate::sharing(NOW);
        current.start_recording();
        // Seen while the database was read: order 1 is in the read, order 2 came after it.
        for event in [placed(1), finished(1), placed(2)] {
            current.apply(event, NOW);
        }
        let mut read = Aggregate::sharing(NOW);
        read.apply(placed(1), NOW);
        read.apply(finished(1), NOW);
        for event in current.take_recording() {
            read.apply(event, NOW);
        }
        assert_eq!(figures(&read), (2, 1, 1, 2_000));
        assert!(current.take_recording().is_empty(), "recording ends when taken");
    }
}
