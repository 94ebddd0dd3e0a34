//! The live monitor's figures, kept in memory and fed by the order life cycle: each
//! event is a few map and array updates under one short lock, never a database query.
//! A snapshot is read from them once a second (`snapshot`), however many streams watch.

// The events' values, named here too where the life cycle reports them.
pub use super::event::{Finished, Placed};
use super::recent::{IdMap, Recent};
use super::snapshot::{CarrierRatio, LiveSnapshot, MerchantVolume, MinuteFigures, NotificationFigures, ProvinceVolume};
use crate::domain::OrderStatus;
use std::collections::HashMap;

/// Minutes of history: the charts show the last hour.
pub const HOUR_MINUTES: usize = 60;
/// Carrier codes 1..=4 (`Carrier::code`).
const CARRIERS: usize = 4;
/// Placement→result times are counted in buckets growing by a quarter each, from 100 ms:
/// the last bound is about an hour; longer waits share the last bucket.
const DURATION_BUCKETS: usize = 48;
/// Merchants listed as the day's top volume.
const TOP_MERCHANTS: usize = 10;
const MINUTE_MS: i64 = 60_000;
const DAY_MS: i64 = 86_400_000;
/// Beijing time (UTC+8): the business day the rest of the console uses.
const BEIJING_OFFSET_MS: i64 = 8 * 3_600_000;

pub fn beijing_day(millis: i64) -> i64 {
    (millis + BEIJING_OFFSET_MS).div_euclid(DAY_MS)
}

/// Unix milliseconds when Beijing day `day` starts.
pub fn beijing_day_start(day: i64) -> i64 {
    day * DAY_MS - BEIJING_OFFSET_MS
}

/// A carrier code's index in a minute's `carriers` (None for a code not known here).
fn carrier_index(carrier: i64) -> Option<usize> {
    usize::try_from(carrier - 1).ok().filter(|index| *index < CARRIERS)
}

fn duration_bounds() -> [i64; DURATION_BUCKETS] {
    let mut bounds = [0i64; DURATION_BUCKETS];
    let mut bound = 100i64;
    for slot in bounds.iter_mut() {
        *slot = bound;
        bound += (bound / 4).max(1);
    }
    bounds
}

#[derive(Clone, Copy)]
struct MinuteSlot {
    /// Minutes since the epoch this slot holds; a slot of another minute is stale.
    minute: i64,
    placed: u64,
    succeeded: u64,
    failed: u64,
    /// (succeeded, failed) per carrier code - 1.
    carriers: [(u64, u64); CARRIERS],
    durations: [u32; DURATION_BUCKETS],
}

impl MinuteSlot {
    fn empty(minute: i64) -> Self {
        Self {
            minute,
            placed: 0,
            succeeded: 0,
            failed: 0,
            carriers: [(0, 0); CARRIERS],
            durations: [0; DURATION_BUCKETS],
        }
    }
}

/// Orders placed today in one province: how many, for how much, and how those finished
/// so far ended.
#[derive(Debug, Clone, Copy, Default)]
struct ProvinceDay {
    orders: u64,
    amount_fen: i64,
    succeeded: u64,
    failed: u64,
}

/// An order that waits for a result: in flight (pending, processing) or in manual review.
#[derive(Debug, Clone, Copy)]
struct Waiting {
    status: i64,
    created_at: i64,
}

pub struct Aggregate {
    slots: Vec<MinuteSlot>,
    waiting: IdMap<i64, Waiting>,
    day: i64,
    /// Today's (orders, amount in fen) per merchant.
    merchants: IdMap<i64, (u64, i64)>,
    /// Today's orders per province of the number (0: unknown), with their results so far.
    provinces: IdMap<u32, ProvinceDay>,
    bounds: [i64; DURATION_BUCKETS],
    /// Only when several servers share their events (`recent.rs`).
    pub(super) recent: Option<Box<Recent>>,
}

impl Aggregate {
    pub fn new(now: i64) -> Self {
        // Minute -1 (1969) is never within the last hour: every slot starts empty, so the
        // first event of any minute of the hour claims its slot.
        Self {
            slots: vec![MinuteSlot::empty(-1); HOUR_MINUTES],
            waiting: IdMap::default(),
            day: beijing_day(now),
            merchants: IdMap::default(),
            provinces: IdMap::default(),
            bounds: duration_bounds(),
            recent: None,
        }
    }

