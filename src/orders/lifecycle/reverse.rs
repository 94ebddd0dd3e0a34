//! Reversal (冲正): a top-up reported successful did not stand. The supplier says so (its
//! callback, query answer or statement line, `supply::callback`), or an administrator
//! decides it (`orders::reverse`). Either way one transaction moves the order 2 success →
//! 5 reversed (`WHERE status = 2`, so of two reports exactly one changes it), gives its
//! price back through the ledger as a reversal refund, and writes with it the timeline
//! event, the audit row, the merchant's message-center notice and the `order.reversed`
//! callback. The success's own time (`finished_at`) stays; `reversed_at` is added.

use super::{Deferred, Move, move_status_deferred, note, read_order};
use crate::domain::OrderStatus;
use crate::i18n::audit::AuditDetail;
use crate::i18n::notices::Notice;
use crate::identity::user_centre::inbox::{Extras, Notification, notify_merchant_with};
use crate::money::finance::ledger::{Actor, Ledger, OrderRef};
use crate::platform::audit;
use crate::platform::db::now_millis;
use crate::platform::sql::Bind;
use crate::platform::state::AppState;

/// The longest reason kept on the order (a supplier's words are cut there).
pub const MAX_REASON_CHARS: usize = 200;

/// Who reverses the order.
#[derive(Debug, Clone)]
pub enum ReversedBy {
    /// The supplier's report, applied by the system.
    Supplier,
    /// An administrator, from this address.
    Admin { actor: Actor, address: String },
}

/// The console's order list, where the merchant finds the order.
const ORDERS_PAGE: &str = "/order/list";

/// Reverses a successful order and refunds it once. Returns whether this call changed it;
/// an order not (or no longer) successful changes nothing and refunds nothing.
pub async fn reverse(state: &AppState, order_id: i64, reason: &str, by: ReversedBy) -> Result<bool, sqlx::Error> {
    let reason: String = reason.trim().chars().take(MAX_REASON_CHARS).collect();
    let now = now_millis();
    let mut transaction = state.db.begin_write().await?;
    let Some(order) = read_order(&mut transaction, order_id).await? else { return Ok(false) };
    if order.status() != OrderStatus::Success {
        return Ok(false);
    }
    let (actor, address, by_supplier) = match &by {
        ReversedBy::Supplier => (Actor::system(), String::new(), true),
        ReversedBy::Admin { actor, address } => (actor.clone(), address.clone(), false),
    };
    // Locks account → order → counters, as every settling does.
    let mut ledger = Ledger::open(&mut transaction, order.merchant_id, actor.clone()).await?;
    let mut deferred = Deferred::default();
    let change = Move {
        to: OrderStatus::Reversed,
        set: ", reversed_at = $2, reversal_reason = $3",
        binds: vec![Bind::Int(now), Bind::Text(reason.clone())],
        has_serial: order.serial_no.is_some(),
        note: if by_supplier { note::REVERSED } else { note::MARKED_REVERSED },
        detail: &reason,
        actor: actor.id,
        now,
        sets_channel: None,
    };
    if !move_status_deferred(&mut transaction, &order, change, &mut deferred).await? {
        return Ok(false);
    }
    ledger.refund_reversal(
        (order.paid_balance_fen, order.paid_credit_fen),
        OrderRef { id: order.id, order_no: &order.order_no },
    );
    ledger.flush(&mut transaction).await?;
    deferred.write(&mut transaction).await?;
    crate::notify::outbox::enqueue_order_reversed(&mut transaction, order.id).await?;
    let detail = AuditDetail::OrderReversed { order_no: order.order_no.clone(), reason: reason.clone(), by_supplier };
    let target = audit::target::order(order.id);
    audit::record_detail(&mut *transaction, actor.id, audit::action::ORDER_REVERSED, &target, &detail, &address)
        .await?;
    let notice = Notice::OrderReversedDetail { order_no: order.order_no.clone(), reason };
    let (title, sub_title, content) = (Notice::OrderReversed.stored(), Notice::Funding.stored(), notice.stored());
    let key = format!("order_reversed:{}", order.id);
    let notification = Notification::notice(&title, &sub_title, &content, 2);
    notify_merchant_with(&mut transaction, order.merchant_id, notification, Extras::new(ORDERS_PAGE, Some(&key)))
        .await?;
    transaction.commit().await?;
    if let Some(finished_at) = order.finished_at {
        state.live.reversed(order.live_finished(finished_at, false));
    }
    Ok(true)
}
