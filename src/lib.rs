//! backoffice: the merchant and administrator console of a phone-credit top-up platform.
//! `docs/architecture.md` explains how the pieces fit together.

pub mod app;
pub mod domain;
pub mod http;
pub mod i18n;
pub mod identity;
pub mod merchant_api;
pub mod money;
pub mod monitoring;
pub mod notify;
pub mod orders;
pub mod platform;
pub mod supply;
