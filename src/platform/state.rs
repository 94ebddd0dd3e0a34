//! What every handler can reach: storage, settings and shared services.

use crate::platform::config::Config;
use crate::platform::crypto::Secrets;
use crate::platform::db::Database;
use crate::platform::metrics::RequestMetrics;
use crate::platform::password::PasswordHasher;
use std::sync::Arc;

/// The application's state, shared: every request clones it several times (each layer
/// and extractor that names it), so a clone is one reference count, not one per field.
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

impl AppState {
    pub fn new(shared: Shared) -> Self {
        Self(Arc::new(shared))
    }
}

impl std::ops::Deref for AppState {
    type Target = Shared;
    fn deref(&self) -> &Shared {
        &self.0
    }
}

pub struct Shared {
    pub db: Database,
    pub config: Arc<Config>,
    pub hasher: PasswordHasher,
    /// Encrypts and hashes secrets at rest (two-factor secrets, card secrets, backup codes).
    pub secrets: Arc<Secrets>,
    pub metrics: Arc<RequestMetrics>,
    /// The live business figures (orders per minute, waiting orders, ...), fed by the
    /// order life cycle.
    pub live: Arc<crate::platform::live::LiveMonitor>,
    /// The adapters of the channels orders are routed to (platform/channel/registry.rs).
    pub channels: Arc<crate::platform::channel::registry::Registry>,
    /// Sessions checked in the last second (platform/session_cache.rs).
    pub sessions: Arc<crate::platform::session_cache::SessionCache>,
    /// The number-segment table in memory (platform/segments.rs), read by every placement.
    pub segments: Arc<crate::platform::segments::Segments>,
    /// The numbers and prefixes barred from top-ups, in memory (platform/blocklist.rs).
    pub blocklist: Arc<crate::platform::blocklist::Blocklist>,
    /// The numbers suppliers reported ported to another carrier, in memory (platform/ports.rs).
    pub ports: Arc<crate::platform::ports::Ports>,
    /// The maintenance windows, in memory (platform/windows.rs), read by placing and routing.
    pub windows: Arc<crate::platform::windows::Windows>,
    /// Services a module starts on first use and keeps for the application's life, found by
    /// type (the orders' group-commit queue): so the state names no module above it.
    pub services: Arc<Services>,
    /// Unix milliseconds when this process started serving.
    pub started_at: i64,
}

/// A map from a type to its one value in this application.
#[derive(Default)]
pub struct Services(
    std::sync::Mutex<std::collections::HashMap<std::any::TypeId, Arc<dyn std::any::Any + Send + Sync>>>,
);

impl Services {
    /// The application's `T`, made by `init` the first time it is asked for.
    pub fn get_or_init<T: std::any::Any + Send + Sync>(&self, init: impl FnOnce() -> T) -> Arc<T> {
        let mut services = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let service = services.entry(std::any::TypeId::of::<T>()).or_insert_with(|| Arc::new(init())).clone();
        drop(services);
        service.downcast::<T>().unwrap_or_else(|_| unreachable!("stored under its own type id"))
    }
}
