//! Profile and security settings of the signed-in user:
//! `/adminapi/merchant/{profile,changeInfo,security,activity}` (the password: `password.rs`).

use super::password::{parse_password_change, record_password_change, store_password, verify_and_hash};
use super::validation::{Errors, Profile, ProfileRequest, is_email, is_phone};
use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::extract::{ClientAddress, JsonBody};
use crate::i18n::UserCentreMessage as Text;
use crate::identity::session::CurrentUser;
use crate::platform::audit::{self, action};
use crate::platform::db::{millis_to_rfc3339, now_millis};
use crate::platform::state::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use sqlx::Row;
use utoipa::ToSchema;

/// Everything the settings page edits, as stored now.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProfileView {
    pub username: String,
    pub nickname: String,
    pub email: String,
    pub country_region: String,
    pub area: String,
    pub address: String,
    pub contact_phone: String,
    pub introduction: String,
    pub personal_website: String,
    pub office_location: String,
    pub notify_url: String,
    pub ip_whitelist: String,
    pub account_id: String,
    pub registration_date: String,
    pub has_avatar: bool,
    pub security_question: String,
    pub security_answer_set: bool,
    pub security_email: String,
    pub security_phone: String,
}

pub(super) async fn load_profile(state: &AppState, user_id: i64) -> Result<ProfileView, AppError> {
    let row = sqlx::query(
        "SELECT u.*, (SELECT COUNT(*) FROM avatars a WHERE a.user_id = u.id) AS avatar_count FROM users u WHERE u.id = $1",
    )
    .bind(user_id)
    .fetch_optional(&state.db.pool)
    .await?
    .ok_or(AppError::NotFound)?;
    let text = |column: &str| row.try_get::<String, _>(column);
    let merchant_id: Option<i64> = row.try_get("merchant_id")?;
    Ok(ProfileView {
        username: text("username")?,
        nickname: text("name")?,
        email: text("email")?,
        country_region: text("country_region")?,
        area: text("area")?,
        address: text("address")?,
        contact_phone: text("phone")?,
        introduction: text("introduction")?,
        personal_website: text("personal_website")?,
        office_location: text("location")?,
        notify_url: text("notify_url")?,
        ip_whitelist: text("ip_whitelist")?,
        account_id: merchant_id.unwrap_or(user_id).to_string(),
        registration_date: millis_to_rfc3339(row.try_get("created_at")?),
        has_avatar: row.try_get::<i64, _>("avatar_count")? > 0,
        security_question: text("security_question")?,
        security_answer_set: !text("security_answer_hash")?.is_empty(),
        security_email: text("security_email")?,
        security_phone: text("security_phone")?,
    })
}

/// The caller's profile and security settings.
#[utoipa::path(post, path = "/adminapi/merchant/profile", tag = "merchant",
    responses((status = 200, description = "`data` is a ProfileView", body = ProfileView)), security(("token" = [])))]
pub async fn profile(State(state): State<AppState>, caller: CurrentUser) -> ApiResult<ProfileView> {
    Ok(ApiOk(load_profile(&state, caller.user_id).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ChangeInfoRequest {
    #[serde(flatten)]
    pub profile: ProfileRequest,
    /// New password; blank or absent means no change.
    #[serde(default)]
    pub password: Option<String>,
    /// Required when `password` is given.
    #[serde(default)]
    pub current_password: Option<String>,
}

/// Saves the profile form (and a new password if one is given) as a whole: any invalid
/// field and nothing is saved.
#[utoipa::path(post, path = "/adminapi/merchant/changeInfo", tag = "merchant", request_body = ChangeInfoRequest,
    responses(
        (status = 200, description = "Saved; `data` is the new ProfileView", body = ProfileView),
        (status = 400, description = "40000 with every invalid field named: a required field is missing or blank"),
        (status = 403, description = "40300: the current password is wrong (`data.fields.current_password`)"),
        (status = 422, description = "40000 with every invalid field named: an address, URL, number or whitelist is malformed, a text too long, a new password too weak"),
    ),
    security(("token" = [])))]
pub async fn change_info(
    State(state): State<AppState>,
    caller: CurrentUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<ChangeInfoRequest>,
) -> ApiResult<ProfileView> {
    let profile = Profile::parse(request.profile);
    let password = parse_password_change(request.password, request.current_password, "password");
    let (profile, password) = match (profile, password) {
        (Ok(profile), Ok(password)) => (profile, password),
        (profile, password) => {
            let mut fields = match profile {
                Err(AppError::Validation(fields)) => fields,
                Err(other) => return Err(other),
                Ok(_) => Vec::new(),
            };
            fields.extend(password.err().unwrap_or_default());
            return Err(AppError::Validation(fields));
        }
    };
    if let Some(notify_url) = &profile.notify_url {
        crate::http::notify_guard::check_url_field(&state, "notify_url", notify_url)?;
    }
    let new_hash = match &password {
        Some(change) => Some(verify_and_hash(&state, &caller, change).await?),
        None => None,
    };
    let now = now_millis();
    // A write transaction from its start: it reads the settings before it writes them, and
    // on SQLite a read transaction that then writes fails at once (busy) beside another writer.
    let mut transaction = state.db.begin_write().await?;
    let integration_before = super::integration_change::settings_before(&mut transaction, caller.user_id).await?;
    sqlx::query(
        "UPDATE users SET name = $1, email = $2, country_region = $3, area = $4, address = $5, phone = $6,
         introduction = $7, personal_website = $8, location = $9,
         notify_url = COALESCE($10, notify_url), ip_whitelist = COALESCE($11, ip_whitelist) WHERE id = $12",
    )
    .bind(&profile.nickname)
    .bind(&profile.email)
    .bind(&profile.country_region)
    .bind(&profile.area)
    .bind(&profile.address)
    .bind(&profile.contact_phone)
    .bind(&profile.introduction)
    .bind(&profile.personal_website)
    .bind(&profile.office_location)
    .bind(&profile.notify_url)
    .bind(&profile.ip_whitelist)
    .bind(caller.user_id)
    .execute(&mut *transaction)
    .await?;
    let address = address.to_string();
    audit::record(&mut *transaction, Some(caller.user_id), action::PROFILE_CHANGED, "", &address).await?;
    let integration = (profile.notify_url.as_deref(), profile.ip_whitelist.as_deref());
    super::integration_change::record_change(&mut transaction, &caller, &integration_before, integration, &address)
        .await?;
    if let Some(hash) = &new_hash {
        store_password(&mut transaction, &caller, hash, now).await?;
        record_password_change(&mut transaction, &caller, &address, now).await?;
    }
    transaction.commit().await?;
    // userInfo's cached answers show the profile, and a new password's ended sessions may
    // not be served from the cache any more.
    state.sessions.forget_all();
    Ok(ApiOk(load_profile(&state, caller.user_id).await?))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct SecurityRequest {
    pub security_question: Option<String>,
    /// Required when the question changes; stored only as a keyed hash.
    pub security_answer: Option<String>,
    pub security_email: Option<String>,
    pub security_phone: Option<String>,
}

/// Saves the security question, security email and phone; each change is audited.
#[utoipa::path(post, path = "/adminapi/merchant/security", tag = "merchant", request_body = SecurityRequest,
    responses((status = 200, description = "`data` is the new ProfileView", body = ProfileView), (status = 400, description = "40000: a field of the wrong type"),
        (status = 422, description = "40000: an address or number is malformed, a text too long, or a new question without its answer")),
    security(("token" = [])))]
