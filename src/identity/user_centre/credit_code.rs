//! Check characters of enterprise identifiers: the 18-character unified social credit
//! code (GB 32100-2015), which replaced the organisation code, and the 9-character
//! organisation code itself (GB 11714-1997), still printed on older licences.

/// The 31 characters of a credit code, in value order (no I, O, S, V, Z).
const CREDIT_CODE_CHARACTERS: &[u8; 31] = b"0123456789ABCDEFGHJKLMNPQRTUWXY";

/// Whether `code` is a unified social credit code with the right check character:
/// 18 characters from the code's alphabet, the last equal to
/// `31 - Σ value(cᵢ)·3ⁱ⁻¹ mod 31` over the first 17 (31 written as 0). Uppercase only;
/// callers uppercase what a person typed.
pub fn is_unified_social_credit_code(code: &str) -> bool {
    let bytes = code.as_bytes();
    if bytes.len() != 18 {
        return false;
    }
    let value = |byte: u8| CREDIT_CODE_CHARACTERS.iter().position(|&candidate| candidate == byte);
    let mut sum = 0;
    let mut weight = 1;
    for &byte in &bytes[..17] {
        let Some(value) = value(byte) else { return false };
        sum += value * weight;
        weight = weight * 3 % 31;
    }
    let check = (31 - sum % 31) % 31;
    value(bytes[17]) == Some(check)
}

/// Whether `code` is an organisation code (`12345678-X` or `12345678X`) with the right
/// check character: `11 - Σ value(cᵢ)·wᵢ mod 11`, 10 written X and 11 written 0.
pub fn is_organization_code(code: &str) -> bool {
    let compact: Vec<u8> = match code.as_bytes() {
        [body @ .., b'-', check] if body.len() == 8 => body.iter().copied().chain([*check]).collect(),
        bytes => bytes.to_vec(),
    };
    if compact.len() != 9 {
        return false;
    }
    const WEIGHTS: [u32; 8] = [3, 7, 9, 10, 5, 8, 4, 2];
    let mut sum = 0;
    for (&byte, weight) in compact[..8].iter().zip(WEIGHTS) {
        let value = match byte {
            b'0'..=b'9' => u32::from(byte - b'0'),
            b'A'..=b'Z' => u32::from(byte - b'A') + 10,
            _ => return false,
        };
        sum += value * weight;
    }
    let expected = match 11 - sum % 11 {
        10 => b'X',
        11 => b'0',
        digit => b'0' + digit as u8,
    };
    compact[8] == expected
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Codes printed on real business licences (public registry entries).
    const VALID: [&str; 5] =
        ["91350100M000100Y43", "91110000802100433B", "91440300708461136T", "9144030071526726XG", "91110108551385082Q"];

    #[test]
    fn real_credit_codes_pass() {
        for code in VALID {
            assert!(is_unified_social_credit_code(code), "{code}");
        }
    }

    #[test]
    fn corrupted_credit_codes_fail() {
        for code in VALID {
            // Any one character changed breaks the check.
            let mut bytes = code.as_bytes().to_vec();
            bytes[5] = if bytes[5] == b'1' { b'2' } else { b'1' };
            assert!(!is_unified_social_credit_code(std::str::from_utf8(&bytes).unwrap()), "{code}");
            // Two neighbours swapped, a classic typing slip.
            let mut bytes = code.as_bytes().to_vec();
            bytes.swap(2, 3);
            if bytes[2] != bytes[3] {
                assert!(!is_unified_social_credit_code(std::str::from_utf8(&bytes).unwrap()), "{code}");
            }
        }
        for code in
            ["x", "X", "", "91350100M000100Y4", "91350100M000100Y433", "91350100m000100y43", "91350100I000100Y43"]
        {
            assert!(!is_unified_social_credit_code(code), "{code}");
        }
    }

    #[test]
    fn organisation_codes_carry_a_check_character() {
        // The organisation code inside 91350100M000100Y43 is M000100Y4.
        assert!(is_organization_code("M000100Y4"));
        assert!(is_organization_code("M000100Y-4"));
        assert!(is_organization_code("80210043-3"));
        assert!(!is_organization_code("M000100Y5"));
        assert!(!is_organization_code("x"));
        assert!(!is_organization_code("MA01ABCD3"));
    }
}
