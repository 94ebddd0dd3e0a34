//! The background worker: hands in-flight orders to the channel and applies its answers.
//!
//! Orders are claimed in the database with a lease (`lease_owner`, `lease_until`), not
//! held in memory, so a restart loses nothing: a claim of a worker that died expires and
//! the order is claimed again. `lease_until` doubles as "look again at": after each visit
//! an unfinished order is released with `lease_until` set to the next check.
//!
//! An order is submitted only from pending, after it was marked processing in its own
//! committed transaction. A processing order is never submitted again: the worker asks
//! the channel where it stands, and submits only if the channel says it never got it.
//! Channels treat a repeated submission as a no-op as well, so even a crash between the
//! two steps cannot top a number up twice.

use crate::channel::{ChannelOrder, ChannelStatus};
use crate::config::millis;
use crate::db::now_millis;
use crate::domain::{OrderKind, OrderStatus};
use crate::finance::ledger::Actor;
use crate::orders::lifecycle::{self, Outcome, Reporter};
use crate::state::AppState;
use sqlx::Row;
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// A claimed order: what the worker needs to drive it.
#[derive(Debug)]
struct Claimed {
    id: i64,
    status: OrderStatus,
    deadline_at: i64,
    order: ChannelOrder,
}

/// Starts the worker; it stops (after the order in hand) when `stop` turns true.
pub fn spawn(state: AppState, mut stop: watch::Receiver<bool>) -> JoinHandle<()> {
    tokio::spawn(async move {
        let owner = format!("worker-{}", uuid::Uuid::new_v4().simple());
        let poll = state.config.worker.poll_interval;
        tracing::info!(%owner, "order worker started");
        loop {
            if *stop.borrow() {
                break;
            }
            let handled = match run_once(&state, &owner, &stop).await {
                Ok(handled) => handled,
                Err(error) => {
                    tracing::error!(error = %format!("{error:#}"), "order worker pass failed");
                    0
                }
            };
            // A full batch means more may be due: go on at once.
            if handled < state.config.worker.batch_size as usize {
                tokio::select! {
                    _ = tokio::time::sleep(poll) => {}
                    _ = stop.changed() => {}
                }
            }
        }
        tracing::info!(%owner, "order worker stopped");
    })
}

/// One pass: claims due orders and drives each one step. Returns how many it claimed.
pub async fn run_once(state: &AppState, owner: &str, stop: &watch::Receiver<bool>) -> anyhow::Result<usize> {
    let claimed = claim(state, owner).await?;
    let count = claimed.len();
    for order in claimed {
        if *stop.borrow() {
            // Stopping: the rest keep their claim until the lease runs out, and are then
            // re-driven by whichever worker runs next.
            break;
        }
        if let Err(error) = drive(state, &order).await {
            tracing::warn!(order_id = order.id, error = %format!("{error:#}"), "order step failed; retried later");
            release(state, order.id).await.ok();
        }
    }
    Ok(count)
}

async fn claim(state: &AppState, owner: &str) -> anyhow::Result<Vec<Claimed>> {
    let now = now_millis();
    // The condition is repeated outside the subquery so that PostgreSQL re-checks it on
    // the locked row: two workers never both claim one order.
    let rows = sqlx::query(
        "UPDATE orders SET lease_owner = $1, lease_until = $2
         WHERE id IN (SELECT id FROM orders WHERE status IN (0, 1) AND order_kind IN (1, 2) AND lease_until <= $3
                      ORDER BY lease_until LIMIT $4)
           AND status IN (0, 1) AND order_kind IN (1, 2) AND lease_until <= $3
         RETURNING id, status, deadline_at, system_order_id, account, product_key, face_value_fen, order_kind",
    )
    .bind(owner)
    .bind(now + millis(state.config.worker.lease))
    .bind(now)
    .bind(state.config.worker.batch_size)
    .fetch_all(&state.db.pool)
    .await?;
    let mut claimed = Vec::with_capacity(rows.len());
    for row in rows {
        let status: i64 = row.try_get(1)?;
        let kind: i64 = row.try_get(7)?;
        claimed.push(Claimed {
            id: row.try_get(0)?,
            status: OrderStatus::from_code(status).unwrap_or(OrderStatus::Processing),
            deadline_at: row.try_get(2)?,
            order: ChannelOrder {
                system_order_id: row.try_get(3)?,
                account: row.try_get(4)?,
                product_key: row.try_get(5)?,
                face_value_fen: row.try_get(6)?,
                card: kind == OrderKind::Card.code(),
            },
        });
    }
    claimed.sort_by_key(|order| order.id);
    Ok(claimed)
}

/// Lets go of an unfinished order until its next check.
async fn release(state: &AppState, order_id: i64) -> anyhow::Result<()> {
    sqlx::query("UPDATE orders SET lease_owner = NULL, lease_until = $1 WHERE id = $2 AND status IN (0, 1)")
        .bind(now_millis() + millis(state.config.worker.poll_interval))
        .bind(order_id)
        .execute(&state.db.pool)
        .await?;
    Ok(())
}

async fn drive(state: &AppState, claimed: &Claimed) -> anyhow::Result<()> {
    let channel = &state.channel;
    let mut deadline_at = claimed.deadline_at;
    let status = match claimed.status {
        OrderStatus::Pending => {
            match lifecycle::mark_processing(state, claimed.id).await? {
                Some(deadline) => deadline_at = deadline,
                None => return Ok(()),
            }
            channel.submit(&claimed.order).await?;
            // A channel may answer at once; asking now saves a round.
            channel.query(&claimed.order).await?
        }
        _ => match channel.query(&claimed.order).await? {
            ChannelStatus::Unknown if now_millis() <= deadline_at => {
                // Marked processing but the channel never got it (we stopped in between).
                channel.submit(&claimed.order).await?;
                ChannelStatus::Pending
            }
            status => status,
        },
    };
    let system = Actor::system();
    match status {
        ChannelStatus::Succeeded { serial_no, card } => {
            let outcome = Outcome::Success { serial_no: Some(serial_no), card };
            lifecycle::finish(state, claimed.id, outcome, Reporter::Channel, system).await?;
        }
        ChannelStatus::Failed { reason } => {
            lifecycle::finish(state, claimed.id, Outcome::Failure { reason }, Reporter::Channel, system).await?;
        }
        ChannelStatus::Pending | ChannelStatus::Unknown if now_millis() > deadline_at => {
            lifecycle::mark_manual_review(state, claimed.id).await?;
        }
        ChannelStatus::Pending | ChannelStatus::Unknown => release(state, claimed.id).await?,
    }
    Ok(())
}
