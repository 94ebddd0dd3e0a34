//! An order as stored and as the API shows it, and the numbers we give orders.

use super::counters::Counted;
use crate::domain::{Carrier, OrderKind, OrderStatus};
use crate::i18n::{FailureReason, Locale, failure_text};
use crate::platform::db::millis_to_rfc3339;
use serde::Serialize;
use sqlx::Row;
use sqlx::any::AnyRow;
use std::sync::atomic::{AtomicU64, Ordering};
use utoipa::ToSchema;

/// The columns every order query reads, in this order.
pub const ORDER_COLUMNS: &str = "id, merchant_id, merchant_order_id, order_no, system_order_id, product_key, \
    product_name, carrier, order_kind, account, face_value_fen, price_fen, paid_balance_fen, paid_credit_fen, \
    status, buyback, created_at, deadline_at, submitted_at, finished_at, duration_ms, callback_at, serial_no, \
    failure_reason, batch_id, remark, card_no_enc, created_by, province, city, reversed_at, reversal_reason, \
    product_id, channel_id, cost_fen";

#[derive(Debug, Clone)]
pub struct OrderRow {
    pub id: i64,
    pub merchant_id: i64,
    pub merchant_order_id: String,
    pub order_no: String,
    pub system_order_id: String,
    pub product_key: String,
    pub product_name: String,
    pub carrier: i64,
    pub order_kind: i64,
    pub account: String,
    pub face_value_fen: i64,
    pub price_fen: i64,
    pub paid_balance_fen: i64,
    pub paid_credit_fen: i64,
    pub status: i64,
    pub buyback: i64,
    pub created_at: i64,
    pub deadline_at: i64,
    pub submitted_at: Option<i64>,
    pub finished_at: Option<i64>,
    pub duration_ms: Option<i64>,
    pub callback_at: Option<i64>,
    pub serial_no: Option<String>,
    pub failure_reason: Option<String>,
    pub batch_id: Option<i64>,
    pub remark: String,
    pub has_card: bool,
    /// The user who placed it (null for generated history).
    pub created_by: Option<i64>,
    /// The number's province and city when it was placed (`platform::segments`).
    pub province: Option<String>,
    pub city: Option<String>,
    /// When a success was reversed (冲正), and why; null otherwise.
    pub reversed_at: Option<i64>,
    pub reversal_reason: Option<String>,
    pub product_id: i64,
    /// The channel that fulfilled it and that channel's cost, fen (a success's).
    pub channel_id: Option<i64>,
    pub cost_fen: Option<i64>,
}

impl OrderRow {
    /// What the live monitor is told of its result (finished at `finished_at`), or of its
    /// reversal (`finished_at` then the success's own time).
    pub fn live_finished(&self, finished_at: i64, success: bool) -> crate::platform::live::event::Finished {
        crate::platform::live::event::Finished {
            id: self.id,
            carrier: self.carrier,
            created_at: self.created_at,
            finished_at,
            success,
            province: crate::i18n::provinces::live_code(self.province.as_deref()),
        }
    }

    /// How long the order may wait for its channel's answer, from when it was placed or last
    /// handed to a channel: set at placement by its product's speed (`Deadlines`), kept
    /// when a submission or a reopening starts the wait again.
    pub fn allowance(&self) -> i64 {
        self.deadline_at - self.submitted_at.unwrap_or(self.created_at)
    }

    pub fn from_row(row: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(Self {
            id: row.try_get(0)?,
            merchant_id: row.try_get(1)?,
            merchant_order_id: row.try_get(2)?,
            order_no: row.try_get(3)?,
            system_order_id: row.try_get(4)?,
            product_key: row.try_get(5)?,
            product_name: row.try_get(6)?,
            carrier: row.try_get(7)?,
            order_kind: row.try_get(8)?,
            account: row.try_get(9)?,
            face_value_fen: row.try_get(10)?,
            price_fen: row.try_get(11)?,
            paid_balance_fen: row.try_get(12)?,
            paid_credit_fen: row.try_get(13)?,
            status: row.try_get(14)?,
            buyback: row.try_get(15)?,
            created_at: row.try_get(16)?,
            deadline_at: row.try_get(17)?,
            submitted_at: row.try_get(18)?,
            finished_at: row.try_get(19)?,
            duration_ms: row.try_get(20)?,
            callback_at: row.try_get(21)?,
            serial_no: row.try_get(22)?,
            failure_reason: row.try_get(23)?,
            batch_id: row.try_get(24)?,
            remark: row.try_get(25)?,
            has_card: row.try_get::<Option<String>, _>(26)?.is_some(),
            created_by: row.try_get(27)?,
            province: row.try_get(28)?,
            city: row.try_get(29)?,
            reversed_at: row.try_get(30)?,
            reversal_reason: row.try_get(31)?,
            product_id: row.try_get(32)?,
            channel_id: row.try_get(33)?,
            cost_fen: row.try_get(34)?,
        })
    }

