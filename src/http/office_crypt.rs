//! Password-protected Office files: an xlsx package encrypted the way Excel and WPS encrypt
//! a workbook "with a password to open" (ECMA-376 Agile Encryption, MS-OFFCRYPTO): the
//! package is encrypted with AES-256-CBC under a random key, that key is encrypted under a
//! key derived from the password (SHA-512, 100,000 rounds), and both go into an OLE compound
//! file as the `EncryptedPackage` and `EncryptionInfo` streams, with the `\x06DataSpaces`
//! storage that names the transform. An HMAC-SHA512 over the encrypted package lets a reader
//! notice tampering. Excel asks for the password when opening such a file.
//!
//! Only writing is here; the tests read the files back with an independent implementation.

use aes::Aes256;
use aes::cipher::{BlockCipherEncrypt, KeyInit};
use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use hmac::{Hmac, Mac};
use rand::RngExt;
use sha2::{Digest, Sha512};
use std::io::{Cursor, Write};

/// Rounds of the password hash: what Office itself writes.
const SPIN_COUNT: u32 = 100_000;
const SALT_SIZE: usize = 16;
const BLOCK_SIZE: usize = 16;
const KEY_SIZE: usize = 32;
/// The package is encrypted in segments of this size, each with its own IV.
const SEGMENT: usize = 4096;

// The block keys of MS-OFFCRYPTO: which derived key or IV serves which purpose.
const VERIFIER_INPUT_BLOCK: [u8; 8] = [0xfe, 0xa7, 0xd2, 0x76, 0x3b, 0x4b, 0x9e, 0x79];
const VERIFIER_HASH_BLOCK: [u8; 8] = [0xd7, 0xaa, 0x0f, 0x6d, 0x30, 0x61, 0x34, 0x4e];
const KEY_VALUE_BLOCK: [u8; 8] = [0x14, 0x6e, 0x0b, 0xe7, 0xab, 0xac, 0xd0, 0xd6];
const HMAC_KEY_BLOCK: [u8; 8] = [0x5f, 0xb2, 0xad, 0x01, 0x0c, 0xb9, 0xe1, 0xf6];
const HMAC_VALUE_BLOCK: [u8; 8] = [0xa0, 0x67, 0x7f, 0x02, 0xb2, 0x2c, 0x84, 0x33];

/// Encrypts an xlsx (or any OOXML package) under `password`: the bytes of the compound
/// file to save as `.xlsx`. CPU-bound (the password hash): call it off the async threads.
pub fn encrypt_package(package: &[u8], password: &str) -> anyhow::Result<Vec<u8>> {
    let mut random = rand::rng();
    let key_data_salt: [u8; SALT_SIZE] = random.random();
    let password_salt: [u8; SALT_SIZE] = random.random();
    let secret_key: [u8; KEY_SIZE] = random.random();
    let verifier_input: [u8; SALT_SIZE] = random.random();
    let hmac_key: [u8; 64] = {
        let mut key = [0u8; 64];
        random.fill(&mut key[..]);
        key
    };

    let password_hash = iterated_password_hash(password, &password_salt);
    let encrypt_with_password =
        |block: &[u8; 8], data: &[u8]| aes_cbc(&derived_key(&password_hash, block), &password_salt, data);
    let encrypted_verifier_input = encrypt_with_password(&VERIFIER_INPUT_BLOCK, &verifier_input);
    let encrypted_verifier_hash = encrypt_with_password(&VERIFIER_HASH_BLOCK, &Sha512::digest(verifier_input));
    let encrypted_key = encrypt_with_password(&KEY_VALUE_BLOCK, &secret_key);

    let encrypted_package = encrypt_segments(package, &secret_key, &key_data_salt);
    let mut mac = <Hmac<Sha512> as KeyInit>::new_from_slice(&hmac_key)?;
    mac.update(&encrypted_package);
    let hmac_value = mac.finalize().into_bytes();
    let encrypted_hmac_key = aes_cbc(&secret_key, &block_iv(&key_data_salt, &HMAC_KEY_BLOCK), &hmac_key);
    let encrypted_hmac_value = aes_cbc(&secret_key, &block_iv(&key_data_salt, &HMAC_VALUE_BLOCK), &hmac_value);

    let descriptor = EncryptionDescriptor {
        key_data_salt: &key_data_salt,
        password_salt: &password_salt,
        encrypted_hmac_key: &encrypted_hmac_key,
        encrypted_hmac_value: &encrypted_hmac_value,
        encrypted_verifier_input: &encrypted_verifier_input,
        encrypted_verifier_hash: &encrypted_verifier_hash,
        encrypted_key: &encrypted_key,
    };
    compound_file(&descriptor.encryption_info(), &encrypted_package)
}

