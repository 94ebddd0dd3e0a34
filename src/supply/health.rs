//! Channel health: pause a channel that fails too often or stops answering, rest it for
//! a cool-down, then let exactly one order probe it; read balances periodically. Every
//! pause, resume and low balance is a message-center notice to every administrator.
//!
//! Judged on resolved attempts only: the success ratio of the last `health_window`
//! attempts since the channel last resumed (a full window is needed, so three early
//! failures of a new channel do not pause it), and `health_unknown_streak` unknown
//! answers (timeouts, resets, 5xx, unmapped codes) in a row.

use crate::domain::{beijing_time, yuan};
use crate::i18n::notices::Notice;
use crate::identity::user_centre::inbox::{Extras, MessageKind, Notification, notify_with};
use crate::platform::channel::attempts::{self, Attempt};
use crate::platform::channel::model;
use crate::platform::config::millis;
use crate::platform::db::now_millis;
use crate::platform::state::AppState;
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// Why a channel was paused (stored in `channels.pause_reason`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PauseReason {
    LowSuccessRatio,
    UnknownStreak,
    ProbeFailed,
}

impl PauseReason {
    pub fn code(self) -> &'static str {
        match self {
            PauseReason::LowSuccessRatio => "low_success_ratio",
            PauseReason::UnknownStreak => "unknown_streak",
            PauseReason::ProbeFailed => "probe_failed",
        }
    }
}

/// Makes `order_id` the probe of a channel whose cool-down is over; false when another
/// order already is.
pub async fn claim_probe(pool: &sqlx::AnyPool, channel_id: i64, order_id: i64) -> Result<bool, sqlx::Error> {
    let result = sqlx::query(
        "UPDATE channels SET probe_order_id = $1
         WHERE id = $2 AND paused_until IS NOT NULL AND paused_until <= $3
           AND (probe_order_id IS NULL OR probe_order_id = $1)",
    )
    .bind(order_id)
    .bind(channel_id)
    .bind(now_millis())
    .execute(pool)
    .await?;
    Ok(result.rows_affected() == 1)
}

/// An attempt got its final answer (recorded once).
pub async fn resolved(state: &AppState, attempt: &Attempt, success: bool) -> Result<(), sqlx::Error> {
    let pool = &state.db.pool;
    if success {
        // The known balance follows our spending between two reads.
        sqlx::query(
            "UPDATE channels SET unknown_streak = 0, balance_fen = balance_fen - $1
             WHERE id = $2 AND balance_fen IS NOT NULL",
        )
        .bind(attempt.cost_fen)
        .bind(attempt.channel_id)
        .execute(pool)
        .await?;
    }
    answered(pool, attempt.channel_id).await?;
    if attempt.probe {
        if success {
            let now = now_millis();
            let resumed = sqlx::query(
                "UPDATE channels SET paused_until = NULL, pause_reason = NULL, probe_order_id = NULL, health_since = $1
                 WHERE id = $2 AND probe_order_id = $3",
            )
            .bind(now)
            .bind(attempt.channel_id)
            .bind(attempt.order_id)
            .execute(pool)
            .await?;
            if resumed.rows_affected() == 1 {
                let name = channel_name(pool, attempt.channel_id).await?;
                alert(state, Notice::ChannelResumed, Notice::ChannelResumedDetail { name }, 1).await;
            }
        } else {
            pause(state, attempt.channel_id, PauseReason::ProbeFailed).await?;
        }
        return Ok(());
    }
    if !success {
        let window = state.config.channel.health_window.max(1);
        let outcomes: Vec<String> = sqlx::query_scalar(
            "SELECT a.outcome FROM order_attempts a JOIN channels c ON c.id = a.channel_id
             WHERE a.channel_id = $1 AND a.outcome IN ('success', 'failed') AND a.requested_at >= c.health_since
             ORDER BY a.id DESC LIMIT $2",
        )
        .bind(attempt.channel_id)
        .bind(window)
        .fetch_all(pool)
        .await?;
        let successes = outcomes.iter().filter(|outcome| *outcome == "success").count();
        if outcomes.len() as i64 >= window
            && (successes as f64) < state.config.channel.health_min_success_ratio * window as f64
        {
            pause(state, attempt.channel_id, PauseReason::LowSuccessRatio).await?;
        }
    }
    Ok(())
}

/// A clear answer (also "processing"): the run of unknown answers is over.
pub async fn answered(pool: &sqlx::AnyPool, channel_id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE channels SET unknown_streak = 0 WHERE id = $1 AND unknown_streak <> 0")
        .bind(channel_id)
        .execute(pool)
        .await?;
    Ok(())
}

/// An unknown answer; enough in a row pause the channel.
pub async fn unknown(state: &AppState, channel_id: i64) -> Result<(), sqlx::Error> {
    let streak: Option<i64> = sqlx::query_scalar(
        "UPDATE channels SET unknown_streak = unknown_streak + 1 WHERE id = $1 RETURNING unknown_streak",
    )
    .bind(channel_id)
    .fetch_optional(&state.db.pool)
    .await?;
    if streak.is_some_and(|streak| streak >= state.config.channel.health_unknown_streak.max(1)) {
        pause(state, channel_id, PauseReason::UnknownStreak).await?;
    }
    Ok(())
}

