//! The gate of every `/openapi/v1` call, in this order: the four signature headers are
//! there and well-formed; the timestamp is within the window; the key is active; the
//! signature is right (constant time); the nonce is new (stored, so also across
//! restarts); the merchant is enabled; the caller's address is in its whitelist; the
//! merchant's rate is within its limit. A legacy MD5 call (`legacy.rs`) carries the same
//! four values as parameters instead of headers and passes the same checks. Refusals before the signature is known to be
//! right are not signed (there is no key to trust); every later answer is. The nonce of
//! `POST /orders` is checked and stored by the order's own transaction (`crate::http::replay`,
//! `orders::placement::run`), so for it a replay is refused after the merchant, whitelist and rate
//! checks rather than before.

use super::legacy;
use super::signature::{self, NONCE_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, TIMESTAMP_WINDOW_SECONDS};
use crate::http::error::{AppError, ErrorReport, code};
use crate::http::extract::ClientAddress;
use crate::http::replay::{self, NonceUse};
use crate::i18n::{Locale, OpenApiMessage};
use crate::identity::api_keys::store::{self, ActiveKey};
use crate::identity::recent::Recent;
use crate::platform::db::now_millis;
use crate::platform::forwarded::Network;
use crate::platform::state::AppState;
use axum::{
    Extension,
    body::Body,
    extract::{Request, State},
    http::{HeaderMap, HeaderValue, StatusCode},
    middleware::Next,
    response::{IntoResponse, Response},
};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// Request bodies of the open API are small JSON documents.
pub const MAX_BODY_BYTES: usize = 64 * 1024;
/// Answers are buffered to be signed; none comes near this.
const MAX_ANSWER_BYTES: usize = 4 * 1024 * 1024;
/// `last_used_at` of a key is written at most this often.
const LAST_USE_EVERY_MS: i64 = 10_000;

/// The verified caller, for the handlers.
#[derive(Debug, Clone)]
pub struct ApiCaller {
    pub merchant_id: i64,
    pub key_id: String,
    /// The key's secret: card secrets are encrypted to it.
    pub secret: String,
}

/// What the guard keeps in memory: each merchant's token bucket, when each key's use
/// was last written, when expired nonces were last swept.
pub struct GuardState {
    per_minute: u32,
    buckets: Mutex<HashMap<i64, (f64, i64)>>,
    last_use: Mutex<HashMap<String, i64>>,
    last_sweep: Mutex<i64>,
}

impl GuardState {
    pub fn new(per_minute: u32) -> Self {
        Self { per_minute, buckets: Mutex::default(), last_use: Mutex::default(), last_sweep: Mutex::new(0) }
    }

    /// Takes one call from the merchant's bucket, or says how long until there is one.
    fn take(&self, merchant_id: i64, now: i64) -> Result<(), u64> {
        if self.per_minute == 0 {
            return Ok(());
        }
        let capacity = f64::from(self.per_minute);
        let per_ms = capacity / 60_000.0;
        let mut buckets = self.buckets.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let (tokens, at) = buckets.entry(merchant_id).or_insert((capacity, now));
        *tokens = (*tokens + (now - *at).max(0) as f64 * per_ms).min(capacity);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            return Ok(());
        }
        Err((((1.0 - *tokens) / per_ms) / 1000.0).ceil().max(1.0) as u64)
    }

    fn use_is_due(&self, key_id: &str, now: i64) -> bool {
        let mut last_use = self.last_use.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        match last_use.get(key_id) {
            Some(at) if now - at < LAST_USE_EVERY_MS => false,
            _ => {
                last_use.insert(key_id.to_string(), now);
                true
            }
        }
    }

    fn sweep_is_due(&self, now: i64) -> bool {
        let mut last = self.last_sweep.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if now - *last < 60_000 {
            return false;
        }
        *last = now;
        true
    }
}

fn refused(status: StatusCode, code: i64, message: OpenApiMessage) -> AppError {
    AppError::Refused { status, code, message: message.into(), retry_after_seconds: None }
}

fn header<'a>(headers: &'a HeaderMap, name: &'static str, shown: &'static str) -> Result<&'a str, AppError> {
    headers.get(name).and_then(|value| value.to_str().ok()).map(str::trim).filter(|value| !value.is_empty()).ok_or_else(
        || refused(StatusCode::UNAUTHORIZED, code::API_HEADER_INVALID, OpenApiMessage::HeaderInvalid { header: shown }),
    )
}

