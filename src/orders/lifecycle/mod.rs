//! Status changes after an order was placed. Every change is one transaction that
//! moves the order only from the status it was read in (`UPDATE ... WHERE status = old`),
//! so of two racing changes exactly one happens: a second callback, a worker and an
//! administrator at once, all change the order once and refund it at most once.
//!
//! ```text
//! 0 pending ──submit──> 1 processing ──channel: success──> 2 success
//!   │  (on-behalf: a person)   │ └──────channel: failure──> 3 failure (refund)
//!   │                          └──deadline, no answer──> 4 manual review
//!   └─ admin success/failure ─> 2 / 3          4 ──late channel answer or admin──> 2 / 3
//!                        2 success ──supplier reports reversed, or admin──> 5 reversed (refund)
//! ```

mod many;
pub mod reopen;
pub mod reverse;

pub use many::{ChannelSuccess, mark_processing_many, succeed_many};

use super::counters::CounterChanges;
use super::model::{ORDER_COLUMNS, OrderRow};
use super::store::insert_events;
use crate::domain::OrderStatus;
use crate::http::idempotency::{Claim, IdempotentRequest};
use crate::money::finance::ledger::{Actor, Ledger, OrderRef};
use crate::platform::channel::CardSecret;
use crate::platform::db::now_millis;
use crate::platform::live::aggregate::Finished;
use crate::platform::sql::{Bind, bind_all};
use crate::platform::state::AppState;
use sqlx::AnyConnection;

/// The final answer for an order.
#[derive(Debug, Clone)]
pub enum Outcome {
    Success { serial_no: Option<String>, card: Option<CardSecret> },
    Failure { reason: String },
}

/// Notes of the timeline events written here; the console shows them in its language.
pub mod note {
    pub const SUCCESS: &str = "success";
    pub const SUCCESS_WITHOUT_SERIAL: &str = "success without serial number";
    pub const FAILURE: &str = "failure";
    /// An administrator resolved the order by hand; the event names them (`actor_id`) and
    /// carries their reason (`detail`).
    pub const MARKED_SUCCESS: &str = "marked success by an administrator";
    pub const MARKED_FAILURE: &str = "marked failed by an administrator";
    /// The supplier reported the success reversed (冲正); the event carries its words.
    pub const REVERSED: &str = "reversed by the supplier";
    /// An administrator reversed the success; the event names them and carries the reason.
    pub const MARKED_REVERSED: &str = "reversed by an administrator";
}

/// Who reports the outcome; decides which statuses it may finish from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reporter {
    /// The channel (callback or status query): processing, or a late answer in review.
    Channel,
    /// An administrator: on-behalf orders awaiting a person, and orders in review.
    Admin,
}

pub async fn read_order(connection: &mut AnyConnection, order_id: i64) -> Result<Option<OrderRow>, sqlx::Error> {
    let sql = format!("SELECT {ORDER_COLUMNS} FROM orders WHERE id = $1");
    let row = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(order_id).fetch_optional(&mut *connection).await?;
    row.as_ref().map(OrderRow::from_row).transpose()
}

fn may_finish(order: &OrderRow, reporter: Reporter) -> bool {
    use OrderStatus::*;
    let behalf = order.kind() == crate::domain::OrderKind::Behalf;
    match (reporter, order.status()) {
        (Reporter::Channel, Processing | ManualReview) => !behalf,
        (Reporter::Admin, ManualReview) => true,
        (Reporter::Admin, Pending | Processing) => behalf,
        _ => false,
    }
}

/// A status change: the new status, extra `SET` assignments (numbered from `$2`) with
/// their values, whether the order then has a serial number, and the timeline note.
pub(super) struct Move<'a> {
    to: OrderStatus,
    set: &'a str,
    binds: Vec<Bind>,
    has_serial: bool,
    note: &'static str,
    /// Why, in a person's words (administrators' resolutions); empty otherwise.
    detail: &'a str,
    actor: Option<i64>,
    now: i64,
    /// `Some`: the move records on the order the channel that fulfilled it and its cost
    /// (`Some(None)`: none, clearing them), which moves it to that channel's report row.
    sets_channel: Option<Option<(i64, i64)>>,
}