pub async fn security(
    State(state): State<AppState>,
    caller: CurrentUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<SecurityRequest>,
) -> ApiResult<ProfileView> {
    let current = load_profile(&state, caller.user_id).await?;
    let mut errors = Errors::default();
    let question = errors.text("security_question", request.security_question, None, 100);
    let answer = errors.text("security_answer", request.security_answer, None, 100);
    let email = errors.text("security_email", request.security_email, None, 254);
    let phone = errors.text("security_phone", request.security_phone, None, 32);
    let question_changed = question != current.security_question;
    if question_changed && !question.is_empty() && answer.is_empty() {
        errors.add_required_by_rule("security_answer", Text::SecurityAnswerRequired);
    }
    if !email.is_empty() && !is_email(&email) {
        errors.add("security_email", Text::EmailInvalid);
    }
    if !phone.is_empty() && !is_phone(&phone) {
        errors.add("security_phone", Text::PhoneInvalid);
    }
    errors.into_result(())?;
    let answer_hash = if question.is_empty() {
        String::new()
    } else if answer.is_empty() {
        sqlx::query_scalar("SELECT security_answer_hash FROM users WHERE id = $1")
            .bind(caller.user_id)
            .fetch_one(&state.db.pool)
            .await?
    } else {
        // Answers are compared loosely by people: case and surrounding spaces do not count.
        state.secrets.keyed_hash(&caller.user_id.to_be_bytes(), answer.to_lowercase().as_bytes())
    };
    // The settings and their audit records commit together.
    let mut transaction = state.db.begin_write().await?;
    sqlx::query(
        "UPDATE users SET security_question = $1, security_answer_hash = $2, security_email = $3, security_phone = $4
         WHERE id = $5",
    )
    .bind(&question)
    .bind(&answer_hash)
    .bind(&email)
    .bind(&phone)
    .bind(caller.user_id)
    .execute(&mut *transaction)
    .await?;
    let address = address.to_string();
    let changes = [
        (question_changed || !answer.is_empty(), action::SECURITY_QUESTION_CHANGED),
        (email != current.security_email, action::SECURITY_EMAIL_CHANGED),
        (phone != current.security_phone, action::SECURITY_PHONE_CHANGED),
    ];
    for (changed, event) in changes {
        if changed {
            audit::record(&mut *transaction, Some(caller.user_id), event, "", &address).await?;
        }
    }
    transaction.commit().await?;
    Ok(ApiOk(load_profile(&state, caller.user_id).await?))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ActivityItem {
    pub id: i64,
    pub action: String,
    pub client_address: String,
    pub time: String,
}

/// The caller's latest activity from the audit trail (at most 20).
#[utoipa::path(get, path = "/adminapi/merchant/activity", tag = "merchant",
    responses((status = 200, description = "`data` is a list of ActivityItem", body = [ActivityItem])), security(("token" = [])))]
pub async fn activity(State(state): State<AppState>, caller: CurrentUser) -> ApiResult<Vec<ActivityItem>> {
    let rows = sqlx::query(
        "SELECT id, action, client_address, created_at FROM audit_events WHERE user_id = $1 ORDER BY id DESC LIMIT 20",
    )
    .bind(caller.user_id)
    .fetch_all(&state.db.pool)
    .await?;
    let items = rows
        .iter()
        .map(|row| {
            Ok(ActivityItem {
                id: row.try_get("id")?,
                action: row.try_get("action")?,
                client_address: row.try_get("client_address")?,
                time: millis_to_rfc3339(row.try_get("created_at")?),
            })
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
    Ok(ApiOk(items))
}
