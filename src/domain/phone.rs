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

    pub fn zh_name(self) -> &'static str {
        match self {
            Carrier::Mobile => "中国移动",
            Carrier::Unicom => "中国联通",
            Carrier::Telecom => "中国电信",
            Carrier::Broadnet => "中国广电",
        }
    }

    pub fn en_name(self) -> &'static str {
        match self {
            Carrier::Mobile => "China Mobile",
            Carrier::Unicom => "China Unicom",
            Carrier::Telecom => "China Telecom",
            Carrier::Broadnet => "China Broadnet",
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
    /// Accepts 11 digits starting with 1 (spaces and dashes between digits, and a
    /// leading +86 or 86, are tolerated as people paste them) from an allocated segment.
    pub fn parse(text: &str) -> Option<Self> {
        let compact: String = text.trim().chars().filter(|c| *c != ' ' && *c != '-').collect();
        let digits = compact
            .strip_prefix("+86")
            .or_else(|| compact.strip_prefix("86").filter(|rest| rest.len() == 11))
            .unwrap_or(&compact);
        if digits.len() != 11 || !digits.starts_with('1') || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let carrier = carrier_of_segment(&digits[..4])?;
        Some(Self { digits: digits.to_string(), carrier })
    }

    pub fn as_str(&self) -> &str {
        &self.digits
    }

    pub fn carrier(&self) -> Carrier {
        self.carrier
    }
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
    fn pasted_forms_are_tolerated_and_junk_refused() {
        assert_eq!(PhoneNumber::parse(" 138-0013-8000 ").unwrap().as_str(), "13800138000");
        assert_eq!(PhoneNumber::parse("+8613800138000").unwrap().as_str(), "13800138000");
        assert_eq!(PhoneNumber::parse("8613800138000").unwrap().as_str(), "13800138000");
        for bad in ["", "1380013800", "138001380000", "23800138000", "1380013800a", "12000000000", "17410000000"] {
            assert!(PhoneNumber::parse(bad).is_none(), "{bad} should be refused");
        }
    }

    #[test]
    fn carrier_codes_round_trip() {
        for carrier in [Carrier::Mobile, Carrier::Unicom, Carrier::Telecom, Carrier::Broadnet] {
            assert_eq!(Carrier::from_code(carrier.code()), Some(carrier));
            assert_eq!(Carrier::parse(carrier.as_str()), Some(carrier));
        }
    }
}
