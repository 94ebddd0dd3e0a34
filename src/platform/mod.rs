//! What every request stands on: settings, the database and its SQL, secrets and keys,
//! the application state and the long-lived services it holds (the supplier adapters in
//! `channel`, the live figures in `live`, the audit recorder). Nothing here knows a handler.

pub mod alert_lines;
pub mod audit;
pub mod backup;
pub mod blocklist;
pub mod channel;
pub mod config;
pub mod connections;
pub mod crypto;
pub mod db;
pub mod followed;
pub mod forwarded;
pub mod held;
pub mod key_check;
pub mod key_rotation;
pub mod live;
pub mod metrics;
pub mod password;
pub mod ports;
pub mod risk;
pub mod runtime;
pub mod segments;
pub mod session_cache;
pub mod sql;
pub mod state;
pub mod windows;