/// The headers as sent, checked for form.
struct Presented {
    key_id: String,
    timestamp: String,
    nonce: String,
    signature: String,
}

fn presented(headers: &HeaderMap) -> Result<Presented, AppError> {
    let invalid = |shown| {
        refused(StatusCode::UNAUTHORIZED, code::API_HEADER_INVALID, OpenApiMessage::HeaderInvalid { header: shown })
    };
    let key_id = header(headers, signature::KEY_ID_HEADER, "X-Key-Id")?;
    if key_id.len() > 64 {
        return Err(invalid("X-Key-Id"));
    }
    let timestamp = header(headers, TIMESTAMP_HEADER, "X-Timestamp")?;
    signature::parse_timestamp(timestamp).ok_or_else(|| invalid("X-Timestamp"))?;
    let nonce = header(headers, NONCE_HEADER, "X-Nonce")?;
    if !signature::is_valid_nonce(nonce) {
        return Err(invalid("X-Nonce"));
    }
    let signature = header(headers, SIGNATURE_HEADER, "X-Signature")?;
    if signature.len() != 64 || !signature.bytes().all(|byte| byte.is_ascii_hexdigit()) {
        return Err(invalid("X-Signature"));
    }
    Ok(Presented {
        key_id: key_id.to_string(),
        timestamp: timestamp.to_string(),
        nonce: nonce.to_string(),
        signature: signature.to_string(),
    })
}

/// A merchant's whitelist as the guard checks it: the networks its entries name, read once
/// with the key; `saved` says whether any entry was saved at all (an empty whitelist refuses
/// every call, with its own code).
struct Whitelist {
    saved: bool,
    networks: Vec<Network>,
}

impl Whitelist {
    fn parse(entries: &[String]) -> Self {
        let networks = entries.iter().filter_map(|entry| entry.parse::<Network>().ok()).collect();
        Self { saved: !entries.is_empty(), networks }
    }

    /// Whether `address` is in it (addresses or CIDR networks).
    fn admits(&self, address: IpAddr) -> bool {
        self.networks.iter().any(|network| network.contains(address))
    }
}

/// The middleware: checks the call, runs the handler with an [`ApiCaller`], signs the answer.
pub async fn check(
    State(state): State<AppState>,
    Extension(guard): Extension<Arc<GuardState>>,
    ClientAddress(address): ClientAddress,
    request: Request,
    next: Next,
) -> Response {
    let locale = Locale::from_headers(request.headers());
    match admit(&state, &guard, address, request).await {
        Err(Refusal { error, signing: None }) => error.into_response(),
        Err(Refusal { error, signing: Some((secret, nonce)) }) => {
            sign_answer(error.into_response(), &secret, &nonce, locale).await
        }
        Ok((request, caller, nonce)) => {
            let secret = caller.secret.clone();
            let deferred = request.extensions().get::<replay::Deferred>().cloned();
            let mut response = next.run(request).await;
            if let Some(deferred) = deferred.filter(|deferred| !deferred.is_written()) {
                // The call placed nothing, so its nonce is stored now: a replay of a refused
                // order must not place it later.
                response = match replay::record(state.db.writer(), &deferred.nonce).await {
                    Ok(true) => response,
                    Ok(false) => replay::refused().into_response(),
                    Err(error) => AppError::from(error).into_response(),
                };
            }
            sign_answer(response, &secret, &nonce, locale).await
        }
    }
}

/// The call whose nonce is stored in its own transaction (see `crate::http::replay`).
fn defers_nonce(parts: &axum::http::request::Parts) -> bool {
    parts.method == axum::http::Method::POST && parts.uri.path() == "/openapi/v1/orders"
}

