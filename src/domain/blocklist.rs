//! The platform's blocklist of numbers (风控黑名单): whole numbers and number prefixes an
//! administrator has barred from top-ups (fraud, complaints, a carrier's request), each with
//! a reason. Held in memory (`platform::blocklist`) so placing checks a number without a
//! query; this file has no I/O.

use super::PhoneNumber;
use std::collections::HashSet;

/// The shortest prefix that may be barred: three digits name a segment (138), no less.
pub const MIN_PREFIX_DIGITS: usize = 3;

/// What a line of the blocklist bars: an 11-digit number, or every number starting with 3
/// to 10 digits.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockPattern(String);

impl BlockPattern {
    /// A number or prefix as people write it (+86, spaces, full-width digits); None for
    /// anything else, or a prefix shorter than [`MIN_PREFIX_DIGITS`].
    pub fn parse(text: &str) -> Option<Self> {
        let digits = PhoneNumber::digits_as_typed(text)?;
        let valid = (MIN_PREFIX_DIGITS..=11).contains(&digits.len()) && digits.starts_with('1');
        valid.then_some(Self(digits))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// A whole number rather than a prefix.
    pub fn is_number(&self) -> bool {
        self.0.len() == 11
    }
}

/// The blocklist as placing reads it.
#[derive(Debug, Default)]
pub struct BlockSet(HashSet<String>);

impl BlockSet {
    pub fn new(patterns: impl IntoIterator<Item = BlockPattern>) -> Self {
        Self(patterns.into_iter().map(|pattern| pattern.0).collect())
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The pattern that bars `account` (an order's stored account: 11 digits), if any: the
    /// number itself or one of its prefixes, at most nine look-ups.
    pub fn barring(&self, account: &str) -> Option<&str> {
        if self.0.is_empty() || account.len() != 11 || !account.is_ascii() {
            return None;
        }
        (MIN_PREFIX_DIGITS..=11).rev().find_map(|length| self.0.get(&account[..length]).map(String::as_str))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_are_read_as_people_write_numbers() {
        assert_eq!(BlockPattern::parse("+86 138 0013 8000").map(|p| p.0), Some("13800138000".into()));
        assert_eq!(BlockPattern::parse("１７０").map(|p| p.0), Some("170".into()));
        assert!(BlockPattern::parse("13800138000").unwrap().is_number());
        assert!(!BlockPattern::parse("1700").unwrap().is_number());
        for bad in ["", "13", "23800138000", "138001380001", "138x", "1.38E10"] {
            assert_eq!(BlockPattern::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_number_is_barred_by_itself_or_a_prefix() {
        let set = BlockSet::new(["13800138000", "170", "1390013"].map(|text| BlockPattern::parse(text).unwrap()));
        assert_eq!(set.barring("13800138000"), Some("13800138000"));
        assert_eq!(set.barring("17012345678"), Some("170"));
        assert_eq!(set.barring("13900130001"), Some("1390013"));
        assert_eq!(set.barring("13800138001"), None);
        assert_eq!(set.barring(""), None, "a card order without a number");
        assert_eq!(BlockSet::default().barring("17012345678"), None);
    }
}
