//! `GET /api/system/info`: what the console stores as `system_info` at sign-in
//! and clears at logout: the server's name, version, time zone and feature flags.
//! The console reads the flags to show or hide optional sections (the template pages).

use crate::http::error::{ApiOk, ApiResult};
use crate::identity::session::CurrentUser;
use crate::platform::state::AppState;
use axum::{Router, extract::State, routing::get};
use serde::Serialize;
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/system/info", get(system_info))
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Features {
    /// The template and demo pages (`--template-pages`, implied by `--demo`).
    pub template_pages: bool,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SystemInfo {
    pub name: String,
    pub version: String,
    /// The platform's business time zone: days, reports and order numbers are Beijing time.
    pub time_zone: String,
    pub features: Features,
}

/// The server's name, version, time zone and feature flags (signed-in callers).
#[utoipa::path(
    get, path = "/api/system/info", tag = "user",
    responses((status = 200, description = "`data` is a SystemInfo", body = SystemInfo)),
    security(("token" = []))
)]
pub async fn system_info(State(state): State<AppState>, _caller: CurrentUser) -> ApiResult<SystemInfo> {
    Ok(ApiOk(SystemInfo::of(&state)))
}

impl SystemInfo {
    /// This server's: also handed to the console with a new session (auth::open_session).
    pub fn of(state: &AppState) -> Self {
        SystemInfo {
            name: env!("CARGO_PKG_NAME").to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            time_zone: "Asia/Shanghai".to_string(),
            features: Features { template_pages: state.config.template_pages },
        }
    }
}
