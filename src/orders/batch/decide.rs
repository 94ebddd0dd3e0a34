//! What a batch range decides from its lines, the merchant's offers and the account (see
//! `place`): which lines become orders, at what price and paid how, and why the
//! others are refused; and whether a side-by-side decision still holds under the lock.

use crate::domain::blocklist::BlockSet;
use crate::domain::risk::{DayFigures, RiskLimits};
use crate::domain::segments::Region;
use crate::domain::windows::Closed;
use crate::domain::{OrderKind, ProductKind, Speed};
use crate::i18n::TradeMessage;
use crate::money::finance::ledger::{Account, Actor};
use crate::orders::store::{NewOrder, Offer};
use crate::platform::config::Deadlines;
use std::collections::{HashMap, HashSet};

/// The batch being placed.
#[derive(Debug, Clone)]
pub struct Placing {
    pub batch_id: i64,
    pub merchant_id: i64,
    /// What the valid lines cost at preview.
    pub total_fen: i64,
    pub actor: Actor,
}

/// A waiting line of a range, as the preview stored it.
pub(super) struct Line {
    pub line_no: i64,
    pub account: String,
    pub product_key: String,
    pub merchant_order_id: String,
    pub preview_price: i64,
}

pub(super) struct Decided {
    pub orders: Vec<NewOrder>,
    pub refused: Vec<(i64, TradeMessage)>,
}

/// What a range's lines are held against besides their prices and the money.
pub(super) struct Guards<'a> {
    pub blocked: &'a BlockSet,
    /// Merchant order ids used already.
    pub used: &'a HashSet<String>,
    /// The numbers with an unfinished order when the merchant keeps one in flight per number
    /// (None: it does not); each order placed here adds its number.
    pub in_flight: Option<&'a mut HashSet<String>>,
    /// Per line: the maintenance window closing every channel that could take it now.
    pub closed: &'a [Option<Closed>],
    /// The merchant's daily limits and today's figures (None: no limit set); each order
    /// placed here counts for the lines after it.
    pub day: Option<(&'a RiskLimits, &'a mut DayFigures)>,
}

/// Which lines become orders, at what price and paid how, and why the others are refused.
/// A line whose quote was switched off or repriced since the preview is refused with its
/// reason, never placed at the preview's price. A line is refused, as a single order would
/// be, for a number with an order in flight, a fast product while a maintenance window closes
/// every channel that could take it (a slow one is placed and waits), or a daily limit.
pub(super) fn decide(
    batch: &Placing,
    lines: &[Line],
    offers: &HashMap<String, Offer>,
    regions: &[Option<Region>],
    mut guards: Guards<'_>,
    mut figures: Account,
    (now, deadlines): (i64, Deadlines),
) -> Decided {
    let (mut orders, mut refused) = (Vec::new(), Vec::new());
    for (index, (line, region)) in lines.iter().zip(regions).enumerate() {
        let offer = offers.get(&line.product_key).filter(|offer| offer.price_fen.is_some());
        let province = region.as_ref().map(|region| region.province_code);
        let closed = guards.closed.get(index).and_then(Option::as_ref);
        let reason = match offer {
            None => Some(TradeMessage::QuoteUnavailable),
            Some(offer) if offer.price_fen != Some(line.preview_price) => Some(TradeMessage::QuoteChanged),
            // Barred since the preview.
            Some(_) if guards.blocked.barring(&line.account).is_some() => Some(TradeMessage::AccountBlocked),
            // The product's sales area changed since the preview.
            Some(offer) if !offer.account_in_scope(&line.account, province) => {
                Some(TradeMessage::OutOfScope { carrier: offer.carrier, province })
            }
            Some(_) if guards.used.contains(&line.merchant_order_id) => Some(TradeMessage::MerchantOrderIdDuplicate),
            // The number has an unfinished order (placed before, or by an earlier line).
            Some(_) if guards.in_flight.as_ref().is_some_and(|numbers| numbers.contains(&line.account)) => {
                Some(TradeMessage::NumberInFlight)
            }
            Some(offer) if offer.speed == Speed::Fast && closed.is_some() => closed
                .map(|closed| TradeMessage::WindowClosed { title: closed.title.clone(), until: closed.until_minute() }),
            Some(offer) => guards.day.as_ref().and_then(|(limits, day)| {
                let refusal = limits.refusal(day.today(&line.account), offer.price_fen.unwrap_or_default())?;
                Some(crate::orders::risk::message(refusal, limits))
            }),
        };
        let (Some(offer), None) = (offer, reason.clone()) else {
            refused.push((line.line_no, reason.unwrap_or(TradeMessage::QuoteUnavailable)));
            continue;
        };
        let price = offer.price_fen.unwrap_or_default();
        let Some(paid) = figures.take(price) else {
            refused.push((line.line_no, TradeMessage::InsufficientFunds));
            continue;
        };
        let kind = if offer.product_kind == ProductKind::Card { OrderKind::Card } else { OrderKind::Ordinary };
        let mut order = NewOrder::pending(
            batch.merchant_id,
            line.merchant_order_id.clone(),
            offer.clone(),
            kind,
            line.account.clone(),
            price,
            now,
            now + deadlines.millis_of(offer.speed),
        );
        order.paid = paid;
        if let Some(region) = region {
            (order.province, order.city) = (Some(region.province.clone()), Some(region.city.clone()));
        }
        order.batch_id = Some(batch.batch_id);
        order.created_by = batch.actor.id;
        if let Some((_, day)) = guards.day.as_mut() {
            day.add(&line.account, price);
        }
        if let Some(numbers) = guards.in_flight.as_mut()
            && !line.account.is_empty()
        {
            numbers.insert(line.account.clone());
            order.single_flight = true;
        }
        orders.push(order);
    }
    Decided { orders, refused }
}

