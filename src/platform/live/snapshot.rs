//! What one event of the monitor stream carries: every figure, in full, so that a client
//! that (re)connects needs nothing else.

use crate::platform::channel::results::Tally;
use serde::Serialize;
use utoipa::ToSchema;

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LiveSnapshot {
    /// Unix milliseconds the figures were read at.
    pub at: i64,
    /// The last 60 minutes, oldest first (the current minute last).
    pub minutes: Vec<MinuteFigures>,
    /// Carriers with results in the last hour.
    pub carriers: Vec<CarrierRatio>,
    /// Channels (suppliers) with attempts answered in the last hour or today, by id: each
    /// attempt's final answer counts for the channel it was handed to.
    pub channels: Vec<ChannelRatio>,
    /// Orders pending or processing.
    pub in_flight: u64,
    pub manual_review: u64,
    /// Age of the oldest order still waiting for a result (in flight or in review).
    pub oldest_waiting_seconds: Option<i64>,
    /// Placement→result time over the last hour (upper bound of a 25 % wide bucket).
    pub p50_ms: Option<i64>,
    pub p95_ms: Option<i64>,
    /// Today's (Beijing day) merchants by amount ordered, at most 10.
    pub top_merchants: Vec<MerchantVolume>,
    /// Today's (Beijing day) orders by the number's province, by amount ordered, the
    /// numbers of no known province last; every province with an order today.
    pub provinces_today: Vec<ProvinceVolume>,
    /// Merchants' order notifications (read from the outbox every 10 seconds).
    pub notifications: NotificationFigures,
    pub alerts: Vec<LiveAlert>,
    /// Unix milliseconds the alerts were last read (every 10 seconds): they say what the
    /// database held then or later.
    pub alerts_at: i64,
    /// Orders refused by the merchants' risk controls today (Beijing day), by reason, every
    /// reason listed. Counted by the server that refused them, since it started.
    pub refused_today: Vec<RefusalCount>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RefusalCount {
    /// `number_in_flight`, `number_daily_orders`, `number_daily_amount` or `merchant_daily_cap`.
    pub reason: String,
    pub count: u64,
}

#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct NotificationFigures {
    /// Notifications still to be delivered (pending, or failed and waiting for a retry).
    pub backlog: u64,
    /// Delivery attempts in the last hour, and those that failed.
    pub attempts_60m: u64,
    pub failed_60m: u64,
    /// Failed attempts per thousand; null without attempts.
    pub failure_permille_60m: Option<u64>,
}

