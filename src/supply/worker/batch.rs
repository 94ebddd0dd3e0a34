//! New orders of a pass, together: the steps `drive` takes for one order, each taken once
//! for the whole batch. Pending orders are marked processing in one transaction (committed
//! before anything is routed); the ones without an attempt are routed (the routes read
//! once per product) and their first attempts inserted in one statement (committed before
//! anything is sent); they are submitted concurrently over the channels' kept-alive
//! connections; and the successes are settled in one transaction (supply/settle.rs).
//!
//! The rules stay those of one order: an attempt row exists before its submission, the
//! `UNIQUE (order_id, attempt_no)` insert decides which worker submits, and every answer
//! but a success (a failure, "processing", an unknown) is applied one order at a time by
//! `apply`, as before. Orders that already have an attempt (re-driven after a restart,
//! waiting on a channel, moving on after a failure), that would probe a paused channel,
//! or that have no candidate channel are left to `drive`, one by one.

use super::{Claimed, Step, apply, channel_order, number_of, release};
use crate::domain::OrderStatus;
use crate::orders::lifecycle;
use crate::platform::channel::attempts::{self, NewAttempt};
use crate::platform::channel::routing::{self, Route};
use crate::platform::channel::settling::{Settled, Success};
use crate::platform::channel::{ChannelStatus, model::ChannelRow};
use crate::platform::config::millis;
use crate::platform::db::now_millis;
use crate::platform::state::AppState;
use crate::supply::settle::Settler;
use futures_util::StreamExt;
use std::collections::HashMap;

/// Submissions in flight at once. The channel's HTTP client keeps its connections alive,
/// so this many connections to a supplier are reused from batch to batch.
const SUBMISSIONS_AT_ONCE: usize = 64;

/// Drives the new orders of `claimed` through submission; returns the orders left for
/// `drive` (one by one). An order whose batch step fails is let go until its next look
/// (nothing is lost: an inserted attempt is found then, and the channel asked).
pub(super) async fn drive_new(state: &AppState, owner: &str, mut claimed: Vec<Claimed>) -> Vec<Claimed> {
    // Pending → processing, together.
    let pending: Vec<i64> =
        claimed.iter().filter(|order| order.status == OrderStatus::Pending).map(|order| order.id).collect();
    if !pending.is_empty() {
        let moved: HashMap<i64, i64> = match lifecycle::mark_processing_many(state, &pending).await {
            Ok(moved) => moved.into_iter().collect(),
            Err(error) => {
                tracing::warn!(error = %format!("{error:#}"), "marking a batch processing failed; one by one");
                return claimed;
            }
        };
        // Pending orders someone else moved meanwhile are theirs (as in `drive`).
        claimed.retain_mut(|order| {
            if order.status != OrderStatus::Pending {
                return true;
            }
            let Some(deadline) = moved.get(&order.id) else { return false };
            order.status = OrderStatus::Processing;
            order.deadline_at = *deadline;
            true
        });
    }
    let pool = &state.db.pool;
    let ids: Vec<i64> = claimed.iter().map(|order| order.id).collect();
    let tried = match attempts::orders_with_attempts(pool, &ids).await {
        Ok(tried) => tried,
        Err(error) => {
            tracing::warn!(error = %format!("{error:#}"), "reading a batch's attempts failed; one by one");
            return claimed;
        }
    };
    let (new, mut rest): (Vec<Claimed>, Vec<Claimed>) =
        claimed.into_iter().partition(|order| !tried.contains(&order.id));
    let planned = plan(state, new, &mut rest).await;
    if planned.is_empty() {
        return rest;
    }

    // The attempts exist before anything is sent.
    let lease_until = now_millis() + millis(state.config.worker.lease);
    let rows: Vec<NewAttempt> = planned
        .iter()
        .map(|(order, channel, cost_fen)| NewAttempt {
            order_id: order.id,
            attempt_no: 1,
            upstream_order_id: attempts::upstream_order_id(&order.system_order_id, 1),
            channel_id: channel.id,
            cost_fen: *cost_fen,
        })
        .collect();
    let mut inserted: HashMap<i64, attempts::Attempt> =
        match attempts::insert_many(&state.db, &rows, owner, lease_until).await {
            Ok(inserted) => inserted.into_iter().map(|attempt| (attempt.order_id, attempt)).collect(),
            Err(error) => {
                tracing::warn!(error = %format!("{error:#}"), "inserting a batch's attempts failed; retried later");
                for (order, _, _) in &planned {
                    release(state, order.id).await.ok();
                }
                return rest;
            }
        };
    let mut sends = Vec::with_capacity(planned.len());
    for (order, channel, _) in planned {
        match inserted.remove(&order.id) {
            Some(attempt) => sends.push((order, channel, attempt)),
            // Another worker took this attempt number: it submits, not we.
            None => {
                release(state, order.id).await.ok();
            }
        }
    }

    let answers: Vec<_> = futures_util::stream::iter(sends)
        .map(|(order, channel, attempt)| async move {
            let answer = match state.channels.adapter(&channel) {
                Ok(adapter) => {
                    let request = channel_order(&order, &attempt.upstream_order_id);
                    Some(match adapter.submit(&request).await {
                        // A channel may answer at once; asking now saves a round.
                        Ok(ChannelStatus::Pending) => adapter.query(&request).await,
                        answer => answer,
                    })
                }
                Err(error) => {
                    tracing::warn!(order_id = order.id, error = %format!("{error:#}"), "channel adapter unavailable");
                    None
                }
            };
            (order, attempt, answer)
        })
        .buffer_unordered(SUBMISSIONS_AT_ONCE)
        .collect()
        .await;

    let mut successes = Vec::new();
    let mut succeeded = Vec::new();
    for (order, attempt, answer) in answers {
        let Some(answer) = answer else {
            // Not sent: the attempt is found and the channel asked at the next look.
            release(state, order.id).await.ok();
            continue;
        };
        match answer {
            Ok(ChannelStatus::Succeeded { serial_no, card }) => {
                successes.push(Success { attempt, serial_no, card });
                succeeded.push(order);
            }
            answer => match apply(state, &order, &attempt, answer, order.deadline_at).await {
                Ok(Step::Done) => {}
                // A definite failure: `drive` routes it on at once.
                Ok(Step::Next) => rest.push(order),
                Err(error) => {
                    tracing::warn!(order_id = order.id, error = %format!("{error:#}"), "order step failed; retried later");
                    release(state, order.id).await.ok();
                }
            },
        }
    }
    if !successes.is_empty() {
        match Settler::new(state).settle(&successes).await {
            Ok(settled) => {
                for (order, settled) in succeeded.into_iter().zip(settled) {
                    // The attempt had failed before: `drive` routes the order on.
                    if settled == Settled::Contradicted {
                        rest.push(order);
                    }
                }
            }
            Err(error) => {
                tracing::warn!(error = %format!("{error:#}"), "settling a batch failed; asked again later");
                for order in succeeded {
                    release(state, order.id).await.ok();
                }
            }
        }
    }
    rest
}

