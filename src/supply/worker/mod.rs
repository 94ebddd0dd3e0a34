//! The background worker: routes in-flight orders to channels and applies their answers.
//!
//! Orders are claimed in the database with a lease (`lease_owner`, `lease_until`), not
//! held in memory, so a restart loses nothing: a claim of a worker that died expires and
//! the order is claimed again. `lease_until` doubles as "look again at": after each visit
//! an unfinished order is released with `lease_until` set to the next check.
//!
//! An order is routed only after it was marked processing in its own committed
//! transaction. Each hand-over to a channel is an attempt row (platform/channel/attempts.rs),
//! inserted before it is submitted; a worker finding an unresolved attempt asks the
//! channel where it stands, and submits (the same upstream id) only if the channel says
//! it never got it. Only a definite failure moves the order to the next channel; an
//! unknown answer keeps it with its channel until the deadline, then manual review.

use crate::domain::{OrderKind, OrderStatus};
use crate::i18n::FailureReason;
use crate::money::finance::ledger::Actor;
use crate::orders::lifecycle::{self, Outcome, Reporter};
use crate::platform::channel::attempts::{self, Attempt};
use crate::platform::channel::{ChannelOrder, ChannelStatus, model, routing};
use crate::platform::config::millis;
use crate::platform::db::{dialect, now_millis};
use crate::platform::state::AppState;
use crate::supply::health;
use sqlx::Row;
use tokio::sync::watch;
use tokio::task::JoinHandle;

mod batch;
pub mod review;

