//! Validated domain values, parsed once at the edge so that the rest of the code can
//! trust them: phone numbers and carriers, money, merchant order ids, order states.

pub mod blocklist;
pub mod phone;
pub mod product_scope;
pub mod risk;
pub mod segments;
pub mod windows;

pub use phone::{Carrier, PhoneNumber};
pub use product_scope::{Scope, Speed};
use serde::Serialize;

/// A product key as a person or a merchant's system typed it, in the catalogue's spelling.
/// The catalogue stores keys in capitals only (A-Z, 0-9, `-`, `_`), so `mobile-direct-10`
/// names MOBILE-DIRECT-10. Normalising the input keeps every lookup an exact match on the
/// stored key (the index serves it; comparing `LOWER(product_key)` would read every row).
pub fn product_key_input(text: &str) -> String {
    text.trim().to_ascii_uppercase()
}

/// An amount of money in fen (1 yuan = 100 fen). Money is never a float anywhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Money(i64);

/// Amounts above this are refused as input: a typo guard (100 million yuan), and it keeps
/// every sum of amounts far from overflowing.
pub const MAX_AMOUNT_FEN: i64 = 10_000_000_000;

impl Money {
    /// A positive amount an administrator may move at once.
    pub fn positive(fen: i64) -> Option<Self> {
        (1..=MAX_AMOUNT_FEN).contains(&fen).then_some(Self(fen))
    }

    /// A limit or figure that may be zero.
    pub fn non_negative(fen: i64) -> Option<Self> {
        (0..=MAX_AMOUNT_FEN).contains(&fen).then_some(Self(fen))
    }

    /// A signed adjustment: not zero, within the bounds either way.
    pub fn adjustment(fen: i64) -> Option<Self> {
        (fen != 0 && fen.abs() <= MAX_AMOUNT_FEN).then_some(Self(fen))
    }

    pub fn fen(self) -> i64 {
        self.0
    }
}

/// Yuan with two decimals for files people read ("12.30"); the API itself speaks fen.
pub fn yuan(fen: i64) -> String {
    let sign = if fen < 0 { "-" } else { "" };
    let abs = fen.unsigned_abs();
    format!("{sign}{}.{:02}", abs / 100, abs % 100)
}

/// Milliseconds as seconds with one decimal, rounded half up ("12.3"; 250 ms is "0.3"), as
/// the databases write them in the CSV they build (`db::dialect::duration_seconds`).
pub fn seconds(millis: i64) -> String {
    let sign = if millis < 0 { "-" } else { "" };
    let tenths = (millis.unsigned_abs() + 50) / 100;
    format!("{sign}{}.{}", tenths / 10, tenths % 10)
}

/// The merchant's own id for an order: unique per merchant, 1 to 64 characters of
/// letters, digits, `-`, `_` and `.` so that it survives files and URLs unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MerchantOrderId(String);

pub const MAX_MERCHANT_ORDER_ID_LENGTH: usize = 64;

impl MerchantOrderId {
    pub fn parse(text: &str) -> Option<Self> {
        let text = text.trim();
        let valid = !text.is_empty()
            && text.len() <= MAX_MERCHANT_ORDER_ID_LENGTH
            && text.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
        valid.then(|| Self(text.to_string()))
    }

    /// One the server makes when the merchant gives none: time plus randomness.
    pub fn generate(now_millis: i64) -> Self {
        Self(format!("M{now_millis}{:08}", rand::random::<u32>() % 100_000_000))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Order states. 2 and 3 are the spec's; 0, 1 and 4 are the in-flight states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OrderStatus {
    Pending = 0,
    Processing = 1,
    Success = 2,
    Failure = 3,
    ManualReview = 4,
    /// 已冲正: a success the supplier (or an administrator) reversed afterwards; the
    /// merchant was refunded. Final, like success and failure.
    Reversed = 5,
}

impl OrderStatus {
    pub const ALL: [OrderStatus; 6] = [
        OrderStatus::Pending,
        OrderStatus::Processing,
        OrderStatus::Success,
        OrderStatus::Failure,
        OrderStatus::ManualReview,
        OrderStatus::Reversed,
    ];

    pub fn code(self) -> i64 {
        self as i64
    }

    pub fn from_code(code: i64) -> Option<Self> {
        Self::ALL.into_iter().find(|status| status.code() == code)
    }

    pub fn is_final(self) -> bool {
        matches!(self, OrderStatus::Success | OrderStatus::Failure | OrderStatus::Reversed)
    }

    pub fn name(self) -> &'static str {
        match self {
            OrderStatus::Pending => "pending",
            OrderStatus::Processing => "processing",
            OrderStatus::Success => "success",
            OrderStatus::Failure => "failure",
            OrderStatus::ManualReview => "manual_review",
            OrderStatus::Reversed => "reversed",
        }
    }
}

/// The three order lists of the console.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum OrderKind {
    /// Direct phone credit, fulfilled by a channel.
    Ordinary,
    /// A prepaid card (number and password) delivered to the merchant.
    Card,
    /// A top-up for a third party, fulfilled by a person.
    Behalf,
}

