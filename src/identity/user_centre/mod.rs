//! The user centre (issue 5): profile and account settings, password, security settings,
//! avatar, real-name enterprise certification, latest activity and the message center.

pub mod avatar;
pub mod certification;
pub mod certification_licence;
pub mod certification_queue;
pub mod certification_status;
pub mod credit_code;
pub mod inbox;
pub mod integration;
pub mod integration_change;
pub mod password;
pub mod profile;
pub mod validation;

use crate::platform::state::AppState;
use axum::extract::DefaultBodyLimit;
use axum::{
    Router,
    routing::{get, post},
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/adminapi/merchant/profile", post(profile::profile))
        .route("/adminapi/merchant/changeInfo", post(profile::change_info))
        .route("/adminapi/merchant/changeIntegration", post(integration::change_integration))
        .route("/adminapi/merchant/changePassword", post(password::change_password))
        .route("/adminapi/merchant/security", post(profile::security))
        .route("/adminapi/merchant/activity", get(profile::activity))
        .route(
            "/adminapi/merchant/avatar",
            post(avatar::upload)
                .get(avatar::download)
                // Room for the image plus the multipart framing.
                .layer(DefaultBodyLimit::max(avatar::MAX_AVATAR_BYTES + 64 * 1024)),
        )
        .route("/adminapi/certification/submit", post(certification::submit))
        .route("/adminapi/certification/list", post(certification::list))
        .route("/adminapi/certification/detail", post(certification::detail))
        .route("/adminapi/certification/withdraw", post(certification::withdraw))
        .route("/adminapi/certification/review", post(certification::review))
        .route(
            "/adminapi/certification/licence",
            post(certification_licence::upload)
                .get(certification_licence::download)
                .layer(DefaultBodyLimit::max(certification_licence::MAX_LICENCE_BYTES + 64 * 1024)),
        )
        .route("/adminapi/certification/pendingCount", get(certification_queue::pending_count))
        .route("/adminapi/message/list", post(inbox::list))
        .route("/adminapi/message/read", post(inbox::mark_read))
        .route("/adminapi/message/readAll", post(inbox::mark_all_read))
        .route("/adminapi/message/unreadCount", get(inbox::unread_count))
}
