//! Secrets at rest: authenticated encryption and keyed hashing under a server key that
//! is never stored in the database.
//!
//! The key file holds 32 random bytes (base64). From it two keys are derived, one for
//! AES-256-GCM and one for HMAC-SHA256, so the same material is never used for two
//! purposes. Losing the file makes encrypted values unreadable: back it up with the
//! database, but never inside it.

use aes_gcm::aead::{Aead, KeyInit, Payload};
use aes_gcm::{Aes256Gcm, Nonce};
use anyhow::{Context, bail};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use std::path::Path;

pub const KEY_BYTES: usize = 32;
const NONCE_BYTES: usize = 12;
/// Prefix of every ciphertext, so a future key or algorithm change can be recognised.
const FORMAT_VERSION: &str = "v1:";

pub struct Secrets {
    cipher: Aes256Gcm,
    hashing_key: [u8; KEY_BYTES],
}

impl std::fmt::Debug for Secrets {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("Secrets(***)")
    }
}

fn derive(master: &[u8; KEY_BYTES], purpose: &[u8]) -> [u8; KEY_BYTES] {
    let mut mac = <Hmac<Sha256> as hmac::KeyInit>::new_from_slice(master).expect("HMAC takes any key length");
    mac.update(purpose);
    mac.finalize().into_bytes().into()
}

impl Secrets {
    pub fn from_master_key(master: &[u8; KEY_BYTES]) -> Self {
        let encryption_key = derive(master, b"backoffice encryption v1");
        Self {
            cipher: Aes256Gcm::new_from_slice(&encryption_key).expect("32-byte key"),
            hashing_key: derive(master, b"backoffice hashing v1"),
        }
    }

    /// Reads the key file, or creates it (readable by the owner only) if it is missing.
    pub fn load_or_create(path: &Path) -> anyhow::Result<Self> {
        if path.exists() {
            return Ok(Self::from_master_key(&read_master_key(path)?));
        }
        if let Some(parent) = path.parent().filter(|parent| !parent.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create the folder {}", parent.display()))?;
        }
        let master = new_master_key();
        write_key_file(path, &master)?;
        tracing::info!(path = %path.display(), "created a new secret key file; back it up with the database");
        Ok(Self::from_master_key(&master))
    }

    /// Encrypts `plaintext`, binding it to `context` (for example "totp:42"), so a
    /// ciphertext copied to another row or purpose fails to decrypt.
    pub fn encrypt(&self, plaintext: &[u8], context: &str) -> anyhow::Result<String> {
        let mut nonce_bytes = [0u8; NONCE_BYTES];
        rand::fill(&mut nonce_bytes);
        let nonce = Nonce::from(nonce_bytes);
        let ciphertext = self
            .cipher
            .encrypt(&nonce, Payload { msg: plaintext, aad: context.as_bytes() })
            .map_err(|_| anyhow::anyhow!("encryption failed"))?;
        let mut sealed = nonce_bytes.to_vec();
        sealed.extend_from_slice(&ciphertext);
        Ok(format!("{FORMAT_VERSION}{}", STANDARD.encode(sealed)))
    }

    pub fn decrypt(&self, sealed: &str, context: &str) -> anyhow::Result<Vec<u8>> {
        let Some(body) = sealed.strip_prefix(FORMAT_VERSION) else { bail!("unknown ciphertext format") };
        let bytes = STANDARD.decode(body).context("ciphertext is not base64")?;
        if bytes.len() < NONCE_BYTES {
            bail!("ciphertext too short");
        }
        let (nonce_bytes, ciphertext) = bytes.split_at(NONCE_BYTES);
        let nonce_array: [u8; NONCE_BYTES] = nonce_bytes.try_into().expect("split at the nonce length");
        self.cipher
            .decrypt(&Nonce::from(nonce_array), Payload { msg: ciphertext, aad: context.as_bytes() })
            .map_err(|_| anyhow::anyhow!("decryption failed: wrong key, context or tampered value"))
    }

    /// A keyed, salted hash (HMAC-SHA256 over salt and value), hex. Without the key file
    /// a stolen database cannot be searched for short values such as backup codes.
    pub fn keyed_hash(&self, salt: &[u8], value: &[u8]) -> String {
        let mut mac = <Hmac<Sha256> as hmac::KeyInit>::new_from_slice(&self.hashing_key).expect("any key length");
        mac.update(&(salt.len() as u64).to_be_bytes());
        mac.update(salt);
        mac.update(value);
        hex::encode(mac.finalize().into_bytes())
    }

