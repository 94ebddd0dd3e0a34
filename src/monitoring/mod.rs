//! What administrators watch: the live monitor and its stream, operations figures and
//! health, and the audit log's pages.

pub mod audit_log;
pub mod live_stream;
pub mod monitor;
pub mod operations;
