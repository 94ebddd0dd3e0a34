//! Checking a submitted two-factor code, the same way for enable, sign-in, disable and
//! regenerate:
//!
//! 1. A user whose codes are locked gets 42900 and the code is not even looked at.
//! 2. Anything but a JSON string of 6 ASCII digits (or 8, where backup codes count) is
//!    refused with the endpoint's one wrong-code answer, never a type error.
//! 3. A wrong code counts against the user's failure counter (authenticator and backup
//!    codes together; it lives in the database under the user's id, so new sessions or
//!    sign-ins do not reset it). As for passwords, the lock is no weapon against the
//!    owner: an address the user signed in from lately has a counter of its own, so
//!    codes guessed from elsewhere (every other address shares one counter, so moving
//!    does not reset it) never lock the user out where they always work. Past the first
//!    free failures the user must wait before the next code, longer each time; reaching
//!    the limit locks.
//! 4. A right code is spent inside the caller's transaction, next to what it
//!    authorises, so of parallel requests with one code exactly one succeeds. A backup
//!    code's use goes to the audit trail in that transaction too.
//!
//! A right code that was already used (a replay, or the loser of a race) gets the same
//! answer but is not counted: it is not a guess, and counting it would let a
//! double-click lock the user out.

use super::{backup_codes, store, totp};
use crate::http::error::AppError;
use crate::i18n::Message;
use crate::i18n::audit::AuditDetail;
use crate::identity::throttle;
use crate::platform::audit::{self, action};
use crate::platform::db::now_millis;
use crate::platform::state::AppState;
use serde_json::Value;
use sqlx::{Any, Transaction};

/// A code as the user sent it, once its shape is known to be right.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SubmittedCode {
    Authenticator(String),
    Backup(String),
}

/// Reads `code` as sent. Surrounding spaces are forgiven; everything else that is not
/// exactly 6 or 8 ASCII digits is `None`, whatever its JSON type.
pub fn parse_code(value: Option<&Value>) -> Option<SubmittedCode> {
    let Some(Value::String(text)) = value else { return None };
    let text = text.trim();
    if !text.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    match text.len() {
        len if len == totp::DIGITS as usize => Some(SubmittedCode::Authenticator(text.to_string())),
        backup_codes::LENGTH => Some(SubmittedCode::Backup(text.to_string())),
        _ => None,
    }
}

/// What a right code was, so it can be spent.
#[derive(Debug, Clone, Copy)]
pub enum AcceptedCode {
    /// An authenticator code of this 30-second step.
    Step(i64),
    /// The backup code stored under this id.
    BackupCode(i64),
}

/// What a code is checked against.
pub struct CodeTarget<'a> {
    pub secret: &'a [u8],
    /// Steps up to this one were used already.
    pub last_used_step: i64,
    /// Whether 8-digit backup codes are accepted (not while enabling: there are none yet).
    pub accepts_backup_codes: bool,
}

/// One code check for one user and endpoint.
pub struct CodeCheck<'a> {
    pub state: &'a AppState,
    pub user_id: i64,
    pub client_address: &'a str,
    /// The operation, for the audit trail: "enable", "login", "disable", "regenerate".
    pub purpose: &'static str,
    /// The endpoint's one answer for every kind of wrong code.
    pub wrong: Message,
    /// A sign-in's code: its browser. A wrong code (or the lock it causes) then goes into
    /// the security history too; None for codes asked by a signed-in user.
    pub sign_in_agent: Option<&'a str>,
}

impl<'a> From<&'a store::EnabledTwoFactor> for CodeTarget<'a> {
    fn from(enabled: &'a store::EnabledTwoFactor) -> Self {
        Self { secret: &enabled.secret, last_used_step: enabled.last_used_step, accepts_backup_codes: true }
    }
}