impl OrderKind {
    pub const ALL: [OrderKind; 3] = [OrderKind::Ordinary, OrderKind::Card, OrderKind::Behalf];

    pub fn code(self) -> i64 {
        match self {
            OrderKind::Ordinary => 1,
            OrderKind::Card => 2,
            OrderKind::Behalf => 3,
        }
    }

    pub fn from_code(code: i64) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.code() == code)
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.as_str() == text)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            OrderKind::Ordinary => "ordinary",
            OrderKind::Card => "card",
            OrderKind::Behalf => "behalf",
        }
    }
}

/// What a product is: credit sent to a number, or a card secret delivered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ProductKind {
    Direct,
    Card,
}

impl ProductKind {
    pub fn code(self) -> i64 {
        match self {
            ProductKind::Direct => 1,
            ProductKind::Card => 2,
        }
    }

    pub fn from_code(code: i64) -> Option<Self> {
        match code {
            1 => Some(ProductKind::Direct),
            2 => Some(ProductKind::Card),
            _ => None,
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "direct" => Some(ProductKind::Direct),
            "card" => Some(ProductKind::Card),
            _ => None,
        }
    }
}

/// Days since 1970-01-01 in Beijing time (UTC+8): "today" for merchants is China's day.
pub fn beijing_day(millis: i64) -> i64 {
    (millis + BEIJING_OFFSET_MS).div_euclid(DAY_MS)
}

/// The first millisecond of a Beijing day.
pub fn beijing_day_start(day: i64) -> i64 {
    day * DAY_MS - BEIJING_OFFSET_MS
}

/// `YYYY-MM-DD` of a Beijing day.
pub fn beijing_date(day: i64) -> String {
    let date = time::Date::from_julian_day((day + 2_440_588) as i32).unwrap_or(time::Date::MIN);
    format!("{:04}-{:02}-{:02}", date.year(), u8::from(date.month()), date.day())
}

/// `YYYY-MM-DD HH:MM:SS` in Beijing time, for files people read.
pub fn beijing_time(millis: i64) -> String {
    let moment = time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(millis) * 1_000_000)
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH)
        .to_offset(time::macros::offset!(+8));
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02}:{:02}",
        moment.year(),
        u8::from(moment.month()),
        moment.day(),
        moment.hour(),
        moment.minute(),
        moment.second()
    )
}

pub const DAY_MS: i64 = 86_400_000;
const BEIJING_OFFSET_MS: i64 = 8 * 3_600_000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn product_keys_are_read_in_the_catalogues_capitals() {
        assert_eq!(product_key_input(" mobile-direct-10 "), "MOBILE-DIRECT-10");
        assert_eq!(product_key_input("Unicom_Card-50"), "UNICOM_CARD-50");
        // Only ASCII letters change: anything else is left for the lookup to refuse.
        assert_eq!(product_key_input("话费-ß"), "话费-ß");
    }

    #[test]
    fn money_bounds() {
        assert!(Money::positive(0).is_none());
        assert!(Money::positive(-1).is_none());
        assert_eq!(Money::positive(1).unwrap().fen(), 1);
        assert!(Money::positive(MAX_AMOUNT_FEN + 1).is_none());
        assert!(Money::non_negative(0).is_some());
        assert!(Money::adjustment(0).is_none());
        assert_eq!(Money::adjustment(-5).unwrap().fen(), -5);
        assert_eq!(yuan(1230), "12.30");
        assert_eq!(yuan(5), "0.05");
        assert_eq!(yuan(-150), "-1.50");
    }

    #[test]
    fn merchant_order_ids() {
        assert_eq!(MerchantOrderId::parse(" A-1_b.2 ").unwrap().as_str(), "A-1_b.2");
        for bad in ["", "   ", "a b", "订单1", &"x".repeat(65), "a/b"] {
            assert!(MerchantOrderId::parse(bad).is_none(), "{bad:?}");
        }
        let generated = MerchantOrderId::generate(1_700_000_000_000);
        assert!(MerchantOrderId::parse(generated.as_str()).is_some());
    }

    #[test]
    fn beijing_days() {
        // 2024-01-01T00:00:00+08:00 is 2023-12-31T16:00:00Z.
        let start = 1_704_038_400_000;
        let day = beijing_day(start);
        assert_eq!(beijing_day_start(day), start);
        assert_eq!(beijing_day(start - 1), day - 1);
        assert_eq!(beijing_date(day), "2024-01-01");
        assert_eq!(beijing_time(start + 1_000), "2024-01-01 00:00:01");
    }

    #[test]
    fn status_and_kind_codes_round_trip() {
        for status in OrderStatus::ALL {
            assert_eq!(OrderStatus::from_code(status.code()), Some(status));
        }
        for kind in OrderKind::ALL {
            assert_eq!(OrderKind::from_code(kind.code()), Some(kind));
            assert_eq!(OrderKind::parse(kind.as_str()), Some(kind));
        }
    }
}
