//! Sign-in and sign-out: `/adminapi/login/*`.

pub mod pending_login;

use crate::http::error::{ApiOk, ApiResult, AppError, FieldError};
use crate::http::extract::{ClientAddress, JsonBody};
use crate::i18n::audit::AuditDetail;
use crate::i18n::security::{FailureReason, SecurityDetail};
use crate::i18n::{AdminMessage, Message};
use crate::identity::security_history as history;
use crate::identity::session::{Account, Role, create_session, presented_token, revoke_reason, revoke_session, token};
use crate::identity::system_info::SystemInfo;
use crate::identity::throttle;
use crate::identity::users::UserInfo;
use crate::identity::users::repository::{MAX_USERNAME_LENGTH, StoredCredentials, find_credentials};
use crate::platform::audit::{self, action};
use crate::platform::password::MAX_PASSWORD_LENGTH;
use crate::platform::state::AppState;
use axum::{Router, extract::State, http::HeaderMap, routing::post};
use pending_login::PendingLoginResponse;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/adminapi/login/login", post(login))
        .route("/adminapi/login/logout", post(logout))
        .route("/adminapi/login/verify2FA", post(pending_login::verify_two_factor))
        // Answers carry session and pending tokens: no cache may keep them.
        .layer(crate::http::security_headers::no_store())
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct LoginRequest {
    /// 1 to 64 characters once trimmed.
    #[serde(default)]
    #[schema(value_type = String, required = true, pattern = r"^\s*\S([\s\S]{0,62}\S)?\s*$")]
    pub username: Option<String>,
    /// 1 to 128 characters.
    #[serde(default)]
    #[schema(value_type = String, required = true, min_length = 1, max_length = 128)]
    pub password: Option<String>,
}

/// What the console stores as `loginfo` (Login result).
#[derive(Debug, Serialize, ToSchema)]
pub struct LoginInfo {
    pub user_id: i64,
    pub username: String,
    #[schema(example = "user")]
    pub role: Role,
    /// The merchant id; null for administrators.
    pub mid: Option<i64>,
    /// The password is a temporary one an administrator set: the console sends the user
    /// to change it first, and every other call answers 40300 until they do.
    pub must_change_password: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LoginResponse {
    /// Opaque session token: send it as `Authorization: Bearer` or in the `token` header.
    pub token: String,
    pub loginfo: LoginInfo,
    /// When the session ends at the latest (RFC 3339); idleness ends it sooner.
    pub expires_at: String,
    /// The user's profile, as `/adminapi/merchant/userInfo` answers it.
    pub user: UserInfo,
    /// The server's information, as `/api/system/info` answers it.
    pub system: SystemInfo,
}

/// What `login` answers: a session, or (two-factor on) the handle for verify2FA.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum LoginOutcome {
    SignedIn(Box<LoginResponse>),
    TwoFactorRequired(PendingLoginResponse),
}

/// A sign-in's audit row; one completed with a two-factor code says so.
async fn audit_sign_in<'e, E: sqlx::Executor<'e, Database = sqlx::Any>>(
    executor: E,
    user_id: i64,
    event: &str,
    with_code: bool,
    address: &str,
) -> Result<(), sqlx::Error> {
    if !with_code {
        return audit::record(executor, Some(user_id), event, "", address).await;
    }
    let target = audit::target::user(user_id);
    audit::record_detail(executor, Some(user_id), event, &target, &AuditDetail::SignedInWithCode, address).await
}

/// A sign-in's event in the security history, with the browser it came from.
fn sign_in_event<'a>(
    user_id: i64,
    kind: &'static str,
    detail: SecurityDetail,
    address: &'a str,
    user_agent: &'a str,
) -> history::Event<'a> {
    history::Event {
        user_id,
        whose: history::Whose::Actor,
        kind,
        detail,
        address,
        browser: history::Browser::Agent(user_agent),
    }
}

