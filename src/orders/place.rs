//! Placing an order: the one entry (`orders::place`) every caller uses. It hands the order to
//! the group-commit engine in `placement/`, which places it with others that arrive at the
//! same time (or alone), then tells the live monitor, the order worker and the low-balance
//! alert.

use super::model::OrderRow;
use super::placement::group;
use super::placement::intent::PlaceIntent;
use crate::http::error::AppError;
use crate::i18n::TradeMessage;
use crate::money::finance::ledger::Actor;
use crate::platform::state::AppState;

/// Charges and writes one order in one transaction. The merchant's account is locked
/// first, so parallel orders of one merchant queue there and the balance can never go
/// below zero; a reused merchant order id rolls everything back (nothing charged).
pub async fn place(state: &AppState, actor: Actor, mut intent: PlaceIntent) -> Result<OrderRow, AppError> {
    if intent.line.product_key.trim().is_empty() {
        // Refused without touching the database: without a product the intent cannot build.
        return Err(intent
            .build(None, 0, 0)
            .err()
            .unwrap_or_else(|| AppError::field("product_key", TradeMessage::ProductRequired)));
    }
    intent.region = state.segments.region(&intent.line.account);
    // A disabled merchant is refused by the group's first read (run.rs), placing alone below.
    let deadline = state.config.channel.deadline;
    let (order, id, balance) =
        state.services.get_or_init(group::Placements::default).place(&state.db, deadline, actor, intent).await?;
    state.live.placed(crate::platform::live::aggregate::Placed {
        id,
        merchant_id: order.merchant_id,
        price_fen: order.price_fen,
        created_at: order.created_at,
    });
    state.services.get_or_init(Arrivals::default).0.notify_one();
    crate::money::finance::alerts::low_balance_after_debit(state, order.merchant_id, balance.0, balance.1).await;
    Ok(order.into_row(id))
}

/// Rung when an order was placed: the order worker waits on it between its looks (at the
/// poll interval otherwise), so an order goes to its channel as soon as it is committed.
/// A ring while the worker is busy is kept until it next waits.
#[derive(Default)]
pub struct Arrivals(pub tokio::sync::Notify);
