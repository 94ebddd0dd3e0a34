//! Success ratio per channel over 5 and 60 minutes, fed when an attempt gets its final
//! answer (`supply::health::resolved`, recorded once per attempt): a minute ring like the
//! carriers', keyed by channel, since channels are added at run time.
//!
//! Judged on attempts, not orders: an order that failed at one channel and succeeded at
//! the next counts a failure for the first and a success for the second, which is what
//! tells an operator which supplier is letting them down.

use super::aggregate::HOUR_MINUTES;
use super::snapshot::{ChannelRatio, LiveAlert};
use crate::db::Database;
use sqlx::Row;
use std::collections::HashMap;

/// (succeeded, failed) over a span of minutes.
type Tally = (u64, u64);

const MINUTE_MS: i64 = 60_000;
const HOUR_MS: i64 = 3_600_000;

#[derive(Clone, Default)]
struct ChannelMinute {
    /// Minutes since the epoch this slot holds; a slot of another minute is stale.
    minute: i64,
    /// (succeeded, failed) per channel id.
    counts: HashMap<i64, (u64, u64)>,
}

pub struct ChannelAggregate {
    slots: Vec<ChannelMinute>,
}

impl Default for ChannelAggregate {
    fn default() -> Self {
        // Minute -1 is never within the last hour: every slot starts stale.
        Self { slots: vec![ChannelMinute { minute: -1, counts: HashMap::new() }; HOUR_MINUTES] }
    }
}

impl ChannelAggregate {
    /// An attempt at `channel_id` got its final answer at `at`; answers outside the last
    /// hour (a late report) change nothing.
    pub fn resolved(&mut self, channel_id: i64, success: bool, at: i64, now: i64) {
        let (minute, current) = (at.div_euclid(MINUTE_MS), now.div_euclid(MINUTE_MS));
        if minute > current || current - minute >= HOUR_MINUTES as i64 {
            return;
        }
        let slot = &mut self.slots[minute.rem_euclid(HOUR_MINUTES as i64) as usize];
        if slot.minute != minute {
            if slot.minute > minute {
                return;
            }
            *slot = ChannelMinute { minute, counts: HashMap::new() };
        }
        let pair = slot.counts.entry(channel_id).or_default();
        if success {
            pair.0 += 1;
        } else {
            pair.1 += 1;
        }
    }

    /// Channels counted in any slot (the caller checks it knows their names).
    pub fn channel_ids(&self) -> impl Iterator<Item = i64> + '_ {
        self.slots.iter().flat_map(|slot| slot.counts.keys().copied())
    }

    /// Channels with results in the last hour, by id; names from the caller's cache.
    pub fn ratios(&self, now: i64, names: &HashMap<i64, String>) -> Vec<ChannelRatio> {
        let current = now.div_euclid(MINUTE_MS);
        let mut sums: HashMap<i64, (Tally, Tally)> = HashMap::new();
        for slot in &self.slots {
            if slot.minute > current || current - slot.minute >= HOUR_MINUTES as i64 {
                continue;
            }
            let recent = current - slot.minute < 5;
            for (channel, (succeeded, failed)) in &slot.counts {
                let entry = sums.entry(*channel).or_default();
                entry.1.0 += succeeded;
                entry.1.1 += failed;
                if recent {
                    entry.0.0 += succeeded;
                    entry.0.1 += failed;
                }
            }
        }
        let mut ratios: Vec<ChannelRatio> = sums
            .into_iter()
            .map(|(channel, (last_5, last_60))| {
                ChannelRatio::new(channel, names.get(&channel).cloned().unwrap_or_default(), last_5, last_60)
            })
            .collect();
        ratios.sort_by_key(|ratio| ratio.channel_id);
        ratios
    }
}

/// Attempts answered in the last hour (at start, and when several servers re-read):
/// one indexed range read per channel (`order_attempts_channel_time`), never a scan of
/// every attempt. An attempt requested more than an hour ago and answered since is not
/// on the rebuilt figures (there is no index by answering time).
pub async fn read(db: &Database, now: i64) -> Result<ChannelAggregate, sqlx::Error> {
    let mut aggregate = ChannelAggregate::default();
    let channels: Vec<i64> = sqlx::query_scalar("SELECT id FROM channels").fetch_all(&db.pool).await?;
    for channel in channels {
        let rows = sqlx::query(
            "SELECT outcome, answered_at FROM order_attempts
             WHERE channel_id = $1 AND requested_at >= $2 AND outcome IN ('success', 'failed')
               AND answered_at IS NOT NULL",
        )
        .bind(channel)
        .bind(now - HOUR_MS)
        .fetch_all(&db.pool)
        .await?;
        for row in rows {
            let (outcome, answered_at): (String, i64) = (row.try_get(0)?, row.try_get(1)?);
            aggregate.resolved(channel, outcome == "success", answered_at, now);
        }
    }
    Ok(aggregate)
}

/// Every channel's name (a short table), and the enabled channels paused by the health
/// check (`paused_until` set: resting, or waiting for its probe order) as alerts.
pub async fn names_and_pauses(db: &Database) -> Result<(HashMap<i64, String>, Vec<LiveAlert>), sqlx::Error> {
    let rows = sqlx::query("SELECT id, name, enabled, paused_until, pause_reason FROM channels ORDER BY id")
        .fetch_all(&db.pool)
        .await?;
    let mut names = HashMap::new();
    let mut alerts = Vec::new();
    for row in rows {
        let (id, name, enabled): (i64, String, i64) = (row.try_get(0)?, row.try_get(1)?, row.try_get(2)?);
        let paused_until: Option<i64> = row.try_get(3)?;
        if let (Some(until), true) = (paused_until, enabled != 0) {
            let reason: Option<String> = row.try_get(4)?;
            alerts.push(LiveAlert::channel_paused(id, &name, reason.unwrap_or_default(), until));
        }
        names.insert(id, name);
    }
    Ok((names, alerts))
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_800_000_000_000;

    #[test]
    fn ratios_per_channel_cover_five_and_sixty_minutes() {
        let mut aggregate = ChannelAggregate::default();
        aggregate.resolved(7, false, NOW - 30 * MINUTE_MS, NOW);
        aggregate.resolved(7, false, NOW - 30 * MINUTE_MS, NOW);
        aggregate.resolved(7, true, NOW - MINUTE_MS, NOW);
        aggregate.resolved(3, true, NOW, NOW);
        // Older than the hour, or from the future: not counted.
        aggregate.resolved(3, false, NOW - 61 * MINUTE_MS, NOW);
        aggregate.resolved(3, false, NOW + 2 * MINUTE_MS, NOW);
        let names = HashMap::from([(7, "seven".to_string())]);
        let ratios = aggregate.ratios(NOW, &names);
        assert_eq!(ratios.iter().map(|ratio| ratio.channel_id).collect::<Vec<_>>(), [3, 7]);
        let seven = &ratios[1];
        assert_eq!(seven.name, "seven");
        assert_eq!((seven.succeeded_5m, seven.failed_5m, seven.succeeded_60m, seven.failed_60m), (1, 0, 1, 2));
        assert_eq!((seven.success_permille_5m, seven.success_permille_60m), (Some(1000), Some(333)));
        assert_eq!((ratios[0].succeeded_60m, ratios[0].failed_60m), (1, 0));
        // An hour later nothing is left.
        assert!(aggregate.ratios(NOW + HOUR_MS, &names).is_empty());
    }
}
