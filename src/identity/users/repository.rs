//! Storage of merchants and users.

use crate::identity::session::Account;
use crate::identity::session::Role;
use crate::platform::db::now_millis;
use crate::platform::password::{NewPassword, PasswordHasher};
use sqlx::{AnyPool, Row};

/// The first merchant id handed out; ids below are never used so that a mid is
/// recognisable at a glance.
pub const FIRST_MERCHANT_ID: i64 = 10001;

/// Longest username accepted, at sign-in and at creation.
pub const MAX_USERNAME_LENGTH: usize = 64;

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
    let username = new_user.username.trim();
    if username.is_empty()
        || username.chars().count() > MAX_USERNAME_LENGTH
        || username.chars().any(char::is_whitespace)
    {
        return Err(CreateUserError::InvalidUsername);
    }
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
