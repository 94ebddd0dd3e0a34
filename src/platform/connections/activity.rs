//! A connection's phase and the wrappers that move it: the socket (bytes arrive), the
//! request body (it must arrive in time) and the answer's body (sent: wait for the next).

use super::ConnectionLimits;
use axum::body::{Body, Bytes, HttpBody};
use http_body::{Frame, SizeHint};
use hyper::body::Incoming;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::Notify;
use tokio::time::Instant;

/// Where a connection is, for its deadline.
#[derive(Debug, Clone, Copy)]
pub(super) enum Phase {
    /// Waiting for a request since then.
    Waiting(Instant),
    /// A request head began arriving then.
    ReadingHead(Instant),
    /// A request is being handled or answered.
    Handling,
    /// Its body came too late: close now.
    Cut,
}

pub(super) struct Activity {
    phase: Mutex<Phase>,
    changed: Notify,
}

impl Activity {
    /// A new connection owes its first request head from the start: one that connects and
    /// sends nothing has the header-read timeout, not the idle one.
    pub(super) fn new() -> Self {
        Self { phase: Mutex::new(Phase::ReadingHead(Instant::now())), changed: Notify::new() }
    }

    fn phase(&self) -> std::sync::MutexGuard<'_, Phase> {
        self.phase.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub(super) fn set(&self, phase: Phase) {
        *self.phase() = phase;
        self.changed.notify_one();
    }

    /// Bytes arrived: while waiting, they begin a request head.
    fn bytes_read(&self) {
        let mut phase = self.phase();
        if matches!(*phase, Phase::Waiting(_)) {
            *phase = Phase::ReadingHead(Instant::now());
            drop(phase);
            self.changed.notify_one();
        }
    }

    /// Completes when the connection's current phase has outlasted its bound.
    pub(super) async fn expired(&self, limits: &ConnectionLimits) {
        loop {
            let changed = self.changed.notified();
            let deadline = match *self.phase() {
                Phase::Waiting(since) => Some(since + limits.idle_timeout),
                Phase::ReadingHead(since) => Some(since + limits.header_read_timeout),
                Phase::Handling => None,
                Phase::Cut => return,
            };
            match deadline {
                Some(deadline) if deadline <= Instant::now() => return,
                Some(deadline) => {
                    tokio::select! {
                        _ = changed => {}
                        _ = tokio::time::sleep_until(deadline) => {}
                    }
                }
                None => changed.await,
            }
        }
    }
}

/// The socket, telling the connection's [`Activity`] when bytes arrive.
pub(super) struct Watched {
    stream: TcpStream,
    activity: Arc<Activity>,
}

impl Watched {
    pub(super) fn new(stream: TcpStream, activity: Arc<Activity>) -> Self {
        Self { stream, activity }
    }
}

impl AsyncRead for Watched {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.stream).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.activity.bytes_read();
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// The request body, cut (and its connection with it) when it has not arrived whole by
/// its deadline.
pub(super) struct TimedBody {
    body: Incoming,
    deadline: Instant,
    timer: Option<Pin<Box<tokio::time::Sleep>>>,
    activity: Arc<Activity>,
}

impl TimedBody {
    pub(super) fn new(body: Incoming, deadline: Instant, activity: Arc<Activity>) -> Self {
        Self { body, deadline, timer: None, activity }
    }
}

/// The error a body that came too late ends with.
#[derive(Debug, thiserror::Error)]
#[error("the request body did not arrive within the body-read timeout")]
struct BodyTimedOut;

impl HttpBody for TimedBody {
    type Data = Bytes;
    type Error = Box<dyn std::error::Error + Send + Sync>;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        if let Poll::Ready(frame) = Pin::new(&mut self.body).poll_frame(cx) {
            return Poll::Ready(frame.map(|frame| frame.map_err(Into::into)));
        }
        let deadline = self.deadline;
        let timer = self.timer.get_or_insert_with(|| Box::pin(tokio::time::sleep_until(deadline)));
        if timer.as_mut().poll(cx).is_pending() {
            return Poll::Pending;
        }
        self.activity.set(Phase::Cut);
        Poll::Ready(Some(Err(Box::new(BodyTimedOut))))
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// The answer's body; when it is dropped (sent whole, or abandoned) the connection waits
/// for its next request.
pub(super) struct AnswerBody {
    body: Body,
    _done: AnswerDone,
}

impl AnswerBody {
    pub(super) fn new(body: Body, done: AnswerDone) -> Self {
        Self { body, _done: done }
    }
}

pub(super) struct AnswerDone(pub(super) Arc<Activity>);

impl Drop for AnswerDone {
    fn drop(&mut self) {
        self.0.set(Phase::Waiting(Instant::now()));
    }
}

impl HttpBody for AnswerBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}