    /// Figures fed by several servers' events, each counted once whatever their order.
    pub fn sharing(now: i64) -> Self {
        Self { recent: Some(Box::default()), ..Self::new(now) }
    }

    /// The slot of the minute of `at`, cleared if it held an older minute; None for a
    /// time outside the last hour (a late report of an old event changes no chart).
    fn slot(&mut self, at: i64, now: i64) -> Option<&mut MinuteSlot> {
        let minute = at.div_euclid(MINUTE_MS);
        let current = now.div_euclid(MINUTE_MS);
        if minute > current || current - minute >= HOUR_MINUTES as i64 {
            return None;
        }
        let slot = &mut self.slots[minute.rem_euclid(HOUR_MINUTES as i64) as usize];
        if slot.minute != minute {
            if slot.minute > minute {
                return None;
            }
            *slot = MinuteSlot::empty(minute);
        }
        Some(slot)
    }

    fn roll_day(&mut self, now: i64) {
        let today = beijing_day(now);
        if today != self.day {
            self.day = today;
            self.merchants.clear();
            self.provinces.clear();
        }
    }

    pub fn placed(&mut self, order: Placed, now: i64) {
        let mut waits = true;
        if let Some(recent) = self.recent.as_deref_mut() {
            if !recent.placed.first(order.id, order.created_at, now) {
                return;
            }
            waits = !recent.finished.contains(order.id);
        }
        if waits {
            self.waiting
                .insert(order.id, Waiting { status: OrderStatus::Pending.code(), created_at: order.created_at });
        }
        if let Some(slot) = self.slot(order.created_at, now) {
            slot.placed += 1;
        }
        self.roll_day(now);
        if beijing_day(order.created_at) == self.day {
            let entry = self.merchants.entry(order.merchant_id).or_default();
            entry.0 += 1;
            entry.1 += order.price_fen;
            let province = self.provinces.entry(order.province).or_default();
            province.orders += 1;
            province.amount_fen += order.price_fen;
        }
    }

    /// A waiting order moved on without a result (submitted, or sent to manual review).
    pub fn moved(&mut self, id: i64, created_at: i64, status: OrderStatus) {
        if self.recent.as_deref().is_some_and(|recent| recent.finished.contains(id)) {
            return;
        }
        self.waiting.insert(id, Waiting { status: status.code(), created_at });
    }

    /// An order no longer waiting, without a result to count.
    pub fn forget(&mut self, id: i64) {
        self.waiting.remove(&id);
    }

    pub fn finished(&mut self, order: Finished, now: i64) {
        self.waiting.remove(&order.id);
        if let Some(recent) = self.recent.as_deref_mut()
            && !recent.finished.first(order.id, order.finished_at, now)
        {
            return;
        }
        self.roll_day(now);
        if beijing_day(order.created_at) == self.day {
            let province = self.provinces.entry(order.province).or_default();
            if order.success {
                province.succeeded += 1;
            } else {
                province.failed += 1;
            }
        }
        let duration = (order.finished_at - order.created_at).max(0);
        let bucket = self.bounds.iter().position(|bound| duration <= *bound).unwrap_or(DURATION_BUCKETS - 1);
        let carrier = carrier_index(order.carrier);
        let Some(slot) = self.slot(order.finished_at, now) else { return };
        if order.success {
            slot.succeeded += 1;
        } else {
            slot.failed += 1;
        }
        if let Some(carrier) = carrier {
            let pair = &mut slot.carriers[carrier];
            if order.success {
                pair.0 += 1;
            } else {
                pair.1 += 1;
            }
        }
        slot.durations[bucket] += 1;
    }

