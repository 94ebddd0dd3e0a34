//! The merchant's webhook signing secret: sealed at rest (context `webhook_secret:<mid>`),
//! shown once when rotated, and for 24 hours after a rotation the previous secret signs
//! alongside the new one so the merchant can switch verifiers without missing a callback.

use super::sign;
use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::extract::{ClientAddress, JsonBody};
use crate::i18n::{Message, UserCentreMessage};
use crate::identity::session::CurrentUser;
use crate::identity::two_factor::store;
use crate::identity::two_factor::verification::CodeCheck;
use crate::platform::audit::{self, action};
use crate::platform::db::now_millis;
use crate::platform::state::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::AnyConnection;
use utoipa::ToSchema;

/// How long the previous secret keeps signing after a rotation.
pub const OVERLAP_MILLIS: i64 = 24 * 60 * 60 * 1000;

fn context(merchant_id: i64) -> String {
    format!("webhook_secret:{merchant_id}")
}

/// The keys that sign a merchant's notifications now: the current secret, then the
/// previous one while its overlap lasts. A merchant that never rotated gets a secret
/// here (it signs; the merchant sees one when it first rotates).
pub async fn signing_keys(state: &AppState, merchant_id: i64) -> anyhow::Result<Vec<Vec<u8>>> {
    let now = now_millis();
    let row: Option<(String, Option<String>, Option<i64>)> =
        sqlx::query_as("SELECT secret_enc, previous_enc, previous_until FROM webhook_secrets WHERE merchant_id = $1")
            .bind(merchant_id)
            .fetch_optional(&state.db.pool)
            .await?;
    let (current, previous, until) = match row {
        Some(row) => row,
        None => {
            let sealed = state.secrets.encrypt(sign::generate_secret().as_bytes(), &context(merchant_id))?;
            sqlx::query(
                "INSERT INTO webhook_secrets (merchant_id, secret_enc, rotated_at) VALUES ($1, $2, $3)
                 ON CONFLICT (merchant_id) DO NOTHING",
            )
            .bind(merchant_id)
            .bind(&sealed)
            .bind(now)
            .execute(&state.db.pool)
            .await?;
            // Another sender may have won the insert: use whatever is stored.
            sqlx::query_as(
                "SELECT secret_enc, previous_enc, previous_until FROM webhook_secrets WHERE merchant_id = $1",
            )
            .bind(merchant_id)
            .fetch_one(&state.db.pool)
            .await?
        }
    };
    let open = |sealed: &str| -> anyhow::Result<Vec<u8>> {
        let secret = String::from_utf8(state.secrets.decrypt(sealed, &context(merchant_id))?)?;
        sign::secret_key(&secret).ok_or_else(|| anyhow::anyhow!("a stored webhook secret is malformed"))
    };
    let mut keys = vec![open(&current)?];
    if let (Some(previous), Some(until)) = (previous, until)
        && until > now
    {
        keys.push(open(&previous)?);
    }
    Ok(keys)
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct RotateSecretRequest {
    /// The caller's current password.
    #[schema(value_type = String, required = true, min_length = 1)]
    pub password: Option<String>,
    /// A two-factor code (authenticator or backup code), required when two-factor is on.
    #[schema(value_type = Option<String>)]
    pub code: Option<Value>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RotateSecretResponse {
    /// `whsec_` + base64 of 32 random bytes: shown this once, never again.
    pub webhook_secret: String,
    /// Until when (RFC 3339) the previous secret, if there was one, signs as well.
    pub previous_valid_until: Option<String>,
}

/// Merchants: a new webhook signing secret, shown once. The previous one keeps signing as
/// a second signature for 24 hours. Needs the current password, and a two-factor code
/// when two-factor is on.
#[utoipa::path(post, path = "/adminapi/notify/rotateSecret", tag = "notify", request_body = RotateSecretRequest,
    responses((status = 200, description = "`data` is a RotateSecretResponse", body = RotateSecretResponse),
        (status = 400, description = "40000: password missing"),
        (status = 401, description = "40110: two-factor code wrong or missing"),
        (status = 403, description = "40300: the current password is wrong (`data.fields.password`), or an administrator (no webhook secret)"),
        (status = 429, description = "42900: too many wrong passwords or codes")),
    security(("token" = [])))]
