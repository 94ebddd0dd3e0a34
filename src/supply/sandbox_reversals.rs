//! The sandbox's reversals (冲正) reach our orders without waiting for the reconciliation.
//! A real supplier calls back with code 20; the in-process sandbox cannot, so this sweep
//! does it for it: every second it claims the reversals due in the sandbox's book (one
//! conditional UPDATE with a lease: several servers on one database deliver each once, and
//! one a server claimed before it stopped is claimed again after the lease) and applies each
//! through `callback::settle`, as a supplier's callback is applied: the order is reversed
//! and refunded once, the merchant told by `order.reversed`; a reversal of an attempt not
//! settled as a success counts as its failure there.

use crate::platform::channel::{ChannelStatus, attempts, sandbox};
use crate::platform::db::now_millis;
use crate::platform::state::AppState;
use std::time::Duration;
use tokio::sync::watch;
use tokio::task::JoinHandle;

const SWEEP_EVERY: Duration = Duration::from_secs(1);
/// Claimed at most at once (a later pass takes the rest).
const CLAIM_AT_ONCE: i64 = 100;

pub fn spawn(state: AppState, mut stop: watch::Receiver<bool>) -> JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            if let Err(error) = sweep(&state).await {
                tracing::warn!(error = %format!("{error:#}"), "sandbox reversal pass failed");
            }
            tokio::select! {
                _ = tokio::time::sleep(SWEEP_EVERY) => {}
                _ = stop.changed() => {}
            }
            if *stop.borrow() {
                break;
            }
        }
    })
}

/// One pass: the reversals due now, claimed and applied; how many reached an order. One
/// that fails (the database went away) stays claimed and is tried again after the lease.
pub async fn sweep(state: &AppState) -> anyhow::Result<usize> {
    let claimed = sandbox::claim_due_reversals(&state.db.pool, now_millis(), CLAIM_AT_ONCE).await?;
    let mut applied = 0;
    for upstream_order_id in claimed {
        match deliver(state, &upstream_order_id).await {
            Ok(reached) => applied += usize::from(reached),
            Err(error) => {
                tracing::warn!(upstream_order_id, error = %format!("{error:#}"), "sandbox reversal not applied");
            }
        }
    }
    Ok(applied)
}

/// Applies one claimed reversal to the attempt the sandbox was handed under that id, then
/// marks it delivered (also when it is about no order of ours: never claimed again).
async fn deliver(state: &AppState, upstream_order_id: &str) -> anyhow::Result<bool> {
    let pool = &state.db.pool;
    let channel_id: Option<i64> = sqlx::query_scalar(
        "SELECT a.channel_id FROM order_attempts a JOIN channels c ON c.id = a.channel_id
         WHERE a.upstream_order_id = $1 AND c.adapter = 'sandbox'",
    )
    .bind(upstream_order_id)
    .fetch_optional(pool)
    .await?;
    let attempt = match channel_id {
        Some(channel_id) => attempts::by_upstream(pool, channel_id, upstream_order_id).await?,
        None => None,
    };
    if let Some(attempt) = &attempt {
        let reversal = ChannelStatus::Reversed { reason: sandbox::REVERSAL_REASON.to_string() };
        super::callback::settle(state, attempt, reversal).await?;
    }
    sandbox::reversal_delivered(pool, upstream_order_id, now_millis()).await?;
    Ok(attempt.is_some())
}
