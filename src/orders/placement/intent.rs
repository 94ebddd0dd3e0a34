//! What an order must be to be placed: a line checked against its offer (`check_line`,
//! shared with batches) and the caller's intent parsed at the edge ([`PlaceIntent`]).

use crate::domain::Speed;
use crate::domain::segments::Region;
use crate::domain::windows::Closed;
use crate::domain::{MerchantOrderId, OrderKind, PhoneNumber, ProductKind};
use crate::http::error::AppError;
use crate::http::replay::NonceUse;
use crate::i18n::TradeMessage;
use crate::i18n::WindowMessage;
use crate::orders::store::{NewOrder, Offer};

/// An order line as typed or uploaded, before checking.
#[derive(Debug, Clone, Default)]
pub struct OrderLine {
    pub account: String,
    pub product_key: String,
    pub merchant_order_id: Option<String>,
    /// The merchant confirms a number ported away from its segment's carrier.
    pub allow_ported: bool,
    /// The carrier a supplier reported the number moved away from (`platform::ports`),
    /// filled by the caller from memory: that carrier's products are refused, the others
    /// taken without `allow_ported`.
    pub ported_from: Option<crate::domain::Carrier>,
}

/// A line that passed every check that needs no lock.
#[derive(Debug, Clone)]
pub struct ValidLine {
    pub account: String,
    pub offer: Offer,
    pub price_fen: i64,
    pub merchant_order_id: Option<MerchantOrderId>,
}

/// Checks a line; on failure names the field and why. Card-secret products need no
/// recharge account (the card goes to the merchant), but one given must be valid.
///
/// `province` is the number's (GB/T 2260, from its segment; None: not in the table), which
/// a provincial product's scope must admit.
pub fn check_line(
    line: &OrderLine,
    offer: Option<&Offer>,
    province: Option<u32>,
) -> Result<ValidLine, (&'static str, TradeMessage)> {
    let merchant_order_id = match line.merchant_order_id.as_deref().map(str::trim).filter(|text| !text.is_empty()) {
        None => None,
        Some(text) => {
            Some(MerchantOrderId::parse(text).ok_or(("merchant_order_id", TradeMessage::MerchantOrderIdInvalid))?)
        }
    };
    if line.product_key.trim().is_empty() {
        return Err(("product_key", TradeMessage::ProductRequired));
    }
    let offer = offer.ok_or(("product_key", TradeMessage::ProductUnknown))?;
    let account_text = line.account.trim();
    let account = if account_text.is_empty() && offer.product_kind == ProductKind::Card {
        String::new()
    } else if account_text.is_empty() {
        return Err(("account", TradeMessage::AccountRequired));
    } else {
        let number = PhoneNumber::parse(account_text).ok_or(("account", TradeMessage::AccountInvalid))?;
        match line.ported_from {
            Some(left) if left == offer.carrier => {
                return Err(("account", TradeMessage::NumberPorted { from: left }));
            }
            Some(_) => {}
            None if number.carrier() != offer.carrier && !line.allow_ported => {
                return Err((
                    "account",
                    TradeMessage::CarrierMismatch { number: number.carrier(), product: offer.carrier },
                ));
            }
            None => {}
        }
        if !offer.scope.admits(province) {
            return Err(("product_key", TradeMessage::OutOfScope { carrier: number.carrier(), province }));
        }
        number.as_str().to_string()
    };
    let price_fen = offer.price_fen.ok_or(("product_key", TradeMessage::QuoteUnavailable))?;
    Ok(ValidLine { account, offer: offer.clone(), price_fen, merchant_order_id })
}

/// A refused line as an answer: what the OpenAPI document states (a merchant order id's
/// characters, a product key at all) is 400; what depends on the catalogue or the number
/// plan (no such product or quote, a number from no allocated segment, the wrong carrier,
/// an account the product needs) is 422, still 40000 naming the field.
fn line_error(field: &str, message: TradeMessage) -> AppError {
    match message {
        TradeMessage::MerchantOrderIdInvalid | TradeMessage::ProductRequired => AppError::field(field, message),
        other => AppError::unprocessable(field, other),
    }
}

/// What a caller asks to place, parsed from the request; checked against the product and
/// quote as they are inside the placing transaction.
#[derive(Debug, Clone)]
pub struct PlaceIntent {
    pub merchant_id: i64,
    pub line: OrderLine,
    /// On behalf: a person fulfils the order instead of the channel.
    pub behalf: bool,
    pub buyback: bool,
    pub remark: String,
    /// Where the result is notified (the open API's `notify_url`); None: the profile's.
    pub notify_url: Option<String>,
    /// The open-API call's nonce: checked in the placing transaction and stored with the
    /// order (`crate::http::replay`).
    pub nonce: Option<NonceUse>,
    /// Where the number belongs, looked up in memory before placing (`orders::place`).
    pub region: Option<Region>,
    /// The maintenance window closing every channel that could take it now (`orders::place`):
    /// a fast product is refused, a slow one waits for the window's end.
    pub closed: Option<Closed>,
    /// The merchant keeps one order in flight per number (`orders::place` sets it from the
    /// merchant's controls in memory; the order's row carries it for the unique index).
    pub single_flight: bool,
}

impl PlaceIntent {
    /// The order this intent becomes with `offer` (None: no such product), or why it
    /// cannot be placed.
    pub(in crate::orders) fn build(
        &self,
        offer: Option<&Offer>,
        now: i64,
        deadline_at: i64,
    ) -> Result<NewOrder, AppError> {
        let province = self.region.as_ref().map(|region| region.province_code);
        let valid = check_line(&self.line, offer, province).map_err(|(field, message)| line_error(field, message))?;
        if let Some(closed) = &self.closed
            && valid.offer.speed == Speed::Fast
            && !self.behalf
        {
            return Err(AppError::unprocessable(
                "product_key",
                WindowMessage::Closed { title: closed.title.clone(), until: closed.until_minute() },
            ));
        }
        let kind = match (valid.offer.product_kind, self.behalf) {
            (ProductKind::Card, true) => {
                return Err(AppError::unprocessable(
                    "behalf",
                    TradeMessage::InvalidChoice { allowed: "false (card-secret products)" },
                ));
            }
            (ProductKind::Card, false) => OrderKind::Card,
            (ProductKind::Direct, true) => OrderKind::Behalf,
            (ProductKind::Direct, false) => OrderKind::Ordinary,
        };
        if kind == OrderKind::Behalf && valid.account.is_empty() {
            return Err(AppError::unprocessable("account", TradeMessage::AccountRequired));
        }
        let merchant_order_id = valid.merchant_order_id.unwrap_or_else(|| MerchantOrderId::generate(now));
        let mut order = NewOrder::pending(
            self.merchant_id,
            merchant_order_id.as_str().to_string(),
            valid.offer,
            kind,
            valid.account,
            valid.price_fen,
            now,
            deadline_at,
        );
        order.buyback = self.buyback;
        // A card-secret order without a number holds no number.
        order.single_flight = self.single_flight && !order.account.is_empty();
        order.remark = self.remark.clone();
        order.notify_url = self.notify_url.clone();
        order.api_nonce = self.nonce.as_ref().map(NonceUse::stored);
        if let Some(region) = &self.region {
            (order.province, order.city) = (Some(region.province.clone()), Some(region.city.clone()));
        }
        Ok(order)
    }
}
