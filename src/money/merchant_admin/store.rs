//! Storage of merchant administration: new merchants and users with temporary
//! passwords, names, the enabled flag. Each change is one transaction with its audit row and
//! the notices it gives.

use crate::http::error::AppError;
use crate::i18n::AdminMessage;
use crate::i18n::audit::AuditDetail;
use crate::i18n::notices::Notice;
use crate::identity::user_centre::inbox::{Notification, notify, notify_merchant};
use crate::identity::users::repository::{FIRST_MERCHANT_ID, NewMerchantUser, insert_merchant_user, username_taken};
use crate::platform::audit;
use crate::platform::db::now_millis;
use crate::platform::password::NewPassword;

/// Letters and digits that cannot be mistaken for one another when read aloud or copied
/// by hand (no 0/O, 1/l/I).
const TEMPORARY_ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789";
const TEMPORARY_LENGTH: usize = 12;

/// A random password meeting the password rule, shown once to the administrator.
pub fn temporary_password() -> NewPassword {
    loop {
        let mut bytes = [0u8; 64];
        rand::fill(&mut bytes);
        // Rejection sampling: bytes beyond the last whole multiple of the alphabet would bias it.
        let limit = 256 - 256 % TEMPORARY_ALPHABET.len();
        let text: String = bytes
            .iter()
            .filter(|byte| usize::from(**byte) < limit)
            .take(TEMPORARY_LENGTH)
            .map(|byte| char::from(TEMPORARY_ALPHABET[usize::from(*byte) % TEMPORARY_ALPHABET.len()]))
            .collect();
        if text.len() == TEMPORARY_LENGTH
            && let Ok(password) = NewPassword::parse(&text)
        {
            return password;
        }
    }
}

/// Who acts and from where, for the audit rows.
pub struct ActedBy<'a> {
    pub user_id: i64,
    /// The administrator's session (its browser goes into a merchant's security history).
    pub session_id: i64,
    pub address: &'a str,
}

/// Creates a merchant (the next free mid) and its first user. Returns (mid, user id).
pub async fn create_merchant(
    db: &crate::platform::db::Database,
    name: &str,
    user: NewMerchantUser<'_>,
    by: &ActedBy<'_>,
) -> Result<(i64, i64), AppError> {
    let mut transaction = db.begin_write().await?;
    if username_taken(&mut transaction, user.username).await? {
        return Err(AppError::conflict_on("username", AdminMessage::UsernameTaken));
    }
    let highest: Option<i64> = sqlx::query_scalar("SELECT MAX(id) FROM merchants").fetch_one(&mut *transaction).await?;
    let merchant_id = highest.map_or(FIRST_MERCHANT_ID, |highest| (highest + 1).max(FIRST_MERCHANT_ID));
    sqlx::query("INSERT INTO merchants (id, name, created_at) VALUES ($1, $2, $3)")
        .bind(merchant_id)
        .bind(name)
        .bind(now_millis())
        .execute(&mut *transaction)
        .await?;
    let user_id =
        insert_merchant_user(&mut transaction, &NewMerchantUser { merchant_id, ..user }, now_millis()).await?;
    let detail =
        AuditDetail::MerchantCreated { merchant_id, name: name.to_string(), username: user.username.to_string() };
    let target = audit::target::merchant(merchant_id);
    audit::record_detail(
        &mut *transaction,
        Some(by.user_id),
        audit::action::MERCHANT_CREATED,
        &target,
        &detail,
        by.address,
    )
    .await?;
    tell_temporary_password(&mut transaction, user_id).await?;
    transaction.commit().await?;
    Ok((merchant_id, user_id))
}

/// Adds a user to an existing merchant. Returns the user id.
pub async fn add_user(
    db: &crate::platform::db::Database,
    user: NewMerchantUser<'_>,
    by: &ActedBy<'_>,
) -> Result<i64, AppError> {
    let mut transaction = db.begin_write().await?;
    let user_id = insert_merchant_user(&mut transaction, &user, now_millis()).await?;
    let detail = AuditDetail::MerchantUserAdded { user_id, username: user.username.to_string() };
    let target = audit::target::merchant(user.merchant_id);
    audit::record_detail(
        &mut *transaction,
        Some(by.user_id),
        audit::action::MERCHANT_USER_ADDED,
        &target,
        &detail,
        by.address,
    )
    .await?;
    tell_temporary_password(&mut transaction, user_id).await?;
    transaction.commit().await?;
    Ok(user_id)
}

