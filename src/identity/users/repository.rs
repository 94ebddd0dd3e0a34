//! Storage of merchants and users.

use crate::http::error::AppError;
use crate::i18n::AdminMessage;
use crate::identity::permissions::MerchantRole;
use crate::identity::session::Account;
use crate::identity::session::Role;
use crate::platform::db::now_millis;
use crate::platform::password::{NewPassword, PasswordHasher};
use sqlx::{Any, AnyPool, Row, Transaction};

/// The first merchant id handed out; ids below are never used so that a mid is
/// recognisable at a glance.
pub const FIRST_MERCHANT_ID: i64 = 10001;

/// Longest username accepted, at sign-in and at creation.
pub const MAX_USERNAME_LENGTH: usize = 64;

/// A username as it is stored, from what was typed: trimmed, 1 to [`MAX_USERNAME_LENGTH`]
/// characters, no spaces inside; None otherwise.
pub fn username_input(text: &str) -> Option<&str> {
    let username = text.trim();
    let valid = !username.is_empty()
        && username.chars().count() <= MAX_USERNAME_LENGTH
        && !username.chars().any(char::is_whitespace);
    valid.then_some(username)
}

/// A new user of an existing merchant: its login name, display name, password hash and role.
pub struct NewMerchantUser<'a> {
    pub merchant_id: i64,
    pub username: &'a str,
    pub display_name: &'a str,
    pub password_hash: &'a str,
    pub role: MerchantRole,
    /// A temporary password an administrator set: changed at the first sign-in.
    pub must_change_password: bool,
}

/// Whether a user (removed ones too: their names stay taken) is called `username`.
/// The `merchant_role` column of a users row, which only `MerchantRole` writes: anything
/// else there is a fault in the database, not the caller's.
pub fn stored_role(row: &sqlx::any::AnyRow) -> Result<MerchantRole, AppError> {
    let text: String = row.try_get("merchant_role")?;
    MerchantRole::parse(&text).ok_or_else(|| AppError::Internal(anyhow::anyhow!("unknown merchant role {text:?}")))
}

pub async fn username_taken(transaction: &mut Transaction<'_, Any>, username: &str) -> Result<bool, AppError> {
    let taken: Option<i64> = sqlx::query_scalar("SELECT id FROM users WHERE lower(username) = lower($1)")
        .bind(username)
        .fetch_optional(&mut **transaction)
        .await?;
    Ok(taken.is_some())
}

/// Inserts a merchant's user in the caller's transaction; a taken username is 40900 (the
/// unique index settles a race).
pub async fn insert_merchant_user(
    transaction: &mut Transaction<'_, Any>,
    user: &NewMerchantUser<'_>,
    now: i64,
) -> Result<i64, AppError> {
    if username_taken(transaction, user.username).await? {
        return Err(AppError::conflict_on("username", AdminMessage::UsernameTaken));
    }
    sqlx::query_scalar(
        "INSERT INTO users (username, password_hash, role, merchant_id, name, password_changed_at, created_at,
                            must_change_password, merchant_role)
         VALUES ($1, $2, 'user', $3, $4, $5, $5, $6, $7) RETURNING id",
    )
    .bind(user.username)
    .bind(user.password_hash)
    .bind(user.merchant_id)
    .bind(user.display_name)
    .bind(now)
    .bind(i64::from(user.must_change_password))
    .bind(user.role.as_str())
    .fetch_one(&mut **transaction)
    .await
    .map_err(|error| match &error {
        sqlx::Error::Database(database_error) if database_error.is_unique_violation() => {
            AppError::conflict_on("username", AdminMessage::UsernameTaken)
        }
        _ => error.into(),
    })
}

pub struct StoredCredentials {
    pub account: Account,
    pub password_hash: String,
}

pub async fn find_credentials(pool: &AnyPool, username: &str) -> anyhow::Result<Option<StoredCredentials>> {
    let row = sqlx::query(
        // A removed user never signs in again: as if it did not exist.
        "SELECT id AS user_id, username, password_hash, role, merchant_id FROM users
         WHERE lower(username) = lower($1) AND removed_at IS NULL",
    )
    .bind(username)
    .fetch_optional(pool)
    .await?;
    let Some(row) = row else { return Ok(None) };
    Ok(Some(StoredCredentials { account: Account::from_row(&row)?, password_hash: row.try_get("password_hash")? }))
}

