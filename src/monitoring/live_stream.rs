//! `/adminapi/monitor/stream`: the live figures as Server-Sent Events, administrators only.
//! Apart from `platform/live/` so that `state` can hold the figures without a circle through the handlers.
//!
//! A browser's `EventSource` cannot send headers, and a session token in a URL ends up in
//! proxy logs and history. So the console first asks for a stream ticket (POST, with its
//! session as usual): a signed note "session N until T", valid for a minute, good only
//! for opening this stream. Other clients may send their session token in the headers.
//! Either way, the stream re-checks its session every few seconds and ends when the
//! session has ended (revoked, expired, or the user is no longer an administrator).

use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::identity::session::{AdminUser, duration_millis};
use crate::platform::db::now_millis;
use crate::platform::live::StreamEvent;
use crate::platform::state::AppState;
use axum::Router;
use axum::extract::{FromRequestParts, Query, State};
use axum::http::{HeaderMap, request::Parts};
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use futures_util::stream::{self, Stream};
use serde::{Deserialize, Serialize};
use sqlx::Row;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;
use tokio::time::Instant;
use utoipa::{IntoParams, ToSchema};

pub const STREAM: &str = "/adminapi/monitor/stream";
/// A ticket opens a stream within this time.
const TICKET_LIFETIME_MS: i64 = 60_000;
const TICKET_SALT: &[u8] = b"monitor-stream-ticket";
/// How often an open stream makes sure its session still holds.
const SESSION_CHECK: Duration = Duration::from_secs(2);
/// A `Last-Event-ID` ahead of our clock by more than this is not ours: ignored.
const CLOCK_SLACK_MS: i64 = 5_000;
/// How long a browser waits before reconnecting after the stream broke.
const RETRY: Duration = Duration::from_secs(2);

pub fn router() -> Router<AppState> {
    Router::new().route(STREAM, get(stream_events)).route("/adminapi/monitor/stream/ticket", post(ticket))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct StreamTicket {
    /// Pass as `?ticket=` to the stream within `expires_in` seconds.
    pub ticket: String,
    pub expires_in: i64,
}

fn signed_part(session_id: i64, expires_at: i64) -> String {
    format!("{session_id}.{expires_at}")
}

/// A ticket to open the monitor stream without putting the session token in a URL.
#[utoipa::path(post, path = "/adminapi/monitor/stream/ticket", tag = "monitor",
    responses((status = 200, description = "`data` is a StreamTicket", body = StreamTicket),
        (status = 403, description = "40300: administrators only")),
    security(("token" = [])))]
pub async fn ticket(State(state): State<AppState>, AdminUser(admin): AdminUser) -> ApiResult<StreamTicket> {
    let expires_at = now_millis() + TICKET_LIFETIME_MS;
    let signed = signed_part(admin.session_id, expires_at);
    let signature = state.secrets.keyed_hash(TICKET_SALT, signed.as_bytes());
    Ok(ApiOk(StreamTicket { ticket: format!("{signed}.{signature}"), expires_in: TICKET_LIFETIME_MS / 1000 }))
}

/// The session a ticket was issued to, if it is genuine and fresh.
fn open_ticket(state: &AppState, ticket: &str) -> Result<i64, AppError> {
    let mut parts = ticket.splitn(3, '.');
    let (Some(session), Some(expires), Some(signature)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(AppError::TokenUnknown);
    };
    let (Ok(session_id), Ok(expires_at)) = (session.parse::<i64>(), expires.parse::<i64>()) else {
        return Err(AppError::TokenUnknown);
    };
    if !state.secrets.verify_keyed_hash(TICKET_SALT, signed_part(session_id, expires_at).as_bytes(), signature) {
        return Err(AppError::TokenUnknown);
    }
    if now_millis() >= expires_at {
        return Err(AppError::TokenExpired);
    }
    Ok(session_id)
}