/// Renames a merchant; its users are told when the name changed.
pub async fn rename(
    db: &crate::platform::db::Database,
    merchant_id: i64,
    name: &str,
    by: &ActedBy<'_>,
) -> Result<(), AppError> {
    let mut transaction = db.begin_write().await?;
    let old: String = sqlx::query_scalar("SELECT name FROM merchants WHERE id = $1")
        .bind(merchant_id)
        .fetch_optional(&mut *transaction)
        .await?
        .ok_or(AppError::NotFound)?;
    sqlx::query("UPDATE merchants SET name = $1 WHERE id = $2")
        .bind(name)
        .bind(merchant_id)
        .execute(&mut *transaction)
        .await?;
    let detail = AuditDetail::MerchantRenamed { from: old.to_string(), to: name.to_string() };
    let target = audit::target::merchant(merchant_id);
    audit::record_detail(
        &mut *transaction,
        Some(by.user_id),
        audit::action::MERCHANT_UPDATED,
        &target,
        &detail,
        by.address,
    )
    .await?;
    if old != name {
        tell_merchant(&mut transaction, merchant_id, Notice::MerchantRenamed { name: name.to_string() }).await?;
    }
    transaction.commit().await?;
    Ok(())
}

/// A new temporary password: its user is told to change it.
async fn tell_temporary_password(connection: &mut sqlx::AnyConnection, user_id: i64) -> Result<(), sqlx::Error> {
    tell_user(connection, user_id, &Notice::PasswordReset, &Notice::ChangeTemporaryPassword).await
}

/// Tells every user of a merchant about a change to its account.
async fn tell_merchant(
    connection: &mut sqlx::AnyConnection,
    merchant_id: i64,
    content: Notice,
) -> Result<(), sqlx::Error> {
    let (account, content) = (Notice::MerchantAccount.stored(), content.stored());
    notify_merchant(connection, merchant_id, Notification::notice(&account, &account, &content, 2)).await
}

/// A notice in the user's message center, written in the change's transaction like its
/// audit row: neither is lost to a failure after the commit, nor written for a change that
/// did not commit.
async fn tell_user(
    connection: &mut sqlx::AnyConnection,
    user_id: i64,
    title: &Notice,
    content: &Notice,
) -> Result<(), sqlx::Error> {
    let (title, account, content) = (title.stored(), Notice::MerchantAccount.stored(), content.stored());
    notify(connection, user_id, Notification::notice(&title, &account, &content, 2)).await
}

/// Disables or enables a merchant. Disabling ends its users' sessions in the same
/// transaction. Returns whether anything changed (a repeated call changes nothing).
pub async fn set_enabled(
    db: &crate::platform::db::Database,
    merchant_id: i64,
    enabled: bool,
    by: &ActedBy<'_>,
) -> Result<bool, AppError> {
    let mut transaction = db.begin_write().await?;
    let current: Option<Option<i64>> = sqlx::query_scalar("SELECT disabled_at FROM merchants WHERE id = $1")
        .bind(merchant_id)
        .fetch_optional(&mut *transaction)
        .await?;
    let Some(disabled_at) = current else { return Err(AppError::NotFound) };
    if disabled_at.is_none() == enabled {
        return Ok(false);
    }
    let now = now_millis();
    sqlx::query("UPDATE merchants SET disabled_at = $1 WHERE id = $2")
        .bind(if enabled { None } else { Some(now) })
        .bind(merchant_id)
        .execute(&mut *transaction)
        .await?;
    let target = audit::target::merchant(merchant_id);
    let notice = if enabled {
        audit::record_on(&mut *transaction, Some(by.user_id), audit::action::MERCHANT_ENABLED, &target, "", by.address)
            .await?;
        Notice::MerchantEnabled
    } else {
        let ended = crate::identity::session::revoke_merchant_sessions(&mut *transaction, merchant_id).await?;
        let detail = AuditDetail::MerchantDisabled { sessions_ended: i64::try_from(ended).unwrap_or(i64::MAX) };
        let action = audit::action::MERCHANT_DISABLED;
        audit::record_detail(&mut *transaction, Some(by.user_id), action, &target, &detail, by.address).await?;
        // Read at the next sign-in, once enabled again: why the console refused meanwhile.
        Notice::MerchantDisabled
    };
    tell_merchant(&mut transaction, merchant_id, notice).await?;
    transaction.commit().await?;
    Ok(true)
}

