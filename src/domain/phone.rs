//! Mainland mobile numbers and the carrier their number segment was allocated to.
//!
//! The segment table is the public allocation of 2024 (shared/spec/domain-notes.md).
//! Number portability exists, so the carrier found here is a sanity check for the
//! product a merchant picked, never proof: the refusal message says so.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Carrier {
    /// 中国移动 China Mobile
    Mobile,
    /// 中国联通 China Unicom
    Unicom,
    /// 中国电信 China Telecom
    Telecom,
    /// 中国广电 China Broadnet (no products yet; numbers are recognised)
    Broadnet,
}

impl Carrier {
    /// The integer stored in the database.
    pub fn code(self) -> i64 {
        match self {
            Carrier::Mobile => 1,
            Carrier::Unicom => 2,
            Carrier::Telecom => 3,
            Carrier::Broadnet => 4,
        }
    }

    pub fn from_code(code: i64) -> Option<Self> {
        match code {
            1 => Some(Carrier::Mobile),
            2 => Some(Carrier::Unicom),
            3 => Some(Carrier::Telecom),
            4 => Some(Carrier::Broadnet),
            _ => None,
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "mobile" => Some(Carrier::Mobile),
            "unicom" => Some(Carrier::Unicom),
            "telecom" => Some(Carrier::Telecom),
            "broadnet" => Some(Carrier::Broadnet),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Carrier::Mobile => "mobile",
            Carrier::Unicom => "unicom",
            Carrier::Telecom => "telecom",
            Carrier::Broadnet => "broadnet",
        }
    }
}

/// An 11-digit mainland mobile number with the carrier of its segment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhoneNumber {
    digits: String,
    carrier: Carrier,
}

impl PhoneNumber {
    /// Accepts 11 digits starting with 1 from an allocated segment, written as people
    /// type and paste them: full-width digits and signs (what a Chinese input method
    /// gives), spaces of any kind and dashes between digits, and a leading +86, 0086 or
    /// 86, bare or in parentheses. Dots are refused: a number with dots is more often a
    /// spreadsheet's float (`1.38001E10`) than a way of writing it.
    pub fn parse(text: &str) -> Option<Self> {
        let compact: String = text.chars().filter(|c| !is_separator(*c)).map(half_width).collect();
        let digits = strip_country_prefix(&compact)?;
        if digits.len() != 11 || !digits.starts_with('1') || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let carrier = carrier_of_segment(&digits[..4])?;
        Some(Self { digits: digits.to_string(), carrier })
    }

    /// An account as it is stored and compared: the 11 digits of a number in any spelling
    /// the parser reads, anything else as typed (trimmed).
    pub fn stored_form(text: &str) -> String {
        let text = text.trim();
        Self::parse(text).map_or_else(|| text.to_string(), |number| number.as_str().to_string())
    }

    pub fn as_str(&self) -> &str {
        &self.digits
    }

    /// The digits of a number being typed: 7 to 11 of them, in any spelling `parse` reads,
    /// starting with an allocated segment (a full number is better read with `parse`). The
    /// add-order form looks a number's place up as soon as its segment is complete.
    pub fn typed_digits(text: &str) -> Option<String> {
        let compact: String = text.chars().filter(|c| !is_separator(*c)).map(half_width).collect();
        let digits = strip_country_prefix(&compact)?;
        let valid = (7..=11).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit());
        (valid && digits.starts_with('1') && carrier_of_segment(&digits[..4]).is_some()).then(|| digits.to_string())
    }

    /// The digits of a number or a part of one in any spelling `parse` reads (full-width,
    /// spaces and dashes, +86); None when anything else than digits is left.
    pub fn digits_as_typed(text: &str) -> Option<String> {
        let compact: String = text.chars().filter(|c| !is_separator(*c)).map(half_width).collect();
        let digits = strip_country_prefix(&compact)?;
        (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())).then(|| digits.to_string())
    }

    /// The carrier the segment rule gives the first digits of a number (at least four).
    pub fn segment_carrier(digits: &str) -> Option<Carrier> {
        carrier_of_segment(digits.get(..4)?)
    }

    pub fn carrier(&self) -> Carrier {
        self.carrier
    }
}

/// Spaces (ASCII, no-break, ideographic and every other Unicode space) and the dashes
/// people put between groups of digits.
fn is_separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, '-' | '\u{2010}'..='\u{2015}' | '\u{2212}' | '\u{FE63}' | '\u{FF0D}')
}

/// Full-width digits, plus sign and parentheses as their ASCII forms.
fn half_width(c: char) -> char {
    match c {
        '\u{FF10}'..='\u{FF19}' | '\u{FF0B}' | '\u{FF08}' | '\u{FF09}' => {
            char::from_u32(c as u32 - 0xFEE0).unwrap_or(c)
        }
        _ => c,
    }
}

/// The national number after a country prefix of China (`+86`, `0086`, `86`, each
/// possibly in parentheses); the text itself without one. `None`: another country's
/// prefix, or parentheses around anything but the prefix. A bare `86` is a prefix only
/// before 11 digits, so that no 11-digit number loses its first two.
fn strip_country_prefix(compact: &str) -> Option<&str> {
    if let Some(rest) = compact.strip_prefix('(') {
        let (prefix, national) = rest.split_once(')')?;
        return matches!(prefix, "+86" | "0086" | "86").then_some(national);
    }
    if let Some(national) = compact.strip_prefix("+86").or_else(|| compact.strip_prefix("0086")) {
        return Some(national);
    }
    Some(compact.strip_prefix("86").filter(|national| national.len() == 11).unwrap_or(compact))
}