async fn admit(
    state: &AppState,
    guard: &GuardState,
    address: IpAddr,
    request: Request,
) -> Result<(Request, ApiCaller, String), Refusal> {
    let (parts, body) = request.into_parts();
    let bytes = axum::body::to_bytes(body, MAX_BODY_BYTES).await.map_err(|_| AppError::MalformedBody)?;
    // A call without X-Signature whose parameters carry `sign` is a legacy MD5 call.
    let legacy = match parts.headers.contains_key(SIGNATURE_HEADER) {
        true => None,
        false => legacy::presented(parts.uri.query(), &bytes).map_err(|param| {
            refused(StatusCode::UNAUTHORIZED, code::API_HEADER_INVALID, OpenApiMessage::LegacyParamInvalid { param })
        })?,
    };
    let presented = match &legacy {
        Some(call) => Presented {
            key_id: call.key_id.clone(),
            timestamp: call.timestamp.clone(),
            nonce: call.nonce.clone(),
            signature: call.sign.clone(),
        },
        None => presented(&parts.headers)?,
    };
    let now = now_millis();
    let timestamp = signature::parse_timestamp(&presented.timestamp).unwrap_or_default();
    if (timestamp - now / 1000).unsigned_abs() > TIMESTAMP_WINDOW_SECONDS {
        let message =
            OpenApiMessage::TimestampSkewed { server_time: now / 1000, window_seconds: TIMESTAMP_WINDOW_SECONDS };
        return Err(refused(StatusCode::UNAUTHORIZED, code::API_TIMESTAMP_SKEWED, message).into());
    }
    let CheckedKey { key, whitelist } = checked_key(state, &presented.key_id, now)
        .await?
        .ok_or_else(|| refused(StatusCode::UNAUTHORIZED, code::API_KEY_UNKNOWN, OpenApiMessage::KeyUnknown))?;
    match &legacy {
        Some(_) if !key.legacy_md5 => {
            let message = OpenApiMessage::LegacyNotEnabled;
            return Err(refused(StatusCode::UNAUTHORIZED, code::API_LEGACY_NOT_ENABLED, message).into());
        }
        Some(call) if !legacy::verify(&call.params, &key.secret, &call.sign) => {
            let message = OpenApiMessage::LegacySignatureWrong;
            return Err(refused(StatusCode::UNAUTHORIZED, code::API_SIGNATURE_WRONG, message).into());
        }
        Some(_) => {}
        None => {
            let path = parts.uri.path_and_query().map_or_else(|| parts.uri.path(), |path| path.as_str());
            let text =
                signature::request_string(parts.method.as_str(), path, &presented.timestamp, &presented.nonce, &bytes);
            if !signature::verify(&key.secret, &text, &presented.signature) {
                let message = OpenApiMessage::SignatureWrong;
                return Err(refused(StatusCode::UNAUTHORIZED, code::API_SIGNATURE_WRONG, message).into());
            }
        }
    }
    // From here on the caller holds the secret: answers are signed, refusals too.
    let defer = defers_nonce(&parts);
    let deferred = admit_signed(state, guard, address, &presented, &key, &whitelist, now, defer)
        .await
        .map_err(|error| Refusal { error, signing: Some((key.secret.clone(), presented.nonce.clone())) })?;
    let caller =
        ApiCaller { merchant_id: key.merchant_id, key_id: presented.key_id.clone(), secret: key.secret.clone() };
    let mut request = Request::from_parts(parts, Body::from(bytes));
    request.extensions_mut().insert(caller.clone());
    if let Some(deferred) = deferred {
        request.extensions_mut().insert(deferred);
    }
    Ok((request, caller, presented.nonce))
}

/// A key as the guard checks it, with its merchant's whitelist.
#[derive(Clone)]
pub struct CheckedKey {
    key: Arc<ActiveKey>,
    whitelist: Arc<Whitelist>,
}

/// Keys read in the last second (`crate::identity::recent`): a busy caller's key, merchant state and
/// whitelist are read once a second, not on every call. A key revoked, a whitelist saved or
/// a merchant disabled here is seen at once (those writes move the sessions' generation);
/// by another server on the same database, within a second.
impl crate::platform::held::Holds for crate::platform::held::RecentKeys {
    type Value = Recent<String, CheckedKey>;
}

async fn checked_key(state: &AppState, key_id: &str, now: i64) -> Result<Option<CheckedKey>, AppError> {
    let recent = &state.recent_keys;
    let generation = state.sessions.generation();
    if let Some(checked) = recent.get(key_id, generation, now) {
        return Ok(Some(checked));
    }
    let pool = &state.db.pool;
    let Some(key) = store::find_active(pool, &state.secrets, key_id).await? else { return Ok(None) };
    let whitelist = store::whitelist(pool, key.merchant_id).await?;
    let checked = CheckedKey { key: Arc::new(key), whitelist: Arc::new(Whitelist::parse(&whitelist)) };
    recent.put(key_id.to_string(), checked.clone(), generation, now);
    Ok(Some(checked))
}

