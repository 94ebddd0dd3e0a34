//! API tests: each runs a real server on port 0 with a fresh database, once on SQLite
//! and once on PostgreSQL.

mod batch;
mod certification;
mod cli;
mod finance;
mod helpers;
mod idempotency;
mod key_file;
mod lists;
mod lockout;
mod login;
mod monitor;
mod orders;
mod profile;
mod reauth;
mod schema;
mod session;
mod two_factor;
mod two_factor_login;
mod user_info;
mod web;
