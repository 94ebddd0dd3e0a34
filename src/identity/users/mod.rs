//! User information: `/adminapi/merchant/userInfo` and the menu of `/api/user/menu`.

pub mod menu;
pub mod repository;

use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::extract::JsonBody;
use crate::i18n::Message;
use crate::identity::session::{CurrentUser, Role};
use crate::platform::db::millis_to_rfc3339;
use crate::platform::state::AppState;
use axum::{Router, extract::State, routing::post};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::Row;
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new().route("/adminapi/merchant/userInfo", post(user_info)).route("/api/user/menu", post(menu::user_menu))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct UserInfoRequest {
    /// The merchant to read. Omitted or null: the caller's own account.
    #[serde(default)]
    #[schema(schema_with = mid_schema)]
    pub mid: Option<Value>,
}

/// What `parse_mid` takes: a positive integer, its digits as text (at most 18), blank or null.
pub fn mid_schema() -> utoipa::openapi::schema::Schema {
    crate::http::openapi_contract::schema(serde_json::json!({"anyOf": [
        {"type": "integer", "format": "int64", "minimum": 1},
        {"type": "string", "pattern": "^\\s*((?=[0-9]{1,18}\\s*$)0*[1-9][0-9]*)?\\s*$"},
        {"type": "null"}
    ]}))
}

/// The user fields the console reads.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserInfo {
    pub name: String,
    pub avatar: String,
    pub job: String,
    pub organization: String,
    pub location: String,
    pub email: String,
    pub introduction: String,
    pub personal_website: String,
    pub job_name: String,
    pub organization_name: String,
    pub location_name: String,
    pub phone: String,
    pub registration_date: String,
    pub account_id: String,
    pub certification: i64,
    pub role: Role,
    pub username: String,
    pub mid: Option<i64>,
    /// Whether `GET /adminapi/merchant/avatar` has an image for this user: the console asks
    /// for it only then, instead of logging a 404 on every page.
    pub has_avatar: bool,
    /// The password is a temporary one an administrator set: change it before anything else.
    pub must_change_password: bool,
    /// A merchant user's role, which decides what it may call (`identity::permissions`);
    /// null for an administrator.
    pub merchant_role: Option<crate::identity::permissions::MerchantRole>,
    /// The merchant requires two-factor and this user has not turned it on: set it up
    /// before anything else (every other call answers 40341).
    pub must_set_up_two_factor: bool,
}

/// Reads a merchant id the way clients send it: a positive integer, or its digits as text.
fn parse_mid(value: Option<Value>) -> Result<Option<i64>, AppError> {
    let invalid = || AppError::field("mid", Message::MerchantIdInvalid);
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) if text.trim().is_empty() => Ok(None),
        Some(Value::Number(number)) => number.as_i64().filter(|id| *id > 0).map(Some).ok_or_else(invalid),
        Some(Value::String(text)) => {
            let text = text.trim();
            if text.len() > 18 || !text.bytes().all(|byte| byte.is_ascii_digit()) {
                return Err(invalid());
            }
            text.parse::<i64>().ok().filter(|id| *id > 0).map(Some).ok_or_else(invalid)
        }
        Some(_) => Err(invalid()),
    }
}

/// Read a user's profile fields. A merchant may read only its own; an administrator may
/// read any merchant's, or its own by omitting `mid`.
#[utoipa::path(
    post, path = "/adminapi/merchant/userInfo", tag = "merchant",
    request_body = UserInfoRequest,
    responses(
        (status = 200, description = "`data` is a UserInfo", body = UserInfo),
        (status = 403, description = "40300: a merchant asked for another merchant"),
        (status = 404, description = "40400: no such merchant"),
    ),
    security(("token" = []))
)]
pub async fn user_info(
    State(state): State<AppState>,
    caller: CurrentUser,
    JsonBody(request): JsonBody<UserInfoRequest>,
) -> ApiResult<UserInfo> {
    let requested_mid = parse_mid(request.mid)?;
    let own = match (caller.role, requested_mid) {
        (_, None) => true,
        (Role::User, Some(mid)) => Some(mid) == caller.merchant_id,
        (Role::Admin, Some(_)) => false,
    };
    let now = crate::platform::db::now_millis();
    let recent = &state.recent_profiles;
    if own && let Some(info) = recent.get(&caller.user_id, state.sessions.generation(), now) {
        return Ok(ApiOk(info));
    }
    let generation = state.sessions.generation();
    let info = read_user_info(&state, &caller, requested_mid).await?;
    if own {
        recent.put(caller.user_id, info.clone(), generation, now);
    }
    Ok(ApiOk(info))
}

/// The own-account answers of the last second (issue 13: the console asks on every page,
/// and a busy client many times a second). Trusted as a cached session is: for at most a
/// second, so a change made by another server shows within it, and not after this process
/// changed a session, a password or a profile (`SessionCache::forget_all`, which the
/// profile, avatar and certification writes call).
impl crate::platform::held::Holds for crate::platform::held::RecentProfiles {
    type Value = crate::identity::recent::Recent<i64, UserInfo>;
}

