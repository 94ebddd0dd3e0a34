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
use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};

/// How long an order's id is remembered: far longer than an event takes between servers.
const REMEMBERED_MS: i64 = 120_000;
/// Ids are forgotten by sets of 10 seconds each, so that forgetting the oldest drops one set.
const BUCKET_MS: i64 = 10_000;

/// Hashes an order id (the only key here) with one multiply-and-fold. Every event looks ids
/// up under the figures' lock, at up to some 600,000 ids remembered under load; ids come
/// from the database's sequence, so nobody outside can choose them to collide.
#[derive(Default, Clone, Copy)]
pub struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.write_u64(u64::from(*byte) ^ self.0.rotate_left(8));
        }
    }

    fn write_u64(&mut self, value: u64) {
        // Both halves of the product, folded: high bits (the table's control bytes) and low
        // bits (its slot) both depend on every bit of the id.
        let product = u128::from(value ^ 0x243f_6a88_85a3_08d3).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = (product as u64) ^ ((product >> 64) as u64);
    }

    fn write_i64(&mut self, value: i64) {
        self.write_u64(value as u64);
    }

    fn write_u32(&mut self, value: u32) {
        self.write_u64(u64::from(value));
    }
}

/// A map keyed by order ids, or by the figures' other numbers (merchant ids, province codes).
pub type IdMap<K, V> = HashMap<K, V, BuildHasherDefault<IdHasher>>;

/// Ids seen in the last [`REMEMBERED_MS`], by the time of their event: one map to ask (an
/// id at most once in it), and the ids again by 10-second set, oldest first, to forget.
#[derive(Default)]
pub struct RecentIds {
    /// id → the number of the set it is in.
    ids: IdMap<i64, i64>,
    /// (set number, its ids), oldest first.
    buckets: VecDeque<(i64, Vec<i64>)>,
}

impl RecentIds {
    pub fn contains(&self, id: i64) -> bool {
        self.ids.contains_key(&id)
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
        // Events come about in time order: the set is nearly always the newest one.
        let position = self.buckets.iter().rposition(|(number, _)| *number <= bucket).map_or(0, |found| found + 1);
        match position.checked_sub(1).and_then(|index| self.buckets.get_mut(index)) {
            Some((number, ids)) if *number == bucket => ids.push(id),
            _ => self.buckets.insert(position, (bucket, vec![id])),
        }
        self.ids.insert(id, bucket);
        true
    }

    /// Forgets the ids of events older than the memory.
    pub fn forget_old(&mut self, now: i64) {
        let oldest = (now - REMEMBERED_MS).div_euclid(BUCKET_MS);
        while self.buckets.front().is_some_and(|(number, _)| *number < oldest) {
            if let Some((_, ids)) = self.buckets.pop_front() {
                for id in ids {
                    self.ids.remove(&id);
                }
            }
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

    #[test]
    fn an_event_late_for_its_set_is_forgotten_with_that_set() {
        let mut ids = RecentIds::default();
        assert!(ids.first(1, NOW, NOW));
        assert!(ids.first(2, NOW - 30_000, NOW));
        assert!(ids.first(3, NOW - 30_000, NOW));
        assert!(ids.first(4, NOW - 15_000, NOW));
        let numbers: Vec<i64> = ids.buckets.iter().map(|(number, _)| *number).collect();
        assert!(numbers.windows(2).all(|pair| pair[0] < pair[1]), "{numbers:?}");
        assert_eq!(ids.buckets.len(), 3);
        // 30 s later than the two late ones' memory: those two go, the others stay.
        ids.forget_old(NOW + 90_000 + 10_000);
        assert!(!ids.contains(2) && !ids.contains(3));
        assert!(ids.contains(1) && ids.contains(4));
        assert!(!ids.first(4, NOW, NOW + 100_000));
        assert!(ids.first(2, NOW, NOW + 100_000));
    }

    #[test]
    fn sequential_ids_spread_over_the_table() {
        use std::hash::BuildHasher;
        let build = BuildHasherDefault::<IdHasher>::default();
        let hashes: Vec<u64> = (1_000_000_i64..1_004_096).map(|id| build.hash_one(id)).collect();
        // The slot (low bits) and the control byte (top 7 bits) both vary with the id.
        let slots: std::collections::HashSet<u64> = hashes.iter().map(|hash| hash & 4095).collect();
        let controls: std::collections::HashSet<u64> = hashes.iter().map(|hash| hash >> 57).collect();
        assert!(slots.len() > 2_500, "{}", slots.len());
        assert_eq!(controls.len(), 128);
    }
}
