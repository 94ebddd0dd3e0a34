//! Two-factor authentication with an authenticator app.

pub mod backup_codes;
pub mod qr;
pub mod totp;