    /// Compares `value` with a stored keyed hash in constant time.
    pub fn verify_keyed_hash(&self, salt: &[u8], value: &[u8], stored_hex: &str) -> bool {
        let Ok(stored) = hex::decode(stored_hex) else { return false };
        let mut mac = <Hmac<Sha256> as hmac::KeyInit>::new_from_slice(&self.hashing_key).expect("any key length");
        mac.update(&(salt.len() as u64).to_be_bytes());
        mac.update(salt);
        mac.update(value);
        mac.verify_slice(&stored).is_ok()
    }
}

/// 32 fresh random bytes for a key file.
pub fn new_master_key() -> [u8; KEY_BYTES] {
    let mut master = [0u8; KEY_BYTES];
    rand::fill(&mut master);
    master
}

/// The master key held by a key file (base64 of 32 bytes).
pub fn read_master_key(path: &Path) -> anyhow::Result<[u8; KEY_BYTES]> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read the secret key file {}", path.display()))?;
    let bytes = STANDARD
        .decode(text.trim())
        .with_context(|| format!("the secret key file {} is not base64", path.display()))?;
    bytes
        .try_into()
        .map_err(|_| anyhow::anyhow!("the secret key file {} must hold exactly {KEY_BYTES} bytes", path.display()))
}

/// Writes a new key file (it must not exist yet), readable by the owner only, and syncs
/// it to disk before returning: a key file that a crash can lose is no key file.
pub fn write_key_file(path: &Path, master: &[u8; KEY_BYTES]) -> anyhow::Result<()> {
    write_owner_only(path, STANDARD.encode(master).as_bytes())
}

#[cfg(unix)]
fn write_owner_only(path: &Path, contents: &[u8]) -> anyhow::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .with_context(|| format!("cannot create the secret key file {}", path.display()))?;
    file.write_all(contents)?;
    file.sync_all()?;
    Ok(())
}

#[cfg(not(unix))]
fn write_owner_only(path: &Path, contents: &[u8]) -> anyhow::Result<()> {
    std::fs::write(path, contents).with_context(|| format!("cannot create {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secrets() -> Secrets {
        Secrets::from_master_key(&[7u8; KEY_BYTES])
    }

    #[test]
    fn encryption_round_trips_and_binds_the_context() {
        let secrets = secrets();
        let sealed = secrets.encrypt(b"JBSWY3DPEHPK3PXP", "totp:1").unwrap();
        assert!(!sealed.contains("JBSWY3DPEHPK3PXP"));
        assert_eq!(secrets.decrypt(&sealed, "totp:1").unwrap(), b"JBSWY3DPEHPK3PXP");
        assert!(secrets.decrypt(&sealed, "totp:2").is_err());
        assert_ne!(sealed, secrets.encrypt(b"JBSWY3DPEHPK3PXP", "totp:1").unwrap(), "nonces must differ");
        let other_key = Secrets::from_master_key(&[8u8; KEY_BYTES]);
        assert!(other_key.decrypt(&sealed, "totp:1").is_err());
        let mut tampered = sealed.clone();
        tampered.pop();
        tampered.push(if sealed.ends_with('A') { 'B' } else { 'A' });
        assert!(secrets.decrypt(&tampered, "totp:1").is_err());
        assert!(secrets.decrypt("garbage", "totp:1").is_err());
    }

    #[test]
    fn keyed_hashes_depend_on_salt_value_and_key() {
        let secrets = secrets();
        let hash = secrets.keyed_hash(b"salt", b"12345678");
        assert!(secrets.verify_keyed_hash(b"salt", b"12345678", &hash));
        assert!(!secrets.verify_keyed_hash(b"salt", b"12345679", &hash));
        assert!(!secrets.verify_keyed_hash(b"tlas", b"12345678", &hash));
        assert_ne!(hash, Secrets::from_master_key(&[8u8; KEY_BYTES]).keyed_hash(b"salt", b"12345678"));
        assert!(!secrets.verify_keyed_hash(b"salt", b"12345678", "not hex"));
    }

    #[test]
    fn the_key_file_is_created_once_and_reused() {
        let directory = tempfile::tempdir().unwrap();
        let path = directory.path().join("keys/secret.key");
        let first = Secrets::load_or_create(&path).unwrap();
        let sealed = first.encrypt(b"value", "ctx").unwrap();
        let second = Secrets::load_or_create(&path).unwrap();
        assert_eq!(second.decrypt(&sealed, "ctx").unwrap(), b"value");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        }
        std::fs::write(&path, "short").unwrap();
        assert!(Secrets::load_or_create(&path).is_err());
    }
}