/// H(salt + UTF-16LE password), then SPIN_COUNT rounds of H(round number + previous).
fn iterated_password_hash(password: &str, salt: &[u8]) -> [u8; 64] {
    let utf16: Vec<u8> = password.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let mut hash: [u8; 64] = Sha512::new().chain_update(salt).chain_update(&utf16).finalize().into();
    for round in 0..SPIN_COUNT {
        hash = Sha512::new().chain_update(round.to_le_bytes()).chain_update(hash).finalize().into();
    }
    hash
}

/// The AES key of one purpose: H(password hash + block key), cut to the key size.
fn derived_key(password_hash: &[u8; 64], block: &[u8; 8]) -> [u8; KEY_SIZE] {
    let full = Sha512::new().chain_update(password_hash).chain_update(block).finalize();
    let mut key = [0u8; KEY_SIZE];
    key.copy_from_slice(&full[..KEY_SIZE]);
    key
}

/// An IV: H(salt + block), cut to the block size.
fn block_iv(salt: &[u8], block: &[u8]) -> [u8; BLOCK_SIZE] {
    let full = Sha512::new().chain_update(salt).chain_update(block).finalize();
    let mut iv = [0u8; BLOCK_SIZE];
    iv.copy_from_slice(&full[..BLOCK_SIZE]);
    iv
}

/// AES-256-CBC without padding: `data` is zero-filled to whole blocks (the format stores
/// the true length of the package itself, and every other value is whole blocks already).
fn aes_cbc(key: &[u8; KEY_SIZE], iv: &[u8; BLOCK_SIZE], data: &[u8]) -> Vec<u8> {
    let cipher = Aes256::new(key.into());
    let mut previous = *iv;
    let mut out = Vec::with_capacity(data.len().div_ceil(BLOCK_SIZE) * BLOCK_SIZE);
    for chunk in data.chunks(BLOCK_SIZE) {
        let mut block = [0u8; BLOCK_SIZE];
        block[..chunk.len()].copy_from_slice(chunk);
        for (byte, chained) in block.iter_mut().zip(previous) {
            *byte ^= chained;
        }
        let mut block = block.into();
        cipher.encrypt_block(&mut block);
        previous = block.into();
        out.extend_from_slice(&previous);
    }
    out
}

/// The `EncryptedPackage` stream: the package's length (8 bytes, little-endian), then each
/// 4096-byte segment encrypted with the IV H(key data salt + segment number).
fn encrypt_segments(package: &[u8], secret_key: &[u8; KEY_SIZE], key_data_salt: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(8 + package.len() + BLOCK_SIZE);
    out.extend_from_slice(&(package.len() as u64).to_le_bytes());
    for (index, segment) in package.chunks(SEGMENT).enumerate() {
        let iv = block_iv(key_data_salt, &(index as u32).to_le_bytes());
        out.extend_from_slice(&aes_cbc(secret_key, &iv, segment));
    }
    out
}

struct EncryptionDescriptor<'a> {
    key_data_salt: &'a [u8],
    password_salt: &'a [u8],
    encrypted_hmac_key: &'a [u8],
    encrypted_hmac_value: &'a [u8],
    encrypted_verifier_input: &'a [u8],
    encrypted_verifier_hash: &'a [u8],
    encrypted_key: &'a [u8],
}

