//! A security history per merchant (issue 52 §1): sign-ins with their address and browser,
//! failed sign-ins and locks, two-factor changes, API key and webhook secret events (and
//! a key's legacy signing), notify URL and IP whitelist changes, staff and role changes,
//! password changes. Written by the code that does the thing, in its
//! transaction where it has one (like the audit row beside it); read by the merchant's
//! owners and by administrators (`api`); kept 180 days (`purge`).
//!
//! Never recorded: a password, a two-factor or backup code, a key or webhook secret, a
//! token. The details are data (`i18n::security::SecurityDetail`), rendered when read.
//!
//! The flood bound: sign-in failures are recorded only for a username that exists (an
//! unknown one belongs to no merchant: the audit trail keeps it for administrators), and
//! only the attempts that were checked. The throttle checks at most its limit per lock
//! window (`identity::throttle`), and the attempt that locks is recorded as the lock;
//! attempts refused while locked are never checked and never recorded here. So one
//! account's history gains at most `account_max_failures` rows per lockout period (per
//! address that signed into it lately, which an attacker cannot add), and as many for
//! two-factor codes.

pub mod api;
pub mod purge;

use crate::i18n::security::SecurityDetail;
use crate::identity::session::CurrentUser;
use crate::platform::db::now_millis;

pub mod kind {
    /// Declares the kind codes and [`ALL`], the list the page filters by.
    macro_rules! kinds {
        ($($(#[$doc:meta])* $name:ident = $code:literal;)*) => {
            $($(#[$doc])* pub const $name: &str = $code;)*
            /// Every kind, in declaration order.
            pub const ALL: &[&str] = &[$($code),*];
        };
    }

    kinds! {
        SIGN_IN = "sign_in";
        /// A checked sign-in that failed: a wrong password or two-factor code, or the right
        /// password of a disabled user or merchant.
        SIGN_IN_FAILED = "sign_in_failed";
        /// The failure that locked sign-in (the account, or the address it came from).
        SIGN_IN_LOCKED = "sign_in_locked";
        PASSWORD_CHANGED = "password_changed";
        PASSWORD_RESET = "password_reset";
        TWO_FACTOR_ENABLED = "two_factor_enabled";
        TWO_FACTOR_DISABLED = "two_factor_disabled";
        TWO_FACTOR_RESET = "two_factor_reset";
        BACKUP_CODES_REGENERATED = "backup_codes_regenerated";
        API_KEY_CREATED = "api_key_created";
        API_KEY_REVOKED = "api_key_revoked";
        /// An administrator let a key also accept legacy MD5 signatures, or took that back.
        API_KEY_LEGACY_ON = "api_key_legacy_on";
        API_KEY_LEGACY_OFF = "api_key_legacy_off";
        /// The notify URL or the IP whitelist changed (where results go, who may call).
        INTEGRATION_CHANGED = "integration_changed";
        WEBHOOK_SECRET_ROTATED = "webhook_secret_rotated";
        STAFF_ADDED = "staff_added";
        STAFF_ROLE_CHANGED = "staff_role_changed";
        STAFF_DISABLED = "staff_disabled";
        STAFF_ENABLED = "staff_enabled";
        STAFF_REMOVED = "staff_removed";
        STAFF_TWO_FACTOR_REQUIRED = "staff_two_factor_required";
    }
}

/// How much of a browser's `User-Agent` is kept.
pub const MAX_USER_AGENT_CHARS: usize = 256;

/// A request's `User-Agent` ('' without one, or when it is not text).
pub fn agent_of(headers: &axum::http::HeaderMap) -> &str {
    headers.get(axum::http::header::USER_AGENT).and_then(|value| value.to_str().ok()).unwrap_or("")
}

/// Where the browser's name comes from.
#[derive(Debug, Clone, Copy)]
pub enum Browser<'a> {
    /// A request's `User-Agent` header (a sign-in: no session yet).
    Agent(&'a str),
    /// The session the actor signed in with (what its browser said then).
    Session(i64),
}

/// Whose history an event is in.
#[derive(Debug, Clone, Copy)]
pub enum Whose {
    /// The actor's own merchant (none for an administrator).
    Actor,
    /// A merchant the actor acted on (an administrator running a merchant's staff or keys).
    Merchant(i64),
    /// The merchant of the user acted on (an administrator resetting a user's two-factor).
    UserOf(i64),
}

/// One event: who acted, whose history it is in, what, from where.
#[derive(Debug, Clone)]
pub struct Event<'a> {
    pub user_id: i64,
    pub whose: Whose,
    pub kind: &'static str,
    pub detail: SecurityDetail,
    pub address: &'a str,
    pub browser: Browser<'a>,
}

impl<'a> Event<'a> {
    /// An event a signed-in caller caused, from its session's browser.
    pub fn by(caller: &CurrentUser, kind: &'static str, detail: SecurityDetail, address: &'a str) -> Self {
        Self {
            user_id: caller.user_id,
            whose: Whose::Actor,
            kind,
            detail,
            address,
            browser: Browser::Session(caller.session_id),
        }
    }

    /// The same event, in a named merchant's history.
    pub fn in_merchant(self, merchant_id: i64) -> Self {
        Self { whose: Whose::Merchant(merchant_id), ..self }
    }
}

/// Writes one event, on a pool or inside the transaction of the change it records. The
/// actor's username is taken as it is now (the row keeps it if the user is renamed later).
pub async fn record<'e, E: sqlx::Executor<'e, Database = sqlx::Any>>(
    executor: E,
    event: &Event<'_>,
) -> Result<(), sqlx::Error> {
    let (merchant_id, user_of) = match event.whose {
        Whose::Actor => (None, None),
        Whose::Merchant(id) => (Some(id), None),
        Whose::UserOf(id) => (None, Some(id)),
    };
    let (session_id, agent) = match event.browser {
        Browser::Agent(agent) => (None, agent.chars().take(MAX_USER_AGENT_CHARS).collect::<String>()),
        Browser::Session(id) => (Some(id), String::new()),
    };
    sqlx::query(
        "INSERT INTO security_events
             (merchant_id, user_id, username, kind, detail, client_address, user_agent, created_at)
         SELECT COALESCE($1, (SELECT t.merchant_id FROM users t WHERE t.id = $2), u.merchant_id), u.id, u.username,
                $3, $4, $5, COALESCE((SELECT substr(s.user_agent, 1, 256) FROM sessions s WHERE s.id = $6), $7), $8
         FROM users u WHERE u.id = $9",
    )
    .bind(merchant_id)
    .bind(user_of)
    .bind(event.kind)
    .bind(event.detail.to_json())
    .bind(event.address)
    .bind(session_id)
    .bind(agent)
    .bind(now_millis())
    .bind(event.user_id)
    .execute(executor)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Locale;
    use crate::i18n::security::{KIND_NAMES, kind_name};

    #[test]
    fn every_kind_has_a_name_in_both_languages_and_no_name_is_stray() {
        for code in kind::ALL {
            let named = KIND_NAMES.iter().find(|(known, _, _)| known == code);
            let (_, zh, en) = named.unwrap_or_else(|| panic!("no name for security kind {code}"));
            assert!(!zh.is_empty() && !en.is_empty(), "{code}");
        }
        for (code, _, _) in KIND_NAMES {
            assert!(kind::ALL.contains(code), "a name for a kind that does not exist: {code}");
        }
        assert_eq!(kind_name(kind::SIGN_IN_LOCKED, Locale::EnUs), "Sign-in locked");
    }
}
