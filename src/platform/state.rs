//! What every handler can reach: storage, settings and shared services.
//!
//! Every service is a field of its own type. A service whose type belongs to a module above
//! this layer is held through a marker of `held` (see there why).

use crate::platform::config::Config;
use crate::platform::crypto::Secrets;
use crate::platform::db::Database;
use crate::platform::held::{self, Held};
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
    /// The merchants' risk controls, in memory (platform/risk.rs), read by every placement.
    pub risk: crate::platform::risk::RiskSettings,
    /// Rung when an order was placed: the order worker waits on it between its looks (at the
    /// poll interval otherwise), so an order goes to its channel as soon as it is committed.
    /// A ring while the worker is busy is kept until it next waits.
    pub arrivals: tokio::sync::Notify,
    /// The orders' group-commit queue (orders/placement/group.rs); its writers start with the
    /// first placement.
    pub placements: Held<held::Placements>,
    /// The callbacks' successes waiting to be settled together (supply/settle.rs).
    pub callbacks: crate::platform::channel::settling::Callbacks,
    /// Open-API keys checked in the last second (merchant_api/guard.rs).
    pub recent_keys: Held<held::RecentKeys>,
    /// The console's own-account answers of the last second (identity/users/mod.rs).
    pub recent_profiles: Held<held::RecentProfiles>,
    /// Unix milliseconds when this process started serving.
    pub started_at: i64,
}