impl EncryptionDescriptor<'_> {
    /// The `EncryptionInfo` stream: version 4.4, flags 0x40 (agile), then the XML.
    fn encryption_info(&self) -> Vec<u8> {
        let b64 = |bytes: &[u8]| BASE64.encode(bytes);
        let cipher = r#"saltSize="16" blockSize="16" keyBits="256" hashSize="64" cipherAlgorithm="AES" cipherChaining="ChainingModeCBC" hashAlgorithm="SHA512""#;
        let xml = format!(
            concat!(
                "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\r\n",
                "<encryption xmlns=\"http://schemas.microsoft.com/office/2006/encryption\" ",
                "xmlns:p=\"http://schemas.microsoft.com/office/2006/keyEncryptor/password\" ",
                "xmlns:c=\"http://schemas.microsoft.com/office/2006/keyEncryptor/certificate\">",
                "<keyData {cipher} saltValue=\"{key_salt}\"/>",
                "<dataIntegrity encryptedHmacKey=\"{hmac_key}\" encryptedHmacValue=\"{hmac_value}\"/>",
                "<keyEncryptors><keyEncryptor uri=\"http://schemas.microsoft.com/office/2006/keyEncryptor/password\">",
                "<p:encryptedKey spinCount=\"{spin}\" {cipher} saltValue=\"{password_salt}\" ",
                "encryptedVerifierHashInput=\"{verifier_input}\" encryptedVerifierHashValue=\"{verifier_hash}\" ",
                "encryptedKeyValue=\"{key_value}\"/>",
                "</keyEncryptor></keyEncryptors></encryption>"
            ),
            cipher = cipher,
            key_salt = b64(self.key_data_salt),
            hmac_key = b64(self.encrypted_hmac_key),
            hmac_value = b64(self.encrypted_hmac_value),
            spin = SPIN_COUNT,
            password_salt = b64(self.password_salt),
            verifier_input = b64(self.encrypted_verifier_input),
            verifier_hash = b64(self.encrypted_verifier_hash),
            key_value = b64(self.encrypted_key),
        );
        let mut info = Vec::with_capacity(8 + xml.len());
        info.extend_from_slice(&4u16.to_le_bytes());
        info.extend_from_slice(&4u16.to_le_bytes());
        info.extend_from_slice(&0x40u32.to_le_bytes());
        info.extend_from_slice(xml.as_bytes());
        info
    }
}

/// UTF-16LE of `text`, as the data-space structures write names.
fn utf16(text: &str) -> Vec<u8> {
    text.encode_utf16().flat_map(u16::to_le_bytes).collect()
}

/// A length-prefixed UTF-16 string padded to 4 bytes (MS-OFFCRYPTO's UNICODE-LP-P4).
fn lp_p4(text: &str) -> Vec<u8> {
    let bytes = utf16(text);
    let mut out = (bytes.len() as u32).to_le_bytes().to_vec();
    out.extend_from_slice(&bytes);
    out.resize(out.len().div_ceil(4) * 4, 0);
    out
}

const TRANSFORM_ID: &str = "{FF9A3F03-56EF-4613-BDD5-5A41C1D07246}";