    /// A success reversed (冲正): from now on a failure, in the minute it was counted in and
    /// among its province's results today. Counted once: a re-read that found the order
    /// reversed already marked it (`reversed_already`).
    pub fn reversed(&mut self, order: Finished, now: i64) {
        if let Some(recent) = self.recent.as_deref_mut()
            && !recent.reversed.first(order.id, now, now)
        {
            return;
        }
        self.roll_day(now);
        if beijing_day(order.created_at) == self.day {
            let province = self.provinces.entry(order.province).or_default();
            if province.succeeded > 0 {
                province.succeeded -= 1;
                province.failed += 1;
            }
        }
        let carrier = carrier_index(order.carrier);
        let Some(slot) = self.slot(order.finished_at, now) else { return };
        if slot.succeeded > 0 {
            slot.succeeded -= 1;
            slot.failed += 1;
        }
        if let Some(pair) = carrier.map(|carrier| &mut slot.carriers[carrier])
            && pair.0 > 0
        {
            pair.0 -= 1;
            pair.1 += 1;
        }
    }

    /// An order read reversed from the database: a reversal event for it that arrives later
    /// (from another server, sharing figures) changes nothing.
    pub fn reversed_already(&mut self, id: i64, now: i64) {
        if let Some(recent) = self.recent.as_deref_mut() {
            recent.reversed.first(id, now, now);
        }
    }

    /// The figures at `now`. Merchant names come from the caller's cache.
    pub fn snapshot(&self, now: i64, names: &HashMap<i64, String>) -> LiveSnapshot {
        let current = now.div_euclid(MINUTE_MS);
        let live = |slot: &&MinuteSlot, minutes: i64| slot.minute <= current && current - slot.minute < minutes;
        let minutes = (0..HOUR_MINUTES as i64)
            .rev()
            .map(|back| {
                let minute = current - back;
                let slot = &self.slots[minute.rem_euclid(HOUR_MINUTES as i64) as usize];
                let (placed, succeeded, failed) =
                    if slot.minute == minute { (slot.placed, slot.succeeded, slot.failed) } else { (0, 0, 0) };
                MinuteFigures { minute_start: minute * MINUTE_MS, placed, succeeded, failed }
            })
            .collect();
        let mut carriers = Vec::new();
        for index in 0..CARRIERS {
            let sum = |minutes: i64| {
                self.slots.iter().filter(|slot| live(slot, minutes)).fold((0, 0), |(succeeded, failed), slot| {
                    (succeeded + slot.carriers[index].0, failed + slot.carriers[index].1)
                })
            };
            let (last_5, last_60) = (sum(5), sum(60));
            if last_60 != (0, 0) {
                carriers.push(CarrierRatio::new(index as i64 + 1, last_5, last_60));
            }
        }
        let mut durations = [0u64; DURATION_BUCKETS];
        for slot in self.slots.iter().filter(|slot| live(slot, HOUR_MINUTES as i64)) {
            for (total, count) in durations.iter_mut().zip(slot.durations) {
                *total += u64::from(count);
            }
        }
        let in_flight = self.waiting.values().filter(|order| order.status != OrderStatus::ManualReview.code()).count();
        let oldest = self.waiting.values().map(|order| order.created_at).min();
        let mut top: Vec<(&i64, &(u64, i64))> =
            if beijing_day(now) == self.day { self.merchants.iter().collect() } else { Vec::new() };
        top.sort_by(|a, b| b.1.1.cmp(&a.1.1).then(b.1.0.cmp(&a.1.0)).then(a.0.cmp(b.0)));
        let top_merchants = top
            .into_iter()
            .take(TOP_MERCHANTS)
            .map(|(mid, (orders, amount))| MerchantVolume {
                merchant_id: *mid,
                name: names.get(mid).cloned().unwrap_or_default(),
                orders: *orders,
                amount_fen: *amount,
            })
            .collect();
        let provinces_today = if beijing_day(now) == self.day { self.provinces_today() } else { Vec::new() };
        LiveSnapshot {
            at: now,
            minutes,
            carriers,
            channels: Vec::new(),
            in_flight: in_flight as u64,
            manual_review: (self.waiting.len() - in_flight) as u64,
            oldest_waiting_seconds: oldest.map(|created_at| ((now - created_at) / 1000).max(0)),
            p50_ms: self.percentile(&durations, 50),
            p95_ms: self.percentile(&durations, 95),
            top_merchants,
            provinces_today,
            notifications: NotificationFigures::default(),
            alerts: Vec::new(),
            alerts_at: 0,
            refused_today: Vec::new(),
        }
    }

