//! The response envelope `{code, msg, data}` and the one error type every handler returns.
//!
//! Errors carry a [`Message`] rather than a string so that the locale middleware
//! ([`localize_error_responses`]) can render them in the language of the request.
//! Internal errors are logged with their cause and shown only as a generic message.

use crate::i18n::{Locale, Message};
use axum::{
    Json,
    extract::Request,
    http::{HeaderValue, StatusCode, header},
    middleware::Next,
    response::{IntoResponse, Response},
};
use serde::Serialize;
use serde_json::{Value, json};
use std::sync::Arc;

/// Business codes. The catalogue with meanings is `docs/api.md`; keep both in step.
pub mod code {
    pub const SUCCESS: i64 = 20000;
    pub const VALIDATION_FAILED: i64 = 40000;
    pub const BAD_CREDENTIALS: i64 = 40100;
    /// A two-factor code (authenticator or backup) is wrong, malformed or already used.
    pub const TWO_FACTOR_CODE_WRONG: i64 = 40110;
    /// The `pending_token` of a two-step sign-in is unknown, expired, used or outdated.
    pub const PENDING_LOGIN_INVALID: i64 = 40120;
    /// The balance plus credit does not cover the order.
    pub const INSUFFICIENT_FUNDS: i64 = 40200;
    pub const PERMISSION_DENIED: i64 = 40300;
    pub const NOT_FOUND: i64 = 40400;
    /// The path exists, the method does not (405 with `Allow`).
    pub const METHOD_NOT_ALLOWED: i64 = 40500;
    /// The request does not fit the current state: two-factor already on, not on, the
    /// setup's `temp_key` no longer valid, a duplicate merchant order id, an order that
    /// has already finished, ...
    pub const CONFLICT: i64 = 40900;
    /// An `Idempotency-Key` sent again with a different request (body or endpoint).
    pub const IDEMPOTENCY_KEY_REUSED: i64 = 42200;
    pub const TOO_MANY_ATTEMPTS: i64 = 42900;
    /// Open API (`/openapi/v1`) refusals, one code each (docs/merchant-api.md).
    pub const API_HEADER_INVALID: i64 = 40130;
    pub const API_KEY_UNKNOWN: i64 = 40131;
    pub const API_TIMESTAMP_SKEWED: i64 = 40132;
    pub const API_NONCE_REPLAYED: i64 = 40133;
    pub const API_SIGNATURE_WRONG: i64 = 40134;
    /// A legacy MD5 call with a key that is not switched to legacy signing.
    pub const API_LEGACY_NOT_ENABLED: i64 = 40135;
    pub const API_WHITELIST_EMPTY: i64 = 40330;
    /// A money action by an administrator with two-factor on whose session has not
    /// confirmed with a code in the last 5 minutes (`/adminapi/admin/stepUp/confirm`).
    pub const STEP_UP_REQUIRED: i64 = 40340;
    /// The merchant requires two-factor of every user and the caller has not turned it on:
    /// every call but the set-up's, userInfo, system/info, the menu and sign-out.
    pub const TWO_FACTOR_REQUIRED: i64 = 40341;
    pub const API_ADDRESS_NOT_WHITELISTED: i64 = 40331;
    pub const API_MERCHANT_DISABLED: i64 = 40332;
    pub const API_ORDER_ID_REUSED: i64 = 40930;
    /// Risk controls at placement (`domain::risk`), one code each, console and open API alike:
    /// the number has an unfinished order, the number's orders or amount today, the
    /// merchant's amount today.
    pub const RISK_NUMBER_IN_FLIGHT: i64 = 40940;
    pub const RISK_NUMBER_DAILY_ORDERS: i64 = 40941;
    pub const RISK_NUMBER_DAILY_AMOUNT: i64 = 40942;
    pub const RISK_MERCHANT_DAILY_CAP: i64 = 40943;
    pub const API_RATE_LIMITED: i64 = 42930;
    pub const GENERIC_FAILURE: i64 = 50000;
    /// An upstream supplier gave no usable answer to a request an administrator made
    /// (a channel's statement: unreachable, refused, too large, badly signed, malformed).
    pub const UPSTREAM_FAILED: i64 = 50200;
    pub const TOKEN_UNKNOWN: i64 = 50008;
    pub const SESSION_ENDED: i64 = 50012;
    pub const TOKEN_EXPIRED: i64 = 50014;
    /// The database cannot take calls now (`/readyz`: unreachable, read-only or lacking a
    /// migration this build needs; any other call: a failover under way, retry shortly).
    pub const NOT_READY: i64 = 50300;
}