    pub fn counted(&self) -> Counted {
        Counted {
            merchant_id: self.merchant_id,
            created_at: self.created_at,
            order_kind: self.order_kind,
            carrier: self.carrier,
            face_value_fen: self.face_value_fen,
            buyback: self.buyback,
            product_id: self.product_id,
            price_fen: self.price_fen,
            province: self.province.clone().unwrap_or_default(),
            channel_id: self.channel_id.unwrap_or(0),
            cost_fen: self.cost_fen.unwrap_or(0),
        }
    }

    pub fn status(&self) -> OrderStatus {
        OrderStatus::from_code(self.status).unwrap_or(OrderStatus::ManualReview)
    }

    pub fn kind(&self) -> OrderKind {
        OrderKind::from_code(self.order_kind).unwrap_or(OrderKind::Ordinary)
    }

    pub fn to_item(&self) -> OrderItem {
        OrderItem {
            id: self.id,
            merchant_id: self.merchant_id,
            merchant_order_id: self.merchant_order_id.clone(),
            order_no: self.order_no.clone(),
            system_order_id: self.system_order_id.clone(),
            product_key: self.product_key.clone(),
            product_name: self.product_name.clone(),
            carrier: Carrier::from_code(self.carrier).unwrap_or(Carrier::Mobile),
            kind: self.kind(),
            account: self.account.clone(),
            face_value_fen: self.face_value_fen,
            price_fen: self.price_fen,
            status: self.status,
            status_name: self.status().name(),
            buyback: self.buyback != 0,
            created_at: millis_to_rfc3339(self.created_at),
            deadline_at: millis_to_rfc3339(self.deadline_at),
            duration_ms: self.duration_ms,
            callback_at: self.callback_at.map(millis_to_rfc3339),
            finished_at: self.finished_at.map(millis_to_rfc3339),
            serial_no: self.serial_no.clone(),
            failure_reason_code: self
                .failure_reason
                .as_deref()
                .and_then(FailureReason::from_stored)
                .map(FailureReason::code),
            failure_reason: self.failure_reason.as_deref().map(|stored| failure_text(stored, Locale::EnUs)),
            has_card: self.has_card,
            batch_id: self.batch_id,
            remark: self.remark.clone(),
            province: self.province.clone(),
            city: self.city.clone(),
            province_en: None,
            city_en: None,
            reversed_at: self.reversed_at.map(millis_to_rfc3339),
            reversal_reason: self.reversal_reason.clone(),
        }
    }
}

