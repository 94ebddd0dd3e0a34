//! The live business monitor: in-memory figures fed by the order life cycle
//! ([`LiveMonitor::placed`], [`LiveMonitor::moved`], [`LiveMonitor::finished`]), read once a
//! second into one shared event that every stream (`monitoring/live_stream.rs`) sends on.
//!
//! Channels' success ratios are not kept here: they are read from the attempts every
//! second (`channels.rs`, by the definition the channels list and reconciliation share);
//! paused channels, the review queue and failing notifications are alerts (`alerts.rs`).
//!
//! Each server process holds its own figures: what it read from the database when it
//! started (`rebuild.rs`: today's and the last hour's orders, and every order still
//! waiting), plus the events since. On SQLite (one server) those are the events it handled
//! itself. On PostgreSQL the servers also send their events to each other (`share.rs`), so
//! that every server's monitor shows the whole platform within about a second;
//! `--monitor-rebuild-seconds` still makes each one re-read the database periodically, a
//! safety net for events lost with a server that died. Channel figures and alerts are read
//! from the database, and so are the risk controls' refusals (`refusals.rs`), so every
//! server shows the same.

pub mod aggregate;
pub mod alerts;
pub mod channels;
pub mod event;
pub mod once;
pub mod rebuild;
pub mod recent;
pub mod refusals;
pub mod share;
pub mod snapshot;

use crate::domain::OrderStatus;
use crate::domain::risk::RiskRefusal;
use crate::platform::alert_lines::AlertLines;
use crate::platform::channel::results::Tally;
use crate::platform::db::{Database, now_millis};
use aggregate::{Aggregate, Finished, Placed};
use event::LiveEvent;
use snapshot::{ChannelRatio, LiveAlert, NotificationFigures};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::Duration;
use tokio::sync::watch;

/// One event of the stream: the snapshot, serialised once for every watcher.
#[derive(Debug)]
pub struct StreamEvent {
    /// Unix milliseconds of the snapshot, strictly increasing: ids compare across
    /// restarts, so a client resuming with `Last-Event-ID` is never told to go back.
    pub id: i64,
    pub data: String,
}

pub struct LiveMonitor {
    aggregate: Mutex<Aggregate>,
    names: Mutex<HashMap<i64, String>>,
    channels: Mutex<Vec<ChannelRatio>>,
    /// Today's results per channel (read every 10 seconds; the hour's every second).
    channels_today: Mutex<BTreeMap<i64, Tally>>,
    channel_names: Mutex<HashMap<i64, String>>,
    alerts: Mutex<Vec<LiveAlert>>,
    channel_alerts: Mutex<Vec<LiveAlert>>,
    notification_alerts: Mutex<Vec<LiveAlert>>,
    notifications: Mutex<NotificationFigures>,
    alerts_at: Mutex<i64>,
    events: watch::Sender<Arc<StreamEvent>>,
    /// Turns true when the server stops: open streams end so that shutdown is not held up.
    stopping: watch::Sender<bool>,
    /// Where this server's events go to the other servers (PostgreSQL only).
    outbox: OnceLock<share::Outbox>,
    /// One re-read at a time (the ticker's and the listener's): each records the events
    /// applied during its read, and a second would restart the first one's record.
    rereading: tokio::sync::Mutex<()>,
    /// Today's refusals by the risk controls, every server's (`refusals.rs`).
    refusals: refusals::Refusals,
}

