//! A table read into memory and followed across servers (the blocklist, the maintenance
//! windows): readers get the copy held; on the hot path each server asks the database for
//! the table's version at most once a second and reads the table again only when that
//! changed, so a change made on another server holds here within about a second, and the
//! server that made it reloads at once.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, RwLock};
use std::time::{Duration, Instant};

/// How stale another server's change may be here.
const CHECK_EVERY: Duration = Duration::from_secs(1);

pub struct Followed<T, V> {
    value: RwLock<Arc<T>>,
    /// The table's version when `value` was read.
    version: Mutex<V>,
    /// Milliseconds since `epoch` of the last version check (0 before the first: the first
    /// check is due once a second has passed since the epoch, which the first read sets).
    checked: AtomicI64,
    epoch: OnceLock<Instant>,
}

impl<T: Default, V: Default> Default for Followed<T, V> {
    fn default() -> Self {
        Self {
            value: RwLock::new(Arc::new(T::default())),
            version: Mutex::new(V::default()),
            checked: AtomicI64::new(0),
            epoch: OnceLock::new(),
        }
    }
}

impl<T, V: Copy + PartialEq> Followed<T, V> {
    fn elapsed_millis(&self) -> i64 {
        self.epoch.get_or_init(Instant::now).elapsed().as_millis() as i64
    }

    /// The copy held.
    pub fn get(&self) -> Arc<T> {
        self.value.read().unwrap_or_else(|poisoned| poisoned.into_inner()).clone()
    }

    /// Holds `value`, read when the table stood at `version`.
    pub fn store(&self, value: T, version: V) {
        *self.value.write().unwrap_or_else(|poisoned| poisoned.into_inner()) = Arc::new(value);
        *self.version.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = version;
        self.checked.store(self.elapsed_millis(), Ordering::Relaxed);
    }

    /// Whether this caller should check the version now: at most one caller a second is told
    /// so (the others keep the copy held meanwhile).
    pub fn check_due(&self) -> bool {
        let now = self.elapsed_millis();
        let last = self.checked.load(Ordering::Relaxed);
        now - last >= CHECK_EVERY.as_millis() as i64
            && self.checked.compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed).is_ok()
    }

    /// Whether the table's `version` is not the one the copy was read at.
    pub fn is_stale(&self, version: V) -> bool {
        *self.version.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) != version
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_check_is_due_once_a_second_and_a_new_version_is_stale() {
        let followed: Followed<Vec<i64>, (i64, i64)> = Followed::default();
        followed.store(vec![1], (1, 1));
        assert_eq!(*followed.get(), vec![1]);
        assert!(!followed.check_due(), "just read");
        assert!(!followed.is_stale((1, 1)));
        assert!(followed.is_stale((1, 2)));
        // A second later one caller, and only one, is told to check.
        followed.checked.store(followed.elapsed_millis() - 1_000, Ordering::Relaxed);
        assert!(followed.check_due());
        assert!(!followed.check_due());
    }
}
