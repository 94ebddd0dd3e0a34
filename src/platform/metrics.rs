//! Request counters: a total, and one bucket per second for the last minute (the
//! monitor's figures); per route, method and status, and a latency histogram (`/metrics`).
//! Its own module so that `state` can hold it without reaching into the handlers.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

pub const WINDOW_SECONDS: usize = 60;

/// Upper bounds (seconds, as Prometheus writes them) of the latency histogram's buckets,
/// with the same bounds in microseconds.
pub const LATENCY_BUCKETS: [(&str, u64); 11] = [
    ("0.005", 5_000),
    ("0.01", 10_000),
    ("0.025", 25_000),
    ("0.05", 50_000),
    ("0.1", 100_000),
    ("0.25", 250_000),
    ("0.5", 500_000),
    ("1", 1_000_000),
    ("2.5", 2_500_000),
    ("5", 5_000_000),
    ("10", 10_000_000),
];

/// One route's requests: (route pattern, method, status) → count. Routes are the router's
/// patterns (`/web/{*path}`), never raw paths, so the number of series stays bounded.
pub type RouteKey = (String, String, u16);

#[derive(Default, Clone)]
pub struct Latency {
    /// Count per bucket of `LATENCY_BUCKETS` (not cumulative), then above the last.
    pub buckets: [u64; LATENCY_BUCKETS.len() + 1],
    pub sum_micros: u64,
    pub count: u64,
}

/// Counts requests: a total, and one bucket per second for the last minute.
pub struct RequestMetrics {
    total: AtomicU64,
    /// (unix second, count) per slot; a slot is reused when its second has passed.
    buckets: Mutex<[(i64, u64); WINDOW_SECONDS]>,
    routes: Mutex<BTreeMap<RouteKey, u64>>,
    latency: Mutex<Latency>,
}

impl Default for RequestMetrics {
    fn default() -> Self {
        Self {
            total: AtomicU64::new(0),
            buckets: Mutex::new([(0, 0); WINDOW_SECONDS]),
            routes: Mutex::new(BTreeMap::new()),
            latency: Mutex::new(Latency::default()),
        }
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

    /// A finished request: its route pattern, method, status and time to the response head.
    pub fn record_response(&self, key: RouteKey, micros: u64) {
        *self.routes.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).entry(key).or_default() += 1;
        let mut latency = self.latency.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let bucket = LATENCY_BUCKETS.iter().position(|(_, bound)| micros <= *bound).unwrap_or(LATENCY_BUCKETS.len());
        latency.buckets[bucket] += 1;
        latency.sum_micros += micros;
        latency.count += 1;
    }

    pub fn routes(&self) -> BTreeMap<RouteKey, u64> {
        self.routes.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).clone()
    }

    pub fn latency(&self) -> Latency {
        self.latency.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).clone()
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