fn locked<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl LiveMonitor {
    pub fn new(aggregate: Aggregate, names: HashMap<i64, String>) -> Self {
        Self {
            aggregate: Mutex::new(aggregate),
            names: Mutex::new(names),
            channels: Mutex::new(Vec::new()),
            channels_today: Mutex::new(BTreeMap::new()),
            channel_names: Mutex::new(HashMap::new()),
            alerts: Mutex::new(Vec::new()),
            channel_alerts: Mutex::new(Vec::new()),
            notification_alerts: Mutex::new(Vec::new()),
            notifications: Mutex::new(NotificationFigures::default()),
            alerts_at: Mutex::new(0),
            events: watch::Sender::new(Arc::new(StreamEvent { id: 0, data: String::new() })),
            stopping: watch::Sender::new(false),
            outbox: OnceLock::new(),
            rereading: tokio::sync::Mutex::new(()),
            refusals: refusals::Refusals::default(),
        }
    }

    /// Empty figures (tests of other parts, commands that do not serve).
    pub fn empty() -> Self {
        Self::new(Aggregate::new(now_millis()), HashMap::new())
    }

    /// Figures read from the database (at start).
    pub async fn rebuilt(db: &Database) -> Result<Self, sqlx::Error> {
        let now = now_millis();
        // On PostgreSQL other servers' events will be counted too, each once.
        let sharing = db.kind == crate::platform::db::DatabaseKind::Postgres;
        let (aggregate, names) = rebuild::read(db, now, sharing).await?;
        let monitor = Self::new(aggregate, names);
        let (channel_names, channel_alerts) = channels::names_and_pauses(db).await?;
        let today = channels::read_today(db, now).await?;
        *locked(&monitor.channels) = channels::read(db, now, &today, &channel_names).await?;
        *locked(&monitor.channels_today) = today;
        *locked(&monitor.channel_names) = channel_names;
        *locked(&monitor.channel_alerts) = channel_alerts;
        let (day, refused) = refusals::read_today(db).await?;
        monitor.refusals.replace(day, refused);
        Ok(monitor)
    }

    pub fn placed(&self, order: Placed) {
        self.handled(LiveEvent::Placed(order));
    }

    pub fn moved(&self, id: i64, created_at: i64, status: OrderStatus) {
        self.handled(LiveEvent::Moved { id, created_at, status });
    }

    pub fn finished(&self, order: Finished) {
        self.handled(LiveEvent::Finished(order));
    }

    /// A success reversed (冲正) after its change committed; `order.finished_at` is the
    /// success's time.
    pub fn reversed(&self, order: Finished) {
        self.handled(LiveEvent::Reversed(order));
    }

    /// Orders of a merchant refused by its risk controls (`orders::risk`): recorded for
    /// every server's monitor, and counted here at once. A failed record is logged, never
    /// the refused caller's error.
    pub async fn refused(&self, db: &Database, merchant_id: i64, reasons: &[RiskRefusal]) {
        if reasons.is_empty() {
            return;
        }
        if let Err(error) = refusals::record(db, merchant_id, reasons).await {
            tracing::warn!(error = %error, "monitor: refusals not recorded");
        }
        self.refusals.add(reasons);
    }

    /// Reads today's refusals of every server.
    async fn read_refusals(&self, db: &Database) {
        match refusals::read_today(db).await {
            Ok((day, counts)) => self.refusals.replace(day, counts),
            Err(error) => tracing::warn!(error = %error, "monitor: refusals not read"),
        }
    }

    /// An event this server handled (after its change committed): counted, and sent to
    /// the other servers if they share.
    fn handled(&self, event: LiveEvent) {
        locked(&self.aggregate).apply(event, now_millis());
        if let Some(outbox) = self.outbox.get() {
            outbox.send(event);
        }
    }

    /// Events another server handled.
    fn apply_shared(&self, events: &[LiveEvent]) {
        let now = now_millis();
        let mut aggregate = locked(&self.aggregate);
        for event in events {
            aggregate.apply(*event, now);
        }
    }

    fn share(&self, outbox: share::Outbox) {
        if self.outbox.set(outbox).is_err() {
            tracing::warn!("monitor: events are shared already");
        }
    }

    /// Reads the figures from the database again. When servers share their events, those
    /// applied during the read are applied again to the figures read, where each counts
    /// once: none handled meanwhile is lost, none is counted twice.
    pub async fn reread(&self, db: &Database) {
        let _one_at_a_time = self.rereading.lock().await;
        let sharing = {
            let mut aggregate = locked(&self.aggregate);
            aggregate.start_recording();
            aggregate.is_sharing()
        };
        match rebuild::read(db, now_millis(), sharing).await {
            Ok((mut fresh, names)) => {
                let now = now_millis();
                let mut aggregate = locked(&self.aggregate);
                for event in aggregate.take_recording() {
                    fresh.apply(event, now);
                }
                *aggregate = fresh;
                drop(aggregate);
                *locked(&self.names) = names;
            }
            Err(error) => {
                locked(&self.aggregate).take_recording();
                tracing::warn!(error = %error, "monitor: figures not re-read");
            }
        }
    }

    pub fn subscribe(&self) -> watch::Receiver<Arc<StreamEvent>> {
        self.events.subscribe()
    }

    pub fn stopping(&self) -> watch::Receiver<bool> {
        self.stopping.subscribe()
    }

    pub fn stop(&self) {
        self.stopping.send_replace(true);
    }

    /// Reads the figures into the next event.
    fn publish(&self) {
        let now = now_millis();
        let mut snapshot = {
            let mut aggregate = locked(&self.aggregate);
            aggregate.forget_old(now);
            aggregate.snapshot(now, &locked(&self.names))
        };
        snapshot.channels = locked(&self.channels).clone();
        snapshot.alerts = locked(&self.alerts).clone();
        snapshot.alerts.extend(locked(&self.channel_alerts).iter().cloned());
        snapshot.alerts.extend(locked(&self.notification_alerts).iter().cloned());
        snapshot.notifications = locked(&self.notifications).clone();
        snapshot.alerts_at = *locked(&self.alerts_at);
        snapshot.refused_today = self.refusals.today();
        let data = serde_json::to_string(&snapshot).unwrap_or_default();
        let id = now.max(self.events.borrow().id + 1);
        self.events.send_replace(Arc::new(StreamEvent { id, data }));
    }

    /// A channel with answers whose name is not known yet (added since the last read).
    fn unnamed_channel(&self) -> bool {
        let names = locked(&self.channel_names);
        locked(&self.channels).iter().any(|ratio| !names.contains_key(&ratio.channel_id))
    }

    /// Reads every alert but the channels' (merchants' balances, notifications, the review
    /// queue) and the notification figures; `alerts_at` says from when they are.
    async fn read_alerts(&self, db: &Database, low_balance_fen: i64, lines: &AlertLines) {
        let reading_from = now_millis();
        match rebuild::low_balances(db, low_balance_fen).await {
            Ok(alerts) => *locked(&self.alerts) = alerts,
            Err(error) => tracing::warn!(error = %error, "monitor: alerts not read"),
        }
        let (figures, exhausted) = match rebuild::notification_figures(db, reading_from).await {
            Ok(read) => read,
            Err(error) => return tracing::warn!(error = %error, "monitor: notification figures not read"),
        };
        let operational = match alerts::read(db, reading_from, figures.backlog, lines).await {
            Ok(operational) => operational,
            Err(error) => return tracing::warn!(error = %error, "monitor: operational alerts not read"),
        };
        *locked(&self.notifications) = figures;
        *locked(&self.notification_alerts) = operational.into_iter().chain(exhausted).collect();
        *locked(&self.alerts_at) = reading_from;
    }

    /// Reads the channels' figures of the last 5 and 60 minutes (and of today, if
    /// `with_today`) from the attempts.
    async fn read_channels(&self, db: &Database, with_today: bool) {
        let now = now_millis();
        if with_today {
            match channels::read_today(db, now).await {
                Ok(today) => *locked(&self.channels_today) = today,
                Err(error) => tracing::warn!(error = %error, "monitor: today's channel figures not read"),
            }
        }
        let today = locked(&self.channels_today).clone();
        let names = locked(&self.channel_names).clone();
        match channels::read(db, now, &today, &names).await {
            Ok(ratios) => *locked(&self.channels) = ratios,
            Err(error) => tracing::warn!(error = %error, "monitor: channel figures not read"),
        }
    }

    /// Merchants with volume today whose names are not known yet.
    fn unnamed_merchants(&self) -> Vec<i64> {
        let names = locked(&self.names);
        locked(&self.aggregate).merchants_today().filter(|mid| !names.contains_key(mid)).copied().collect()
    }
}

