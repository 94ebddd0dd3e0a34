//! The administrators' side of certification waiting for review: how many wait (the menu
//! badge) and a message-center to-do for every administrator when a merchant submits, so
//! no submission waits unseen.

use super::certification_status::AUDITING;
use super::inbox::{MessageKind, Notification, notify};
use crate::http::error::{ApiOk, ApiResult};
use crate::i18n::notices::Notice;
use crate::identity::session::AdminUser;
use crate::platform::state::AppState;
use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;

#[derive(Debug, Serialize, ToSchema)]
pub struct PendingCount {
    /// Certifications under audit, all merchants.
    pub pending: i64,
}

/// Administrators: how many certifications wait for a decision.
#[utoipa::path(get, path = "/adminapi/certification/pendingCount", tag = "certification",
    responses((status = 200, description = "`data` is a PendingCount", body = PendingCount), (status = 403, description = "40300: administrators only")),
    security(("token" = [])))]
pub async fn pending_count(State(state): State<AppState>, _admin: AdminUser) -> ApiResult<PendingCount> {
    let pending: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM certifications WHERE status = $1")
        .bind(AUDITING)
        .fetch_one(&state.db.pool)
        .await?;
    Ok(ApiOk(PendingCount { pending }))
}

/// A to-do for every administrator: who submitted what. Titles carry both languages
/// ([`Notice::stored`]), as the other notices do; the console shows the reader's half.
pub async fn announce_submission(
    connection: &mut sqlx::AnyConnection,
    username: &str,
    enterprise: &str,
) -> Result<(), sqlx::Error> {
    let administrators: Vec<i64> =
        sqlx::query_scalar("SELECT id FROM users WHERE role = 'admin'").fetch_all(&mut *connection).await?;
    let content = format!("{username}：{enterprise}");
    let (title, sub_title) = (Notice::CertificationSubmitted.stored(), Notice::RealNameCertification.stored());
    for administrator in administrators {
        notify(
            &mut *connection,
            administrator,
            Notification {
                kind: MessageKind::Todo,
                title: &title,
                sub_title: &sub_title,
                content: &content,
                message_type: 0,
            },
        )
        .await?;
    }
    Ok(())
}
