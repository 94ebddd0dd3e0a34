//! The audit log page (administrators only): `/adminapi/admin/audit/list` with filters by
//! actor, action, target and time, newest first, paged like the other lists, its export,
//! and `/adminapi/admin/audit/actions` (the action names for the filter). The rows are
//! written by `crate::platform::audit`.

use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::export::{Cell, EXPORT_PAGE_SIZE, ExportParams, PageFetcher, respond, titles};
use crate::http::extract::{JsonBody, QueryParams};
use crate::http::pagination::{
    BY_TIME_OF_E, PageRequest, Paging, capped_count, decode_cursor, finish_page, newest_first, parse_time,
};
use crate::i18n::audit::{AuditDetail, action_name};
use crate::i18n::{AdminMessage, Locale};
use crate::identity::session::AdminUser;
use crate::platform::audit::action;
use crate::platform::db::millis_to_rfc3339;
use crate::platform::sql::{Bind, Conditions, bind_all};
use crate::platform::state::AppState;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::{
    Router,
    routing::{get, post},
};
use serde::{Deserialize, Serialize};
use sqlx::{AnyPool, Row};
use utoipa::{IntoParams, ToSchema};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/adminapi/admin/audit/list", post(list))
        .route("/adminapi/admin/audit/export", get(export))
        .route("/adminapi/admin/audit/actions", post(actions))
}

/// One audit event.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AuditEvent {
    pub id: i64,
    /// Who acted: a user id, or null (a failed sign-in, the command line).
    pub actor_id: Option<i64>,
    /// The actor's username ('' without one).
    pub actor_name: String,
    /// The action code (see `/adminapi/admin/audit/actions`).
    pub action: String,
    /// The action's name in the request's language.
    pub action_name: String,
    /// What was acted on: `user:<id>`, `merchant:<mid>`, `order:<id>`, `channel:<id>`,
    /// `product:<id>`, `window:<id>`, `blocklist:<pattern>` (`blocklist` for an import),
    /// `port:<number>` (a ported number), `segments`, `server`, or ''.
    pub target: String,
    /// The target's kind: the part before `:` (`user`, `merchant`, `order`, `channel`,
    /// `product`, `window`, `blocklist`, `port`, `segments`, `server`; '' without one).
    pub target_type: String,
    pub target_id: Option<i64>,
    /// The target's name now (a username, merchant or channel name, order number); '' when
    /// unknown or gone.
    pub target_name: String,
    /// For people, in the request's language (never a secret); rows written before details
    /// were data show their stored text as it is.
    pub detail: String,
    pub client_address: String,
    pub created_at: String,
    #[serde(skip)]
    pub created_millis: i64,
}

const SELECT: &str = "SELECT e.id, e.user_id, COALESCE(u.username, ''), e.action, e.target, e.detail, \
    e.client_address, e.created_at, e.params FROM audit_events e LEFT JOIN users u ON u.id = e.user_id";

fn event(row: &sqlx::any::AnyRow, locale: Locale) -> Result<AuditEvent, sqlx::Error> {
    let action: String = row.try_get(3)?;
    let created: i64 = row.try_get(7)?;
    let stored: String = row.try_get(5)?;
    let params: Option<String> = row.try_get(8)?;
    let target: String = row.try_get(4)?;
    let (target_type, target_id) = match target.split_once(':') {
        Some((kind, id)) => (kind.to_string(), id.parse().ok()),
        None => (target.clone(), None),
    };
    Ok(AuditEvent {
        id: row.try_get(0)?,
        actor_id: row.try_get(1)?,
        actor_name: row.try_get(2)?,
        action_name: action_name(&action, locale),
        action,
        target,
        target_type,
        target_id,
        target_name: String::new(),
        detail: params.as_deref().and_then(|params| AuditDetail::render(params, locale)).unwrap_or(stored),
        client_address: row.try_get(6)?,
        created_at: millis_to_rfc3339(created),
        created_millis: created,
    })
}

#[derive(Debug, Default, Clone, Deserialize, ToSchema, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AuditFilter {
    /// Who acted: a username (any case) or a user id.
    pub actor: Option<String>,
    /// One action code (`/adminapi/admin/audit/actions` lists them).
    #[schema(schema_with = action_schema)]
    #[param(schema_with = action_schema)]
    pub action: Option<String>,
    /// What was acted on, exactly as listed (`merchant:10001`, `user:7`, `order:12`, `server`).
    pub target: Option<String>,
    /// At or after (RFC 3339).
    #[schema(schema_with = crate::http::openapi_contract::optional_time)]
    #[param(schema_with = crate::http::openapi_contract::optional_time)]
    pub start_time: Option<String>,
    /// Before (RFC 3339).
    #[schema(schema_with = crate::http::openapi_contract::optional_time)]
    #[param(schema_with = crate::http::openapi_contract::optional_time)]
    pub end_time: Option<String>,
}