pub struct NewUser<'a> {
    pub username: &'a str,
    pub password: &'a NewPassword,
    pub role: Role,
    /// For a merchant user: the merchant's display name (a new merchant is created).
    pub merchant_name: Option<&'a str>,
    /// For a merchant user: use this mid instead of the next free one.
    pub merchant_id: Option<i64>,
    pub display_name: &'a str,
    /// The creation's audit record, written in its transaction: its detail (the command
    /// line's is `AuditDetail::CommandLine`). None for the demo's seeded accounts.
    pub recorded_as: Option<crate::i18n::audit::AuditDetail>,
}

#[derive(Debug, thiserror::Error)]
pub enum CreateUserError {
    #[error("a user named {0:?} already exists")]
    UsernameTaken(String),
    #[error("the username must be 1 to 64 characters without spaces")]
    InvalidUsername,
    #[error(transparent)]
    Storage(#[from] anyhow::Error),
}

impl From<sqlx::Error> for CreateUserError {
    fn from(error: sqlx::Error) -> Self {
        CreateUserError::Storage(error.into())
    }
}

/// Creates a user (and, for role user, its merchant) in one transaction.
/// Returns the user id and the merchant id if any.
pub async fn create_user(
    db: &crate::platform::db::Database,
    hasher: &PasswordHasher,
    new_user: NewUser<'_>,
) -> Result<(i64, Option<i64>), CreateUserError> {
    let username = username_input(new_user.username).ok_or(CreateUserError::InvalidUsername)?;
    let password_hash = hasher.hash(new_user.password).await?;
    let now = now_millis();
    // Reads then writes: on SQLite the write lock is taken first, so the order worker
    // writing meanwhile makes this wait instead of fail.
    let mut transaction = db.begin_write().await?;
    let taken: Option<i64> = sqlx::query_scalar("SELECT id FROM users WHERE lower(username) = lower($1)")
        .bind(username)
        .fetch_optional(&mut *transaction)
        .await?;
    if taken.is_some() {
        return Err(CreateUserError::UsernameTaken(username.to_string()));
    }
    let merchant_id = match new_user.role {
        Role::Admin => None,
        Role::User => {
            let merchant_id = match new_user.merchant_id {
                Some(id) => id,
                None => {
                    let highest: Option<i64> =
                        sqlx::query_scalar("SELECT MAX(id) FROM merchants").fetch_one(&mut *transaction).await?;
                    highest.map_or(FIRST_MERCHANT_ID, |highest| (highest + 1).max(FIRST_MERCHANT_ID))
                }
            };
            sqlx::query("INSERT INTO merchants (id, name, created_at) VALUES ($1, $2, $3)")
                .bind(merchant_id)
                .bind(new_user.merchant_name.unwrap_or(username))
                .bind(now)
                .execute(&mut *transaction)
                .await?;
            Some(merchant_id)
        }
    };
    let user_id: i64 = sqlx::query_scalar(
        "INSERT INTO users (username, password_hash, role, merchant_id, name, password_changed_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING id",
    )
    .bind(username)
    .bind(password_hash)
    .bind(new_user.role.as_str())
    .bind(merchant_id)
    .bind(new_user.display_name)
    .bind(now)
    .fetch_one(&mut *transaction)
    .await
    .map_err(|error| match &error {
        // Two creations racing for one name: the unique index decides.
        sqlx::Error::Database(database_error) if database_error.is_unique_violation() => {
            CreateUserError::UsernameTaken(username.to_string())
        }
        _ => CreateUserError::Storage(error.into()),
    })?;
    if let Some(detail) = &new_user.recorded_as {
        let (event, target) =
            (crate::platform::audit::action::USER_CREATED, crate::platform::audit::target::user(user_id));
        crate::platform::audit::record_detail(&mut *transaction, Some(user_id), event, &target, detail, "").await?;
    }
    transaction.commit().await?;
    Ok((user_id, merchant_id))
}