/// A successful answer: `{code: 20000, msg: "Success", data}`.
pub struct ApiOk<T>(pub T);

/// The envelope as written: `data` serialized straight into the answer. Through a JSON value
/// every object became a map built key by key, the largest cost of a list page; objects now
/// keep their fields' declared order (the value had sorted them).
#[derive(Serialize)]
struct Envelope<T> {
    code: i64,
    data: T,
    msg: std::borrow::Cow<'static, str>,
}

impl<T: Serialize> IntoResponse for ApiOk<T> {
    fn into_response(self) -> Response {
        Json(Envelope { code: code::SUCCESS, data: self.0, msg: Message::Success.text(Locale::EnUs) }).into_response()
    }
}

pub type ApiResult<T> = Result<ApiOk<T>, AppError>;

/// One invalid input field and why.
#[derive(Debug, Clone)]
pub struct FieldError {
    pub field: String,
    pub message: Message,
}

impl FieldError {
    pub fn new(field: impl Into<String>, message: Message) -> Self {
        Self { field: field.into(), message }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("validation failed")]
    Validation(Vec<FieldError>),
    /// Validation by a rule the OpenAPI document cannot state (a check digit, a relation
    /// between fields, a field required for one role only): still 40000 naming the fields,
    /// but 422, so 400 always means "does not match the document".
    #[error("validation failed beyond the schema")]
    Unprocessable(Vec<FieldError>),
    #[error("malformed request body")]
    MalformedBody,
    #[error("bad credentials")]
    BadCredentials,
    #[error("permission denied")]
    PermissionDenied,
    /// Refused for a reason the caller can act on (40300 with its own message): a disabled
    /// merchant signing in or ordering, a temporary password not yet changed.
    #[error("forbidden: {0:?}")]
    Forbidden(Message),
    #[error("not found")]
    NotFound,
    /// A money action needs a fresh two-factor confirmation of this session (step-up).
    #[error("step-up required")]
    StepUpRequired,
    /// The merchant requires two-factor and the caller has not set it up.
    #[error("two-factor required")]
    TwoFactorRequired,
    /// A known path called with a method it does not take; the router adds `Allow`.
    #[error("method not allowed")]
    MethodNotAllowed,
    /// A two-factor code refused; the message is the endpoint's one answer for it.
    #[error("two-factor code wrong")]
    TwoFactorCodeWrong(Message),
    #[error("pending sign-in invalid")]
    PendingLoginInvalid,
    #[error("insufficient funds")]
    InsufficientFunds,
    /// The request is well-formed but the state does not allow it (two-factor already on,
    /// a duplicate merchant order id, an order that has already finished, ...).
    #[error("conflict: {0:?}")]
    Conflict(Message),
    /// A well-formed value refused for a reason outside the request's shape, named like a
    /// validation error (`data.fields`) so forms show it under the field, but with the
    /// status of its reason: 40900 for what the current state does not allow (a repayment
    /// above the credit in use), 40300 for a wrong current password. A request the
    /// OpenAPI document calls valid is never answered 400.
    #[error("refused on a field: {field:?}")]
    RefusedOn { status: StatusCode, code: i64, field: FieldError },
    #[error("idempotency key reused with a different request")]
    IdempotencyKeyReused,
    #[error("too many attempts")]
    TooManyAttempts { retry_after_seconds: u64 },
    #[error("session token unknown or malformed")]
    TokenUnknown,
    #[error("session token headers disagree")]
    TokenConflict,
    #[error("session ended")]
    SessionEnded,
    /// The session was ended for a reason the user should read (50012 with that message):
    /// its merchant was disabled.
    #[error("session ended: {0:?}")]
    SessionEndedBecause(Message),
    #[error("session expired")]
    TokenExpired,
    /// A refusal with its own code (the open API's): status, code and message as given.
    #[error("refused: {code}")]
    Refused { status: StatusCode, code: i64, message: Message, retry_after_seconds: Option<u64> },
    /// The database could not take the call, or a commit's outcome is unknown (its
    /// connection died during COMMIT): 503, retry with the same key (`super::unavailable`).
    #[error("database unavailable")]
    DatabaseUnavailable,
    #[error("internal error: {0:#}")]
    Internal(#[from] anyhow::Error),
    /// An internal error shown with the operation's own failure message (still 50000).
    #[error("operation failed: {cause:#}")]
    OperationFailed { message: Message, cause: anyhow::Error },
}

impl AppError {
    pub fn field(field: &str, message: impl Into<Message>) -> Self {
        AppError::Validation(vec![FieldError::new(field, message.into())])
    }

