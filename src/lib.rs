//! backoffice: the merchant and administrator console of a phone-credit top-up platform.
//! `docs/architecture.md` explains how the pieces fit together.

pub mod audit;
pub mod auth;
pub mod channel;
pub mod cli;
pub mod config;
pub mod crypto;
pub mod db;
pub mod demo;
pub mod domain;
pub mod error;
pub mod export;
pub mod extract;
pub mod finance;
pub mod forwarded;
pub mod i18n;
pub mod idempotency;
pub mod key_check;
pub mod metrics;
pub mod monitor;
pub mod openapi;
pub mod orders;
pub mod pagination;
pub mod password;
pub mod quotes;
pub mod security_headers;
pub mod session;
pub mod sql;
pub mod startup;
pub mod state;
pub mod throttle;
pub mod two_factor;
pub mod user_centre;
pub mod users;
pub mod web_assets;
pub mod worker;