/// One order in a list (every column the order lists show, plus what the console needs around it).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct OrderItem {
    pub id: i64,
    pub merchant_id: i64,
    /// 商户订单号
    pub merchant_order_id: String,
    /// 订单号: our order number, shown to the merchant
    pub order_no: String,
    /// 系统订单号: the id under which the order goes to the channel
    pub system_order_id: String,
    pub product_key: String,
    /// 商品名称
    pub product_name: String,
    pub carrier: Carrier,
    pub kind: OrderKind,
    /// 充值账号
    pub account: String,
    /// 面值, fen
    pub face_value_fen: i64,
    /// The supply price charged, fen
    pub price_fen: i64,
    /// 0 pending, 1 processing, 2 success, 3 failure, 4 manual review, 5 reversed
    pub status: i64,
    /// pending, processing, success, failure, manual_review, reversed
    pub status_name: &'static str,
    /// 回购单 (true) or 正常单 (false)
    pub buyback: bool,
    /// 下单时间, RFC 3339
    pub created_at: String,
    /// 应答时限: the channel's answer is due by then, by the product's speed (fast: 30
    /// minutes, slow: 72 hours by default), counted again from each hand-over to a channel;
    /// an order without an answer by then goes to manual review. RFC 3339
    pub deadline_at: String,
    /// 耗时: finish time minus order time, ms; null while in flight
    pub duration_ms: Option<i64>,
    /// 渠道回调时间, RFC 3339
    pub callback_at: Option<String>,
    pub finished_at: Option<String>,
    /// 流水号
    pub serial_no: Option<String>,
    /// Why it failed, in the request's language (an administrator's own words as written).
    pub failure_reason: Option<String>,
    /// The reason's stable code when the system gave it (e.g. `order.failure.carrier_refused`);
    /// null for an administrator's own words. Clients translate by this.
    pub failure_reason_code: Option<&'static str>,
    /// A card secret was delivered: reveal it with /adminapi/order/card/reveal
    pub has_card: bool,
    pub batch_id: Option<i64>,
    pub remark: String,
    /// 归属地: the number's province (广东) when it was placed; null when unknown.
    pub province: Option<String>,
    /// The number's city (深圳) when it was placed; null when unknown.
    pub city: Option<String>,
    /// The province's English name (Guangdong); null when unknown.
    pub province_en: Option<String>,
    /// The city's English name from the segment table (Shenzhen); its Chinese name when the
    /// table has none; null when unknown.
    pub city_en: Option<String>,
    /// 冲正时间: when the success was reversed (the merchant refunded), RFC 3339; null
    /// unless the order is reversed. `finished_at` stays the success's time.
    pub reversed_at: Option<String>,
    /// Why it was reversed: the supplier's words or the administrator's reason.
    pub reversal_reason: Option<String>,
}

impl OrderItem {
    /// The item with its texts in `locale` (items are built in English, the API's default).
    pub fn localized(mut self, locale: Locale) -> Self {
        if let Some(reason) = self.failure_reason_code.and_then(FailureReason::from_stored) {
            self.failure_reason = Some(reason.text(locale).to_string());
        }
        self
    }

    /// The item with its place's English names (orders store the Chinese ones).
    pub fn with_english_region(mut self, table: &crate::domain::segments::SegmentTable) -> Self {
        if let Some(province) = &self.province {
            self.province_en = crate::i18n::provinces::stored_province_in(province, Locale::EnUs).map(Into::into);
            if let Some(city) = &self.city {
                self.city_en = Some(table.city_en(province, city).unwrap_or(city).to_string());
            }
        }
        self
    }
}

static SEQUENCE: AtomicU64 = AtomicU64::new(0);

/// An order number: Beijing date and time to the second, a per-process sequence and a
/// random per-number tail. Unique within a process for a million orders per second, and
/// across processes by the random part; the unique index is the final guard.
pub fn new_order_no(now_millis: i64) -> String {
    let moment = time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(now_millis) * 1_000_000)
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH)
        .to_offset(time::macros::offset!(+8));
    let sequence = SEQUENCE.fetch_add(1, Ordering::Relaxed) % 1_000_000;
    format!(
        "{:04}{:02}{:02}{:02}{:02}{:02}{sequence:06}{:04}",
        moment.year(),
        u8::from(moment.month()),
        moment.day(),
        moment.hour(),
        moment.minute(),
        moment.second(),
        rand::random::<u32>() % 10_000
    )
}

/// The id the channel sees: random, so it reveals nothing about volumes.
pub fn new_system_order_id() -> String {
    // Version 7: the time first, then 74 random bits. Ids made one after the other sort
    // one after the other, so a new order's id lands at the end of its index instead of
    // on a random page of it (a random page per order is a page read and write more).
    format!("S{}", uuid::Uuid::now_v7().simple())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_numbers_are_beijing_time_and_distinct() {
        // 2024-01-01T00:00:00+08:00
        let number = new_order_no(1_704_038_400_000);
        assert!(number.starts_with("20240101000000"), "{number}");
        assert_eq!(number.len(), 24);
        assert_ne!(new_order_no(0), new_order_no(0));
        assert!(new_system_order_id().starts_with('S'));
    }
}
