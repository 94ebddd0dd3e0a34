//! Passwords: the password rule as a validated type, and argon2id hashing.

use crate::i18n::Message;
use argon2::Argon2;
use argon2::password_hash::{PasswordHasher as _, PasswordVerifier as _, phc::PasswordHash};
use std::sync::{Arc, LazyLock};
use tokio::sync::Semaphore;

pub const MIN_PASSWORD_LENGTH: usize = 6;
pub const MAX_PASSWORD_LENGTH: usize = 128;

/// A password that satisfies the rule: at least 6 characters of digits, letters and
/// non-space printable ASCII specials, with at least one digit, one upper and one
/// lower case letter.
#[derive(Clone)]
pub struct NewPassword(String);

impl std::fmt::Debug for NewPassword {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("NewPassword(***)")
    }
}

impl NewPassword {
    pub fn parse(candidate: &str) -> Result<Self, Message> {
        let length = candidate.chars().count();
        if length < MIN_PASSWORD_LENGTH {
            return Err(Message::PasswordTooShort { min: MIN_PASSWORD_LENGTH });
        }
        if length > MAX_PASSWORD_LENGTH {
            return Err(Message::PasswordTooLong { max: MAX_PASSWORD_LENGTH });
        }
        if !candidate.chars().all(|character| character.is_ascii_graphic()) {
            return Err(Message::PasswordInvalidCharacter);
        }
        let has_digit = candidate.chars().any(|character| character.is_ascii_digit());
        let has_upper = candidate.chars().any(|character| character.is_ascii_uppercase());
        let has_lower = candidate.chars().any(|character| character.is_ascii_lowercase());
        if !(has_digit && has_upper && has_lower) {
            return Err(Message::PasswordWeak);
        }
        Ok(Self(candidate.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Hashes and verifies on the blocking pool, at most one per core at a time, so a
/// burst of sign-ins cannot starve the request handlers of CPU.
#[derive(Clone)]
pub struct PasswordHasher {
    permits: Arc<Semaphore>,
}

/// A hash of a password nobody knows: verifying against it when the account does not
/// exist makes "unknown user" cost the same time as "wrong password".
static DECOY_HASH: LazyLock<String> =
    LazyLock::new(|| hash_now("decoy password that never matches").expect("hashing a constant cannot fail"));

fn hash_now(password: &str) -> anyhow::Result<String> {
    Argon2::default()
        .hash_password(password.as_bytes())
        .map(|hash| hash.to_string())
        .map_err(|error| anyhow::anyhow!("argon2 hashing failed: {error}"))
}

fn verify_now(password: &str, stored_hash: &str) -> bool {
    match PasswordHash::new(stored_hash) {
        Ok(parsed) => Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok(),
        Err(_) => false,
    }
}

impl Default for PasswordHasher {
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map(|count| count.get()).unwrap_or(2);
        Self { permits: Arc::new(Semaphore::new(cores)) }
    }
}

impl PasswordHasher {
    pub async fn hash(&self, password: &NewPassword) -> anyhow::Result<String> {
        let _permit = self.permits.acquire().await?;
        let password = password.0.clone();
        tokio::task::spawn_blocking(move || hash_now(&password)).await?
    }

    /// Verifies `password` against `stored_hash`, or against the decoy when there is no
    /// account, so both failures take the same time.
    pub async fn verify(&self, password: &str, stored_hash: Option<&str>) -> anyhow::Result<bool> {
        let _permit = self.permits.acquire().await?;
        let password = password.to_string();
        let known = stored_hash.is_some();
        let stored_hash = stored_hash.map(str::to_string);
        let matched = tokio::task::spawn_blocking(move || match stored_hash {
            Some(hash) => verify_now(&password, &hash),
            None => verify_now(&password, &DECOY_HASH),
        })
        .await?;
        Ok(known && matched)
    }

    /// Computes the decoy hash ahead of the first sign-in.
    pub fn warm_up(&self) {
        tokio::task::spawn_blocking(|| LazyLock::force(&DECOY_HASH));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule_of_section_five() {
        assert!(NewPassword::parse("Admin123").is_ok());
        assert!(NewPassword::parse("aB3!x#").is_ok());
        assert_eq!(NewPassword::parse("aB3").unwrap_err(), Message::PasswordTooShort { min: 6 });
        assert_eq!(NewPassword::parse("abcdef1").unwrap_err(), Message::PasswordWeak);
        assert_eq!(NewPassword::parse("ABCDEF1").unwrap_err(), Message::PasswordWeak);
        assert_eq!(NewPassword::parse("Abcdefg").unwrap_err(), Message::PasswordWeak);
        assert_eq!(NewPassword::parse("Abc 123").unwrap_err(), Message::PasswordInvalidCharacter);
        assert_eq!(NewPassword::parse("Abc密码123").unwrap_err(), Message::PasswordInvalidCharacter);
        let long = format!("Aa1{}", "x".repeat(MAX_PASSWORD_LENGTH));
        assert_eq!(NewPassword::parse(&long).unwrap_err(), Message::PasswordTooLong { max: 128 });
    }

    #[test]
    fn debug_output_hides_the_password() {
        let password = NewPassword::parse("Secret123").unwrap();
        assert!(!format!("{password:?}").contains("Secret123"));
    }

    #[tokio::test]
    async fn hashes_are_argon2id_and_verify() {
        let hasher = PasswordHasher::default();
        let password = NewPassword::parse("Merchant123").unwrap();
        let hash = hasher.hash(&password).await.unwrap();
        assert!(hash.starts_with("$argon2id$"));
        assert!(hasher.verify("Merchant123", Some(&hash)).await.unwrap());
        assert!(!hasher.verify("merchant123", Some(&hash)).await.unwrap());
        assert!(!hasher.verify("Merchant123", None).await.unwrap());
        assert!(!hasher.verify("Merchant123", Some("not a hash")).await.unwrap());
    }
}
