//! Order notifications: callbacks to merchants when their orders finish, in the Standard
//! Webhooks format (docs/merchant-api-callbacks.md).
//!
//! - `outbox.rs` writes an `order.finished` event in the transaction that finishes the
//!   order (orders/lifecycle.rs is the only path to success or failure);
//! - `deliver.rs` sends due events under a lease, retries on `--notify-schedule`, records
//!   every attempt and tells the merchant when the schedule runs out;
//! - `sign.rs` signs, `secret.rs` keeps the per-merchant signing secret sealed;
//! - `http/notify_guard.rs` (top level) refuses internal destinations (SSRF), when saved and when connecting;
//! - `api.rs` is the Notifications page and the order drawer's attempts.

pub mod api;
pub mod deliver;
pub mod outbox;
pub mod reason;
pub mod secret;
pub mod sign;

/// The SSRF guard lives at the top level (`http/notify_guard.rs`) so that the user centre can
/// check a notify URL when it is saved without depending on the sender.
pub use crate::http::notify_guard as guard;
pub use crate::http::notify_guard::check_url_field;

use crate::platform::state::AppState;
use axum::Router;
use axum::routing::post;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/adminapi/notify/rotateSecret", post(secret::rotate_secret))
        .route("/adminapi/notify/list", post(api::list))
        .route("/adminapi/notify/attempts", post(api::attempts))
        .route("/adminapi/notify/resend", post(api::resend))
        .route("/adminapi/notify/resendFailed", post(api::resend_failed))
        .route("/adminapi/notify/test", post(api::test))
}

/// The notification endpoints in the OpenAPI document (merged into `openapi::ApiDoc`).
#[derive(utoipa::OpenApi)]
#[openapi(
    paths(secret::rotate_secret, api::list, api::attempts, api::resend, api::resend_failed, api::test),
    components(schemas(
        secret::RotateSecretRequest,
        secret::RotateSecretResponse,
        api::NotifyListRequest,
        api::NotifyListResponse,
        api::NotificationItem,
        api::OrderNotificationsRequest,
        api::OrderNotifications,
        api::AttemptItem,
        api::ResendRequest,
        api::ResendFailedRequest,
        api::Resent,
        deliver::AttemptResult,
    ))
)]
pub struct NotifyApiDoc;
