//! Server-side sessions and the extractors that authenticate every protected call.
//!
//! A session row holds the token's hash, its creation, last use, absolute expiry, the
//! client address and user agent. A token is accepted as `Authorization: Bearer` or
//! in the `token` header; both at once must agree.

pub mod token;

use crate::http::error::AppError;
use crate::i18n::AdminMessage;
use crate::identity::permissions::{self, MerchantRole};
use crate::platform::db::now_millis;
use crate::platform::session_cache::CachedUser;
use crate::platform::state::AppState;
use axum::extract::FromRequestParts;
use axum::http::{HeaderMap, header, request::Parts};
use serde::Serialize;
use sqlx::Row;
use token::{is_well_formed, new_token, token_hash};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Admin,
    User,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::User => "user",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "admin" => Some(Role::Admin),
            "user" => Some(Role::User),
            _ => None,
        }
    }
}

/// The signed-in caller of a request.
#[derive(Debug, Clone)]
pub struct CurrentUser {
    pub user_id: i64,
    pub username: String,
    pub role: Role,
    pub merchant_id: Option<i64>,
    pub session_id: i64,
    /// A merchant user's role (`identity::permissions`); None for an administrator.
    pub merchant_role: Option<MerchantRole>,
    /// The merchant requires two-factor and this user has not turned it on: every call but
    /// `permissions::TWO_FACTOR_SETUP_PATHS` is refused (40341).
    pub two_factor_missing: bool,
}

impl CurrentUser {
    /// Whether the caller is an owner of its merchant (administrators are not).
    pub fn is_owner(&self) -> bool {
        self.merchant_role == Some(MerchantRole::Owner)
    }

    /// Whose data a request may see. A merchant sees only its own: asking for another
    /// merchant is refused (40300). An administrator sees the merchant asked for, or
    /// every merchant (`None`).
    pub fn scope(&self, requested: Option<i64>) -> Result<Option<i64>, AppError> {
        match self.role {
            Role::Admin => Ok(requested),
            Role::User => match (requested, self.merchant_id) {
                (None, Some(own)) => Ok(Some(own)),
                (Some(asked), Some(own)) if asked == own => Ok(Some(own)),
                _ => Err(AppError::PermissionDenied),
            },
        }
    }

    /// The merchant a merchant acts for; administrators name one explicitly (422 without:
    /// a requirement of the role, which the OpenAPI document cannot state).
    pub fn acting_merchant(&self, requested: Option<i64>) -> Result<i64, AppError> {
        self.scope(requested)?
            .ok_or_else(|| AppError::unprocessable("merchant_id", crate::i18n::Message::MerchantIdInvalid))
    }
}

/// Who signs in: what the login info and the session need to know of an account.
#[derive(Debug, Clone)]
pub struct Account {
    pub user_id: i64,
    pub username: String,
    pub role: Role,
    pub merchant_id: Option<i64>,
}

impl Account {
    /// From a row with the columns `user_id`, `username`, `role` and `merchant_id`.
    pub fn from_row(row: &sqlx::any::AnyRow) -> anyhow::Result<Self> {
        let role: String = row.try_get("role")?;
        Ok(Self {
            user_id: row.try_get("user_id")?,
            username: row.try_get("username")?,
            role: Role::parse(&role).ok_or_else(|| anyhow::anyhow!("unknown role {role:?} in storage"))?,
            merchant_id: row.try_get("merchant_id")?,
        })
    }
}

/// A caller who must be an administrator; anyone else gets code 40300.
#[derive(Debug, Clone)]
pub struct AdminUser(pub CurrentUser);

/// Why a session was ended; stored for the audit and the monitor.
pub mod revoke_reason {
    pub const LOGOUT: &str = "logout";
    pub const SIGNED_IN_ELSEWHERE: &str = "signed_in_elsewhere";
    /// An administrator disabled the user's merchant.
    pub const MERCHANT_DISABLED: &str = "merchant_disabled";
    /// An administrator reset the user's password.
    pub const PASSWORD_RESET: &str = "password_reset";
    /// The merchant's owner disabled or removed the user.
    pub const USER_DISABLED: &str = "user_disabled";
}

/// What a user holding a temporary password may still call: who they are, the server's
/// name, version and flags (the console asks for them beside userInfo right after sign-in,
/// before it knows of the temporary password), the new password, and signing out.
/// Everything else waits until they have chosen their own.
const TEMPORARY_PASSWORD_PATHS: [&str; 4] =
    ["/adminapi/merchant/userInfo", "/api/system/info", "/adminapi/merchant/changePassword", "/adminapi/login/logout"];