pub async fn rotate_secret(
    State(state): State<AppState>,
    user: CurrentUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<RotateSecretRequest>,
) -> ApiResult<RotateSecretResponse> {
    let Some(merchant_id) = user.merchant_id else { return Err(AppError::PermissionDenied) };
    let pool = &state.db.pool;
    let password = request.password.unwrap_or_default();
    if password.is_empty() {
        return Err(AppError::field("password", Message::UserCentre(UserCentreMessage::CurrentPasswordRequired)));
    }
    if !crate::identity::throttle::verify_current_password(
        pool,
        &state.config.throttle,
        &state.hasher,
        user.user_id,
        &password,
    )
    .await?
    {
        return Err(AppError::forbidden_on("password", Message::UserCentre(UserCentreMessage::CurrentPasswordWrong)));
    }
    let address_text = address.to_string();
    let secret = sign::generate_secret();
    let sealed = state.secrets.encrypt(secret.as_bytes(), &context(merchant_id))?;
    let now = now_millis();
    let until = now + OVERLAP_MILLIS;
    // With two-factor on, the code is spent in the same transaction as the rotation.
    let check = CodeCheck {
        state: &state,
        user_id: user.user_id,
        client_address: &address_text,
        purpose: "rotate_webhook_secret",
        wrong: Message::TwoFactorCodeWrong,
        sign_in_agent: None,
    };
    let (mut transaction, confirmed) = if store::find_enabled(pool, &state.secrets, user.user_id).await?.is_some() {
        let not_enabled = AppError::TwoFactorCodeWrong(Message::TwoFactorCodeWrong);
        (check.confirm_enabled(request.code.as_ref(), not_enabled).await?, true)
    } else {
        (state.db.begin_write().await?, false)
    };
    let had_previous = store_rotation(&mut transaction, merchant_id, &sealed, now, until).await?;
    // The audit record and the notices commit with the rotation: neither is lost to a failure
    // after the commit, nor written for a rotation that did not commit.
    let target = audit::target::merchant(merchant_id);
    let (actor, event) = (Some(user.user_id), action::WEBHOOK_SECRET_ROTATED);
    audit::record_on(&mut *transaction, actor, event, &target, "", &address_text).await?;
    {
        use crate::identity::security_history::{self as history, kind};
        let detail = crate::i18n::security::SecurityDetail::None;
        let event =
            history::Event::by(&user, kind::WEBHOOK_SECRET_ROTATED, detail, &address_text).in_merchant(merchant_id);
        history::record(&mut *transaction, &event).await?;
    }
    tell_merchant(&mut transaction, merchant_id, until, &address_text).await?;
    transaction.commit().await?;
    if confirmed {
        check.succeeded().await?;
    }
    Ok(ApiOk(RotateSecretResponse {
        webhook_secret: secret,
        previous_valid_until: had_previous.then(|| crate::platform::db::millis_to_rfc3339(until)),
    }))
}

/// Makes `sealed` the current secret and the current one the previous; whether there was one.
async fn store_rotation(
    connection: &mut AnyConnection,
    merchant_id: i64,
    sealed: &str,
    now: i64,
    until: i64,
) -> Result<bool, sqlx::Error> {
    let updated = sqlx::query(
        "UPDATE webhook_secrets SET previous_enc = secret_enc, previous_until = $1, secret_enc = $2, rotated_at = $3
         WHERE merchant_id = $4",
    )
    .bind(until)
    .bind(sealed)
    .bind(now)
    .bind(merchant_id)
    .execute(&mut *connection)
    .await?;
    if updated.rows_affected() == 1 {
        return Ok(true);
    }
    sqlx::query("INSERT INTO webhook_secrets (merchant_id, secret_enc, rotated_at) VALUES ($1, $2, $3)")
        .bind(merchant_id)
        .bind(sealed)
        .bind(now)
        .execute(&mut *connection)
        .await?;
    Ok(false)
}

async fn tell_merchant(
    connection: &mut AnyConnection,
    merchant_id: i64,
    until: i64,
    address: &str,
) -> Result<(), AppError> {
    use crate::i18n::notices::Notice;
    use crate::identity::user_centre::inbox::{Notification, notify_merchant};
    let content =
        Notice::WebhookSecretRotatedDetail { until: crate::domain::beijing_time(until), address: address.to_string() }
            .stored();
    let (title, sub_title) = (Notice::WebhookSecretRotated.stored(), Notice::Integration.stored());
    let notification = Notification::notice(&title, &sub_title, &content, 2);
    notify_merchant(connection, merchant_id, notification).await?;
    Ok(())
}