/// Each new order's channel: the routes of its product (read once per product), drawn as
/// `routing::choose` does. Orders without a candidate or whose choice is a channel's probe
/// go to `rest` (`drive` refunds or probes them).
async fn plan(state: &AppState, new: Vec<Claimed>, rest: &mut Vec<Claimed>) -> Vec<(Claimed, ChannelRow, i64)> {
    let now = now_millis();
    let schedule = match state.windows.current(&state.db).await {
        Ok(schedule) => schedule,
        Err(error) => {
            tracing::warn!(error = %format!("{error:#}"), "reading the maintenance windows failed; one by one");
            rest.extend(new);
            return Vec::new();
        }
    };
    // No window running: the routes of a product serve every order of it as read.
    let windows_running = schedule.any_running(now);
    let mut routes_of: HashMap<i64, Vec<Route>> = HashMap::new();
    let mut planned = Vec::with_capacity(new.len());
    for order in new {
        if let std::collections::hash_map::Entry::Vacant(entry) = routes_of.entry(order.product_id) {
            // No order of this batch has failed anywhere yet, and none is a probe.
            match routing::routes(&state.db.pool, order.product_id, None, &[], now).await {
                Ok(routes) => {
                    entry.insert(routes);
                }
                Err(error) => {
                    tracing::warn!(error = %format!("{error:#}"), "reading routes failed; one by one");
                    rest.push(order);
                    continue;
                }
            }
        }
        let mut own;
        let mut routes = &routes_of[&order.product_id];
        if windows_running || routing::provincial(routes) {
            // Coverage and windows go by the number's carrier and province: this order's own
            // copy (in memory: the routes were read once for the product).
            own = routes.clone();
            let number = number_of(state, &order.order.account);
            routing::cover(&mut own, number.and_then(|(_, province)| province));
            routing::close_windows(&mut own, &schedule, number, now);
            routes = &own;
        }
        match routing::choose(routes, rand::random::<f64>()) {
            Some(route) if !route.channel.probing(now) => {
                let (channel, cost_fen) = (route.channel.clone(), route.cost_fen);
                planned.push((order, channel, cost_fen));
            }
            _ => rest.push(order),
        }
    }
    planned
}