/// Ends every open session of a merchant's users at once (the merchant was disabled).
pub async fn revoke_merchant_sessions(
    executor: impl sqlx::Executor<'_, Database = sqlx::Any>,
    merchant_id: i64,
) -> Result<u64, sqlx::Error> {
    let result = sqlx::query(
        "UPDATE sessions SET revoked_at = $1, revoked_reason = $2
         WHERE revoked_at IS NULL AND user_id IN (SELECT id FROM users WHERE merchant_id = $3)",
    )
    .bind(now_millis())
    .bind(revoke_reason::MERCHANT_DISABLED)
    .bind(merchant_id)
    .execute(executor)
    .await?;
    Ok(result.rows_affected())
}

pub struct NewSession {
    pub token: String,
    pub expires_at: i64,
}

/// Opens a session and ends the user's oldest ones beyond the configured maximum, in the
/// caller's transaction (which writes the sign-in's audit record beside them). Returns the
/// session and how many were ended: if any, the session cache must be forgotten once the
/// transaction has committed.
pub async fn create_session(
    transaction: &mut sqlx::AnyConnection,
    policy: &crate::platform::config::SessionPolicy,
    user_id: i64,
    client_address: &str,
    user_agent: &str,
) -> Result<(NewSession, u64), AppError> {
    let now = now_millis();
    let expires_at = now.saturating_add(duration_millis(policy.absolute_lifetime));
    let token = new_token();
    sqlx::query(
        "INSERT INTO sessions (token_hash, user_id, created_at, last_used_at, expires_at, client_address, user_agent)
         VALUES ($1, $2, $3, $3, $4, $5, $6)",
    )
    .bind(token_hash(&token))
    .bind(user_id)
    .bind(now)
    .bind(expires_at)
    .bind(client_address)
    .bind(truncate(user_agent, 512))
    .execute(&mut *transaction)
    .await?;
    let ended = sqlx::query(
        "UPDATE sessions SET revoked_at = $1, revoked_reason = $2
         WHERE user_id = $3 AND revoked_at IS NULL AND id NOT IN (
             SELECT id FROM sessions WHERE user_id = $3 AND revoked_at IS NULL
             ORDER BY id DESC LIMIT $4)",
    )
    .bind(now)
    .bind(revoke_reason::SIGNED_IN_ELSEWHERE)
    .bind(user_id)
    .bind(i64::from(policy.max_sessions_per_user.max(1)))
    .execute(&mut *transaction)
    .await?
    .rows_affected();
    Ok((NewSession { token, expires_at }, ended))
}

/// Ends the session of `token` in the caller's transaction, which writes the sign-out's
/// record beside it. Returns its user if it was still open: the session cache must then be
/// forgotten once the transaction has committed.
pub async fn revoke_session(
    transaction: &mut sqlx::AnyConnection,
    token: &str,
    reason: &str,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "UPDATE sessions SET revoked_at = $1, revoked_reason = $2 WHERE token_hash = $3 AND revoked_at IS NULL
         RETURNING user_id",
    )
    .bind(now_millis())
    .bind(reason)
    .bind(token_hash(token))
    .fetch_optional(transaction)
    .await
}

/// Sessions neither revoked nor expired, for the monitor.
pub async fn count_active_sessions(state: &AppState) -> Result<i64, AppError> {
    let now = now_millis();
    let idle_cutoff = now - duration_millis(state.config.session.idle_timeout);
    let count: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM sessions WHERE revoked_at IS NULL AND expires_at > $1 AND last_used_at > $2",
    )
    .bind(now)
    .bind(idle_cutoff)
    .fetch_one(&state.db.pool)
    .await?;
    Ok(count)
}

/// The token a request presents, if any. Both headers present and different is an error:
/// a client confused about its own session must not be guessed for.
pub fn presented_token(headers: &HeaderMap) -> Result<Option<String>, AppError> {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .map(|value| {
            let text = value.to_str().map_err(|_| AppError::TokenUnknown)?.trim();
            match text.split_once(' ') {
                Some((scheme, token)) if scheme.eq_ignore_ascii_case("bearer") => Ok(token.trim().to_string()),
                _ => Err(AppError::TokenUnknown),
            }
        })
        .transpose()?
        .filter(|token| !token.is_empty());
    let header_token = headers
        .get("token")
        .map(|value| value.to_str().map(|text| text.trim().to_string()).map_err(|_| AppError::TokenUnknown))
        .transpose()?
        .filter(|token| !token.is_empty());
    match (bearer, header_token) {
        (Some(bearer), Some(header_token)) if bearer != header_token => Err(AppError::TokenConflict),
        (Some(token), _) | (None, Some(token)) => Ok(Some(token)),
        (None, None) => Ok(None),
    }
}

