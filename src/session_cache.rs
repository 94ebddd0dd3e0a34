//! Sessions checked in the last second, so that a busy client's calls do not each read
//! their session from the database (issue 13: an authenticated call cost four times the
//! static page, half of it this read).
//!
//! Safety: an entry is trusted for at most [`FRESH_FOR_MILLIS`], after which the session is
//! read again, so a revocation, an expiry or a password change made by another server on
//! the same database takes effect within one second. Changes made by this process end the
//! cached sessions at once ([`SessionCache::forget_all`]). Expiry and the idle timeout are
//! still checked against the clock on every call.
//!
//! A leaf module (plain fields, no import from the crate): `AppState` holds the cache and
//! `session` fills it.

use std::collections::HashMap;
use std::sync::Mutex;

/// How long a session read from the database is trusted without reading it again.
pub const FRESH_FOR_MILLIS: i64 = 1_000;
/// A bound on memory: past it the cache starts over (a million tokens would be ~200 MB).
const CAPACITY: usize = 50_000;

/// Who a session signs in, as `session::CurrentUser` holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CachedUser {
    pub user_id: i64,
    pub username: String,
    pub is_admin: bool,
    pub merchant_id: Option<i64>,
    pub session_id: i64,
}

#[derive(Clone)]
pub struct CachedSession {
    pub user: CachedUser,
    pub last_used_at: i64,
    pub expires_at: i64,
    read_at: i64,
}

#[derive(Default)]
pub struct SessionCache {
    entries: Mutex<HashMap<String, CachedSession>>,
}

impl SessionCache {
    /// The session of a token hash if it was read less than a second before `now`.
    pub fn get(&self, token_hash: &str, now: i64) -> Option<CachedSession> {
        let entries = self.entries.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        entries.get(token_hash).filter(|entry| now - entry.read_at < FRESH_FOR_MILLIS && now >= entry.read_at).cloned()
    }

    /// Remembers a session just read from the database (or whose idle clock was just moved).
    pub fn put(&self, token_hash: String, user: CachedUser, last_used_at: i64, expires_at: i64, now: i64) {
        let mut entries = self.entries.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if entries.len() >= CAPACITY && !entries.contains_key(&token_hash) {
            entries.retain(|_, entry| now - entry.read_at < FRESH_FOR_MILLIS);
            if entries.len() >= CAPACITY {
                entries.clear();
            }
        }
        entries.insert(token_hash, CachedSession { user, last_used_at, expires_at, read_at: now });
    }

    /// After this process ends sessions, changes passwords, roles or merchants: every call
    /// reads its session again.
    pub fn forget_all(&self) {
        self.entries.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user() -> CachedUser {
        CachedUser { user_id: 1, username: "m".into(), is_admin: false, merchant_id: Some(10001), session_id: 7 }
    }

    #[test]
    fn an_entry_is_trusted_for_one_second_only() {
        let cache = SessionCache::default();
        cache.put("h".into(), user(), 100, 10_000, 1_000);
        assert_eq!(cache.get("h", 1_000).map(|entry| entry.user.session_id), Some(7));
        assert!(cache.get("h", 1_999).is_some());
        assert!(cache.get("h", 2_000).is_none(), "read again after a second");
        assert!(cache.get("h", 999).is_none(), "a clock that went back reads again");
        assert!(cache.get("other", 1_000).is_none());
    }

    #[test]
    fn forgetting_ends_every_entry() {
        let cache = SessionCache::default();
        cache.put("a".into(), user(), 0, 10_000, 0);
        cache.put("b".into(), user(), 0, 10_000, 0);
        cache.forget_all();
        assert!(cache.get("a", 1).is_none() && cache.get("b", 1).is_none());
    }

    #[test]
    fn a_full_cache_makes_room() {
        let cache = SessionCache::default();
        for index in 0..CAPACITY {
            cache.put(format!("old{index}"), user(), 0, 10_000, 0);
        }
        cache.put("new".into(), user(), 0, 10_000, 5_000);
        assert!(cache.get("new", 5_000).is_some());
        assert!(cache.entries.lock().unwrap().len() <= CAPACITY);
    }
}
