//! Channels at work: supplier callbacks, health (pause, probe, balances), writing
//! channels, and the administrators' API. Kept apart from `channel` (adapters, routing,
//! attempts) so that `channel` needs nothing of the application state.

pub mod admin;
pub mod admin_coverage;
pub mod admin_reconcile;
pub mod admin_routing;
pub mod admin_supplies;
pub mod callback;
pub mod figures;
pub mod health;
pub mod notices;
pub mod reconcile;
pub mod sandbox_reversals;
pub mod settle;
pub mod setup;
pub mod simulator;
pub mod windows;
pub mod windows_form;
pub mod worker;