    /// A multipart form that cannot be read: 40000 on `body` (it does not match the document).
    pub fn malformed_form() -> Self {
        AppError::Validation(vec![FieldError::new("body", Message::MalformedForm)])
    }

    /// A field refused by a rule beyond the document's schema (see `Unprocessable`).
    pub fn unprocessable(field: &str, message: impl Into<Message>) -> Self {
        AppError::Unprocessable(vec![FieldError::new(field, message.into())])
    }

    pub fn conflict_on(field: &str, message: impl Into<Message>) -> Self {
        let field = FieldError::new(field, message.into());
        AppError::RefusedOn { status: StatusCode::CONFLICT, code: code::CONFLICT, field }
    }

    /// The re-authentication a sensitive call asks for failed (wrong current password).
    pub fn forbidden_on(field: &str, message: impl Into<Message>) -> Self {
        let field = FieldError::new(field, message.into());
        AppError::RefusedOn { status: StatusCode::FORBIDDEN, code: code::PERMISSION_DENIED, field }
    }

    /// Names the operation that failed when this is an internal error, so the client
    /// shows, say, 'Failed to get two-factor authentication status' instead of a
    /// generic text. Other errors are left as they are.
    pub fn internal_as(self, message: Message) -> Self {
        match self {
            AppError::Internal(cause) => AppError::OperationFailed { message, cause },
            other => other,
        }
    }
}

impl From<sqlx::Error> for AppError {
    fn from(error: sqlx::Error) -> Self {
        AppError::Internal(error.into())
    }
}

/// What an error response says, kept in the response extensions so the locale
/// middleware can render the body again in the request's language.
#[derive(Debug, Clone)]
pub struct ErrorReport {
    pub code: i64,
    pub message: Message,
    pub fields: Vec<FieldError>,
    pub retry_after_seconds: Option<u64>,
}

impl ErrorReport {
    pub fn body(&self, locale: Locale) -> Value {
        let data = if !self.fields.is_empty() {
            let fields: serde_json::Map<String, Value> = self
                .fields
                .iter()
                .map(|field| (field.field.clone(), Value::String(field.message.text(locale).into())))
                .collect();
            let keys: serde_json::Map<String, Value> = self
                .fields
                .iter()
                .map(|field| (field.field.clone(), Value::String(field.message.key().into())))
                .collect();
            json!({ "fields": fields, "keys": keys })
        } else if let Some(seconds) = self.retry_after_seconds {
            json!({ "retry_after_seconds": seconds })
        } else {
            Value::Null
        };
        json!({ "code": self.code, "msg": self.message.text(locale), "data": data })
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let (status, report) = match self {
            AppError::Validation(fields) => {
                let message = fields.first().map(|field| field.message.clone()).unwrap_or(Message::MalformedBody);
                (
                    StatusCode::BAD_REQUEST,
                    ErrorReport { code: code::VALIDATION_FAILED, message, fields, retry_after_seconds: None },
                )
            }
            AppError::Unprocessable(fields) => {
                let message = fields.first().map(|field| field.message.clone()).unwrap_or(Message::MalformedBody);
                (
                    StatusCode::UNPROCESSABLE_ENTITY,
                    ErrorReport { code: code::VALIDATION_FAILED, message, fields, retry_after_seconds: None },
                )
            }
            AppError::MalformedBody => {
                (StatusCode::BAD_REQUEST, report(code::VALIDATION_FAILED, Message::MalformedBody))
            }
            AppError::BadCredentials => {
                (StatusCode::UNAUTHORIZED, report(code::BAD_CREDENTIALS, Message::AccountOrPasswordWrong))
            }
            AppError::PermissionDenied => {
                (StatusCode::FORBIDDEN, report(code::PERMISSION_DENIED, Message::PermissionDenied))
            }
            AppError::Forbidden(message) => (StatusCode::FORBIDDEN, report(code::PERMISSION_DENIED, message)),
            AppError::NotFound => (StatusCode::NOT_FOUND, report(code::NOT_FOUND, Message::NotFound)),
            AppError::StepUpRequired => (
                StatusCode::FORBIDDEN,
                report(code::STEP_UP_REQUIRED, crate::i18n::AdminMessage::StepUpRequired.into()),
            ),
            AppError::TwoFactorRequired => (
                StatusCode::FORBIDDEN,
                report(code::TWO_FACTOR_REQUIRED, crate::i18n::AdminMessage::TwoFactorRequired.into()),
            ),
            AppError::MethodNotAllowed => {
                (StatusCode::METHOD_NOT_ALLOWED, report(code::METHOD_NOT_ALLOWED, Message::MethodNotAllowed))
            }
            AppError::TwoFactorCodeWrong(message) => {
                (StatusCode::UNAUTHORIZED, report(code::TWO_FACTOR_CODE_WRONG, message))
            }
            AppError::PendingLoginInvalid => {
                (StatusCode::UNAUTHORIZED, report(code::PENDING_LOGIN_INVALID, Message::PendingLoginInvalid))
            }
            AppError::InsufficientFunds => (
                StatusCode::PAYMENT_REQUIRED,
                report(code::INSUFFICIENT_FUNDS, crate::i18n::TradeMessage::InsufficientFunds.into()),
            ),
            AppError::Conflict(message) => (StatusCode::CONFLICT, report(code::CONFLICT, message)),
            AppError::RefusedOn { status, code, field } => (
                status,
                ErrorReport { code, message: field.message.clone(), fields: vec![field], retry_after_seconds: None },
            ),
            AppError::IdempotencyKeyReused => {
                (StatusCode::UNPROCESSABLE_ENTITY, report(code::IDEMPOTENCY_KEY_REUSED, Message::IdempotencyKeyReused))
            }
            AppError::TooManyAttempts { retry_after_seconds } => (
                StatusCode::TOO_MANY_REQUESTS,
                ErrorReport {
                    code: code::TOO_MANY_ATTEMPTS,
                    message: Message::TooManyAttempts { retry_after_seconds },
                    fields: Vec::new(),
                    retry_after_seconds: Some(retry_after_seconds),
                },
            ),
            AppError::TokenUnknown => (StatusCode::UNAUTHORIZED, report(code::TOKEN_UNKNOWN, Message::TokenUnknown)),
            AppError::TokenConflict => (StatusCode::UNAUTHORIZED, report(code::TOKEN_UNKNOWN, Message::TokenConflict)),
            AppError::SessionEnded => (StatusCode::UNAUTHORIZED, report(code::SESSION_ENDED, Message::SessionEnded)),
            AppError::SessionEndedBecause(message) => (StatusCode::UNAUTHORIZED, report(code::SESSION_ENDED, message)),
            AppError::TokenExpired => (StatusCode::UNAUTHORIZED, report(code::TOKEN_EXPIRED, Message::TokenExpired)),
            AppError::Refused { status, code, message, retry_after_seconds } => {
                (status, ErrorReport { code, message, fields: Vec::new(), retry_after_seconds })
            }
            AppError::DatabaseUnavailable => (StatusCode::SERVICE_UNAVAILABLE, database_unavailable()),
            AppError::Internal(error) if super::unavailable::database_unavailable(&error) => {
                tracing::warn!(error = %format!("{error:#}"), "database unavailable");
                (StatusCode::SERVICE_UNAVAILABLE, database_unavailable())
            }
            AppError::OperationFailed { cause, .. } if super::unavailable::database_unavailable(&cause) => {
                tracing::warn!(error = %format!("{cause:#}"), "database unavailable");
                (StatusCode::SERVICE_UNAVAILABLE, database_unavailable())
            }
            AppError::Internal(error) => {
                // The cause goes to the log (with the request id from the tracing span),
                // never to the client.
                tracing::error!(error = %format!("{error:#}"), "internal error");
                (StatusCode::INTERNAL_SERVER_ERROR, report(code::GENERIC_FAILURE, Message::InternalError))
            }
            AppError::OperationFailed { message, cause } => {
                tracing::error!(error = %format!("{cause:#}"), operation = message.key(), "internal error");
                (StatusCode::INTERNAL_SERVER_ERROR, report(code::GENERIC_FAILURE, message))
            }
        };
        error_response(status, report)
    }
}

/// A call the database could not take now: retry after a moment (`super::unavailable`).
fn database_unavailable() -> ErrorReport {
    ErrorReport {
        code: code::NOT_READY,
        message: Message::DatabaseUnavailable,
        fields: Vec::new(),
        retry_after_seconds: Some(super::unavailable::RETRY_AFTER_SECONDS),
    }
}

fn report(code: i64, message: Message) -> ErrorReport {
    ErrorReport { code, message, fields: Vec::new(), retry_after_seconds: None }
}

/// Builds an error response in the default locale and remembers the report.
pub fn error_response(status: StatusCode, report: ErrorReport) -> Response {
    let mut response = (status, Json(report.body(Locale::EnUs))).into_response();
    if let Some(value) = report.retry_after_seconds.and_then(|seconds| HeaderValue::from_str(&seconds.to_string()).ok())
    {
        response.headers_mut().insert(header::RETRY_AFTER, value);
    }
    response.extensions_mut().insert(Arc::new(report));
    response
}

/// Renders error bodies again when the request asked for another language.
pub async fn localize_error_responses(request: Request, next: Next) -> Response {
    let locale = Locale::from_headers(request.headers());
    let response = next.run(request).await;
    if locale == Locale::EnUs {
        return response;
    }
    let Some(report) = response.extensions().get::<Arc<ErrorReport>>().cloned() else {
        return response;
    };
    let (mut parts, _) = response.into_parts();
    parts.headers.remove(header::CONTENT_LENGTH);
    let body = serde_json::to_vec(&report.body(locale)).unwrap_or_default();
    Response::from_parts(parts, axum::body::Body::from(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_report_lists_every_field_and_leads_with_the_first() {
        let report = ErrorReport {
            code: code::VALIDATION_FAILED,
            message: Message::UsernameRequired,
            fields: vec![
                FieldError::new("username", Message::UsernameRequired),
                FieldError::new("password", Message::PasswordRequired),
            ],
            retry_after_seconds: None,
        };
        let body = report.body(Locale::ZhCn);
        assert_eq!(body["code"], 40000);
        assert_eq!(body["msg"], "用户名不能为空");
        assert_eq!(body["data"]["fields"]["password"], "密码不能为空");
        assert_eq!(body["data"]["keys"]["username"], "login.username.required");
    }

    #[test]
    fn two_factor_errors_have_their_own_codes() {
        let cases = [
            (
                AppError::TwoFactorCodeWrong(Message::TwoFactorCodeWrong),
                StatusCode::UNAUTHORIZED,
                code::TWO_FACTOR_CODE_WRONG,
            ),
            (AppError::PendingLoginInvalid, StatusCode::UNAUTHORIZED, code::PENDING_LOGIN_INVALID),
            (AppError::Conflict(Message::TwoFactorNotEnabled), StatusCode::CONFLICT, code::CONFLICT),
        ];
        for (error, status, expected) in cases {
            let response = error.into_response();
            assert_eq!(response.status(), status);
            assert_eq!(response.extensions().get::<Arc<ErrorReport>>().unwrap().code, expected);
        }
    }

    #[test]
    fn internal_errors_can_name_the_failed_operation() {
        let failed = AppError::Internal(anyhow::anyhow!("disk full")).internal_as(Message::TwoFactorStatusFailed);
        let response = failed.into_response();
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let report = response.extensions().get::<Arc<ErrorReport>>().unwrap().clone();
        assert_eq!((report.code, report.message.clone()), (code::GENERIC_FAILURE, Message::TwoFactorStatusFailed));
        // Errors that are not internal keep their own answer.
        let kept = AppError::NotFound.internal_as(Message::TwoFactorStatusFailed);
        assert!(matches!(kept, AppError::NotFound));
    }
}