/// What a side-by-side range decided, checked under the account lock: the balance alone
/// still pays every order (so each order's split, all from the balance, is the one it would
/// get now), and each order's offer is still the merchant's, at the same price.
pub(super) fn still_holds(orders: &[NewOrder], locked: &Account, offers_now: &HashMap<String, Offer>) -> bool {
    let spent: i64 = orders.iter().map(|order| order.price_fen).sum();
    let same_offer = |order: &NewOrder| {
        offers_now
            .get(&order.offer.product_key)
            .is_some_and(|now| now.product_id == order.offer.product_id && now.price_fen == Some(order.price_fen))
    };
    locked.balance_fen >= spent && orders.iter().all(|order| order.paid == (order.price_fen, 0) && same_offer(order))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Carrier;

    fn offer(product_id: i64, price: Option<i64>) -> Offer {
        Offer {
            product_id,
            product_key: format!("P{product_id}"),
            product_name: "product".into(),
            carrier: Carrier::Mobile,
            product_kind: ProductKind::Direct,
            face_value_fen: 1_000,
            price_fen: price,
            speed: crate::domain::Speed::Fast,
            scope: crate::domain::Scope::national(),
        }
    }

    fn order(product_id: i64, price: i64, paid: (i64, i64)) -> NewOrder {
        let mut order = NewOrder::pending(
            1,
            format!("M{product_id}"),
            offer(product_id, Some(price)),
            OrderKind::Ordinary,
            "13800138000".into(),
            price,
            0,
            0,
        );
        order.paid = paid;
        order
    }

    fn offers(list: &[Offer]) -> HashMap<String, Offer> {
        list.iter().map(|offer| (offer.product_key.clone(), offer.clone())).collect()
    }

    fn balance(fen: i64) -> Account {
        Account { balance_fen: fen, ..Account::default() }
    }

    #[test]
    fn a_side_by_side_decision_holds_only_while_the_balance_and_prices_do() {
        let orders = [order(1, 900, (900, 0)), order(2, 950, (950, 0))];
        let now = offers(&[offer(1, Some(900)), offer(2, Some(950))]);
        assert!(still_holds(&orders, &balance(1_850), &now));
        // Another placement spent the balance meanwhile.
        assert!(!still_holds(&orders, &balance(1_849), &now));
        // A quote repriced, switched off, or its product replaced.
        assert!(!still_holds(&orders, &balance(5_000), &offers(&[offer(1, Some(901)), offer(2, Some(950))])));
        assert!(!still_holds(&orders, &balance(5_000), &offers(&[offer(1, None), offer(2, Some(950))])));
        assert!(!still_holds(&orders, &balance(5_000), &offers(&[offer(2, Some(950))])));
        // Decided with credit: whichever range commits first changes the split.
        let on_credit = [order(1, 900, (400, 500))];
        assert!(!still_holds(&on_credit, &balance(5_000), &now));
    }
}
