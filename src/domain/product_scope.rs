//! A product's speed and sales area: how long a top-up may take (fast 快充: minutes; slow
//! 慢充: up to days, cheaper) and which provinces it may be sold in (national, or a set of
//! provinces by their GB/T 2260 codes). Parsed once at the edge; placing checks a number's
//! province against the scope in memory.

use std::fmt;

/// How fast the supplier tops up, which sets the order's deadline: `fast` (快充, minutes)
/// or `slow` (慢充, up to days, cheaper).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Speed {
    #[default]
    Fast,
    Slow,
}

impl Speed {
    pub const ALL: [Speed; 2] = [Speed::Fast, Speed::Slow];

    pub fn code(self) -> i64 {
        match self {
            Speed::Fast => 1,
            Speed::Slow => 2,
        }
    }

    pub fn from_code(code: i64) -> Option<Self> {
        Self::ALL.into_iter().find(|speed| speed.code() == code)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Speed::Fast => "fast",
            Speed::Slow => "slow",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|speed| speed.as_str() == text)
    }
}

/// The 34 provincial divisions' GB/T 2260 codes (31 on the mainland, then Hong Kong, Macao
/// and Taiwan, which mainland numbers never belong to but a table may name).
pub const PROVINCE_CODES: [u32; 34] = [
    110000, 120000, 130000, 140000, 150000, 210000, 220000, 230000, 310000, 320000, 330000, 340000, 350000, 360000,
    370000, 410000, 420000, 430000, 440000, 450000, 460000, 500000, 510000, 520000, 530000, 540000, 610000, 620000,
    630000, 640000, 650000, 710000, 810000, 820000,
];

/// Where a product may be sold: everywhere, or in these provinces (sorted, no repeats).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Scope(Vec<u32>);

impl Scope {
    pub fn national() -> Self {
        Self(Vec::new())
    }

    pub fn is_national(&self) -> bool {
        self.0.is_empty()
    }

    pub fn provinces(&self) -> &[u32] {
        &self.0
    }

    /// A scope from province codes; None when one is not a province's code. An empty list
    /// is national.
    pub fn of(codes: impl IntoIterator<Item = u32>) -> Option<Self> {
        let mut codes: Vec<u32> = codes.into_iter().collect();
        if codes.iter().any(|code| !PROVINCE_CODES.contains(code)) {
            return None;
        }
        codes.sort_unstable();
        codes.dedup();
        Some(Self(codes))
    }

    /// The stored form: codes joined by commas, empty for national.
    pub fn stored(&self) -> String {
        self.to_string()
    }

    /// From the stored form; None when it holds something else than province codes.
    pub fn from_stored(text: &str) -> Option<Self> {
        if text.trim().is_empty() {
            return Some(Self::national());
        }
        let codes = text.split(',').map(|code| code.trim().parse::<u32>().ok()).collect::<Option<Vec<u32>>>()?;
        Self::of(codes)
    }

    /// Whether a number of `province` (None: its segment is not in the table) may be sold
    /// this product. A provincial product needs a known province.
    pub fn admits(&self, province: Option<u32>) -> bool {
        self.is_national() || province.is_some_and(|code| self.0.binary_search(&code).is_ok())
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, code) in self.0.iter().enumerate() {
            if index > 0 {
                f.write_str(",")?;
            }
            write!(f, "{code}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_are_stored_sorted_and_read_back() {
        let scope = Scope::of([440000, 330000, 440000]).unwrap();
        assert_eq!(scope.stored(), "330000,440000");
        assert_eq!(Scope::from_stored("330000,440000"), Some(scope.clone()));
        assert_eq!(Scope::from_stored(""), Some(Scope::national()));
        assert_eq!(Scope::from_stored("440100"), None, "a city is not a province");
        assert_eq!(Scope::from_stored("44,x"), None);
    }

    #[test]
    fn a_provincial_scope_admits_only_its_provinces_and_needs_a_known_one() {
        let scope = Scope::of([440000]).unwrap();
        assert!(scope.admits(Some(440000)));
        assert!(!scope.admits(Some(330000)));
        assert!(!scope.admits(None));
        assert!(Scope::national().admits(None));
        assert!(Scope::national().admits(Some(110000)));
    }

    #[test]
    fn speeds_round_trip() {
        for speed in Speed::ALL {
            assert_eq!(Speed::from_code(speed.code()), Some(speed));
            assert_eq!(Speed::parse(speed.as_str()), Some(speed));
        }
        assert_eq!(Speed::from_code(0), None);
    }
}
