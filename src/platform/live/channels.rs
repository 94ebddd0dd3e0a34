//! Success ratio per channel over 5 and 60 minutes and today, read from the attempts
//! (`channel::results`: the definition the channels list and reconciliation use too).
//! The last 5 and 60 minutes are read every second; today's figures, a longer range,
//! every 10 seconds with the other alerts' reads.
//!
//! Judged on attempts, not orders: an order that failed at one channel and succeeded at
//! the next counts a failure for the first and a success for the second, which is what
//! tells an operator which supplier is letting them down.

use super::snapshot::{ChannelRatio, LiveAlert};
use crate::platform::channel::results::{Span, Tally, tallies};
use crate::platform::db::Database;
use sqlx::Row;
use std::collections::{BTreeMap, HashMap};

/// Each channel's results of today (Beijing day), read less often than the hour's.
pub async fn read_today(db: &Database, now: i64) -> Result<BTreeMap<i64, Tally>, sqlx::Error> {
    tallies(&db.pool, Span::Today.bounds(now)).await
}

/// Channels with results in the last hour or today, by id; names from the caller's cache.
pub async fn read(
    db: &Database,
    now: i64,
    today: &BTreeMap<i64, Tally>,
    names: &HashMap<i64, String>,
) -> Result<Vec<ChannelRatio>, sqlx::Error> {
    let last_5 = tallies(&db.pool, Span::LastMinutes(5).bounds(now)).await?;
    let last_60 = tallies(&db.pool, Span::LastMinutes(60).bounds(now)).await?;
    Ok(ratios(&last_5, &last_60, today, names))
}

fn ratios(
    last_5: &BTreeMap<i64, Tally>,
    last_60: &BTreeMap<i64, Tally>,
    today: &BTreeMap<i64, Tally>,
    names: &HashMap<i64, String>,
) -> Vec<ChannelRatio> {
    let mut ids: Vec<i64> = last_60.keys().chain(today.keys()).copied().collect();
    ids.sort_unstable();
    ids.dedup();
    let of = |map: &BTreeMap<i64, Tally>, id: i64| map.get(&id).copied().unwrap_or_default();
    ids.into_iter()
        .map(|id| {
            let name = names.get(&id).cloned().unwrap_or_default();
            ChannelRatio::new(id, name, of(last_5, id), of(last_60, id), of(today, id))
        })
        .collect()
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

    #[test]
    fn a_channel_with_results_today_only_is_listed_with_empty_recent_figures() {
        let tally = |succeeded, failed| Tally { succeeded, failed };
        let last_5 = BTreeMap::from([(7, tally(1, 0))]);
        let last_60 = BTreeMap::from([(7, tally(1, 2))]);
        let today = BTreeMap::from([(3, tally(4, 0)), (7, tally(5, 2))]);
        let names = HashMap::from([(7, "seven".to_string())]);
        let listed = ratios(&last_5, &last_60, &today, &names);
        assert_eq!(listed.iter().map(|ratio| ratio.channel_id).collect::<Vec<_>>(), [3, 7]);
        let seven = &listed[1];
        assert_eq!(seven.name, "seven");
        assert_eq!((seven.succeeded_5m, seven.failed_5m, seven.succeeded_60m, seven.failed_60m), (1, 0, 1, 2));
        assert_eq!((seven.success_permille_5m, seven.success_permille_60m), (Some(1000), Some(333)));
        assert_eq!((seven.succeeded_today, seven.failed_today, seven.success_permille_today), (5, 2, Some(714)));
        assert_eq!((listed[0].succeeded_60m, listed[0].success_permille_60m, listed[0].succeeded_today), (0, None, 4));
    }
}