/// The last step of every sign-in: a new session, the audit entry and the answer.
pub(crate) async fn open_session(
    state: &AppState,
    account: Account,
    address: &str,
    headers: &HeaderMap,
    with_code: bool,
) -> Result<LoginResponse, AppError> {
    let (disabled_at, user_disabled_at): (Option<i64>, Option<i64>) = sqlx::query_as(
        "SELECT m.disabled_at, COALESCE(u.disabled_at, u.removed_at)
         FROM users u LEFT JOIN merchants m ON m.id = u.merchant_id WHERE u.id = $1",
    )
    .bind(account.user_id)
    .fetch_one(&state.db.pool)
    .await?;
    let user_agent = history::agent_of(headers);
    if disabled_at.is_some() || user_disabled_at.is_some() {
        // A disabled merchant, or a user its owner disabled (or removed).
        audit_sign_in(&state.db.pool, account.user_id, action::LOGIN_REFUSED_DISABLED, with_code, address).await?;
        let detail = SecurityDetail::Failed { reason: FailureReason::Disabled };
        let event = sign_in_event(account.user_id, history::kind::SIGN_IN_FAILED, detail, address, user_agent);
        history::record(&state.db.pool, &event).await?;
        let message = if disabled_at.is_some() { AdminMessage::MerchantDisabled } else { AdminMessage::UserDisabled };
        return Err(AppError::Forbidden(message.into()));
    }
    // The session, the sign-in's known address and its audit record commit together: no
    // session without its record in the trail.
    let mut transaction = state.db.pool.begin().await?;
    let (session, ended) =
        create_session(&mut transaction, &state.config.session, account.user_id, address, user_agent).await?;
    if let Ok(ip) = address.parse::<std::net::IpAddr>() {
        throttle::remember_address(&mut *transaction, account.user_id, &throttle::address_key(ip)).await?;
    }
    audit_sign_in(&mut *transaction, account.user_id, action::LOGIN, with_code, address).await?;
    let event = sign_in_event(
        account.user_id,
        history::kind::SIGN_IN,
        SecurityDetail::SignIn { with_code },
        address,
        user_agent,
    );
    history::record(&mut *transaction, &event).await?;
    transaction.commit().await?;
    // Only when older sessions were ended: a sign-in that ends none must not make every
    // other caller read its session from the database again.
    if ended > 0 {
        state.sessions.forget_all();
    }
    // What the console's first page needs beside the session comes with it: asked for
    // separately, it was a round trip between the sign-in answer and that page's drawing.
    let user = crate::identity::users::own_user_info(state, account.user_id).await?;
    Ok(LoginResponse {
        token: session.token,
        loginfo: LoginInfo {
            user_id: account.user_id,
            username: account.username,
            role: account.role,
            mid: account.merchant_id,
            must_change_password: user.must_change_password,
        },
        expires_at: crate::platform::db::millis_to_rfc3339(session.expires_at),
        user,
        system: SystemInfo::of(state),
    })
}

/// Checked credentials, ready to look up.
struct Credentials {
    username: String,
    password: String,
}

impl Credentials {
    fn parse(request: LoginRequest) -> Result<Self, AppError> {
        let username = request.username.unwrap_or_default().trim().to_string();
        let password = request.password.unwrap_or_default();
        let mut errors = Vec::new();
        if username.is_empty() {
            errors.push(FieldError::new("username", Message::UsernameRequired));
        } else if username.chars().count() > MAX_USERNAME_LENGTH {
            errors.push(FieldError::new("username", Message::UsernameTooLong { max: MAX_USERNAME_LENGTH }));
        }
        if password.is_empty() {
            errors.push(FieldError::new("password", Message::PasswordRequired));
        } else if password.chars().count() > MAX_PASSWORD_LENGTH {
            // Never hash unbounded input: argon2's cost grows with it.
            errors.push(FieldError::new("password", Message::PasswordTooLong { max: MAX_PASSWORD_LENGTH }));
        }
        if errors.is_empty() { Ok(Self { username, password }) } else { Err(AppError::Validation(errors)) }
    }
}

/// Sign in with username and password. With two-factor on, the answer is no session
/// but `{need_2fa: true, pending_token}` for verify2FA.
#[utoipa::path(
    post, path = "/adminapi/login/login", tag = "login",
    request_body = LoginRequest,
    responses(
        (status = 200, description = "Signed in: `data` is a LoginResponse, or a PendingLoginResponse when \
            two-factor is on", body = LoginOutcome),
        (status = 400, description = "40000: username or password empty, or malformed body"),
        (status = 401, description = "40100: account or password wrong"),
        (status = 429, description = "42900: too many failed attempts; `data.retry_after_seconds`"),
    )
)]
pub async fn login(
    State(state): State<AppState>,
    ClientAddress(client_address): ClientAddress,
    headers: HeaderMap,
    JsonBody(request): JsonBody<LoginRequest>,
) -> ApiResult<LoginOutcome> {
    let credentials = Credentials::parse(request)?;
    let address = client_address.to_string();
    let pool = &state.db.pool;
    let policy = &state.config.throttle;
    let address_key = throttle::address_key(client_address);
    let account = find_credentials(pool, &credentials.username).await?;
    // From an address the account signed in from lately, failures sprayed from elsewhere
    // do not lock the owner out: that address has a counter of its own.
    let known = match &account {
        Some(stored) => throttle::is_known_address(pool, stored.account.user_id, &address_key).await?,
        None => false,
    };
    let account_key = if known {
        throttle::known_address_account_key(&credentials.username, &address_key)
    } else {
        throttle::account_key(&credentials.username)
    };
    let keys = [account_key.clone(), address_key.clone()];
    // Failures name the account they were against (when it exists) as their target, so
    // the audit page shows every attempt on one account together.
    let tried_user = account.as_ref().map(|stored| stored.account.user_id);
    let tried = tried_user.map(audit::target::user).unwrap_or_default();
    if let Err(error) = throttle::ensure_not_locked(pool, &keys).await {
        if throttle::count_refusals(pool, &keys).await? {
            audit::record_on(pool, None, action::LOGIN_THROTTLED, &tried, &credentials.username, &address).await?;
        }
        return Err(error);
    }
    // Counted before the password is checked, so a parallel burst gets no more checks
    // than the limit; a success forgives it below.
    let reserved = throttle::reserve(pool, policy, &account_key, policy.account_max_failures).await?;

    let verified = state
        .hasher
        .verify(&credentials.password, account.as_ref().map(|account| account.password_hash.as_str()))
        .await?;
    let Some(StoredCredentials { account, .. }) = account.filter(|_| verified) else {
        let address_lock = throttle::record_failure(pool, policy, &address_key, policy.address_max_failures).await?;
        audit::record_on(pool, None, action::LOGIN_FAILED, &tried, &credentials.username, &address).await?;
        let locked_for = reserved.locked_for.max(address_lock.locked_for);
        // Only an account that exists has a history; attempts refused unchecked while
        // locked never reach here (the flood bound, `security_history`).
        if let Some(user_id) = tried_user {
            let reason = FailureReason::Password;
            let (kind, detail) = match locked_for {
                Some(retry_after_seconds) => {
                    (history::kind::SIGN_IN_LOCKED, SecurityDetail::Locked { reason, retry_after_seconds })
                }
                None => (history::kind::SIGN_IN_FAILED, SecurityDetail::Failed { reason }),
            };
            let agent = history::agent_of(&headers);
            history::record(pool, &sign_in_event(user_id, kind, detail, &address, agent)).await?;
        }
        return match locked_for {
            Some(retry_after_seconds) => Err(AppError::TooManyAttempts { retry_after_seconds }),
            None => Err(AppError::BadCredentials),
        };
    };

    throttle::clear(pool, &account_key).await?;
    if crate::identity::two_factor::store::enabled_at(pool, account.user_id).await?.is_some() {
        let pending = pending_login::create(&state, account.user_id, &address).await?;
        return Ok(ApiOk(LoginOutcome::TwoFactorRequired(pending)));
    }
    let signed_in = open_session(&state, account, &address, &headers, false).await?;
    Ok(ApiOk(LoginOutcome::SignedIn(Box::new(signed_in))))
}