/// An action code as `AuditFilter::conditions` reads it: one of `action::ALL`, trimmed,
/// or blank (any action), or null.
fn action_schema() -> utoipa::openapi::schema::Schema {
    let pattern = format!(r"^\s*({})?\s*$", action::ALL.join("|"));
    crate::http::openapi_contract::schema(serde_json::json!({"type": ["string", "null"], "pattern": pattern}))
}

fn filled(text: Option<&str>) -> Option<&str> {
    text.map(str::trim).filter(|text| !text.is_empty())
}

impl AuditFilter {
    async fn conditions(&self, pool: &AnyPool) -> Result<Conditions, AppError> {
        let mut conditions = Conditions::default();
        if let Some(actor) = filled(self.actor.as_deref()) {
            // A username first (usernames may be digits), else a user id; nobody by that
            // name or id matches no row.
            let by_name: Option<i64> = sqlx::query_scalar("SELECT id FROM users WHERE lower(username) = lower($1)")
                .bind(actor)
                .fetch_optional(pool)
                .await?;
            let user_id = by_name.or_else(|| actor.parse::<i64>().ok()).unwrap_or(-1);
            conditions.push("e.user_id = ?", vec![Bind::Int(user_id)]);
        }
        if let Some(code) = filled(self.action.as_deref()) {
            if !action::ALL.contains(&code) {
                return Err(AppError::field("action", AdminMessage::AuditActionUnknown));
            }
            conditions.push("e.action = ?", vec![Bind::Text(code.to_string())]);
        }
        if let Some(target) = filled(self.target.as_deref()) {
            conditions.push("e.target = ?", vec![Bind::Text(target.to_string())]);
        }
        if let Some(from) = parse_time("start_time", self.start_time.as_deref())? {
            conditions.push("e.created_at >= ?", vec![Bind::Int(from)]);
        }
        if let Some(to) = parse_time("end_time", self.end_time.as_deref())? {
            conditions.push("e.created_at < ?", vec![Bind::Int(to)]);
        }
        Ok(conditions)
    }
}

async fn fetch(
    pool: &AnyPool,
    conditions: Conditions,
    page: PageRequest,
    locale: Locale,
) -> Result<(Vec<AuditEvent>, Option<String>), sqlx::Error> {
    let (sql, binds) = newest_first(SELECT, &BY_TIME_OF_E, conditions, &page);
    let rows = bind_all(sqlx::query(sqlx::AssertSqlSafe(sql)), binds).fetch_all(pool).await?;
    let mut events = rows.iter().map(|row| event(row, locale)).collect::<Result<Vec<_>, _>>()?;
    name_targets(pool, &mut events).await?;
    Ok(finish_page(events, page.page_size, |last| (last.created_millis, last.id)))
}

/// Fills in the targets' names, one query per kind on the page.
async fn name_targets(pool: &AnyPool, events: &mut [AuditEvent]) -> Result<(), sqlx::Error> {
    const NAMES: [(&str, &str); 4] = [
        ("user", "SELECT id, username FROM users WHERE id IN"),
        ("merchant", "SELECT id, name FROM merchants WHERE id IN"),
        ("order", "SELECT id, order_no FROM orders WHERE id IN"),
        ("channel", "SELECT id, name FROM channels WHERE id IN"),
    ];
    for (kind, select) in NAMES {
        let mut ids: Vec<i64> =
            events.iter().filter(|event| event.target_type == kind).filter_map(|event| event.target_id).collect();
        ids.sort_unstable();
        ids.dedup();
        if ids.is_empty() {
            continue;
        }
        // Ids parsed as integers: safe to write into the statement.
        let list = ids.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
        let sql = format!("{select} ({list})");
        let names: std::collections::HashMap<i64, String> =
            sqlx::query_as(sqlx::AssertSqlSafe(sql)).fetch_all(pool).await?.into_iter().collect();
        for event in events.iter_mut().filter(|event| event.target_type == kind) {
            if let Some(name) = event.target_id.and_then(|id| names.get(&id)) {
                event.target_name = name.clone();
            }
        }
    }
    Ok(())
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AuditListRequest {
    #[serde(flatten)]
    pub filter: AuditFilter,
    #[serde(flatten)]
    pub paging: Paging,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AuditListResponse {
    pub list: Vec<AuditEvent>,
    pub total: i64,
    /// true: more than `total` (100,000) match.
    pub total_capped: bool,
    pub next_cursor: Option<String>,
    pub page_size: i64,
}

/// Administrators: the audit trail, newest first.
#[utoipa::path(post, path = "/adminapi/admin/audit/list", tag = "admin", request_body = AuditListRequest,
    responses((status = 200, description = "`data` is an AuditListResponse", body = AuditListResponse),
        (status = 400, description = "40000: unknown action, bad time or paging"),
        (status = 403, description = "40300: not an administrator"),
        (status = 422, description = "40000: `cursor` is not one this list gave")),
    security(("token" = [])))]
