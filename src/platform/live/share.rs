//! Several servers on one PostgreSQL database show the same live figures: each server
//! sends the life-cycle events it handled to the others through `NOTIFY` on the channel
//! `backoffice_live`, and applies theirs as they arrive (its own, echoed back, it skips).
//!
//! Events are sent right after their change committed (the life cycle reports them only
//! then, so a rolled-back order is never sent), gathered for [`GATHER`] into payloads of at
//! most 7,900 bytes (`event.rs`): under load one notification carries some 170 events, and
//! placement's transaction is not touched. Figures count each event once whatever the
//! order it arrives in (`recent.rs`).
//!
//! Notifications sent while a server was not listening are lost to it: after every
//! (re)connection of its listener (start, failover, a dropped connection) it re-reads its
//! figures from the database, keeping the events it handled during the read. A server
//! that stops sends what it still holds first; one that dies with events unsent leaves the
//! others short of those until they re-read (`--monitor-rebuild-seconds`).

use super::LiveMonitor;
use super::event::{self, LiveEvent};
use crate::platform::db::Database;
use sqlx::postgres::PgListener;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

/// The PostgreSQL channel the servers' events travel on.
pub const CHANNEL: &str = "backoffice_live";
/// How long events are gathered before they are sent: a handful of notifications a
/// second per server however busy it is, well inside the two seconds a figure may take.
const GATHER: Duration = Duration::from_millis(100);
/// Events waiting to be sent at most; beyond (the database stuck), the others miss them
/// until they re-read.
const QUEUE: usize = 100_000;
/// How long a stopping server tries to send its last events.
const LAST_SEND: Duration = Duration::from_secs(2);
/// Wait before connecting the listener again after a failure.
const RECONNECT_PAUSE: Duration = Duration::from_secs(1);

/// Where the life cycle's events go to be sent (held by the `LiveMonitor`).
pub struct Outbox {
    sender: mpsc::Sender<LiveEvent>,
    /// Set when an event was dropped, so that a stuck database is logged once, not per order.
    overflowing: AtomicBool,
}

impl Outbox {
    pub fn send(&self, event: LiveEvent) {
        match self.sender.try_send(event) {
            Ok(()) => self.overflowing.store(false, Ordering::Relaxed),
            Err(mpsc::error::TrySendError::Full(_)) => {
                if !self.overflowing.swap(true, Ordering::Relaxed) {
                    tracing::warn!("monitor: events not shared with the other servers (too many waiting to be sent)");
                }
            }
            // The sender has stopped: the server is stopping.
            Err(mpsc::error::TrySendError::Closed(_)) => {}
        }
    }
}

/// The sender and listener of one server; [`Sharing::finish`] stops them.
pub struct Sharing {
    stop: watch::Sender<bool>,
    sender: JoinHandle<()>,
    listener: JoinHandle<()>,
}

impl Sharing {
    /// Starts sharing `live`'s events with the other servers on `database_url`.
    pub fn start(live: &Arc<LiveMonitor>, db: Database, database_url: String) -> Self {
        let server = uuid::Uuid::new_v4().simple().to_string()[..16].to_string();
        let (events, receiver) = mpsc::channel(QUEUE);
        live.share(Outbox { sender: events, overflowing: AtomicBool::new(false) });
        let (stop, stopped) = watch::channel(false);
        let sender = tokio::spawn(send(receiver, db.clone(), server.clone(), stopped.clone()));
        let listener = tokio::spawn(listen(live.clone(), db, database_url, server, stopped));
        Self { stop, sender, listener }
    }

    /// Sends the events still waiting and stops listening (once the server handles no more).
    pub async fn finish(self) {
        self.stop.send_replace(true);
        let _ = self.sender.await;
        let _ = self.listener.await;
    }
}

async fn send(mut receiver: mpsc::Receiver<LiveEvent>, db: Database, server: String, mut stop: watch::Receiver<bool>) {
    let mut events = Vec::new();
    loop {
        tokio::select! {
            received = receiver.recv_many(&mut events, QUEUE) => if received == 0 { return },
            _ = stop.wait_for(|stop| *stop) => break,
        }
        // The events that follow within a moment go in the same notifications.
        tokio::select! {
            _ = tokio::time::sleep(GATHER) => {}
            _ = stop.wait_for(|stop| *stop) => {}
        }
        while let Ok(event) = receiver.try_recv() {
            events.push(event);
        }
        notify(&db, &server, &events).await;
        events.clear();
    }
    // Stopping: what was handled last still reaches the others, unless the database is
    // gone (then the stop is not held up waiting for a connection).
    while let Ok(event) = receiver.try_recv() {
        events.push(event);
    }
    if tokio::time::timeout(LAST_SEND, notify(&db, &server, &events)).await.is_err() {
        tracing::warn!("monitor: the last events not shared with the other servers (the database did not answer)");
    }
}

async fn notify(db: &Database, server: &str, events: &[LiveEvent]) {
    for payload in event::payloads(server, events) {
        // `pg_notify` returns void, which the Any driver cannot read: the row is a constant.
        let sent = sqlx::query("SELECT 1 FROM pg_notify($1, $2)").bind(CHANNEL).bind(payload).execute(&db.pool).await;
        if let Err(error) = sent {
            tracing::warn!(error = %error, "monitor: events not shared with the other servers");
        }
    }
}

async fn listen(
    live: Arc<LiveMonitor>,
    db: Database,
    database_url: String,
    server: String,
    mut stop: watch::Receiver<bool>,
) {
    loop {
        let connected = tokio::select! {
            connected = connect(&database_url) => connected,
            _ = stop.wait_for(|stop| *stop) => return,
        };
        let mut listener = match connected {
            Ok(listener) => listener,
            Err(error) => {
                tracing::warn!(error = %error, "monitor: cannot listen to the other servers' events");
                tokio::select! {
                    _ = tokio::time::sleep(RECONNECT_PAUSE) => continue,
                    _ = stop.wait_for(|stop| *stop) => return,
                }
            }
        };
        // Listening now: what was sent before is in the database.
        tokio::select! {
            _ = live.reread(&db) => {}
            _ = stop.wait_for(|stop| *stop) => return,
        }
        loop {
            let received = tokio::select! {
                received = listener.try_recv() => received,
                _ = stop.wait_for(|stop| *stop) => return,
            };
            match received {
                Ok(Some(notification)) => {
                    let payload = notification.payload();
                    // Its own events this server counted when it handled them.
                    if payload.split_once('|').is_some_and(|(sender, _)| sender == server) {
                        continue;
                    }
                    match event::parse(payload) {
                        Some((_, events)) => live.apply_shared(&events),
                        None => tracing::warn!("monitor: an event payload not understood on {CHANNEL}"),
                    }
                }
                // The connection dropped and the listener is back: what came meanwhile is lost.
                Ok(None) => tokio::select! {
                    _ = live.reread(&db) => {}
                    _ = stop.wait_for(|stop| *stop) => return,
                },
                Err(error) => {
                    tracing::warn!(error = %error, "monitor: the other servers' events are not heard; listening again");
                    break;
                }
            }
        }
    }
}

async fn connect(database_url: &str) -> Result<PgListener, sqlx::Error> {
    let mut listener = PgListener::connect(database_url).await?;
    listener.listen(CHANNEL).await?;
    Ok(listener)
}