/// The `\x06DataSpaces` streams: the package is transformed by strong encryption.
fn data_spaces() -> [(&'static str, Vec<u8>); 4] {
    let version = |feature: &str| {
        let mut out = lp_p4(feature);
        for _ in 0..3 {
            out.extend_from_slice(&[1, 0, 0, 0]); // reader, updater, writer versions 1.0
        }
        out
    };
    let map_entry = {
        let mut entry = 1u32.to_le_bytes().to_vec(); // one reference component
        entry.extend_from_slice(&0u32.to_le_bytes()); // a stream
        entry.extend_from_slice(&lp_p4("EncryptedPackage"));
        entry.extend_from_slice(&lp_p4("StrongEncryptionDataSpace"));
        let mut sized = ((entry.len() + 4) as u32).to_le_bytes().to_vec();
        sized.extend_from_slice(&entry);
        sized
    };
    let mut map = 8u32.to_le_bytes().to_vec();
    map.extend_from_slice(&1u32.to_le_bytes());
    map.extend_from_slice(&map_entry);
    let mut space = 8u32.to_le_bytes().to_vec();
    space.extend_from_slice(&1u32.to_le_bytes());
    space.extend_from_slice(&lp_p4("StrongEncryptionTransform"));
    let mut header = 1u32.to_le_bytes().to_vec(); // transform type: password
    header.extend_from_slice(&lp_p4(TRANSFORM_ID));
    let mut primary = ((header.len() + 4) as u32).to_le_bytes().to_vec();
    primary.extend_from_slice(&header);
    primary.extend_from_slice(&lp_p4("Microsoft.Container.EncryptionTransform"));
    for _ in 0..3 {
        primary.extend_from_slice(&[1, 0, 0, 0]);
    }
    primary.extend_from_slice(&[0; 12]); // no cipher name, block size or mode: EncryptionInfo says
    primary.extend_from_slice(&4u32.to_le_bytes());
    [
        ("/\u{6}DataSpaces/Version", version("Microsoft.Container.DataSpaces")),
        ("/\u{6}DataSpaces/DataSpaceMap", map),
        ("/\u{6}DataSpaces/DataSpaceInfo/StrongEncryptionDataSpace", space),
        ("/\u{6}DataSpaces/TransformInfo/StrongEncryptionTransform/\u{6}Primary", primary),
    ]
}

fn compound_file(encryption_info: &[u8], encrypted_package: &[u8]) -> anyhow::Result<Vec<u8>> {
    let mut file = cfb::CompoundFile::create_with_version(cfb::Version::V3, Cursor::new(Vec::new()))?;
    file.create_storage_all("/\u{6}DataSpaces/DataSpaceInfo")?;
    file.create_storage_all("/\u{6}DataSpaces/TransformInfo/StrongEncryptionTransform")?;
    for (path, content) in data_spaces() {
        file.create_stream(path)?.write_all(&content)?;
    }
    file.create_stream("/EncryptionInfo")?.write_all(encryption_info)?;
    file.create_stream("/EncryptedPackage")?.write_all(encrypted_package)?;
    file.flush()?;
    Ok(file.into_inner().into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn workbook() -> Vec<u8> {
        let mut workbook = rust_xlsxwriter::Workbook::new();
        let sheet = workbook.add_worksheet();
        // Text that does not compress away, so the package spans several segments.
        for row in 0..400u32 {
            let noise: String = Sha512::digest(row.to_le_bytes()).iter().map(|byte| format!("{byte:02x}")).collect();
            sheet.write_string(row, 0, format!("卡密 {row} {noise}")).unwrap();
        }
        workbook.save_to_buffer().unwrap()
    }

    #[test]
    fn an_independent_reader_decrypts_it_with_the_password_only() {
        let package = workbook();
        assert!(package.len() > 3 * SEGMENT, "several segments, the last one partial");
        let encrypted = encrypt_package(&package, "Secret123汉").unwrap();
        assert_eq!(encrypted[..8], [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], "an OLE compound file");
        let decrypted = office_crypto::decrypt_from_bytes(encrypted.clone(), "Secret123汉").unwrap();
        assert_eq!(decrypted, package);
        // That reader does not check the password's verifier: a wrong one gives noise.
        for wrong in ["Secret124汉", "Secret123", ""] {
            let opened = office_crypto::decrypt_from_bytes(encrypted.clone(), wrong).ok();
            assert!(opened.is_none_or(|noise| !noise.starts_with(b"PK")), "{wrong}");
        }
    }

    #[test]
    fn the_compound_file_holds_the_streams_office_expects() {
        let encrypted = encrypt_package(b"PK tiny", "Secret123").unwrap();
        let mut file = cfb::CompoundFile::open(Cursor::new(encrypted)).unwrap();
        for path in
            ["/EncryptionInfo", "/EncryptedPackage", "/\u{6}DataSpaces/DataSpaceMap", "/\u{6}DataSpaces/Version"]
        {
            assert!(file.is_stream(path), "{path}");
        }
        let mut info = Vec::new();
        std::io::Read::read_to_end(&mut file.open_stream("/EncryptionInfo").unwrap(), &mut info).unwrap();
        assert_eq!(info[..8], [4, 0, 4, 0, 0x40, 0, 0, 0], "version 4.4, agile");
        let xml = String::from_utf8(info[8..].to_vec()).unwrap();
        for expected in ["keyBits=\"256\"", "hashAlgorithm=\"SHA512\"", "spinCount=\"100000\"", "ChainingModeCBC"] {
            assert!(xml.contains(expected), "{expected}: {xml}");
        }
        let mut package = Vec::new();
        std::io::Read::read_to_end(&mut file.open_stream("/EncryptedPackage").unwrap(), &mut package).unwrap();
        assert_eq!(package[..8], 7u64.to_le_bytes(), "the true length first");
        assert_eq!(package.len(), 8 + 16, "one block");
    }

    #[test]
    fn salts_and_keys_are_fresh_each_time() {
        let first = encrypt_package(b"same", "Secret123").unwrap();
        let second = encrypt_package(b"same", "Secret123").unwrap();
        assert_ne!(first, second);
    }
}