/// A claimed order: what the worker needs to drive it.
#[derive(Debug)]
struct Claimed {
    id: i64,
    status: OrderStatus,
    deadline_at: i64,
    product_id: i64,
    system_order_id: String,
    /// The order as a channel sees it, but for the upstream id (per attempt).
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
                    crate::platform::db::outage::pass_failed(&error, "order worker pass failed");
                    0
                }
            };
            // A full batch means more may be due: go on at once. Otherwise wait for the
            // next look, or for a new order, whichever comes first.
            if handled < state.config.worker.batch_size as usize {
                tokio::select! {
                    _ = tokio::time::sleep(poll) => {}
                    _ = state.arrivals.notified() => {}
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
    // New orders go to their channels together (batch.rs); the rest one by one.
    let rest = batch::drive_new(state, owner, claimed).await;
    for order in rest {
        if *stop.borrow() {
            // Stopping: the rest keep their claim until the lease runs out, and are then
            // re-driven by whichever worker runs next.
            break;
        }
        if let Err(error) = drive(state, owner, &order).await {
            tracing::warn!(order_id = order.id, error = %format!("{error:#}"), "order step failed; retried later");
            release(state, order.id).await.ok();
        }
    }
    Ok(count)
}

/// What the worker reads of an order it drives ([`Claimed::from_row`]).
const CLAIMED_COLUMNS: &str =
    "id, status, deadline_at, system_order_id, account, product_key, face_value_fen, order_kind, product_id";

/// The claim of due orders. The indexes are named: SQLite's planner, without statistics,
/// preferred the kind-and-time index and read every order of the table twice a second
/// (13 % of a core on an idle server with a million orders). The partial index holds only
/// orders in flight. `tests/api/query_plans.rs` checks the plan.
pub fn claim_statement(kind: crate::platform::db::DatabaseKind) -> String {
    format!(
        "UPDATE {} SET lease_owner = $1, lease_until = $2
         WHERE id IN (SELECT id FROM {} WHERE status IN (0, 1) AND order_kind IN (1, 2) AND lease_until <= $3
                      ORDER BY lease_until LIMIT $4)
           AND status IN (0, 1) AND order_kind IN (1, 2) AND lease_until <= $3
         RETURNING {CLAIMED_COLUMNS}",
        dialect::table_using(kind, "orders", None),
        dialect::table_using(kind, "orders", Some("orders_in_flight")),
    )
}

async fn claim(state: &AppState, owner: &str) -> anyhow::Result<Vec<Claimed>> {
    let now = now_millis();
    // The condition is repeated outside the subquery so that PostgreSQL re-checks it on
    // the locked row: two workers never both claim one order.
    let rows = sqlx::query(sqlx::AssertSqlSafe(claim_statement(state.db.kind)))
        .bind(owner)
        .bind(now + millis(state.config.worker.lease))
        .bind(now)
        .bind(state.config.worker.batch_size)
        .fetch_all(&state.db.pool)
        .await?;
    let mut claimed = rows.iter().map(Claimed::from_row).collect::<Result<Vec<_>, _>>()?;
    claimed.sort_by_key(|order| order.id);
    Ok(claimed)
}

impl Claimed {
    /// From a row of [`CLAIMED_COLUMNS`].
    fn from_row(row: &sqlx::any::AnyRow) -> Result<Self, sqlx::Error> {
        let status: i64 = row.try_get(1)?;
        let kind: i64 = row.try_get(7)?;
        Ok(Claimed {
            id: row.try_get(0)?,
            status: OrderStatus::from_code(status).unwrap_or(OrderStatus::Processing),
            deadline_at: row.try_get(2)?,
            product_id: row.try_get(8)?,
            system_order_id: row.try_get(3)?,
            order: ChannelOrder {
                upstream_order_id: String::new(),
                account: row.try_get(4)?,
                product_key: row.try_get(5)?,
                face_value_fen: row.try_get(6)?,
                card: kind == OrderKind::Card.code(),
            },
        })
    }
}

/// Lets go of an unfinished order until its next check.
async fn release(state: &AppState, order_id: i64) -> anyhow::Result<()> {
    release_until(state, order_id, now_millis() + millis(state.config.worker.poll_interval)).await
}

/// Lets go of an unfinished order until `at`.
async fn release_until(state: &AppState, order_id: i64, at: i64) -> anyhow::Result<()> {
    sqlx::query("UPDATE orders SET lease_owner = NULL, lease_until = $1 WHERE id = $2 AND status IN (0, 1)")
        .bind(at)
        .bind(order_id)
        .execute(&state.db.pool)
        .await?;
    Ok(())
}

/// The carrier and province of an order's number, which carrier windows close (None: a
/// card order without a number).
fn number_of(state: &AppState, account: &str) -> Option<(crate::domain::Carrier, Option<u32>)> {
    let number = crate::domain::PhoneNumber::parse(account)?;
    Some((number.carrier(), state.segments.region(account).map(|region| region.province_code)))
}

/// What to do after an answer was applied.
enum Step {
    /// The order was settled, released or sent to review.
    Done,
    /// The attempt definitely failed: route the order on.
    Next,
}

/// Definite failures in a row one visit follows before it lets the order wait a poll.
const MAX_STEPS_PER_VISIT: usize = 8;

async fn drive(state: &AppState, owner: &str, claimed: &Claimed) -> anyhow::Result<()> {
    let mut deadline_at = claimed.deadline_at;
    if claimed.status == OrderStatus::Pending {
        match lifecycle::mark_processing(state, claimed.id).await? {
            Some(deadline) => deadline_at = deadline,
            None => return Ok(()),
        }
    }
    let pool = &state.db.pool;
    for _ in 0..MAX_STEPS_PER_VISIT {
        let lease_until = now_millis() + millis(state.config.worker.lease);
        let step = match attempts::latest(pool, claimed.id).await? {
            // Unresolved (or a success not settled yet): stay with that channel.
            Some(attempt) if attempt.outcome != attempts::FAILED => {
                if !attempts::claim(pool, attempt.id, owner, lease_until).await? {
                    return release(state, claimed.id).await;
                }
                requery(state, claimed, &attempt, deadline_at).await?
            }
            previous => match route(state, owner, claimed, previous.as_ref(), (lease_until, deadline_at)).await? {
                Some(step) => step,
                None => return Ok(()),
            },
        };
        if let Step::Done = step {
            return Ok(());
        }
    }
    release(state, claimed.id).await
}

/// Asks the channel of an unresolved attempt (leased by the caller) where it stands and
/// applies the answer: the worker's look at an attempt it waits on, and an administrator's
/// query of an order in review (review.rs).
async fn requery(state: &AppState, claimed: &Claimed, attempt: &Attempt, deadline_at: i64) -> anyhow::Result<Step> {
    let Some(channel) = model::by_id(&state.db.pool, attempt.channel_id).await? else {
        anyhow::bail!("attempt {} names a channel that does not exist", attempt.id)
    };
    let adapter = state.channels.adapter(&channel)?;
    let order = channel_order(claimed, &attempt.upstream_order_id);
    let answer = match adapter.query(&order).await {
        // Marked sent but the channel never got it (we stopped in between):
        // the same upstream id again, which the channel deduplicates anyway.
        Ok(ChannelStatus::NotReceived) if now_millis() <= deadline_at => adapter.submit(&order).await,
        answer => answer,
    };
    apply(state, claimed, attempt, answer, deadline_at).await
}

/// Submits a new attempt (inserted, leased) to its channel and applies the answer: the
/// worker's routing, and an administrator's sending of an order in review (review.rs).
async fn submit(
    state: &AppState,
    claimed: &Claimed,
    attempt: &Attempt,
    channel: &model::ChannelRow,
    deadline_at: i64,
) -> anyhow::Result<Step> {
    let adapter = state.channels.adapter(channel)?;
    let order = channel_order(claimed, &attempt.upstream_order_id);
    let answer = match adapter.submit(&order).await {
        // A channel may answer at once; asking now saves a round.
        Ok(ChannelStatus::Pending) => adapter.query(&order).await,
        answer => answer,
    };
    apply(state, claimed, attempt, answer, deadline_at).await
}

fn channel_order(claimed: &Claimed, upstream_order_id: &str) -> ChannelOrder {
    ChannelOrder { upstream_order_id: upstream_order_id.to_string(), ..claimed.order.clone() }
}

/// Hands the order to the next channel, or refunds it when no candidate is left.
/// `None`: nothing more to do in this visit.
async fn route(
    state: &AppState,
    owner: &str,
    claimed: &Claimed,
    previous: Option<&Attempt>,
    (lease_until, deadline_at): (i64, i64),
) -> anyhow::Result<Option<Step>> {
    let pool = &state.db.pool;
    let failed = attempts::failed_channels(pool, claimed.id).await?;
    let now = now_millis();
    let mut routes = routing::routes(pool, claimed.product_id, Some(claimed.id), &failed, now).await?;
    let schedule = state.windows.current(&state.db).await?;
    let number = number_of(state, &claimed.order.account);
    routing::cover(&mut routes, number.and_then(|(_, province)| province));
    routing::close_windows(&mut routes, &schedule, number, now);
    if let Some(opens) = routing::waiting_for_window(&routes)
        && now <= deadline_at
    {
        // Every channel that could take it is in a maintenance window: it waits (nothing
        // was sent) and is looked at again when the first window ends, or at its deadline.
        release_until(state, claimed.id, opens.min(deadline_at + 1)).await?;
        return Ok(None);
    }
    let Some(route) = routing::choose(&routes, rand::random::<f64>()) else {
        // Every candidate definitely failed (or there never was one): nothing was topped
        // up anywhere, so the refund is safe.
        let reason = match previous {
            Some(attempt) if !attempt.answer.is_empty() => attempt.answer.clone(),
            Some(_) => FailureReason::ChannelDeclined.code().to_string(),
            None => FailureReason::NoChannel.code().to_string(),
        };
        let outcome = Outcome::Failure { reason };
        lifecycle::finish(state, claimed.id, outcome, Reporter::Channel, Actor::system()).await?;
        return Ok(None);
    };
    let probe = route.channel.probing(now_millis());
    if probe && !health::claim_probe(pool, route.channel.id, claimed.id).await? {
        // Another order became the probe meanwhile: look again next time.
        release(state, claimed.id).await?;
        return Ok(None);
    }
    let attempt_no = previous.map_or(1, |attempt| attempt.attempt_no + 1);
    let upstream = attempts::upstream_order_id(&claimed.system_order_id, attempt_no);
    let inserted = attempts::insert(
        pool,
        (claimed.id, attempt_no, &upstream),
        (route.channel.id, route.cost_fen, probe),
        owner,
        lease_until,
    )
    .await?;
    let Some(attempt) = inserted else {
        // Another worker took this attempt number: it submits, not we.
        release(state, claimed.id).await?;
        return Ok(None);
    };
    Ok(Some(submit(state, claimed, &attempt, &route.channel, deadline_at).await?))
}

/// Records a channel's answer on the attempt and moves the order accordingly.
async fn apply(
    state: &AppState,
    claimed: &Claimed,
    attempt: &Attempt,
    answer: anyhow::Result<ChannelStatus>,
    deadline_at: i64,
) -> anyhow::Result<Step> {
    let pool = &state.db.pool;
    match answer {
        Ok(ChannelStatus::Succeeded { serial_no, card }) => {
            if !health::record_success(state, attempt, &serial_no).await? {
                return Ok(Step::Next);
            }
            let outcome = Outcome::Success { serial_no: Some(serial_no), card };
            lifecycle::finish_by_channel(state, claimed.id, outcome, (attempt.channel_id, attempt.cost_fen)).await?;
            Ok(Step::Done)
        }
        // A reversal of a success we never settled: nothing stands there, as a failure.
        Ok(ChannelStatus::Failed { reason } | ChannelStatus::Reversed { reason }) => {
            if attempts::record(pool, attempt, attempts::FAILED, &reason, None).await? {
                health::resolved(state, attempt, false).await?;
                learn_port(state, attempt, &reason).await?;
            }
            Ok(Step::Next)
        }
        Ok(status) => {
            // Pending, or never received and past the deadline.
            attempts::record(pool, attempt, attempts::PENDING, &format!("{status:?}"), None).await?;
            health::answered(pool, attempt.channel_id).await?;
            wait_or_review(state, claimed, deadline_at).await
        }
        Err(error) => {
            let text = format!("{error:#}");
            tracing::info!(order_id = claimed.id, attempt = attempt.attempt_no, error = %text, "channel answer unknown");
            attempts::record(pool, attempt, attempts::UNKNOWN, &text, None).await?;
            health::unknown(state, attempt.channel_id).await?;
            wait_or_review(state, claimed, deadline_at).await
        }
    }
}

/// A failure saying the number moved to another carrier is remembered for the number's
/// later orders (`platform::ports`).
pub(crate) async fn learn_port(state: &AppState, attempt: &Attempt, reason: &str) -> anyhow::Result<()> {
    if reason == FailureReason::NumberPorted.code() {
        state.ports.record(&state.db, attempt.order_id, attempt.channel_id).await?;
    }
    Ok(())
}

/// An unresolved attempt: ask again later, or past the deadline hand it to a person
/// (never a refund: the top-up may have happened).
async fn wait_or_review(state: &AppState, claimed: &Claimed, deadline_at: i64) -> anyhow::Result<Step> {
    if now_millis() > deadline_at {
        lifecycle::mark_manual_review(state, claimed.id).await?;
    } else {
        release(state, claimed.id).await?;
    }
    Ok(Step::Done)
}