async fn authenticate(state: &AppState, headers: &HeaderMap, path: &str) -> Result<CurrentUser, AppError> {
    let token = presented_token(headers)?.ok_or(AppError::TokenUnknown)?;
    if !is_well_formed(&token) {
        return Err(AppError::TokenUnknown);
    }
    let hash = token_hash(&token);
    let now = now_millis();
    let idle_limit = duration_millis(state.config.session.idle_timeout);
    if let Some(cached) = state.sessions.get(&hash, now) {
        if now >= cached.expires_at || now.saturating_sub(cached.last_used_at) >= idle_limit {
            return Err(AppError::TokenExpired);
        }
        let CachedUser { user_id, username, is_admin, merchant_id, session_id, merchant_role, two_factor_missing } =
            cached.user;
        note_use(state, &hash, session_id, now);
        let role = if is_admin { Role::Admin } else { Role::User };
        let merchant_role = merchant_role.and_then(MerchantRole::parse);
        return Ok(CurrentUser { user_id, username, role, merchant_id, session_id, merchant_role, two_factor_missing });
    }
    let row = sqlx::query(
        "SELECT s.id, s.user_id, s.last_used_at, s.expires_at, s.revoked_at, s.revoked_reason, u.username, u.role,
                u.merchant_id, u.must_change_password, m.disabled_at, u.merchant_role,
                u.disabled_at AS user_disabled_at, u.removed_at, COALESCE(m.require_two_factor, 0) AS require_two_factor,
                (SELECT COUNT(*) FROM two_factor t WHERE t.user_id = u.id) AS two_factor_on
         FROM sessions s JOIN users u ON u.id = s.user_id LEFT JOIN merchants m ON m.id = u.merchant_id
         WHERE s.token_hash = $1",
    )
    .bind(&hash)
    .fetch_optional(&state.db.pool)
    .await?
    .ok_or(AppError::TokenUnknown)?;
    let session_id: i64 = row.try_get("id")?;
    // This process may have seen a later use than the one written.
    let stored_last_use: i64 = row.try_get("last_used_at")?;
    let last_used_at = stored_last_use.max(state.sessions.noted_use(session_id).unwrap_or(i64::MIN));
    let expires_at: i64 = row.try_get("expires_at")?;
    let revoked_at: Option<i64> = row.try_get("revoked_at")?;
    let revoked_reason: Option<String> = row.try_get("revoked_reason")?;
    let merchant_disabled = row.try_get::<Option<i64>, _>("disabled_at")?.is_some();
    if revoked_at.is_some() {
        if revoked_reason.as_deref() == Some(revoke_reason::MERCHANT_DISABLED) {
            return Err(AppError::SessionEndedBecause(AdminMessage::MerchantDisabled.into()));
        }
        if revoked_reason.as_deref() == Some(revoke_reason::USER_DISABLED) {
            return Err(AppError::SessionEndedBecause(AdminMessage::UserDisabled.into()));
        }
        return Err(AppError::SessionEnded);
    }
    if merchant_disabled {
        // Disabling revokes the merchant's sessions; one opened in the same instant is
        // caught here and ended too.
        sqlx::query("UPDATE sessions SET revoked_at = $1, revoked_reason = $2 WHERE id = $3 AND revoked_at IS NULL")
            .bind(now_millis())
            .bind(revoke_reason::MERCHANT_DISABLED)
            .bind(session_id)
            .execute(&state.db.pool)
            .await?;
        return Err(AppError::SessionEndedBecause(AdminMessage::MerchantDisabled.into()));
    }
    let user_disabled = row.try_get::<Option<i64>, _>("user_disabled_at")?.is_some()
        || row.try_get::<Option<i64>, _>("removed_at")?.is_some();
    if user_disabled {
        // Disabling ends the user's sessions; one opened in the same instant ends here.
        sqlx::query("UPDATE sessions SET revoked_at = $1, revoked_reason = $2 WHERE id = $3 AND revoked_at IS NULL")
            .bind(now_millis())
            .bind(revoke_reason::USER_DISABLED)
            .bind(session_id)
            .execute(&state.db.pool)
            .await?;
        return Err(AppError::SessionEndedBecause(AdminMessage::UserDisabled.into()));
    }
    if now >= expires_at || now.saturating_sub(last_used_at) >= idle_limit {
        return Err(AppError::TokenExpired);
    }
    let must_change_password = row.try_get::<i64, _>("must_change_password")? != 0;
    if must_change_password && !TEMPORARY_PASSWORD_PATHS.contains(&path) {
        return Err(AppError::Forbidden(AdminMessage::PasswordChangeRequired.into()));
    }
    let Account { user_id, username, role, merchant_id } = Account::from_row(&row)?;
    let merchant_role = match role {
        Role::Admin => None,
        Role::User => {
            let stored: String = row.try_get("merchant_role")?;
            Some(MerchantRole::parse(&stored).ok_or_else(|| anyhow::anyhow!("unknown merchant role {stored:?}"))?)
        }
    };
    let two_factor_missing = role == Role::User
        && row.try_get::<i64, _>("require_two_factor")? != 0
        && row.try_get::<i64, _>("two_factor_on")? == 0;
    if !must_change_password {
        // A temporary password is not cached: each of its calls is checked against its path.
        let cached = CachedUser {
            user_id,
            username: username.clone(),
            is_admin: role == Role::Admin,
            merchant_id,
            session_id,
            merchant_role: merchant_role.map(MerchantRole::as_str),
            two_factor_missing,
        };
        state.sessions.put(hash.clone(), cached, last_used_at, expires_at, now);
    }
    note_use(state, &hash, session_id, now);
    Ok(CurrentUser { user_id, username, role, merchant_id, session_id, merchant_role, two_factor_missing })
}

