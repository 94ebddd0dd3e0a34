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
//!
//! The idle clock: each call notes its session's last use here ([`SessionCache::seen`]);
//! the notes are written together, one statement at most once a second, not one write per
//! call. A session's stored last use lags its real one by about a second at most, against
//! an idle timeout of hours.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

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
    /// A merchant user's role (`identity::permissions::MerchantRole::as_str`); None for
    /// an administrator.
    pub merchant_role: Option<&'static str>,
    /// The merchant requires two-factor and this user has not turned it on.
    pub two_factor_missing: bool,
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
    seen: Mutex<LastSeen>,
    /// Moves on at every [`SessionCache::forget_all`]: what was read under an earlier
    /// generation (a user's profile in the state's `recent_profiles`) is not trusted any more.
    generation: AtomicU64,
}

/// Last uses not yet written.
#[derive(Default)]
struct LastSeen {
    /// Session id → its last use.
    pending: HashMap<i64, i64>,
    written_at: i64,
    /// A write is planned (a task waits to make it).
    planned: bool,
}

/// How often the noted last uses are written.
pub const WRITE_SEEN_EVERY_MILLIS: i64 = 1_000;

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

    /// Notes a call of a session at `now` (and moves the idle clock of its cached entry).
    /// When no write is planned, plans one and returns in how many milliseconds it is due
    /// (a second after the last one): the caller then calls [`SessionCache::take_seen`] and
    /// writes what it returns ([`write_last_seen`]).
    pub fn seen(&self, token_hash: &str, session_id: i64, now: i64) -> Option<i64> {
        if let Some(entry) = self.entries.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).get_mut(token_hash) {
            entry.last_used_at = entry.last_used_at.max(now);
        }
        let mut seen = self.seen.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let last = seen.pending.entry(session_id).or_insert(now);
        *last = (*last).max(now);
        if seen.planned {
            return None;
        }
        seen.planned = true;
        Some((seen.written_at + WRITE_SEEN_EVERY_MILLIS - now).clamp(0, WRITE_SEEN_EVERY_MILLIS))
    }

    /// The last uses noted since the last write, each session's latest, for the planned write.
    pub fn take_seen(&self, now: i64) -> Vec<(i64, i64)> {
        let mut seen = self.seen.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        seen.planned = false;
        seen.written_at = now;
        seen.pending.drain().collect()
    }

    /// A session's last use noted here and not written yet.
    pub fn noted_use(&self, session_id: i64) -> Option<i64> {
        self.seen.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).pending.get(&session_id).copied()
    }

    /// After this process ends sessions, changes passwords, roles, profiles, merchants, API
    /// keys or whitelists: every call reads its session again, and what `crate::identity::recent`
    /// holds is read again.
    pub fn forget_all(&self) {
        let mut entries = self.entries.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        self.generation.fetch_add(1, Ordering::SeqCst);
        entries.clear();
    }

    /// Read before reading something to cache; the copy is good while this has not moved.
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::SeqCst)
    }
}

/// Writes noted last uses, (session id, time) pairs, in one statement per 10,000 sessions.
/// A revoked session keeps the time it was revoked at.
pub async fn write_last_seen(pool: &sqlx::AnyPool, seen: Vec<(i64, i64)>) -> Result<(), sqlx::Error> {
    for chunk in seen.chunks(10_000) {
        let mut cases = String::new();
        let mut ids = Vec::with_capacity(chunk.len());
        for index in 0..chunk.len() {
            cases.push_str(&format!(" WHEN ${} THEN ${}", 2 * index + 1, 2 * index + 2));
            ids.push(format!("${}", 2 * chunk.len() + index + 1));
        }
        let sql = format!(
            "UPDATE sessions SET last_used_at = CASE id{cases} END WHERE id IN ({}) AND revoked_at IS NULL",
            ids.join(", ")
        );
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
        for (id, at) in chunk {
            query = query.bind(*id).bind(*at);
        }
        for (id, _) in chunk {
            query = query.bind(*id);
        }
        query.execute(pool).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user() -> CachedUser {
        CachedUser {
            user_id: 1,
            username: "m".into(),
            is_admin: false,
            merchant_id: Some(10001),
            session_id: 7,
            merchant_role: Some("owner"),
            two_factor_missing: false,
        }
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
    fn last_uses_are_written_together_at_most_once_a_second() {
        let cache = SessionCache::default();
        cache.put("h".into(), user(), 100, 1_000_000, 10_000);
        assert_eq!(cache.seen("h", 7, 10_000), Some(0), "the first use is written at once");
        assert_eq!(cache.take_seen(10_000), vec![(7, 10_000)]);
        assert_eq!(cache.seen("h", 7, 10_200), Some(800), "the next write a second after the last");
        assert_eq!(cache.seen("other", 8, 10_300), None, "planned already");
        assert_eq!(cache.seen("h", 7, 10_400), None);
        assert_eq!(cache.noted_use(7), Some(10_400));
        assert_eq!(cache.get("h", 10_500).map(|entry| entry.last_used_at), Some(10_400), "the idle clock moved");
        let mut written = cache.take_seen(11_000);
        written.sort();
        assert_eq!(written, vec![(7, 10_400), (8, 10_300)], "one write for every session, its latest use");
        assert_eq!(cache.noted_use(7), None);
        assert_eq!(cache.seen("h", 7, 13_000), Some(0), "a write long after the last is due at once");
    }

    #[test]
    fn forgetting_ends_every_entry() {
        let cache = SessionCache::default();
        cache.put("a".into(), user(), 0, 10_000, 0);
        cache.put("b".into(), user(), 0, 10_000, 0);
        let before = cache.generation();
        cache.forget_all();
        assert!(cache.get("a", 1).is_none() && cache.get("b", 1).is_none());
        assert_ne!(cache.generation(), before);
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
