//! What the figures need to count each event once when several servers share them
//! (PostgreSQL, `share.rs`): the ids of the orders placed and finished in the last two
//! minutes, and the events seen while the figures are being re-read from the database.
//!
//! Events reach a server from several places and in no guaranteed order: an order placed on
//! one server and finished on another may be reported finished before it is reported
//! placed, and a re-read from the database may already hold an event that is delivered
//! after it. So an order's placement and its result count once, and an order known to be
//! finished is never put back among the waiting ones. One server alone (SQLite) keeps none
//! of this: its events come in the order they happened.

use super::event::LiveEvent;
use std::collections::{HashSet, VecDeque};

/// How long an order's id is remembered: far longer than an event takes between servers.
const REMEMBERED_MS: i64 = 120_000;
/// Ids are kept in sets of 10 seconds each, so that forgetting the oldest drops one set.
const BUCKET_MS: i64 = 10_000;

/// Ids seen in the last [`REMEMBERED_MS`], by the time of their event.
#[derive(Default)]
pub struct RecentIds {
    /// (bucket number, ids), oldest first.
    buckets: VecDeque<(i64, HashSet<i64>)>,
}

impl RecentIds {
    pub fn contains(&self, id: i64) -> bool {
        self.buckets.iter().any(|(_, ids)| ids.contains(&id))
    }

    /// Remembers `id` (an event at `at`); false if it was seen already. An event older than
    /// the memory is not remembered and counts (an event that old comes from a database
    /// read, not from another server, and comes once).
    pub fn first(&mut self, id: i64, at: i64, now: i64) -> bool {
        if self.contains(id) {
            return false;
        }
        if at < now - REMEMBERED_MS {
            return true;
        }
        let bucket = at.div_euclid(BUCKET_MS);
        let position = self.buckets.iter().position(|(number, _)| *number >= bucket).unwrap_or(self.buckets.len());
        match self.buckets.get_mut(position) {
            Some((number, ids)) if *number == bucket => {
                ids.insert(id);
            }
            _ => self.buckets.insert(position, (bucket, HashSet::from([id]))),
        }
        true
    }

    /// Forgets the ids of events older than the memory.
    pub fn forget_old(&mut self, now: i64) {
        let oldest = (now - REMEMBERED_MS).div_euclid(BUCKET_MS);
        while self.buckets.front().is_some_and(|(number, _)| *number < oldest) {
            self.buckets.pop_front();
        }
    }
}

#[derive(Default)]
pub struct Recent {
    pub placed: RecentIds,
    pub finished: RecentIds,
    /// Reversed successes, by the time they were reversed or read reversed.
    pub reversed: RecentIds,
    /// Events applied while the figures are re-read (`Some` during a re-read): they are
    /// applied again to the figures read, where those already in the read count nothing.
    pub recording: Option<Vec<LiveEvent>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_800_000_000_000;

    #[test]
    fn ids_are_forgotten_after_two_minutes() {
        let mut ids = RecentIds::default();
        assert!(ids.first(5, NOW - 60_000, NOW));
        assert!(ids.first(6, NOW, NOW));
        assert!(!ids.first(5, NOW, NOW));
        // Too old to remember: counts, and is not remembered.
        assert!(ids.first(7, NOW - 200_000, NOW));
        assert!(!ids.contains(7));
        ids.forget_old(NOW + 90_000);
        assert!(!ids.contains(5));
        assert!(ids.contains(6));
        assert_eq!(ids.buckets.len(), 1);
    }
}