/// Whether the session is still open and its user an administrator; why not otherwise.
async fn check_session(state: &AppState, session_id: i64) -> Result<(), AppError> {
    let row = sqlx::query(
        "SELECT s.revoked_at, s.expires_at, s.last_used_at, u.role FROM sessions s JOIN users u ON u.id = s.user_id
         WHERE s.id = $1",
    )
    .bind(session_id)
    .fetch_optional(&state.db.pool)
    .await?
    .ok_or(AppError::TokenUnknown)?;
    let revoked_at: Option<i64> = row.try_get(0)?;
    let (expires_at, last_used_at): (i64, i64) = (row.try_get(1)?, row.try_get(2)?);
    let role: String = row.try_get(3)?;
    let now = now_millis();
    if revoked_at.is_some() {
        return Err(AppError::SessionEnded);
    }
    if now >= expires_at || now - last_used_at >= duration_millis(state.config.session.idle_timeout) {
        return Err(AppError::TokenExpired);
    }
    if role != crate::identity::session::Role::Admin.as_str() {
        return Err(AppError::PermissionDenied);
    }
    Ok(())
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct StreamQuery {
    /// A ticket from `POST /adminapi/monitor/stream/ticket` (instead of a token header).
    pub ticket: Option<String>,
}

/// The administrator's session a stream runs under.
pub struct StreamCaller(i64);

impl FromRequestParts<AppState> for StreamCaller {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let Query(query) =
            Query::<StreamQuery>::from_request_parts(parts, state).await.map_err(|_| AppError::TokenUnknown)?;
        match query.ticket.filter(|ticket| !ticket.is_empty()) {
            Some(ticket) => {
                let session_id = open_ticket(state, &ticket)?;
                check_session(state, session_id).await?;
                Ok(StreamCaller(session_id))
            }
            None => Ok(StreamCaller(AdminUser::from_request_parts(parts, state).await?.0.session_id)),
        }
    }
}

/// Live figures as Server-Sent Events: one event (a full `LiveSnapshot`, `id:` its time
/// in unix milliseconds) at once and then every second. A client reconnecting with
/// `Last-Event-ID` gets the current snapshot as soon as it is newer than the one it had.
#[utoipa::path(get, path = "/adminapi/monitor/stream", tag = "monitor", params(StreamQuery),
    responses((status = 200, description = "`text/event-stream`; each event's data is a LiveSnapshot", content(("text/event-stream"))),
        (status = 401, description = "50008/50014: no session, or an invalid or expired ticket"),
        (status = 403, description = "40300: administrators only")),
    security(("token" = [])))]
pub async fn stream_events(State(state): State<AppState>, caller: StreamCaller, headers: HeaderMap) -> Response {
    let events = state.live.subscribe();
    let now = now_millis();
    let resume_from = headers
        .get("last-event-id")
        .and_then(|value| value.to_str().ok())
        .and_then(|text| text.trim().parse::<i64>().ok())
        .filter(|id| *id <= now + CLOCK_SLACK_MS)
        .unwrap_or(0);
    let watch = Watch {
        stopping: state.live.stopping(),
        state,
        session_id: caller.0,
        events,
        last_sent: resume_from,
        next_check: Instant::now() + SESSION_CHECK,
        first: true,
    };
    // Proxies (nginx) must pass the events on at once instead of buffering them.
    ([("x-accel-buffering", "no")], Sse::new(events_of(watch))).into_response()
}

struct Watch {
    state: AppState,
    session_id: i64,
    events: watch::Receiver<Arc<StreamEvent>>,
    stopping: watch::Receiver<bool>,
    last_sent: i64,
    next_check: Instant,
    first: bool,
}

fn events_of(watch: Watch) -> impl Stream<Item = Result<Event, Infallible>> {
    stream::unfold(watch, |mut watch| async move {
        let event = next_event(&mut watch).await?;
        Some((Ok(event), watch))
    })
}

/// The next snapshot newer than the last one sent; None when the stream must end
/// (session ended, server stopping).
async fn next_event(watch: &mut Watch) -> Option<Event> {
    loop {
        if Instant::now() >= watch.next_check {
            if let Err(error) = check_session(&watch.state, watch.session_id).await {
                tracing::info!(session_id = watch.session_id, reason = %error, "monitor stream ended");
                return None;
            }
            watch.next_check = Instant::now() + SESSION_CHECK;
        }
        let current = watch.events.borrow_and_update().clone();
        if current.id > watch.last_sent && !current.data.is_empty() {
            watch.last_sent = current.id;
            let mut event = Event::default().id(current.id.to_string()).data(&current.data);
            if std::mem::take(&mut watch.first) {
                event = event.retry(RETRY);
            }
            return Some(event);
        }
        tokio::select! {
            changed = watch.events.changed() => changed.ok()?,
            _ = watch.stopping.wait_for(|stop| *stop) => return None,
            // The check itself runs at the top of the loop.
            _ = tokio::time::sleep_until(watch.next_check) => {}
        }
    }
}
