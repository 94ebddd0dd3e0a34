//! API tests: each runs a real server on port 0 with a fresh database, once on SQLite
//! and once on PostgreSQL.

mod audit_log;
mod batch;
mod batch_rules;
mod certification;
mod cli;
mod files;
mod finance;
mod helpers;
mod idempotency;
mod integration_settings;
mod key_file;
mod lists;
mod live;
mod lockout;
mod login;
mod merchant_admin;
mod monitor;
mod notify;
mod open_api;
mod open_api_example;
mod operations;
mod orders;
mod profile;
mod reauth;
mod resolution;
mod review_queue;
mod schema;
mod session;
mod statements;
mod step_up;
mod template_pages;
mod two_factor;
mod two_factor_login;
mod user_info;
mod web;
