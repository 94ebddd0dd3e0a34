//! A supplier's "success" counts only with what the order is for. A card-secret order is
//! bought for its card number and password: a success without them delivered nothing we
//! could hand the merchant, so it is not believed. It is an unknown outcome instead: the
//! order stays with that channel, is asked again, and past its deadline goes to a person,
//! never charged as a success and never refunded on a guess (the card may exist upstream).
//!
//! Every adapter the registry hands out is wrapped in [`Deliverable`], so whatever the
//! protocol, the worker never sees such an answer as a success; a callback, which names
//! only the upstream order, is judged with [`ChannelStatus::undelivered`] once its order is
//! known (supply/callback.rs).

use super::statement::{StatementError, StatementLine};
use super::{CallbackError, CallbackReport, Channel, ChannelOrder, ChannelStatus};
use crate::i18n::FailureReason;
use futures_util::future::BoxFuture;
use std::sync::Arc;

impl ChannelStatus {
    /// A success that lacks the order's deliverable: a card order's success without its card.
    pub fn undelivered(&self, card_order: bool) -> bool {
        card_order && matches!(self, ChannelStatus::Succeeded { card: None, .. })
    }
}

/// The reason recorded on the attempt (a code, read in the reader's language).
pub fn undelivered_reason() -> &'static str {
    FailureReason::CardNotDelivered.code()
}

/// A channel's answer as it counts for `order`: an undelivered success is an error, which
/// the worker treats as every unknown answer.
pub fn judged(order: &ChannelOrder, answer: anyhow::Result<ChannelStatus>) -> anyhow::Result<ChannelStatus> {
    match answer {
        Ok(status) if status.undelivered(order.card) => Err(anyhow::anyhow!(undelivered_reason())),
        answer => answer,
    }
}

/// An adapter whose answers about an order are [`judged`] against that order.
pub struct Deliverable(pub Arc<dyn Channel>);

impl Channel for Deliverable {
    fn submit<'a>(&'a self, order: &'a ChannelOrder) -> BoxFuture<'a, anyhow::Result<ChannelStatus>> {
        Box::pin(async move { judged(order, self.0.submit(order).await) })
    }

    fn query<'a>(&'a self, order: &'a ChannelOrder) -> BoxFuture<'a, anyhow::Result<ChannelStatus>> {
        Box::pin(async move { judged(order, self.0.query(order).await) })
    }

    fn balance(&self) -> BoxFuture<'_, anyhow::Result<Option<i64>>> {
        self.0.balance()
    }

    fn statement<'a>(&'a self, date: &'a str) -> BoxFuture<'a, Result<Vec<StatementLine>, StatementError>> {
        self.0.statement(date)
    }

    fn verify_callback(&self, headers: &axum::http::HeaderMap, body: &[u8]) -> Result<CallbackReport, CallbackError> {
        self.0.verify_callback(headers, body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::channel::CardSecret;

    fn order(card: bool) -> ChannelOrder {
        ChannelOrder {
            upstream_order_id: "U1".into(),
            account: String::new(),
            product_key: "MOBILE-CARD-10".into(),
            face_value_fen: 1000,
            card,
        }
    }

    #[test]
    fn a_card_order_succeeds_only_with_its_card() {
        let bare = || Ok(ChannelStatus::Succeeded { serial_no: "S1".into(), card: None });
        let unknown = judged(&order(true), bare()).unwrap_err();
        assert_eq!(format!("{unknown:#}"), "order.failure.card_not_delivered");
        // A top-up has no card to bring.
        assert_eq!(judged(&order(false), bare()).unwrap(), bare().unwrap());
        let card = Some(CardSecret { number: "1".into(), password: "2".into() });
        let delivered = ChannelStatus::Succeeded { serial_no: "S1".into(), card };
        assert_eq!(judged(&order(true), Ok(delivered.clone())).unwrap(), delivered);
        // Anything but a success is as it was.
        for other in [ChannelStatus::Pending, ChannelStatus::NotReceived, ChannelStatus::Failed { reason: "x".into() }]
        {
            assert_eq!(judged(&order(true), Ok(other.clone())).unwrap(), other);
        }
    }
}
