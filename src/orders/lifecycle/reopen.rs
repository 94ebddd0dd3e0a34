//! Manual review → processing: an administrator hands an order in review back to the
//! channels, either to a channel now (a new attempt) or, after its supplier definitely
//! failed it, to the worker's routing (the next channel, or the refund when none is left).
//!
//! The one rule that matters here is that an order is never fulfilled twice: it goes to a
//! channel again only while none of its attempts may still top it up. That check, the
//! status move and the new attempt are one transaction, the move first (`WHERE status =
//! review`): of two administrators sending at once, the second finds the order moved and
//! places nothing.

use super::{Move, move_status, read_order};
use crate::domain::{OrderKind, OrderStatus};
use crate::http::idempotency::{Claim, IdempotentRequest};
use crate::money::finance::ledger::Actor;
use crate::platform::channel::attempts::{self, Attempt};
use crate::platform::db::now_millis;
use crate::platform::sql::Bind;
use crate::platform::state::AppState;

/// Timeline notes of the moves made here; the console shows them in its language.
pub mod note {
    /// An administrator sent the order to a channel; the event names them.
    pub const SENT_BY_ADMIN: &str = "sent to a channel by an administrator";
    /// An administrator's query found the supplier had failed it: routed on.
    pub const FAILED_ON_QUERY: &str = "failed at the supplier when an administrator asked; routed on";
}

/// The attempt to place with the move: which channel, at what cost (fen), as its probe.
pub struct NewAttempt {
    pub channel_id: i64,
    pub cost_fen: i64,
    pub probe: bool,
}

/// The order moved back to processing, leased to the caller.
pub struct Reopened {
    pub deadline_at: i64,
    /// The attempt placed with the move (when one was asked for).
    pub attempt: Option<Attempt>,
}

/// Why nothing moved.
#[derive(Debug, PartialEq)]
pub enum Refusal {
    /// Not (or no longer) in manual review, or an on-behalf order (a person fulfils those).
    NotInReview,
    /// An attempt may still top the order up (pending, unknown, or a success not settled).
    AttemptOpen,
    /// The idempotency key was used before (nothing changed now).
    Key(Claim),
}

/// Moves an order in review back to processing with a fresh deadline, leased to `owner`
/// until `lease_until` (the caller drives it now, the worker afterwards), with the new
/// attempt if asked for; refused while any attempt of the order is open. The idempotency
/// key, if any, is claimed in the same transaction and kept only if the order moved.
pub async fn reopen(
    state: &AppState,
    order_id: i64,
    (actor, note): (&Actor, &'static str),
    (owner, lease_until): (&str, i64),
    attempt: Option<NewAttempt>,
    key: Option<(&IdempotentRequest, i64)>,
) -> Result<Result<Reopened, Refusal>, sqlx::Error> {
    let now = now_millis();
    let mut transaction = state.db.begin_write().await?;
    if let Some((request, user_id)) = key {
        let claim = request.claim(&mut transaction, user_id).await?;
        if claim != Claim::Fresh {
            return Ok(Err(Refusal::Key(claim)));
        }
    }
    let Some(order) = read_order(&mut transaction, order_id).await? else { return Ok(Err(Refusal::NotInReview)) };
    if order.status() != OrderStatus::ManualReview || order.kind() == OrderKind::Behalf {
        return Ok(Err(Refusal::NotInReview));
    }
    let deadline_at = now + order.allowance();
    let change = Move {
        to: OrderStatus::Processing,
        set: ", deadline_at = $2, lease_owner = $3, lease_until = $4",
        binds: vec![Bind::Int(deadline_at), Bind::Text(owner.to_string()), Bind::Int(lease_until)],
        has_serial: order.serial_no.is_some(),
        note,
        detail: "",
        actor: actor.id,
        now,
        sets_channel: None,
    };
    // The move first: from here on the order row is this transaction's, so no other send
    // can check the attempts between this check and this insert.
    if !move_status(&mut transaction, &order, change).await? {
        return Ok(Err(Refusal::NotInReview));
    }
    if attempts::has_open(&mut transaction, order_id).await? {
        return Ok(Err(Refusal::AttemptOpen));
    }
    let placed = match attempt {
        Some(NewAttempt { channel_id, cost_fen, probe }) => {
            let attempt_no = attempts::next_number(&mut transaction, order_id).await?;
            let upstream = attempts::upstream_order_id(&order.system_order_id, attempt_no);
            let inserted = attempts::insert(
                &mut *transaction,
                (order_id, attempt_no, &upstream),
                (channel_id, cost_fen, probe),
                owner,
                lease_until,
            )
            .await?;
            match inserted {
                Some(attempt) => Some(attempt),
                None => return Ok(Err(Refusal::AttemptOpen)),
            }
        }
        None => None,
    };
    transaction.commit().await?;
    state.live.moved(order.id, order.created_at, OrderStatus::Processing);
    Ok(Ok(Reopened { deadline_at, attempt: placed }))
}