/// Sign out: the session is revoked on the server. Signing out is idempotent, so an
/// already ended or unknown token also gets success.
#[utoipa::path(
    post, path = "/adminapi/login/logout", tag = "login",
    responses((status = 200, description = "Signed out; `data` is null"))
)]
pub async fn logout(
    State(state): State<AppState>,
    ClientAddress(client_address): ClientAddress,
    headers: HeaderMap,
) -> ApiResult<()> {
    // Headers that disagree still name sessions the caller holds: end both.
    let tokens: Vec<String> = match presented_token(&headers) {
        Ok(token) => token.into_iter().collect(),
        Err(_) => bearer_and_token_header(&headers),
    };
    for token in tokens.iter().filter(|token| token::is_well_formed(token)) {
        let mut transaction = state.db.begin_write().await?;
        let ended = revoke_session(&mut transaction, token, revoke_reason::LOGOUT).await?;
        if let Some(user_id) = ended {
            audit::record(&mut *transaction, Some(user_id), action::LOGOUT, "", &client_address.to_string()).await?;
        }
        transaction.commit().await?;
        if ended.is_some() {
            state.sessions.forget_all();
        }
    }
    Ok(ApiOk(()))
}

fn bearer_and_token_header(headers: &HeaderMap) -> Vec<String> {
    let bearer = headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|text| text.trim().split_once(' ').map(|(_, token)| token.trim().to_string()));
    let header_token = headers.get("token").and_then(|value| value.to_str().ok()).map(str::to_string);
    bearer.into_iter().chain(header_token).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(username: Option<&str>, password: Option<&str>) -> LoginRequest {
        LoginRequest { username: username.map(str::to_string), password: password.map(str::to_string) }
    }

    fn fields(error: AppError) -> Vec<(String, Message)> {
        match error {
            AppError::Validation(fields) => fields.into_iter().map(|field| (field.field, field.message)).collect(),
            other => panic!("expected validation, got {other:?}"),
        }
    }

    #[test]
    fn empty_fields_are_reported_in_order() {
        let errors = fields(Credentials::parse(request(None, None)).err().unwrap());
        assert_eq!(
            errors,
            vec![
                ("username".to_string(), Message::UsernameRequired),
                ("password".to_string(), Message::PasswordRequired)
            ]
        );
        let errors = fields(Credentials::parse(request(Some("   "), Some("x"))).err().unwrap());
        assert_eq!(errors, vec![("username".to_string(), Message::UsernameRequired)]);
    }

    #[test]
    fn oversized_input_is_refused_before_hashing() {
        let long_password = "A1a".repeat(100);
        let errors = fields(Credentials::parse(request(Some("admin"), Some(&long_password))).err().unwrap());
        assert_eq!(errors[0].0, "password");
        let long_name = "n".repeat(65);
        assert_eq!(fields(Credentials::parse(request(Some(&long_name), Some("x"))).err().unwrap())[0].0, "username");
    }

    #[test]
    fn usernames_are_trimmed_passwords_are_not() {
        let credentials = Credentials::parse(request(Some(" admin "), Some(" Admin123 "))).unwrap();
        assert_eq!(credentials.username, "admin");
        assert_eq!(credentials.password, " Admin123 ");
    }
}