async fn read_user_info(
    state: &AppState,
    caller: &CurrentUser,
    requested_mid: Option<i64>,
) -> Result<UserInfo, AppError> {
    // A merchant's account is its earliest user: the one created with the merchant.
    let query_by_merchant = "SELECT u.*, (SELECT COUNT(*) FROM avatars a WHERE a.user_id = u.id) AS avatars, \
                             (SELECT COUNT(*) FROM two_factor t WHERE t.user_id = u.id) AS two_factor_on, \
                             (SELECT m.require_two_factor FROM merchants m WHERE m.id = u.merchant_id) AS require_two_factor \
                             FROM users u WHERE u.merchant_id = $1 ORDER BY u.id LIMIT 1";
    match (caller.role, requested_mid) {
        (_, None) => own_user_info(state, caller.user_id).await,
        (Role::User, Some(mid)) if Some(mid) == caller.merchant_id => own_user_info(state, caller.user_id).await,
        (Role::User, Some(_)) => Err(AppError::PermissionDenied),
        (Role::Admin, Some(mid)) => {
            let row = sqlx::query(query_by_merchant).bind(mid).fetch_optional(&state.db.pool).await?;
            user_info_of(&row.ok_or(AppError::NotFound)?).map_err(AppError::from)
        }
    }
}

/// The signed-in user's own profile, as userInfo answers it without `mid`. Sign-in hands
/// it to the console with the session (auth::open_session), so the first page after
/// sign-in needs no round trip of its own before it can be drawn.
pub async fn own_user_info(state: &AppState, user_id: i64) -> Result<UserInfo, AppError> {
    let row = sqlx::query(QUERY_BY_USER).bind(user_id).fetch_optional(&state.db.pool).await?;
    user_info_of(&row.ok_or(AppError::NotFound)?).map_err(AppError::from)
}

// Whether the user has an avatar comes in the same read (one round trip, not two).
const QUERY_BY_USER: &str = "SELECT u.*, (SELECT COUNT(*) FROM avatars a WHERE a.user_id = u.id) AS avatars,
    (SELECT COUNT(*) FROM two_factor t WHERE t.user_id = u.id) AS two_factor_on,
    (SELECT m.require_two_factor FROM merchants m WHERE m.id = u.merchant_id) AS require_two_factor
    FROM users u WHERE u.id = $1";

fn user_info_of(row: &sqlx::any::AnyRow) -> Result<UserInfo, sqlx::Error> {
    let text = |column: &str| -> Result<String, sqlx::Error> { row.try_get::<String, _>(column) };
    let merchant_id: Option<i64> = row.try_get("merchant_id")?;
    let user_id: i64 = row.try_get("id")?;
    let avatars: i64 = row.try_get("avatars")?;
    Ok(UserInfo {
        name: text("name")?,
        avatar: text("avatar")?,
        job: text("job")?,
        organization: text("organization")?,
        location: text("location")?,
        email: text("email")?,
        introduction: text("introduction")?,
        personal_website: text("personal_website")?,
        job_name: text("job")?,
        organization_name: text("organization")?,
        location_name: text("location")?,
        phone: text("phone")?,
        registration_date: millis_to_rfc3339(row.try_get("created_at")?),
        account_id: merchant_id.unwrap_or(user_id).to_string(),
        certification: row.try_get("certification")?,
        role: {
            let role = text("role")?;
            Role::parse(&role).ok_or_else(|| sqlx::Error::Decode(format!("unknown role {role:?} in storage").into()))?
        },
        username: text("username")?,
        mid: merchant_id,
        has_avatar: avatars > 0,
        must_change_password: row.try_get::<i64, _>("must_change_password")? != 0,
        merchant_role: match merchant_id {
            Some(_) => crate::identity::permissions::MerchantRole::parse(&text("merchant_role")?),
            None => None,
        },
        must_set_up_two_factor: merchant_id.is_some()
            && row.try_get::<Option<i64>, _>("require_two_factor")?.unwrap_or(0) != 0
            && row.try_get::<i64, _>("two_factor_on")? == 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn merchant_ids_are_positive_integers_or_their_digits() {
        assert_eq!(parse_mid(None).unwrap(), None);
        assert_eq!(parse_mid(Some(Value::Null)).unwrap(), None);
        assert_eq!(parse_mid(Some(json!(10001))).unwrap(), Some(10001));
        assert_eq!(parse_mid(Some(json!("10001"))).unwrap(), Some(10001));
        assert_eq!(parse_mid(Some(json!(""))).unwrap(), None);
        for bad in
            [json!(0), json!(-5), json!(1.5), json!("12a"), json!("99999999999999999999"), json!([1]), json!(true)]
        {
            assert!(parse_mid(Some(bad.clone())).is_err(), "{bad} should be refused");
        }
    }
}
