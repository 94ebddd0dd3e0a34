//! A batch's lines checked at preview, each against the products, the merchant order ids
//! already used and what the lines before it leave of the balance.

use super::file::RawLine;
use crate::domain::PhoneNumber;
use crate::domain::blocklist::BlockSet;
use crate::domain::segments::SegmentTable;
use crate::i18n::TradeMessage;
use crate::orders::placement::intent::OrderLine;
use crate::orders::placement::intent::check_line;
use crate::orders::store::Offer;
use crate::platform::ports::PortSet;
use std::collections::{HashMap, HashSet};

/// A line as checked: its price if valid, else why not.
pub struct Checked {
    pub line_no: i64,
    pub account: String,
    pub product_key: String,
    pub merchant_order_id: String,
    pub price_fen: i64,
    pub reason: Option<TradeMessage>,
}

/// The line's cell `index`, or empty.
pub fn cell(line: &RawLine, index: usize) -> String {
    line.cells.get(index).cloned().unwrap_or_default()
}

/// Checks the lines in file order; returns them with what the valid ones cost together.
/// A line is refused when it is incomplete or invalid (`check_line`), repeats a merchant
/// order id of the file or one already used (`used`), or the valid lines before it leave
/// less than its price of `spendable`.
pub fn check_lines(
    lines: &[RawLine],
    offers: &HashMap<String, Offer>,
    (segments, blocked, ports): (&SegmentTable, &BlockSet, &PortSet),
    used: &HashSet<String>,
    spendable: i64,
    allow_ported: bool,
) -> (Vec<Checked>, i64) {
    let mut seen = HashSet::new();
    let mut running = 0i64;
    let checked = lines
        .iter()
        .map(|line| {
            let merchant_order_id = cell(line, 2);
            let typed_key = cell(line, 1);
            let mut order_line = OrderLine {
                account: cell(line, 0),
                product_key: crate::domain::product_key_input(&typed_key),
                merchant_order_id: Some(merchant_order_id.clone()),
                allow_ported,
                ported_from: None,
            };
            let mut entry = Checked {
                line_no: line.line_no,
                account: order_line.account.clone(),
                // A refused line is shown as typed; a valid one is stored with the
                // catalogue's key, which its submit looks up.
                product_key: typed_key,
                merchant_order_id,
                price_fen: 0,
                reason: None,
            };
            let outcome = if order_line.account.is_empty() && order_line.product_key.is_empty() || line.cells.len() < 2
            {
                Err(TradeMessage::BatchLineIncomplete)
            } else {
                let number = PhoneNumber::parse(order_line.account.trim());
                let province = number
                    .as_ref()
                    .and_then(|number| segments.lookup(number).place.map(|place| place.province_number()));
                order_line.ported_from = number.and_then(|number| ports.get(number.as_str()).copied());
                check_line(&order_line, offers.get(order_line.product_key.trim()), province)
                    .map_err(|(_, message)| message)
                    .and_then(|valid| match blocked.barring(&valid.account) {
                        Some(_) => Err(TradeMessage::AccountBlocked),
                        None => Ok(valid),
                    })
            };
            entry.reason = match outcome {
                Err(message) => Some(message),
                Ok(valid) => {
                    entry.account = valid.account;
                    entry.product_key = valid.offer.product_key.clone();
                    entry.price_fen = valid.price_fen;
                    let id = valid.merchant_order_id.map(|id| id.as_str().to_string());
                    if id.as_ref().is_some_and(|id| !seen.insert(id.clone())) {
                        Some(TradeMessage::DuplicateInFile)
                    } else if id.as_ref().is_some_and(|id| used.contains(id)) {
                        Some(TradeMessage::MerchantOrderIdDuplicate)
                    } else if running + valid.price_fen > spendable {
                        Some(TradeMessage::InsufficientFunds)
                    } else {
                        running += valid.price_fen;
                        None
                    }
                }
            };
            entry
        })
        .collect();
    (checked, running)
}
