//! Answers read in the last second, trusted as a cached session is (`session_cache`): for
//! at most [`FRESH_FOR_MILLIS`], so a change made by another server on the same database
//! shows within a second, and not at all once this process has changed a session, a
//! password, a profile, a merchant or an API key (`SessionCache::forget_all` moves the
//! generation every entry was read under).
//!
//! Used for what a busy caller asks many times a second and that changes rarely: the own
//! account's user info (issue 13) and an open-API key with its merchant's whitelist
//! (issue 10: reading them cost the open API as much as the order itself).
//!
//! A leaf module: it takes only the freshness bound from `session_cache`.

use crate::platform::session_cache::FRESH_FOR_MILLIS;
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;

/// A bound on memory: past it the map starts over.
const CAPACITY: usize = 10_000;

pub struct Recent<K, V> {
    entries: Mutex<HashMap<K, Entry<V>>>,
}

struct Entry<V> {
    value: V,
    generation: u64,
    read_at: i64,
}

impl<K, V> Default for Recent<K, V> {
    fn default() -> Self {
        Self { entries: Mutex::new(HashMap::new()) }
    }
}

impl<K: Hash + Eq, V: Clone> Recent<K, V> {
    /// The value read under `generation` less than a second before `now`.
    pub fn get<Q>(&self, key: &Q, generation: u64, now: i64) -> Option<V>
    where
        K: std::borrow::Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let entries = self.entries.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let entry = entries.get(key)?;
        let fresh = entry.generation == generation && now >= entry.read_at && now - entry.read_at < FRESH_FOR_MILLIS;
        fresh.then(|| entry.value.clone())
    }

    /// Remembers a value read under `generation` (taken before the read began) at `now`.
    pub fn put(&self, key: K, value: V, generation: u64, now: i64) {
        let mut entries = self.entries.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if entries.len() >= CAPACITY {
            entries.clear();
        }
        entries.insert(key, Entry { value, generation, read_at: now });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_trusted_for_under_a_second_and_only_in_its_generation() {
        let recent: Recent<String, i64> = Recent::default();
        recent.put("k".to_string(), 7, 3, 1_000);
        assert_eq!(recent.get("k", 3, 1_000), Some(7));
        assert_eq!(recent.get("k", 3, 1_000 + FRESH_FOR_MILLIS - 1), Some(7));
        assert_eq!(recent.get("k", 3, 1_000 + FRESH_FOR_MILLIS), None, "a second old");
        assert_eq!(recent.get("k", 4, 1_001), None, "read before a local change");
        assert_eq!(recent.get("k", 3, 999), None, "the clock went back");
        assert_eq!(recent.get("other", 3, 1_001), None);
    }
}
