//! Request counters: a total, and one bucket per second for the last minute (the
//! monitor's figures). Its own module so that `state` can hold it without reaching into
//! the monitor's handlers.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

pub const WINDOW_SECONDS: usize = 60;

/// Counts requests: a total, and one bucket per second for the last minute.
pub struct RequestMetrics {
    total: AtomicU64,
    /// (unix second, count) per slot; a slot is reused when its second has passed.
    buckets: Mutex<[(i64, u64); WINDOW_SECONDS]>,
}

impl Default for RequestMetrics {
    fn default() -> Self {
        Self { total: AtomicU64::new(0), buckets: Mutex::new([(0, 0); WINDOW_SECONDS]) }
    }
}

impl RequestMetrics {
    pub fn record(&self, now_second: i64) {
        self.total.fetch_add(1, Ordering::Relaxed);
        let slot = now_second.rem_euclid(WINDOW_SECONDS as i64) as usize;
        let mut buckets = self.buckets.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let bucket = &mut buckets[slot];
        if bucket.0 == now_second {
            bucket.1 += 1;
        } else {
            *bucket = (now_second, 1);
        }
    }

    /// Requests in the last minute, including the current second.
    pub fn last_minute(&self, now_second: i64) -> u64 {
        let buckets = self.buckets.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        buckets
            .iter()
            .filter(|(second, _)| now_second - *second < WINDOW_SECONDS as i64 && *second <= now_second)
            .map(|(_, count)| count)
            .sum()
    }

    pub fn total(&self) -> u64 {
        self.total.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_forgets_requests_older_than_a_minute() {
        let metrics = RequestMetrics::default();
        metrics.record(1_000);
        metrics.record(1_000);
        metrics.record(1_030);
        assert_eq!(metrics.last_minute(1_030), 3);
        assert_eq!(metrics.last_minute(1_059), 3);
        assert_eq!(metrics.last_minute(1_060), 1);
        // A slot reused one minute later starts again.
        metrics.record(1_060);
        assert_eq!(metrics.last_minute(1_060), 2);
        assert_eq!(metrics.total(), 4);
    }
}