/// Seconds between two reads of the alerts (balances change on every order; the alert
/// list is a query over the merchants' accounts, not over orders).
const ALERT_REFRESH_TICKS: u64 = 10;

/// Publishes an event every second until the server stops; refreshes alerts and names,
/// and re-reads everything every `rebuild_every` if set (several servers).
pub fn spawn_ticker(
    live: Arc<LiveMonitor>,
    db: Database,
    (low_balance_fen, lines): (i64, AlertLines),
    rebuild_every: Option<Duration>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut stopping = live.stopping();
        let mut interval = tokio::time::interval(Duration::from_secs(1));
        interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut last_rebuild = tokio::time::Instant::now();
        for tick in 0u64.. {
            tokio::select! {
                _ = interval.tick() => {}
                _ = stopping.wait_for(|stop| *stop) => break,
            }
            if tick.is_multiple_of(ALERT_REFRESH_TICKS) {
                live.read_alerts(&db, low_balance_fen, &lines).await;
            }
            // A pause another server decided shows within a second when servers share (a
            // read of the short channels table); one server alone reads it every 10 seconds.
            if tick.is_multiple_of(ALERT_REFRESH_TICKS) || live.outbox.get().is_some() || live.unnamed_channel() {
                match channels::names_and_pauses(&db).await {
                    Ok((names, alerts)) => {
                        *locked(&live.channel_names) = names;
                        *locked(&live.channel_alerts) = alerts;
                    }
                    Err(error) => tracing::warn!(error = %error, "monitor: channels not read"),
                }
            }
            let unnamed = live.unnamed_merchants();
            if !unnamed.is_empty() {
                match rebuild::merchant_names(&db).await {
                    Ok(names) => *locked(&live.names) = names,
                    Err(error) => tracing::warn!(error = %error, "monitor: merchant names not read"),
                }
            }
            if let Some(every) = rebuild_every
                && last_rebuild.elapsed() >= every
            {
                last_rebuild = tokio::time::Instant::now();
                live.reread(&db).await;
            }
            live.read_channels(&db, tick.is_multiple_of(ALERT_REFRESH_TICKS)).await;
            live.read_refusals(&db).await;
            live.publish();
        }
    })
}