impl CodeCheck<'_> {
    /// For an operation on two-factor that is on: checks `code` (authenticator or
    /// backup) and opens the transaction that spends it, for the caller to add the
    /// operation to and commit. `when_off` is the answer if two-factor is off.
    pub async fn confirm_enabled(
        &self,
        code: Option<&Value>,
        when_off: AppError,
    ) -> Result<Transaction<'static, Any>, AppError> {
        let pool = &self.state.db.pool;
        let Some(enabled) = store::find_enabled(pool, &self.state.secrets, self.user_id).await? else {
            return Err(when_off);
        };
        let accepted = self.accept(&CodeTarget::from(&enabled), code).await?;
        self.spend(pool.begin().await?, accepted).await
    }

    /// The counter this check's failures go to: the user's own address's, when the user
    /// signed in from it lately (`throttle::is_known_address`), or the one every other
    /// address shares.
    async fn throttle_key(&self) -> Result<String, AppError> {
        let shared = format!("two_factor:{}", self.user_id);
        let Ok(address) = self.client_address.parse::<std::net::IpAddr>() else { return Ok(shared) };
        let address_key = throttle::address_key(address);
        if throttle::is_known_address(&self.state.db.pool, self.user_id, &address_key).await? {
            Ok(format!("{shared}@{}", address_key.trim_start_matches("address:")))
        } else {
            Ok(shared)
        }
    }

    /// An audit row of this check about the user's own account: what the code was asked for.
    async fn audit<'e, E: sqlx::Executor<'e, Database = Any>>(
        &self,
        executor: E,
        event: &str,
    ) -> Result<(), sqlx::Error> {
        let detail = AuditDetail::TwoFactorCode { purpose: self.purpose.to_string() };
        let target = audit::target::user(self.user_id);
        audit::record_detail(executor, Some(self.user_id), event, &target, &detail, self.client_address).await
    }

    fn wrong_code(&self) -> AppError {
        AppError::TwoFactorCodeWrong(self.wrong.clone())
    }

    /// Steps 1 to 3 of the module comment: an accepted code, or the error to answer.
    pub async fn accept(&self, target: &CodeTarget<'_>, submitted: Option<&Value>) -> Result<AcceptedCode, AppError> {
        let pool = &self.state.db.pool;
        if let Err(locked) = throttle::ensure_not_locked(pool, &[self.throttle_key().await?]).await {
            self.audit(pool, action::TWO_FACTOR_THROTTLED).await?;
            return Err(locked);
        }
        let accepted = match parse_code(submitted) {
            None => return Err(self.wrong_code()),
            Some(SubmittedCode::Authenticator(code)) => {
                let now_seconds = u64::try_from(now_millis() / 1000).unwrap_or_default();
                match totp::verify(target.secret, &code, now_seconds).and_then(|step| i64::try_from(step).ok()) {
                    Some(step) if step > target.last_used_step => Some(AcceptedCode::Step(step)),
                    Some(_) => return Err(self.wrong_code()),
                    None => None,
                }
            }
            Some(SubmittedCode::Backup(_)) if !target.accepts_backup_codes => return Err(self.wrong_code()),
            Some(SubmittedCode::Backup(code)) => {
                match backup_codes::find(pool, &self.state.secrets, self.user_id, &code).await? {
                    Some(matched) if matched.already_used => return Err(self.wrong_code()),
                    Some(matched) => Some(AcceptedCode::BackupCode(matched.id)),
                    None => None,
                }
            }
        };
        match accepted {
            Some(accepted) => Ok(accepted),
            None => Err(self.count_failure().await?),
        }
    }

    /// Counts a wrong code; the error to answer says whether this one locked the user.
    async fn count_failure(&self) -> Result<AppError, AppError> {
        let pool = &self.state.db.pool;
        let policy = &self.state.config.throttle;
        let key = self.throttle_key().await?;
        let counted = throttle::record_failure(pool, policy, &key, policy.two_factor_max_failures).await?;
        if counted.locked_for.is_none() {
            // Not locked yet: past the free failures, the next code must wait (the
            // attempt that comes too early gets "too many attempts" with the wait).
            let wait =
                throttle::backoff_after(counted.failures, policy.two_factor_free_failures, policy.two_factor_backoff);
            throttle::hold_off(pool, &key, wait).await?;
        }
        self.audit(pool, action::TWO_FACTOR_FAILED).await?;
        if let Some(agent) = self.sign_in_agent {
            use crate::i18n::security::{FailureReason, SecurityDetail};
            use crate::identity::security_history::{self as history, Browser, Event, Whose, kind};
            let reason = FailureReason::TwoFactorCode;
            let (kind, detail) = match counted.locked_for {
                Some(retry_after_seconds) => {
                    (kind::SIGN_IN_LOCKED, SecurityDetail::Locked { reason, retry_after_seconds })
                }
                None => (kind::SIGN_IN_FAILED, SecurityDetail::Failed { reason }),
            };
            let event = Event {
                user_id: self.user_id,
                whose: Whose::Actor,
                kind,
                detail,
                address: self.client_address,
                browser: Browser::Agent(agent),
            };
            history::record(pool, &event).await?;
        }
        Ok(match counted.locked_for {
            Some(retry_after_seconds) => AppError::TooManyAttempts { retry_after_seconds },
            None => self.wrong_code(),
        })
    }

    /// Spends an accepted code inside `transaction`. If a parallel request spent it
    /// first, the transaction is rolled back and the wrong-code answer returned.
    ///
    /// On SQLite the spend should be the transaction's first write, or close to it:
    /// nothing else may write through the pool while the transaction is open.
    pub async fn spend(
        &self,
        mut transaction: Transaction<'static, Any>,
        accepted: AcceptedCode,
    ) -> Result<Transaction<'static, Any>, AppError> {
        let spent = match accepted {
            AcceptedCode::Step(step) => store::spend_step(&mut transaction, self.user_id, step).await?,
            AcceptedCode::BackupCode(id) => {
                let spent = backup_codes::spend(&mut transaction, self.user_id, id, now_millis()).await?;
                // In the trail exactly when the code's use commits, before what it authorised.
                if spent {
                    self.audit(&mut *transaction, action::BACKUP_CODE_USED).await?;
                }
                spent
            }
        };
        if spent {
            Ok(transaction)
        } else {
            transaction.rollback().await?;
            Err(self.wrong_code())
        }
    }

    /// After the transaction committed: forgives earlier failures.
    pub async fn succeeded(&self) -> Result<(), AppError> {
        throttle::clear(&self.state.db.pool, &self.throttle_key().await?).await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_strings_of_six_or_eight_ascii_digits_are_codes() {
        assert_eq!(parse_code(Some(&json!("123456"))), Some(SubmittedCode::Authenticator("123456".into())));
        assert_eq!(parse_code(Some(&json!(" 123456 "))), Some(SubmittedCode::Authenticator("123456".into())));
        assert_eq!(parse_code(Some(&json!("12345678"))), Some(SubmittedCode::Backup("12345678".into())));
        for bad in [
            json!(""),
            json!("12345"),
            json!("1234567"),
            json!("123456789"),
            json!("12a456"),
            json!("１２３４５６"),
            json!("١٢٣٤٥٦"),
            json!("123 456"),
            json!(123456),
            json!(null),
            json!(["123456"]),
            json!({"code": "123456"}),
            json!(true),
        ] {
            assert_eq!(parse_code(Some(&bad)), None, "{bad}");
        }
        assert_eq!(parse_code(None), None);
    }
}