/// Pauses a channel for the cool-down (unless it is resting already) and tells the
/// administrators.
pub async fn pause(state: &AppState, channel_id: i64, reason: PauseReason) -> Result<(), sqlx::Error> {
    let now = now_millis();
    let until = now + millis(state.config.channel.pause_cooldown);
    let pool = &state.db.pool;
    let paused = sqlx::query(
        "UPDATE channels SET paused_until = $1, pause_reason = $2, probe_order_id = NULL, unknown_streak = 0
         WHERE id = $3 AND (paused_until IS NULL OR paused_until <= $4)",
    )
    .bind(until)
    .bind(reason.code())
    .bind(channel_id)
    .bind(now)
    .execute(pool)
    .await?;
    if paused.rows_affected() == 1 {
        let name = channel_name(pool, channel_id).await?;
        tracing::warn!(channel = %name, reason = reason.code(), "channel paused");
        let detail =
            Notice::ChannelPausedDetail { name, reason: reason.code().to_string(), until: beijing_time(until) };
        alert(state, Notice::ChannelPaused, detail, 3).await;
    }
    Ok(())
}

async fn channel_name(pool: &sqlx::AnyPool, channel_id: i64) -> Result<String, sqlx::Error> {
    Ok(sqlx::query_scalar("SELECT name FROM channels WHERE id = $1")
        .bind(channel_id)
        .fetch_optional(pool)
        .await?
        .unwrap_or_default())
}

/// A notice to every administrator; failing to write it never fails the order.
async fn alert(state: &AppState, title: Notice, detail: Notice, message_type: i64) {
    let (title, sub_title, content) = (title.stored(), Notice::Channels.stored(), detail.stored());
    let result: Result<(), sqlx::Error> = async {
        let administrators: Vec<i64> =
            sqlx::query_scalar("SELECT id FROM users WHERE role = 'admin'").fetch_all(&state.db.pool).await?;
        for administrator in administrators {
            let notification = Notification {
                kind: MessageKind::Notice,
                title: &title,
                sub_title: &sub_title,
                content: &content,
                message_type,
            };
            let extras = Extras::new(super::notices::CHANNELS_PAGE, None);
            notify_with(&state.db.pool, administrator, notification, extras).await?;
        }
        Ok(())
    }
    .await;
    if let Err(error) = result {
        tracing::error!(error = %error, "channel notice not written");
    }
}

/// Reads every enabled channel's balance (where its protocol tells it) and alerts when
/// one falls below its alert line.
pub async fn read_balances(state: &AppState) -> anyhow::Result<()> {
    for channel in model::all(&state.db.pool).await? {
        if !channel.enabled || channel.adapter == "sandbox" {
            continue;
        }
        let adapter = state.channels.adapter(&channel)?;
        let balance = match adapter.balance().await {
            Ok(Some(balance)) => balance,
            Ok(None) => continue,
            Err(error) => {
                tracing::info!(channel = %channel.code, error = %format!("{error:#}"), "channel balance not read");
                continue;
            }
        };
        sqlx::query("UPDATE channels SET balance_fen = $1, balance_at = $2 WHERE id = $3")
            .bind(balance)
            .bind(now_millis())
            .bind(channel.id)
            .execute(&state.db.pool)
            .await?;
        let line = channel.low_balance_fen;
        let was_above = channel.balance_fen.is_none_or(|before| before >= line);
        if line > 0 && balance < line && was_above {
            let detail =
                Notice::ChannelBalanceLowDetail { name: channel.name, balance: yuan(balance), line: yuan(line) };
            alert(state, Notice::ChannelBalanceLow, detail, 2).await;
        }
    }
    Ok(())
}

/// Reads balances every `balance_interval` until `stop`.
pub fn spawn_balance_reader(state: AppState, mut stop: watch::Receiver<bool>) -> JoinHandle<()> {
    tokio::spawn(async move {
        let interval = state.config.channel.balance_interval;
        loop {
            if let Err(error) = read_balances(&state).await {
                tracing::warn!(error = %format!("{error:#}"), "channel balance pass failed");
            }
            tokio::select! {
                _ = tokio::time::sleep(interval) => {}
                _ = stop.changed() => {}
            }
            if *stop.borrow() {
                break;
            }
        }
    })
}

/// Records a success; false (and a warning) when the attempt had already definitely
/// failed: a supplier contradicting itself must not settle an order that may have moved
/// on to another channel. Health is told of a newly recorded success.
pub async fn record_success(
    state: &crate::platform::state::AppState,
    attempt: &Attempt,
    serial_no: &str,
) -> anyhow::Result<bool> {
    let pool = &state.db.pool;
    if attempts::record(pool, attempt, attempts::SUCCESS, "success", Some(serial_no)).await? {
        resolved(state, attempt, true).await?;
        return Ok(true);
    }
    let outcome: Option<String> = sqlx::query_scalar("SELECT outcome FROM order_attempts WHERE id = $1")
        .bind(attempt.id)
        .fetch_optional(pool)
        .await?;
    if outcome.as_deref() == Some(attempts::SUCCESS) {
        return Ok(true);
    }
    tracing::warn!(
        order_id = attempt.order_id,
        attempt = attempt.attempt_no,
        "success reported for a failed attempt; ignored"
    );
    Ok(false)
}