/// What status changes leave to be written once, after every order row: counter changes
/// and timeline events. A transaction moving many orders (`mark_processing_many`,
/// `succeed_many`) thus locks its order rows first and the counters last, as one order
/// alone does, so two such transactions never wait for each other in a circle.
#[derive(Default)]
struct Deferred {
    counters: CounterChanges,
    events: Vec<(i64, OrderStatus, &'static str, Option<i64>, i64)>,
}

impl Deferred {
    async fn write(self, connection: &mut AnyConnection) -> Result<(), sqlx::Error> {
        self.counters.apply(&mut *connection).await?;
        insert_events(&mut *connection, &self.events).await
    }
}

/// Moves an order to `change.to` if it is still in the status it was read in; updates
/// its counter and timeline. Returns false (and changes nothing) when someone else
/// moved it first.
pub(super) async fn move_status(
    connection: &mut AnyConnection,
    order: &OrderRow,
    change: Move<'_>,
) -> Result<bool, sqlx::Error> {
    let mut deferred = Deferred::default();
    let moved = move_status_deferred(connection, order, change, &mut deferred).await?;
    deferred.write(connection).await?;
    Ok(moved)
}

/// `move_status` with the counter change and timeline event left in `deferred`.
async fn move_status_deferred(
    connection: &mut AnyConnection,
    order: &OrderRow,
    change: Move<'_>,
    deferred: &mut Deferred,
) -> Result<bool, sqlx::Error> {
    let next = 2 + change.binds.len();
    let sql = format!("UPDATE orders SET status = $1{} WHERE id = ${next} AND status = ${}", change.set, next + 1);
    let mut binds = vec![Bind::Int(change.to.code())];
    binds.extend(change.binds);
    binds.extend([Bind::Int(order.id), Bind::Int(order.status)]);
    let result = bind_all(sqlx::query(sqlx::AssertSqlSafe(sql)), binds).execute(&mut *connection).await?;
    if result.rows_affected() == 0 {
        return Ok(false);
    }
    let before = order.counted();
    let after = match change.sets_channel {
        Some(channel) => before.fulfilled_by(channel),
        None => before.clone(),
    };
    deferred.counters.moved(
        &before,
        &after,
        (order.status, order.serial_no.is_some()),
        (change.to.code(), change.has_serial),
    );
    if change.detail.is_empty() {
        deferred.events.push((order.id, change.to, change.note, change.actor, change.now));
    } else {
        sqlx::query(
            "INSERT INTO order_events (order_id, status, note, detail, actor_id, created_at) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(order.id)
        .bind(change.to.code())
        .bind(change.note)
        .bind(change.detail)
        .bind(change.actor)
        .bind(change.now)
        .execute(&mut *connection)
        .await?;
    }
    Ok(true)
}

/// Pending → processing, just before the order is handed to the channel. The deadline
/// for an answer counts from here, so orders that waited for a stopped worker are not
/// sent to review the moment they are submitted. Returns the deadline if it moved.
pub async fn mark_processing(state: &AppState, order_id: i64) -> Result<Option<i64>, sqlx::Error> {
    let now = now_millis();
    let mut transaction = state.db.begin_write().await?;
    let Some(order) = read_order(&mut transaction, order_id).await? else { return Ok(None) };
    if order.status() != OrderStatus::Pending {
        return Ok(None);
    }
    let deadline = now + order.allowance();
    let change = Move {
        to: OrderStatus::Processing,
        set: ", submitted_at = $2, deadline_at = $3",
        binds: vec![Bind::Int(now), Bind::Int(deadline)],
        has_serial: false,
        note: "submitted",
        detail: "",
        actor: None,
        now,
        sets_channel: None,
    };
    let moved = move_status(&mut transaction, &order, change).await?;
    transaction.commit().await?;
    if moved {
        state.live.moved(order.id, order.created_at, OrderStatus::Processing);
    }
    Ok(moved.then_some(deadline))
}

/// Processing → manual review: the deadline passed without an answer. No refund: the
/// top-up may still have happened, a person must find out.
pub async fn mark_manual_review(state: &AppState, order_id: i64) -> Result<bool, sqlx::Error> {
    let now = now_millis();
    let mut transaction = state.db.begin_write().await?;
    let Some(order) = read_order(&mut transaction, order_id).await? else { return Ok(false) };
    if order.status() != OrderStatus::Processing {
        return Ok(false);
    }
    let change = Move {
        to: OrderStatus::ManualReview,
        set: ", lease_owner = NULL, lease_until = NULL",
        binds: vec![],
        has_serial: order.serial_no.is_some(),
        note: "deadline passed without an answer from the channel",
        detail: "",
        actor: None,
        now,
        sets_channel: None,
    };
    let moved = move_status(&mut transaction, &order, change).await?;
    transaction.commit().await?;
    if moved {
        state.live.moved(order.id, order.created_at, OrderStatus::ManualReview);
    }
    Ok(moved)
}

/// Finishes an order with its outcome: success stores the serial number, callback time
/// and any card secret (encrypted); failure refunds the price. Returns whether this call
/// changed the order; a repeated or late report returns false and changes nothing.
pub async fn finish(
    state: &AppState,
    order_id: i64,
    outcome: Outcome,
    reporter: Reporter,
    actor: Actor,
) -> Result<bool, sqlx::Error> {
    Ok(finish_claiming(state, order_id, outcome, reporter, actor, "", None).await? == Ok(true))
}

/// `finish` by the channel that fulfilled (or failed) the order: a success records that
/// channel and its cost, fen, on the order (`fulfilled_by`), so its margin is known.
pub async fn finish_by_channel(
    state: &AppState,
    order_id: i64,
    outcome: Outcome,
    fulfilled_by: (i64, i64),
) -> Result<bool, sqlx::Error> {
    let settled = settle(state, order_id, outcome, Reporter::Channel, Actor::system(), "", None, Some(fulfilled_by));
    Ok(settled.await? == Ok(true))
}

/// `finish` with the person's reason for the timeline (`detail`, administrators only), for a
/// call with an idempotency key, claimed (for `user_id`) in the same transaction:
/// `Err(claim)` when the key was already used, and then nothing changed. A call that changed
/// nothing does not keep its claim.
pub async fn finish_claiming(
    state: &AppState,
    order_id: i64,
    outcome: Outcome,
    reporter: Reporter,
    actor: Actor,
    detail: &str,
    key: Option<(&IdempotentRequest, i64)>,
) -> Result<Result<bool, Claim>, sqlx::Error> {
    settle(state, order_id, outcome, reporter, actor, detail, key, None).await
}

#[allow(clippy::too_many_arguments)]
async fn settle(
    state: &AppState,
    order_id: i64,
    outcome: Outcome,
    reporter: Reporter,
    actor: Actor,
    detail: &str,
    key: Option<(&IdempotentRequest, i64)>,
    channel: Option<(i64, i64)>,
) -> Result<Result<bool, Claim>, sqlx::Error> {
    let now = now_millis();
    let mut transaction = state.db.begin_write().await?;
    if let Some((request, user_id)) = key {
        let claim = request.claim(&mut transaction, user_id).await?;
        if claim != Claim::Fresh {
            return Ok(Err(claim));
        }
    }
    let Some(order) = read_order(&mut transaction, order_id).await? else { return Ok(Ok(false)) };
    let mut deferred = Deferred::default();
    let how = Settling { reporter, actor: &actor, detail, channel, now };
    let finished = settle_order(&mut transaction, &state.secrets, &order, &outcome, how, &mut deferred).await?;
    deferred.write(&mut transaction).await?;
    let moved = finished.is_some();
    if moved || key.is_none() {
        transaction.commit().await?;
    }
    if let Some(finished) = finished {
        state.live.finished(finished);
    }
    Ok(Ok(moved))
}

/// Who settles an order, how and when (`settle_order`).
struct Settling<'a> {
    reporter: Reporter,
    actor: &'a Actor,
    detail: &'a str,
    /// The channel that fulfilled the order, and its cost (fen).
    channel: Option<(i64, i64)>,
    now: i64,
}

/// Settles one order already read in the caller's transaction: the checks and writes of
/// `finish`, with its counter change and event left in `deferred`. `Some`: it moved, and
/// this is what the live monitor is told after the commit.
async fn settle_order(
    connection: &mut AnyConnection,
    secrets: &crate::platform::crypto::Secrets,
    order: &OrderRow,
    outcome: &Outcome,
    how: Settling<'_>,
    deferred: &mut Deferred,
) -> Result<Option<Finished>, sqlx::Error> {
    let Settling { reporter, actor, detail, channel, now } = how;
    if !may_finish(order, reporter) {
        return Ok(None);
    }
    // A card order is bought for its card: callers judge such a success before (worker,
    // callbacks, administrators); this is the floor under all of them.
    if matches!(outcome, Outcome::Success { card: None, .. }) && order.kind() == crate::domain::OrderKind::Card {
        tracing::error!(order_id = order.id, "a card order's success without its card refused");
        return Ok(None);
    }
    let callback_at = (reporter == Reporter::Channel).then_some(now);
    let common = ", finished_at = $2, duration_ms = $3, callback_at = $4, lease_owner = NULL, lease_until = NULL";
    let mut binds = vec![Bind::Int(now), Bind::Int(now - order.created_at), Bind::OptInt(callback_at)];
    let moved = match outcome {
        Outcome::Success { serial_no, card } => {
            let (card_no, card_secret) = match card {
                Some(card) => {
                    let context = &order.system_order_id;
                    (
                        Some(secrets.encrypt(card.number.as_bytes(), &format!("card_no:{context}")).map_err(to_sqlx)?),
                        Some(
                            secrets
                                .encrypt(card.password.as_bytes(), &format!("card_secret:{context}"))
                                .map_err(to_sqlx)?,
                        ),
                    )
                }
                None => (None, None),
            };
            let set = format!(
                "{common}, serial_no = $5, card_no_enc = $6, card_secret_enc = $7, channel_id = $8, cost_fen = $9"
            );
            let has_serial = serial_no.is_some();
            binds.extend([
                Bind::OptText(serial_no.clone()),
                Bind::OptText(card_no),
                Bind::OptText(card_secret),
                Bind::OptInt(channel.map(|(id, _)| id)),
                Bind::OptInt(channel.map(|(_, cost)| cost)),
            ]);
            let note = match (reporter, has_serial) {
                (Reporter::Admin, _) => note::MARKED_SUCCESS,
                (Reporter::Channel, true) => note::SUCCESS,
                (Reporter::Channel, false) => note::SUCCESS_WITHOUT_SERIAL,
            };
            let change = Move {
                to: OrderStatus::Success,
                set: &set,
                binds,
                has_serial,
                note,
                detail,
                actor: actor.id,
                now,
                sets_channel: Some(channel),
            };
            move_status_deferred(&mut *connection, order, change, deferred).await?
        }
        Outcome::Failure { reason } => {
            let set = format!("{common}, failure_reason = $5");
            binds.push(Bind::Text(reason.chars().take(500).collect()));
            let has_serial = order.serial_no.is_some();
            // Locks are always taken account → order → counters (as when placing), so
            // that PostgreSQL transactions never wait for each other in a circle.
            let mut ledger = Ledger::open(&mut *connection, order.merchant_id, actor.clone()).await?;
            let note = if reporter == Reporter::Admin { note::MARKED_FAILURE } else { note::FAILURE };
            let change = Move {
                to: OrderStatus::Failure,
                set: &set,
                binds,
                has_serial,
                note,
                detail,
                actor: actor.id,
                now,
                sets_channel: None,
            };
            let moved = move_status_deferred(&mut *connection, order, change, deferred).await?;
            if moved {
                ledger.refund_order(
                    (order.paid_balance_fen, order.paid_credit_fen),
                    OrderRef { id: order.id, order_no: &order.order_no },
                );
                ledger.flush(&mut *connection).await?;
            }
            moved
        }
    };
    if !moved {
        return Ok(None);
    }
    // The merchant's notification, in the same transaction: finished means notified.
    crate::notify::outbox::enqueue_order_finished(&mut *connection, order.id).await?;
    if let Some(batch_id) = order.batch_id {
        super::batch::notice::tell_if_finished(&mut *connection, batch_id).await?;
    }
    Ok(Some(order.live_finished(now, matches!(outcome, Outcome::Success { .. }))))
}

fn to_sqlx(error: anyhow::Error) -> sqlx::Error {
    sqlx::Error::Protocol(format!("{error:#}"))
}