/// Gives a merchant user a new temporary password and ends their sessions. Returns the
/// username.
pub async fn reset_password(
    db: &crate::platform::db::Database,
    user_id: i64,
    password_hash: &str,
    by: &ActedBy<'_>,
) -> Result<String, AppError> {
    let mut transaction = db.begin_write().await?;
    let row: Option<(String, Option<i64>)> = sqlx::query_as("SELECT username, merchant_id FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_optional(&mut *transaction)
        .await?;
    let Some((username, merchant_id)) = row else { return Err(AppError::NotFound) };
    if merchant_id.is_none() {
        // A well-formed id of the wrong kind of user: a rule beyond the document (422).
        return Err(AppError::unprocessable("user_id", AdminMessage::NotAMerchantUser));
    }
    let now = now_millis();
    sqlx::query(
        "UPDATE users SET password_hash = $1, password_changed_at = $2, must_change_password = 1 WHERE id = $3",
    )
    .bind(password_hash)
    .bind(now)
    .bind(user_id)
    .execute(&mut *transaction)
    .await?;
    sqlx::query("UPDATE sessions SET revoked_at = $1, revoked_reason = $2 WHERE user_id = $3 AND revoked_at IS NULL")
        .bind(now)
        .bind(crate::identity::session::revoke_reason::PASSWORD_RESET)
        .bind(user_id)
        .execute(&mut *transaction)
        .await?;
    let target = audit::target::user(user_id);
    let detail = AuditDetail::TemporaryPassword { username: username.clone() };
    let action = audit::action::PASSWORD_RESET;
    audit::record_detail(&mut *transaction, Some(by.user_id), action, &target, &detail, by.address).await?;
    {
        use crate::identity::security_history::{self as history, Browser, Whose, kind};
        let event = history::Event {
            user_id: by.user_id,
            whose: Whose::UserOf(user_id),
            kind: kind::PASSWORD_RESET,
            detail: crate::i18n::security::SecurityDetail::OfUser { username: username.clone() },
            address: by.address,
            browser: Browser::Session(by.session_id),
        };
        history::record(&mut *transaction, &event).await?;
    }
    tell_temporary_password(&mut transaction, user_id).await?;
    transaction.commit().await?;
    Ok(username)
}

/// The users of a merchant, by id.
pub async fn users_of(pool: &sqlx::AnyPool, merchant_id: i64) -> Result<Vec<sqlx::any::AnyRow>, sqlx::Error> {
    sqlx::query(
        "SELECT u.id, u.username, u.name, u.merchant_role, u.disabled_at, u.removed_at, u.must_change_password,
                u.created_at,
                (SELECT MAX(s.created_at) FROM sessions s WHERE s.user_id = u.id) AS last_sign_in,
                (SELECT COUNT(*) FROM two_factor t WHERE t.user_id = u.id) AS two_factor
         FROM users u WHERE u.merchant_id = $1 ORDER BY u.id",
    )
    .bind(merchant_id)
    .fetch_all(pool)
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_passwords_follow_the_rule_and_differ() {
        let first = temporary_password();
        let second = temporary_password();
        assert_eq!(first.as_str().len(), TEMPORARY_LENGTH);
        assert!(NewPassword::parse(first.as_str()).is_ok());
        assert_ne!(first.as_str(), second.as_str());
        assert!(first.as_str().bytes().all(|byte| TEMPORARY_ALPHABET.contains(&byte)));
    }
}
