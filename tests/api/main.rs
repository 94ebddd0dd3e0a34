//! API tests: each runs a real server on port 0 with a fresh database, once on SQLite
//! and once on PostgreSQL.

mod batch;
mod finance;
mod helpers;
mod lists;
mod login;
mod monitor;
mod orders;
mod session;
mod user_info;
mod web;