/// Moves the session's idle clock. The clocks every call moved are written together, at
/// most once a second, in the background (no call waits for it).
fn note_use(state: &AppState, hash: &str, session_id: i64, now: i64) {
    let Some(delay) = state.sessions.seen(hash, session_id, now) else { return };
    let (sessions, pool) = (state.sessions.clone(), state.db.pool.clone());
    tokio::spawn(async move {
        tokio::time::sleep(std::time::Duration::from_millis(delay.unsigned_abs())).await;
        let seen = sessions.take_seen(now_millis());
        if let Err(error) = crate::platform::session_cache::write_last_seen(&pool, seen).await {
            tracing::warn!(%error, "writing the sessions' last use failed");
        }
    });
}

impl FromRequestParts<AppState> for CurrentUser {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        if let Some(user) = parts.extensions.get::<CurrentUser>() {
            return Ok(user.clone());
        }
        let path = parts.uri.path();
        let user = authenticate(state, &parts.headers, path).await?;
        // The role's permission, the same table for every path (`identity::permissions`).
        if !permissions::allows(user.merchant_role, parts.method.as_str(), path) {
            return Err(AppError::PermissionDenied);
        }
        if user.two_factor_missing && !permissions::TWO_FACTOR_SETUP_PATHS.contains(&path) {
            return Err(AppError::TwoFactorRequired);
        }
        parts.extensions.insert(user.clone());
        Ok(user)
    }
}

impl FromRequestParts<AppState> for AdminUser {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let user = CurrentUser::from_request_parts(parts, state).await?;
        if user.role != Role::Admin {
            return Err(AppError::PermissionDenied);
        }
        Ok(AdminUser(user))
    }
}

pub fn duration_millis(duration: std::time::Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

fn truncate(text: &str, max_chars: usize) -> String {
    text.chars().take(max_chars).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (name, value) in pairs {
            headers.insert(*name, HeaderValue::from_str(value).unwrap());
        }
        headers
    }

    #[test]
    fn either_header_carries_the_token() {
        assert_eq!(presented_token(&headers(&[("authorization", "Bearer abc")])).unwrap().unwrap(), "abc");
        assert_eq!(presented_token(&headers(&[("authorization", "bearer abc")])).unwrap().unwrap(), "abc");
        assert_eq!(presented_token(&headers(&[("token", "abc")])).unwrap().unwrap(), "abc");
        assert_eq!(
            presented_token(&headers(&[("authorization", "Bearer abc"), ("token", "abc")])).unwrap().unwrap(),
            "abc"
        );
        assert!(presented_token(&headers(&[])).unwrap().is_none());
        assert!(presented_token(&headers(&[("token", "")])).unwrap().is_none());
    }

    #[test]
    fn disagreeing_or_foreign_schemes_are_refused() {
        assert!(matches!(
            presented_token(&headers(&[("authorization", "Bearer abc"), ("token", "xyz")])),
            Err(AppError::TokenConflict)
        ));
        assert!(matches!(presented_token(&headers(&[("authorization", "Basic abc")])), Err(AppError::TokenUnknown)));
    }
}
