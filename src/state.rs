//! What every handler can reach: storage, settings and shared services.

use crate::config::Config;
use crate::crypto::Secrets;
use crate::db::Database;
use crate::metrics::RequestMetrics;
use crate::password::PasswordHasher;
use std::sync::Arc;

#[derive(Clone)]
pub struct AppState {
    pub db: Database,
    pub config: Arc<Config>,
    pub hasher: PasswordHasher,
    /// Encrypts and hashes secrets at rest (two-factor secrets, card secrets, backup codes).
    pub secrets: Arc<Secrets>,
    pub metrics: Arc<RequestMetrics>,
    /// The live business figures (orders per minute, waiting orders, ...), fed by the
    /// order life cycle.
    pub live: Arc<crate::live::LiveMonitor>,
    /// The adapters of the channels orders are routed to (channel/registry.rs).
    pub channels: Arc<crate::channel::registry::Registry>,
    /// Sessions checked in the last second (session_cache.rs).
    pub sessions: Arc<crate::session_cache::SessionCache>,
    /// Placements waiting to be written together (orders/group.rs).
    pub placements: Arc<crate::orders::group::Placements>,
    /// Unix milliseconds when this process started serving.
    pub started_at: i64,
}
