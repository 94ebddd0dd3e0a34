//! The saved views' calls: list a page's views, create, change (own only), delete (own
//! only), and set or clear the caller's default for a page.

use super::store::{self, StoredView};
use super::{Circle, MAX_VIEWS_PER_PAGE, parse_name, parse_page, parse_state};
use crate::http::error::{ApiOk, ApiResult, AppError, FieldError, code};
use crate::http::extract::JsonBody;
use crate::i18n::ViewMessage;
use crate::identity::session::CurrentUser;
use crate::platform::db::{millis_to_rfc3339, now_millis};
use crate::platform::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

/// One saved view of a list page.
#[derive(Debug, Serialize, ToSchema)]
pub struct SavedView {
    pub id: i64,
    /// The list page (`orders-ordinary`, `quotes`, …).
    pub page: String,
    pub name: String,
    /// The console's state of the page (filters, columns, density, sort), as it saved it.
    #[schema(value_type = std::collections::HashMap<String, serde_json::Value>)]
    pub state: Value,
    /// Seen (read-only) by the owner's merchant's other users, or by the other administrators.
    pub shared: bool,
    /// The caller owns it (and may change or delete it).
    pub mine: bool,
    /// The owner's username.
    pub owner: String,
    /// RFC 3339.
    pub updated_at: String,
}

impl SavedView {
    fn from_stored(view: StoredView, caller: i64) -> Self {
        // Stored only after `parse_state`: a row that does not read back is shown empty.
        let state = serde_json::from_str(&view.state).unwrap_or_else(|_| Value::Object(Default::default()));
        SavedView {
            id: view.id,
            page: view.page,
            name: view.name,
            state,
            shared: view.shared,
            mine: view.user_id == caller,
            owner: view.owner,
            updated_at: millis_to_rfc3339(view.updated_at),
        }
    }
}