    /// Today's provinces by amount ordered, the unknown province last.
    fn provinces_today(&self) -> Vec<ProvinceVolume> {
        let mut provinces: Vec<ProvinceVolume> = self
            .provinces
            .iter()
            .map(|(code, day)| {
                ProvinceVolume::new(
                    (*code != 0).then_some(*code),
                    day.orders,
                    day.amount_fen,
                    (day.succeeded, day.failed),
                )
            })
            .collect();
        provinces.sort_by(|a, b| {
            (a.province.is_none(), b.amount_fen, b.orders, a.province).cmp(&(
                b.province.is_none(),
                a.amount_fen,
                a.orders,
                b.province,
            ))
        });
        provinces
    }

    /// The bucket bound under which `percent` % of the results fell (None without results).
    fn percentile(&self, durations: &[u64; DURATION_BUCKETS], percent: u64) -> Option<i64> {
        let total: u64 = durations.iter().sum();
        if total == 0 {
            return None;
        }
        let wanted = (total * percent).div_ceil(100);
        let mut seen = 0;
        for (index, count) in durations.iter().enumerate() {
            seen += count;
            if seen >= wanted {
                return Some(self.bounds[index]);
            }
        }
        self.bounds.last().copied()
    }

    /// Merchants with orders today (whose names the snapshot needs).
    pub fn merchants_today(&self) -> impl Iterator<Item = &i64> {
        self.merchants.keys()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_800_000_000_000;

    fn placed(id: i64, merchant_id: i64, price_fen: i64, created_at: i64) -> Placed {
        Placed { id, merchant_id, price_fen, created_at, province: 0 }
    }

    #[test]
    fn orders_count_in_their_minute_and_leave_the_hour() {
        let mut aggregate = Aggregate::new(NOW);
        aggregate.placed(placed(1, 10, 1_000, NOW - 61_000), NOW);
        aggregate.placed(placed(2, 10, 1_000, NOW), NOW);
        aggregate.finished(
            Finished { id: 1, carrier: 1, created_at: NOW - 61_000, finished_at: NOW, success: true, province: 0 },
            NOW,
        );
        let snapshot = aggregate.snapshot(NOW, &HashMap::new());
        let last = snapshot.minutes.last().unwrap();
        assert_eq!((last.placed, last.succeeded, last.failed), (1, 1, 0));
        assert_eq!(snapshot.minutes.iter().map(|minute| minute.placed).sum::<u64>(), 2);
        assert_eq!((snapshot.in_flight, snapshot.manual_review), (1, 0));
        // An hour later nothing of it is left on the chart.
        let later = aggregate.snapshot(NOW + 3_600_000, &HashMap::new());
        assert_eq!(later.minutes.iter().map(|minute| minute.placed + minute.succeeded).sum::<u64>(), 0);
        assert!(later.carriers.is_empty());
    }

    #[test]
    fn carrier_ratios_cover_five_and_sixty_minutes() {
        let mut aggregate = Aggregate::new(NOW);
        let finish = |aggregate: &mut Aggregate, id, at, success| {
            aggregate.finished(
                Finished { id, carrier: 2, created_at: at - 1_000, finished_at: at, success, province: 0 },
                NOW,
            )
        };
        finish(&mut aggregate, 1, NOW - 30 * 60_000, false);
        finish(&mut aggregate, 2, NOW - 30 * 60_000, false);
        finish(&mut aggregate, 3, NOW - 60_000, true);
        let snapshot = aggregate.snapshot(NOW, &HashMap::new());
        assert_eq!(snapshot.carriers.len(), 1);
        let unicom = &snapshot.carriers[0];
        assert_eq!(unicom.carrier, 2);
        assert_eq!((unicom.succeeded_5m, unicom.failed_5m, unicom.succeeded_60m, unicom.failed_60m), (1, 0, 1, 2));
        assert_eq!(unicom.success_permille_5m, Some(1000));
        assert_eq!(unicom.success_permille_60m, Some(333));
    }

    #[test]
    fn waiting_orders_and_percentiles() {
        let mut aggregate = Aggregate::new(NOW);
        aggregate.placed(placed(1, 10, 500, NOW - 120_000), NOW);
        aggregate.placed(placed(2, 11, 2_000, NOW - 5_000), NOW);
        aggregate.moved(1, NOW - 120_000, OrderStatus::ManualReview);
        let names = HashMap::from([(11, "eleven".to_string())]);
        let snapshot = aggregate.snapshot(NOW, &names);
        assert_eq!((snapshot.in_flight, snapshot.manual_review, snapshot.oldest_waiting_seconds), (1, 1, Some(120)));
        assert_eq!(snapshot.top_merchants[0].merchant_id, 11);
        assert_eq!(snapshot.top_merchants[0].name, "eleven");
        assert_eq!(snapshot.p50_ms, None);
        for id in 0..100 {
            let duration = if id < 90 { 1_000 } else { 60_000 };
            aggregate.finished(
                Finished {
                    id: 100 + id,
                    carrier: 1,
                    created_at: NOW - duration,
                    finished_at: NOW,
                    success: true,
                    province: 0,
                },
                NOW,
            );
        }
        let snapshot = aggregate.snapshot(NOW, &names);
        let (p50, p95) = (snapshot.p50_ms.unwrap(), snapshot.p95_ms.unwrap());
        assert!((1_000..1_300).contains(&p50), "p50 {p50}");
        assert!((60_000..76_000).contains(&p95), "p95 {p95}");
    }

    #[test]
    fn a_new_day_starts_the_merchant_volumes_again() {
        let mut aggregate = Aggregate::new(NOW);
        aggregate.placed(placed(1, 10, 500, NOW), NOW);
        let tomorrow = beijing_day_start(beijing_day(NOW) + 1);
        assert!(aggregate.snapshot(tomorrow, &HashMap::new()).top_merchants.is_empty());
        aggregate.placed(placed(2, 12, 700, tomorrow), tomorrow);
        let snapshot = aggregate.snapshot(tomorrow, &HashMap::new());
        assert_eq!(snapshot.top_merchants.len(), 1);
        assert_eq!(snapshot.top_merchants[0].amount_fen, 700);
    }

    #[test]
    fn provinces_count_today_s_orders_and_their_results_the_unknown_last() {
        let mut aggregate = Aggregate::new(NOW);
        let place = |aggregate: &mut Aggregate, id, price_fen, province, created_at| {
            aggregate.placed(Placed { id, merchant_id: 10, price_fen, created_at, province }, NOW)
        };
        let finish = |aggregate: &mut Aggregate, id, province, created_at, success| {
            aggregate.finished(Finished { id, carrier: 1, created_at, finished_at: NOW, success, province }, NOW)
        };
        place(&mut aggregate, 1, 5_000, 0, NOW);
        place(&mut aggregate, 2, 1_000, 440000, NOW);
        place(&mut aggregate, 3, 2_000, 440000, NOW);
        place(&mut aggregate, 4, 2_500, 330000, NOW);
        finish(&mut aggregate, 2, 440000, NOW, true);
        finish(&mut aggregate, 3, 440000, NOW, false);
        // Yesterday's order finishing today counts for no province of today.
        let yesterday = beijing_day_start(beijing_day(NOW)) - 1;
        finish(&mut aggregate, 9, 330000, yesterday, true);
        let provinces = aggregate.snapshot(NOW, &HashMap::new()).provinces_today;
        let rows: Vec<_> =
            provinces.iter().map(|row| (row.province, row.orders, row.amount_fen, row.succeeded, row.failed)).collect();
        assert_eq!(rows, [(Some(440000), 2, 3_000, 1, 1), (Some(330000), 1, 2_500, 0, 0), (None, 1, 5_000, 0, 0)]);
        assert_eq!(provinces[0].success_permille, Some(500));
        assert_eq!(provinces[1].success_permille, None);
        let tomorrow = beijing_day_start(beijing_day(NOW) + 1);
        assert!(aggregate.snapshot(tomorrow, &HashMap::new()).provinces_today.is_empty());
    }
}