/// The carrier of a four-digit prefix. Four-digit entries decide split segments.
fn carrier_of_segment(prefix: &str) -> Option<Carrier> {
    use Carrier::*;
    let four: u16 = prefix.parse().ok()?;
    let three = four / 10;
    let by_four = match four {
        1340..=1348 => Some(Mobile),
        1349 => Some(Telecom),
        1703 | 1705 | 1706 => Some(Mobile),
        1704 | 1707..=1709 => Some(Unicom),
        1700..=1702 => Some(Telecom),
        1740 => Some(Telecom),
        _ => None,
    };
    if by_four.is_some() {
        return by_four;
    }
    match three {
        135..=139 | 147 | 148 | 150..=152 | 157..=159 | 165 | 172 | 178 | 182..=184 | 187 | 188 | 195 | 197 | 198 => {
            Some(Mobile)
        }
        130..=132 | 145 | 146 | 155 | 156 | 166 | 167 | 171 | 175 | 176 | 185 | 186 | 196 => Some(Unicom),
        133 | 149 | 153 | 162 | 173 | 177 | 180 | 181 | 189 | 190 | 191 | 193 | 199 => Some(Telecom),
        192 => Some(Broadnet),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_name_their_carrier() {
        let carrier = |text: &str| PhoneNumber::parse(text).map(|number| number.carrier());
        assert_eq!(carrier("13800138000"), Some(Carrier::Mobile));
        assert_eq!(carrier("13400000000"), Some(Carrier::Mobile));
        assert_eq!(carrier("13490000000"), Some(Carrier::Telecom));
        assert_eq!(carrier("18600000000"), Some(Carrier::Unicom));
        assert_eq!(carrier("18900000000"), Some(Carrier::Telecom));
        assert_eq!(carrier("17030000000"), Some(Carrier::Mobile));
        assert_eq!(carrier("17040000000"), Some(Carrier::Unicom));
        assert_eq!(carrier("17000000000"), Some(Carrier::Telecom));
        assert_eq!(carrier("17400000000"), Some(Carrier::Telecom));
        assert_eq!(carrier("19200000000"), Some(Carrier::Broadnet));
    }

    #[test]
    fn pasted_and_typed_spellings_are_the_same_number() {
        let spellings = [
            "13900139000",
            " 13900139000 ",
            "139 0013 9000",
            "139-0013-9000",
            "139\u{3000}0013\u{3000}9000",
            "139\u{a0}0013\u{a0}9000",
            "139\u{ff0d}0013\u{ff0d}9000",
            "139\u{2013}0013\u{2013}9000",
            "+8613900139000",
            "+86 139 0013 9000",
            "+86-139-0013-9000",
            "8613900139000",
            "86 139 0013 9000",
            "008613900139000",
            "0086 139 0013 9000",
            "(+86) 139 0013 9000",
            "(86)13900139000",
            "\u{ff08}+86\u{ff09}13900139000",
            "\u{ff11}\u{ff13}\u{ff19}\u{ff10}\u{ff10}\u{ff11}\u{ff13}\u{ff19}\u{ff10}\u{ff10}\u{ff10}",
            "\u{ff0b}\u{ff18}\u{ff16} \u{ff11}\u{ff13}\u{ff19}\u{ff10}\u{ff10}\u{ff11}\u{ff13}\u{ff19}\u{ff10}\u{ff10}\u{ff10}",
        ];
        for text in spellings {
            let number = PhoneNumber::parse(text).unwrap_or_else(|| panic!("{text:?} should be read"));
            assert_eq!(number.as_str(), "13900139000", "{text:?}");
        }
    }

    #[test]
    fn junk_and_other_numbers_are_refused() {
        let refused = [
            "",
            "1380013800",
            "138001380000",
            "23800138000",
            "1380013800a",
            "abcdefghijk",
            "12000000000",
            "17410000000",
            "+85213800138000",
            "+852 1380 0138",
            "+8610 1234 5678",
            "+86 21 1234 5678",
            "+86 0755 1234 5678",
            "+861380013800",
            "138.0013.8000",
            "1.3800138E10",
            "(138) 0013 8000",
            "(+86 13800138000",
            "+ 8613800138000x",
            "86 138 0013 800",
        ];
        for text in refused {
            assert!(PhoneNumber::parse(text).is_none(), "{text:?} should be refused");
        }
    }

    #[test]
    fn numbers_being_typed_are_read_from_their_seventh_digit() {
        assert_eq!(PhoneNumber::typed_digits("1380013").as_deref(), Some("1380013"));
        assert_eq!(PhoneNumber::typed_digits("+86 138 0013 8").as_deref(), Some("13800138"));
        assert_eq!(PhoneNumber::typed_digits("\u{ff11}\u{ff13}\u{ff18}0013").as_deref(), Some("1380013"));
        assert_eq!(PhoneNumber::typed_digits("13800138000").as_deref(), Some("13800138000"));
        for refused in ["138001", "138001380001", "1200000", "2380013", "138.0013", "1380013a"] {
            assert_eq!(PhoneNumber::typed_digits(refused), None, "{refused:?}");
        }
        assert_eq!(PhoneNumber::segment_carrier("1860"), Some(Carrier::Unicom));
        assert_eq!(PhoneNumber::segment_carrier("186"), None);
    }

    #[test]
    fn carrier_codes_round_trip() {
        for carrier in [Carrier::Mobile, Carrier::Unicom, Carrier::Telecom, Carrier::Broadnet] {
            assert_eq!(Carrier::from_code(carrier.code()), Some(carrier));
            assert_eq!(Carrier::parse(carrier.as_str()), Some(carrier));
        }
    }
}