/// A page's views: the caller's own first, then those shared with it.
#[derive(Debug, Serialize, ToSchema)]
pub struct SavedViewList {
    pub views: Vec<SavedView>,
    /// The caller's default view of the page, applied when the page opens without filters.
    pub default_id: Option<i64>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ViewPageRequest {
    /// One of the list pages that keep views (`orders-ordinary`, `orders-card`, `orders-behalf`,
    /// `review-queue`, `quotes`, `account-records`, `notifications`, `merchants`, `audit-log`,
    /// `template-policies`, `funding`, `funding-review`, `ported-numbers`, `blocklist`,
    /// `maintenance-windows`, `products`, `channels`, `batches`, `security-history`, `report-profit`,
    /// `report-sales`); another is refused with `view.page.unknown`.
    #[schema(example = "orders-ordinary")]
    pub page: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct CreateViewRequest {
    #[schema(example = "orders-ordinary")]
    pub page: String,
    /// Unique among the caller's views of the page; trimmed.
    #[schema(min_length = 1, max_length = 40)]
    pub name: String,
    /// A JSON object of at most 8 KiB.
    #[schema(value_type = std::collections::HashMap<String, serde_json::Value>)]
    pub state: Value,
    #[serde(default)]
    pub shared: bool,
}

/// What to change of one of the caller's views; an absent field is kept.
#[derive(Debug, Deserialize, ToSchema)]
pub struct UpdateViewRequest {
    pub id: i64,
    #[schema(min_length = 1, max_length = 40)]
    pub name: Option<String>,
    #[schema(value_type = Option<std::collections::HashMap<String, serde_json::Value>>)]
    pub state: Option<Value>,
    pub shared: Option<bool>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ViewIdRequest {
    pub id: i64,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct DefaultViewRequest {
    #[schema(example = "orders-ordinary")]
    pub page: String,
    /// A view the caller may see on that page; null clears the default.
    pub id: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ViewDeleted {
    pub id: i64,
}

/// 40400 on `id`: no such view, or one the caller may not see (another merchant's, one no
/// longer shared): the two are not told apart.
fn not_found() -> AppError {
    let field = FieldError::new("id", ViewMessage::NotFound.into());
    AppError::RefusedOn { status: StatusCode::NOT_FOUND, code: code::NOT_FOUND, field }
}

/// A view the caller may change: its own (someone else's shared view: 40300).
async fn own_view(
    executor: impl sqlx::Executor<'_, Database = sqlx::Any>,
    caller: &CurrentUser,
    id: i64,
) -> Result<StoredView, AppError> {
    let view = store::one(executor, caller.user_id, Circle::of(caller), id).await?.ok_or_else(not_found)?;
    if view.user_id != caller.user_id {
        return Err(AppError::forbidden_on("id", ViewMessage::NotYours));
    }
    Ok(view)
}

async fn page_list(state: &AppState, caller: &CurrentUser, page: &str) -> Result<SavedViewList, AppError> {
    let circle = Circle::of(caller);
    let views = store::visible(&state.db.pool, caller.user_id, circle, page).await?;
    let default_id = store::default_of(&state.db.pool, caller.user_id, circle, page).await?;
    Ok(SavedViewList {
        views: views.into_iter().map(|view| SavedView::from_stored(view, caller.user_id)).collect(),
        default_id,
    })
}

/// The caller's views of a page and those shared with it, with the caller's default.
#[utoipa::path(post, path = "/adminapi/views/list", tag = "views", request_body = ViewPageRequest,
    responses(
        (status = 200, description = "`data` is a SavedViewList", body = SavedViewList),
        (status = 422, description = "40000 on `page`: not a list page that keeps views (`view.page.unknown`)"),
    ),
    security(("token" = [])))]
pub async fn list(
    State(state): State<AppState>,
    caller: CurrentUser,
    JsonBody(request): JsonBody<ViewPageRequest>,
) -> ApiResult<SavedViewList> {
    let page = parse_page(&request.page)?;
    Ok(ApiOk(page_list(&state, &caller, page).await?))
}

/// Saves a view of a page under a new name.
#[utoipa::path(post, path = "/adminapi/views/create", tag = "views", request_body = CreateViewRequest,
    responses(
        (status = 200, description = "`data` is the new SavedView", body = SavedView),
        (status = 400, description = "40000: the name is empty or longer than 40 characters, the state is not an object"),
        (status = 409, description = "40900: the caller has a view of this name on the page (`view.name.taken`, on `name`) or 50 views of the page already (`view.too_many`)"),
        (status = 422, description = "40000: an unknown page, a name of spaces only, a state over 8 KiB"),
    ),
    security(("token" = [])))]
pub async fn create(
    State(state): State<AppState>,
    caller: CurrentUser,
    JsonBody(request): JsonBody<CreateViewRequest>,
) -> ApiResult<SavedView> {
    let page = parse_page(&request.page)?;
    let name = parse_name(&request.name)?;
    let saved_state = parse_state(&request.state)?;
    let circle = Circle::of(&caller);
    let shared = request.shared && circle != Circle::Alone;
    // The count and the insert in one write transaction: two tabs saving at once cannot both
    // pass the limit (SQLite's writes are serial; on PostgreSQL the name index still holds).
    let mut transaction = state.db.begin_write().await?;
    if store::owned_count(&mut *transaction, caller.user_id, page).await? >= MAX_VIEWS_PER_PAGE {
        return Err(AppError::Conflict(ViewMessage::TooMany { max: MAX_VIEWS_PER_PAGE as usize }.into()));
    }
    let now = now_millis();
    let inserted = sqlx::query_scalar::<_, i64>(
        "INSERT INTO saved_views (user_id, merchant_id, page, name, state, shared, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING id",
    )
    .bind(caller.user_id)
    .bind(circle.merchant())
    .bind(page)
    .bind(&name)
    .bind(&saved_state)
    .bind(i64::from(shared))
    .bind(now)
    .fetch_one(&mut *transaction)
    .await;
    let id = match inserted {
        Ok(id) => id,
        Err(error) if store::is_name_taken(&error) => {
            return Err(AppError::conflict_on("name", ViewMessage::NameTaken));
        }
        Err(error) => return Err(error.into()),
    };
    let view = store::one(&mut *transaction, caller.user_id, circle, id).await?.ok_or_else(not_found)?;
    transaction.commit().await?;
    Ok(ApiOk(SavedView::from_stored(view, caller.user_id)))
}

/// Renames one of the caller's views, replaces its state, shares or unshares it.
#[utoipa::path(post, path = "/adminapi/views/update", tag = "views", request_body = UpdateViewRequest,
    responses(
        (status = 200, description = "`data` is the changed SavedView", body = SavedView),
        (status = 400, description = "40000: the name is empty or longer than 40 characters, the state is not an object"),
        (status = 403, description = "40300 on `id`: a view shared by someone else is read-only (`view.not_yours`)"),
        (status = 404, description = "40400 on `id`: no such view the caller may see (`view.not_found`)"),
        (status = 409, description = "40900 on `name`: the caller has another view of this name on the page"),
        (status = 422, description = "40000: a name of spaces only, a state over 8 KiB"),
    ),
    security(("token" = [])))]