pub async fn list(
    State(state): State<AppState>,
    _admin: AdminUser,
    headers: HeaderMap,
    JsonBody(request): JsonBody<AuditListRequest>,
) -> ApiResult<AuditListResponse> {
    let locale = Locale::from_headers(&headers);
    let pool = &state.db.pool;
    let conditions = request.filter.conditions(pool).await?;
    let page = request.paging.checked(None)?;
    let counting = capped_count(&state.db.pool, "audit_events e", conditions.clone());
    let (rows, (total, total_capped)) = tokio::try_join!(fetch(pool, conditions, page, locale), counting)?;
    Ok(ApiOk(AuditListResponse { list: rows.0, total, total_capped, next_cursor: rows.1, page_size: page.page_size }))
}

fn export_row(event: &AuditEvent) -> Vec<Cell> {
    vec![
        Cell::Int(event.id),
        Cell::Time(event.created_millis),
        Cell::text(&event.actor_name),
        Cell::text(&event.action_name),
        Cell::text(&event.action),
        Cell::text(if event.target_name.is_empty() {
            event.target.clone()
        } else {
            format!("{} ({})", event.target, event.target_name)
        }),
        Cell::text(&event.detail),
        Cell::id(&event.client_address),
    ]
}

/// Administrators: export the audit events matching the filters (query parameters as the
/// list's body fields). CSV is streamed; xlsx holds at most 200,000 rows.
#[utoipa::path(get, path = "/adminapi/admin/audit/export", tag = "admin", params(AuditFilter, ExportParams),
    responses((status = 200, description = "the file (text/csv or xlsx)", content(("text/csv"), ("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"))),
        (status = 400, description = "40000: an unknown action, a time not RFC 3339, or a bad format or sort"),
        (status = 403, description = "40300: not an administrator")),
    security(("token" = [])))]
pub async fn export(
    State(state): State<AppState>,
    _admin: AdminUser,
    headers: HeaderMap,
    QueryParams(filter): QueryParams<AuditFilter>,
    QueryParams(params): QueryParams<ExportParams>,
) -> Result<Response, AppError> {
    let locale = Locale::from_headers(&headers);
    let conditions = filter.conditions(&state.db.pool).await?;
    let format = params.format()?;
    let pool = state.db.pool.clone();
    let fetcher: PageFetcher = Box::new(move |cursor| {
        let (pool, conditions) = (pool.clone(), conditions.clone());
        Box::pin(async move {
            let cursor = cursor.as_deref().and_then(decode_cursor);
            let (events, next) = fetch(
                &pool,
                conditions,
                PageRequest { descending: true, cursor, page: None, page_size: EXPORT_PAGE_SIZE },
                locale,
            )
            .await?;
            Ok((events.iter().map(export_row).collect(), next))
        })
    });
    let header_row = titles(&crate::i18n::files::AUDIT_LOG_COLUMNS.get(locale));
    respond(format, "audit-log", header_row, fetcher).await
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AuditAction {
    pub action: &'static str,
    /// In the request's language.
    pub name: String,
}

/// Administrators: every action code with its name, for the audit page's filter.
#[utoipa::path(post, path = "/adminapi/admin/audit/actions", tag = "admin",
    responses((status = 200, description = "`data` is a list of AuditAction", body = [AuditAction]), (status = 403, description = "40300: not an administrator")),
    security(("token" = [])))]
pub async fn actions(_admin: AdminUser, headers: HeaderMap) -> ApiResult<Vec<AuditAction>> {
    let locale = Locale::from_headers(&headers);
    Ok(ApiOk(action::ALL.iter().map(|code| AuditAction { action: code, name: action_name(code, locale) }).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::audit::ACTION_NAMES;

    #[test]
    fn every_action_has_a_name_in_both_languages_and_no_name_is_stray() {
        for code in action::ALL {
            let named = ACTION_NAMES.iter().find(|(known, _, _)| known == code);
            let (_, zh, en) = named.unwrap_or_else(|| panic!("no name for audit action {code}"));
            assert!(!zh.is_empty() && !en.is_empty(), "{code}");
        }
        for (code, _, _) in ACTION_NAMES {
            assert!(action::ALL.contains(code), "a name for an action that does not exist: {code}");
        }
        assert_eq!(action_name("login_failed", Locale::ZhCn), "登录失败");
        assert_eq!(action_name("from_a_newer_server", Locale::EnUs), "from_a_newer_server");
    }
}
