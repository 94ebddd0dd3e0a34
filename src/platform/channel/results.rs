//! A channel's results over a span of time: the one definition the live monitor, the
//! channels list and reconciliation share, so that they never disagree on a figure.
//!
//! Counted are attempts whose final answer (`success` or `failed`) was recorded within
//! `[since, until)`, by `answered_at`: the time we learned it, whichever path learned it
//! (the worker's query or submission, a batch, a supplier's callback, late or not, a
//! probe). Attempts still `pending` or `unknown` count for neither side. An order that
//! failed at one channel and succeeded at the next is a failure of the first and a
//! success of the second: the ratio judges suppliers, not orders. Reconciliation's "our
//! successes" of a day are the `success` rows of the same predicate.
//!
//! Read from the attempts themselves (the index `order_attempts_channel_answered`, one
//! range per channel), never from counters kept beside them: counters miss whatever path
//! forgets to feed them, and each server would only count what it saw itself.

use crate::domain::{beijing_day, beijing_day_start};
use std::collections::BTreeMap;

/// Successes and definite failures of a channel within a span.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub succeeded: u64,
    pub failed: u64,
}

impl Tally {
    /// Successes per thousand results (rounded down); None without results.
    pub fn permille(self) -> Option<u64> {
        let total = self.succeeded + self.failed;
        (total > 0).then(|| self.succeeded * 1000 / total)
    }
}

pub const MINUTE_MS: i64 = 60_000;

/// The spans every page shows, ending at `now` (included).
#[derive(Debug, Clone, Copy)]
pub enum Span {
    LastMinutes(i64),
    /// Since Beijing midnight.
    Today,
}

impl Span {
    /// `[since, until)` of the span at `now`.
    pub fn bounds(self, now: i64) -> (i64, i64) {
        match self {
            Span::LastMinutes(minutes) => (now - minutes * MINUTE_MS, now + 1),
            Span::Today => (beijing_day_start(beijing_day(now)), now + 1),
        }
    }
}

/// One channel's results answered within `[since, until)`.
pub async fn tally(pool: &sqlx::AnyPool, channel_id: i64, (since, until): (i64, i64)) -> Result<Tally, sqlx::Error> {
    let (succeeded, failed): (i64, i64) = sqlx::query_as(
        "SELECT CAST(COALESCE(SUM(CASE WHEN outcome = 'success' THEN 1 ELSE 0 END), 0) AS BIGINT),
                CAST(COALESCE(SUM(CASE WHEN outcome = 'failed' THEN 1 ELSE 0 END), 0) AS BIGINT)
         FROM order_attempts
         WHERE channel_id = $1 AND answered_at >= $2 AND answered_at < $3 AND outcome IN ('success', 'failed')",
    )
    .bind(channel_id)
    .bind(since)
    .bind(until)
    .fetch_one(pool)
    .await?;
    Ok(Tally { succeeded: succeeded.max(0) as u64, failed: failed.max(0) as u64 })
}

/// Every channel's results within `[since, until)`; channels without any are left out.
pub async fn tallies(pool: &sqlx::AnyPool, bounds: (i64, i64)) -> Result<BTreeMap<i64, Tally>, sqlx::Error> {
    let channels: Vec<i64> = sqlx::query_scalar("SELECT id FROM channels ORDER BY id").fetch_all(pool).await?;
    let mut found = BTreeMap::new();
    for channel in channels {
        let counted = tally(pool, channel, bounds).await?;
        if counted != Tally::default() {
            found.insert(channel, counted);
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permille_rounds_down_and_is_none_without_results() {
        assert_eq!(Tally::default().permille(), None);
        assert_eq!(Tally { succeeded: 31, failed: 3 }.permille(), Some(911));
        assert_eq!(Tally { succeeded: 0, failed: 3 }.permille(), Some(0));
    }

    #[test]
    fn spans_end_at_now_included() {
        let now = 1_800_000_000_000;
        assert_eq!(Span::LastMinutes(5).bounds(now), (now - 300_000, now + 1));
        let (since, until) = Span::Today.bounds(now);
        assert_eq!(until, now + 1);
        assert!(since <= now && now - since < 86_400_000);
        assert_eq!(beijing_day(since), beijing_day(now));
    }
}