pub async fn update(
    State(state): State<AppState>,
    caller: CurrentUser,
    JsonBody(request): JsonBody<UpdateViewRequest>,
) -> ApiResult<SavedView> {
    let name = request.name.as_deref().map(parse_name).transpose()?;
    let saved_state = request.state.as_ref().map(parse_state).transpose()?;
    let circle = Circle::of(&caller);
    let mut transaction = state.db.begin_write().await?;
    let view = own_view(&mut *transaction, &caller, request.id).await?;
    let shared = request.shared.unwrap_or(view.shared) && circle != Circle::Alone;
    let updated =
        sqlx::query("UPDATE saved_views SET name = $1, state = $2, shared = $3, updated_at = $4 WHERE id = $5")
            .bind(name.unwrap_or(view.name))
            .bind(saved_state.unwrap_or(view.state))
            .bind(i64::from(shared))
            .bind(now_millis())
            .bind(view.id)
            .execute(&mut *transaction)
            .await;
    match updated {
        Err(error) if store::is_name_taken(&error) => {
            return Err(AppError::conflict_on("name", ViewMessage::NameTaken));
        }
        other => other?,
    };
    if view.shared && !shared {
        // Unshared: no longer anyone else's default (sharing it again does not bring that back).
        sqlx::query("DELETE FROM saved_view_defaults WHERE view_id = $1 AND user_id <> $2")
            .bind(view.id)
            .bind(caller.user_id)
            .execute(&mut *transaction)
            .await?;
    }
    let view = store::one(&mut *transaction, caller.user_id, circle, view.id).await?.ok_or_else(not_found)?;
    transaction.commit().await?;
    Ok(ApiOk(SavedView::from_stored(view, caller.user_id)))
}

/// Deletes one of the caller's views (and it stops being anyone's default).
#[utoipa::path(post, path = "/adminapi/views/delete", tag = "views", request_body = ViewIdRequest,
    responses(
        (status = 200, description = "`data` names the deleted view", body = ViewDeleted),
        (status = 403, description = "40300 on `id`: a view shared by someone else is read-only (`view.not_yours`)"),
        (status = 404, description = "40400 on `id`: no such view the caller may see (`view.not_found`)"),
    ),
    security(("token" = [])))]
pub async fn delete(
    State(state): State<AppState>,
    caller: CurrentUser,
    JsonBody(request): JsonBody<ViewIdRequest>,
) -> ApiResult<ViewDeleted> {
    let mut transaction = state.db.begin_write().await?;
    let view = own_view(&mut *transaction, &caller, request.id).await?;
    // The defaults naming it go with it (ON DELETE CASCADE).
    sqlx::query("DELETE FROM saved_views WHERE id = $1").bind(view.id).execute(&mut *transaction).await?;
    transaction.commit().await?;
    Ok(ApiOk(ViewDeleted { id: view.id }))
}

/// Makes a view the caller's default for its page, or clears the default (`id` null).
#[utoipa::path(post, path = "/adminapi/views/default", tag = "views", request_body = DefaultViewRequest,
    responses(
        (status = 200, description = "`data` is the page's SavedViewList with the new default", body = SavedViewList),
        (status = 404, description = "40400 on `id`: no view of this page the caller may see (`view.not_found`)"),
        (status = 422, description = "40000 on `page`: not a list page that keeps views"),
    ),
    security(("token" = [])))]
pub async fn set_default(
    State(state): State<AppState>,
    caller: CurrentUser,
    JsonBody(request): JsonBody<DefaultViewRequest>,
) -> ApiResult<SavedViewList> {
    let page = parse_page(&request.page)?;
    let circle = Circle::of(&caller);
    let mut transaction = state.db.begin_write().await?;
    match request.id {
        Some(id) => {
            // Another user's shared view may be one's default: it is applied, never changed.
            let view = store::one(&mut *transaction, caller.user_id, circle, id).await?;
            let view = view.filter(|view| view.page == page).ok_or_else(not_found)?;
            sqlx::query(
                "INSERT INTO saved_view_defaults (user_id, page, view_id) VALUES ($1, $2, $3)
                 ON CONFLICT (user_id, page) DO UPDATE SET view_id = excluded.view_id",
            )
            .bind(caller.user_id)
            .bind(page)
            .bind(view.id)
            .execute(&mut *transaction)
            .await?;
        }
        None => {
            sqlx::query("DELETE FROM saved_view_defaults WHERE user_id = $1 AND page = $2")
                .bind(caller.user_id)
                .bind(page)
                .execute(&mut *transaction)
                .await?;
        }
    }
    transaction.commit().await?;
    Ok(ApiOk(page_list(&state, &caller, page).await?))
}
