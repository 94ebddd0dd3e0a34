//! The accept loop: HTTP/1.1 connections with bounds on what a client may hold.
//!
//! A client that opens connections and sends nothing, or a request head a byte at a time, or
//! a body it never finishes, would otherwise hold a socket (a file descriptor) for ever; a
//! few such clients exhaust the process's descriptors and nobody is served. So each
//! connection has a phase with its own deadline, watched beside it:
//! - reading a request head, from its first byte (for a new connection, from the accept)
//!   until it is whole: the header-read timeout;
//! - waiting for the next request after an answer: the idle timeout;
//! - handling a request and sending its answer: none (answers may stream for long: the
//!   live monitor), but the request body must arrive within the body-read timeout from the
//!   end of its head, or the connection is cut.
//!
//! And one address (IPv4, or an IPv6 /64) holds at most so many connections at once; more
//! are closed as they are accepted. Accept errors (out of descriptors) pause the loop
//! briefly instead of spinning on the error.

mod activity;

use activity::{Activity, AnswerBody, AnswerDone, Phase, TimedBody, Watched};
use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use std::collections::HashMap;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::time::Instant;
use tower::Service;

/// The bounds on a client's connections (`serve --header-read-timeout-seconds` and the
/// others; docs/operations.md).
#[derive(Debug, Clone)]
pub struct ConnectionLimits {
    /// From a request head's first byte until it is complete.
    pub header_read_timeout: Duration,
    /// From the end of a request head until its body is complete.
    pub body_read_timeout: Duration,
    /// A connection waiting for a request this long is closed.
    pub idle_timeout: Duration,
    /// Connections one address (IPv4, or IPv6 /64) may hold at once; 0: no cap.
    pub max_connections_per_address: usize,
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        Self {
            header_read_timeout: Duration::from_secs(10),
            body_read_timeout: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(60),
            // The benchmarks open 64 connections from 127.0.0.1; a browser six.
            max_connections_per_address: 256,
        }
    }
}

/// Serves `app` on `listener` until `shutdown` completes; then accepts no more, lets every
/// connection finish the request under way, and returns when all are closed.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    let limits = Arc::new(limits);
    let counts = Arc::new(AddressCounts::default());
    // `stop` is closed when shutdown begins (its one receiver dropped); every connection
    // holds a receiver of `open` until it ends, so `open` is closed when all have.
    let (stop, stop_receiver) = watch::channel(());
    let (open, open_receiver) = watch::channel(());
    tokio::spawn(async move {
        shutdown.await;
        drop(stop_receiver);
    });
    let mut failures = 0u32;
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = stop.closed() => break,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(error) => {
                failures = back_off(&error, failures).await;
                continue;
            }
        };
        if failures > 0 {
            tracing::info!(failures, "accepting connections again");
            failures = 0;
        }
        let Some(slot) = counts.claim(peer, limits.max_connections_per_address) else {
            // Closed at once: an address over its cap holds nothing more here.
            tracing::debug!(%peer, "connection refused: the address holds its maximum of connections");
            continue;
        };
        let connection = Connection { app: app.clone(), limits: limits.clone(), peer };
        let (stop, held_open) = (stop.clone(), open_receiver.clone());
        tokio::spawn(async move {
            connection.run(stream, stop).await;
            drop((slot, held_open));
        });
    }
    drop((listener, open_receiver));
    open.closed().await;
}

/// A failed accept: connection-level errors are the client's and skipped; anything else
/// (out of descriptors, out of memory) waits before the next try, longer while it lasts,
/// and is logged once per run of failures rather than once per try.
async fn back_off(error: &std::io::Error, failures: u32) -> u32 {
    use std::io::ErrorKind;
    if matches!(error.kind(), ErrorKind::ConnectionAborted | ErrorKind::ConnectionReset | ErrorKind::ConnectionRefused)
    {
        return failures;
    }
    if failures == 0 {
        tracing::error!(%error, "accept failed: pausing before accepting again");
    }
    let pause = Duration::from_millis(10u64 << failures.min(7)).min(Duration::from_secs(1));
    tokio::time::sleep(pause).await;
    failures.saturating_add(1)
}

/// Open connections per address scope.
#[derive(Default)]
struct AddressCounts(Mutex<HashMap<String, usize>>);

/// One connection's place in its address's count, given back when dropped.
struct Slot {
    counts: Arc<AddressCounts>,
    scope: String,
}

impl AddressCounts {
    fn claim(self: &Arc<Self>, peer: SocketAddr, max: usize) -> Option<Slot> {
        let scope = crate::platform::forwarded::throttle_scope(peer.ip());
        let mut counts = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let count = counts.entry(scope.clone()).or_insert(0);
        if max > 0 && *count >= max {
            return None;
        }
        *count += 1;
        Some(Slot { counts: self.clone(), scope })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut counts = self.counts.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(count) = counts.get_mut(&self.scope) {
            *count -= 1;
            if *count == 0 {
                counts.remove(&self.scope);
            }
        }
    }
}

struct Connection {
    app: Router,
    limits: Arc<ConnectionLimits>,
    peer: SocketAddr,
}

impl Connection {
    async fn run(self, stream: TcpStream, stop: watch::Sender<()>) {
        let activity = Arc::new(Activity::new());
        let io = TokioIo::new(Watched::new(stream, activity.clone()));
        let Connection { app, limits, peer } = self;
        let service = {
            let (activity, limits) = (activity.clone(), limits.clone());
            hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
                activity.set(Phase::Handling);
                let deadline = Instant::now() + limits.body_read_timeout;
                let mut request = request.map(|body| Body::new(TimedBody::new(body, deadline, activity.clone())));
                request.extensions_mut().insert(ConnectInfo(peer));
                let answered = app.clone().call(request);
                let activity = activity.clone();
                async move {
                    let response = answered.await?;
                    Ok::<_, std::convert::Infallible>(
                        response.map(|body| Body::new(AnswerBody::new(body, AnswerDone(activity)))),
                    )
                }
            })
        };
        // The header-read timeout is the watcher's (it starts at a head's first byte, where
        // hyper's would start when the connection begins waiting, idle time included).
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder.header_read_timeout(None);
        let mut connection = pin!(builder.serve_connection(io, service).with_upgrades());
        let mut expired = pin!(activity.expired(&limits));
        let mut stopping = false;
        loop {
            tokio::select! {
                result = connection.as_mut() => {
                    if let Err(error) = result {
                        tracing::debug!(%error, "connection ended with an error");
                    }
                    return;
                }
                // Dropping the connection closes the socket.
                _ = expired.as_mut() => return,
                _ = stop.closed(), if !stopping => {
                    stopping = true;
                    connection.as_mut().graceful_shutdown();
                }
            }
        }
    }
}
