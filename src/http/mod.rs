//! What every handler shares at the edge: the error envelope, extractors, idempotency keys,
//! paging, query strings, security headers, and the file formats read and written (CSV,
//! xlsx, encrypted xlsx).

pub mod body_drain;
pub mod error;
pub mod export;
pub mod extract;
pub mod idempotency;
pub mod notify_guard;
pub mod office_crypt;
pub mod openapi_contract;
pub mod pagination;
pub mod query_string;
pub mod replay;
pub mod security_headers;
pub mod unavailable;
pub mod xlsx_read;