impl NotificationFigures {
    pub fn new(backlog: u64, attempts_60m: u64, failed_60m: u64) -> Self {
        let failure_permille_60m = (attempts_60m > 0).then(|| failed_60m.min(attempts_60m) * 1000 / attempts_60m);
        Self { backlog, attempts_60m, failed_60m, failure_permille_60m }
    }
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MinuteFigures {
    /// Unix milliseconds the minute starts.
    pub minute_start: i64,
    pub placed: u64,
    pub succeeded: u64,
    pub failed: u64,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CarrierRatio {
    /// 1 China Mobile, 2 China Unicom, 3 China Telecom, 4 China Broadnet.
    pub carrier: i64,
    pub succeeded_5m: u64,
    pub failed_5m: u64,
    /// Successes per thousand results; null without results.
    pub success_permille_5m: Option<u64>,
    pub succeeded_60m: u64,
    pub failed_60m: u64,
    pub success_permille_60m: Option<u64>,
}

fn permille((succeeded, failed): (u64, u64)) -> Option<u64> {
    let total = succeeded + failed;
    (total > 0).then(|| succeeded * 1000 / total)
}

impl CarrierRatio {
    pub fn new(carrier: i64, last_5: (u64, u64), last_60: (u64, u64)) -> Self {
        Self {
            carrier,
            succeeded_5m: last_5.0,
            failed_5m: last_5.1,
            success_permille_5m: permille(last_5),
            succeeded_60m: last_60.0,
            failed_60m: last_60.1,
            success_permille_60m: permille(last_60),
        }
    }
}

/// A channel's results (`channel::results`): attempts whose final answer, success or
/// definite failure, was recorded within the span; pending and unknown ones count for
/// neither. The channels list and reconciliation read the same figures.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ChannelRatio {
    pub channel_id: i64,
    pub name: String,
    pub succeeded_5m: u64,
    pub failed_5m: u64,
    /// Successes per thousand results (rounded down); null without results.
    pub success_permille_5m: Option<u64>,
    pub succeeded_60m: u64,
    pub failed_60m: u64,
    pub success_permille_60m: Option<u64>,
    /// Since Beijing midnight (read every 10 seconds): `succeeded_today` is the count
    /// reconciliation calls our successes of the day.
    pub succeeded_today: u64,
    pub failed_today: u64,
    pub success_permille_today: Option<u64>,
}

impl ChannelRatio {
    pub fn new(channel_id: i64, name: String, last_5: Tally, last_60: Tally, today: Tally) -> Self {
        Self {
            channel_id,
            name,
            succeeded_5m: last_5.succeeded,
            failed_5m: last_5.failed,
            success_permille_5m: last_5.permille(),
            succeeded_60m: last_60.succeeded,
            failed_60m: last_60.failed,
            success_permille_60m: last_60.permille(),
            succeeded_today: today.succeeded,
            failed_today: today.failed,
            success_permille_today: today.permille(),
        }
    }
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MerchantVolume {
    pub merchant_id: i64,
    pub name: String,
    pub orders: u64,
    pub amount_fen: i64,
}

/// A province's orders placed today, and how those finished so far ended.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ProvinceVolume {
    /// GB/T 2260 code (440000); null for numbers whose province is not known.
    pub province: Option<u32>,
    pub orders: u64,
    pub amount_fen: i64,
    pub succeeded: u64,
    pub failed: u64,
    /// Successes per thousand of the finished ones (rounded down); null before any finished.
    pub success_permille: Option<u64>,
}

impl ProvinceVolume {
    pub fn new(province: Option<u32>, orders: u64, amount_fen: i64, results: (u64, u64)) -> Self {
        let (succeeded, failed) = results;
        Self { province, orders, amount_fen, succeeded, failed, success_permille: permille(results) }
    }
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LiveAlert {
    /// `low_balance`: the merchant's balance is below the alert line.
    /// `notification_exhausted`: notifications to the merchant were given up on (all
    /// retries failed) in the last 24 hours; `count` says how many.
    /// `channel_paused`: the health check paused a channel (resting until `paused_until`,
    /// then waiting for its probe order); `name` is the channel's.
    /// `review_aging`: orders wait in manual review: `count` of them, the oldest placed
    /// `oldest_seconds` ago; raised when the oldest is older than `threshold_seconds` or
    /// there are at least `threshold` of them.
    /// `callback_failing`: deliveries of the merchant's order notifications fail: `failed`
    /// of `count` attempts in the last hour (`failure_permille`); raised from
    /// `threshold` attempts on, at a failure ratio of at least `threshold_permille`.
    /// `notification_backlog`: `count` notifications wait to be delivered (pending or
    /// failed and waiting for a retry), at least `threshold`.
    pub kind: String,
    /// The merchant (0 for the kinds not about one merchant).
    pub merchant_id: i64,
    /// The merchant's name, or the channel's for `channel_paused` (empty otherwise).
    pub name: String,
    /// `low_balance` only (0 otherwise).
    pub balance_fen: i64,
    pub threshold_fen: i64,
    /// `notification_exhausted`, `review_aging`, `callback_failing`, `notification_backlog` (0 otherwise).
    pub count: i64,
    /// `callback_failing` only (0 otherwise).
    pub failed: i64,
    pub failure_permille: i64,
    pub threshold_permille: i64,
    /// `review_aging` only (0 otherwise).
    pub oldest_seconds: i64,
    pub threshold_seconds: i64,
    /// The count from which `review_aging`, `callback_failing` and `notification_backlog` are raised.
    pub threshold: i64,
    /// `channel_paused` only (0 otherwise).
    pub channel_id: i64,
    /// `channel_paused` only: `low_success_ratio`, `unknown_streak` or `probe_failed` (empty otherwise).
    pub pause_reason: String,
    /// `channel_paused` only: unix milliseconds the cool-down ends (0 otherwise).
    pub paused_until: i64,
}

impl LiveAlert {
    pub fn merchant(kind: &str, merchant_id: i64, name: String) -> Self {
        Self {
            kind: kind.to_string(),
            merchant_id,
            name,
            balance_fen: 0,
            threshold_fen: 0,
            count: 0,
            failed: 0,
            failure_permille: 0,
            threshold_permille: 0,
            oldest_seconds: 0,
            threshold_seconds: 0,
            threshold: 0,
            channel_id: 0,
            pause_reason: String::new(),
            paused_until: 0,
        }
    }

    /// An alert about the whole platform (no merchant, no channel).
    pub fn platform(kind: &str) -> Self {
        Self::merchant(kind, 0, String::new())
    }

    pub fn channel_paused(channel_id: i64, name: &str, pause_reason: String, paused_until: i64) -> Self {
        Self { channel_id, pause_reason, paused_until, ..Self::merchant("channel_paused", 0, name.to_string()) }
    }
}