/// The checks after the signature: nonce, merchant state, whitelist, rate. With `defer`,
/// the nonce is only checked here and handed to the handler to store.
#[allow(clippy::too_many_arguments)]
async fn admit_signed(
    state: &AppState,
    guard: &GuardState,
    address: IpAddr,
    presented: &Presented,
    key: &ActiveKey,
    whitelist: &Whitelist,
    now: i64,
    defer: bool,
) -> Result<Option<replay::Deferred>, AppError> {
    // Its writes go through the write connection (`Database::writer`).
    let pool = state.db.writer();
    if guard.sweep_is_due(now) {
        replay::sweep(pool, now).await?;
    }
    // Kept past the window either side of the timestamp: a replay after that is refused
    // for its timestamp.
    let expires_at = now + 2 * 1000 * TIMESTAMP_WINDOW_SECONDS as i64;
    let nonce = NonceUse { key_id: presented.key_id.clone(), nonce: presented.nonce.clone(), expires_at };
    // A deferred nonce is checked by the order's transaction.
    if !defer && !replay::record(pool, &nonce).await? {
        return Err(replay::refused());
    }
    if key.merchant_disabled {
        return Err(refused(StatusCode::FORBIDDEN, code::API_MERCHANT_DISABLED, OpenApiMessage::MerchantDisabled));
    }
    if !whitelist.saved {
        return Err(refused(StatusCode::FORBIDDEN, code::API_WHITELIST_EMPTY, OpenApiMessage::WhitelistEmpty));
    }
    if !whitelist.admits(address) {
        let message = OpenApiMessage::AddressNotWhitelisted { address: address.to_string() };
        return Err(refused(StatusCode::FORBIDDEN, code::API_ADDRESS_NOT_WHITELISTED, message));
    }
    if let Err(retry_after_seconds) = guard.take(key.merchant_id, now) {
        return Err(AppError::Refused {
            status: StatusCode::TOO_MANY_REQUESTS,
            code: code::API_RATE_LIMITED,
            message: OpenApiMessage::RateLimited { retry_after_seconds }.into(),
            retry_after_seconds: Some(retry_after_seconds),
        });
    }
    if guard.use_is_due(&presented.key_id, now) {
        store::record_use(pool, &presented.key_id, &address.to_string(), now).await?;
    }
    Ok(defer.then(|| replay::Deferred::new(nonce)))
}

/// Why a call was refused, and with what to sign the answer once the caller is known.
pub struct Refusal {
    error: AppError,
    signing: Option<(String, String)>,
}

impl<E: Into<AppError>> From<E> for Refusal {
    fn from(error: E) -> Self {
        Self { error: error.into(), signing: None }
    }
}

/// Renders error bodies in the caller's language here (the outer locale middleware
/// must not rewrite a signed body), then signs status, time, nonce and body.
pub async fn sign_answer(response: Response, secret: &str, nonce: &str, locale: Locale) -> Response {
    let (mut parts, body) = response.into_parts();
    let bytes = match parts.extensions.remove::<Arc<ErrorReport>>() {
        Some(report) => {
            parts.headers.remove(axum::http::header::CONTENT_LENGTH);
            axum::body::Bytes::from(serde_json::to_vec(&report.body(locale)).unwrap_or_default())
        }
        None => match axum::body::to_bytes(body, MAX_ANSWER_BYTES).await {
            Ok(bytes) => bytes,
            Err(error) => {
                tracing::error!(%error, "open API answer could not be read to sign");
                return AppError::Internal(anyhow::anyhow!("answer unreadable")).into_response();
            }
        },
    };
    let timestamp = (now_millis() / 1000).to_string();
    let text = signature::response_string(parts.status.as_u16(), &timestamp, nonce, &bytes);
    let signed = signature::sign(secret, &text);
    for (name, value) in [(TIMESTAMP_HEADER, timestamp.as_str()), (NONCE_HEADER, nonce), (SIGNATURE_HEADER, &signed)] {
        if let Ok(value) = HeaderValue::from_str(value) {
            parts.headers.insert(name, value);
        }
    }
    Response::from_parts(parts, Body::from(bytes))
}
