//! Reads what a handler left of a request body before the answer goes out.
//!
//! A request refused before its body was read (over the size limit by its Content-Length, or
//! refused by a guard) leaves the client's bytes unread. The server would then close the
//! connection with data still in its receive queue, the kernel answers that with a reset, and
//! the client can lose the error envelope it was about to read ("connection reset" instead of
//! "body too large"). Reading the rest first, up to a bound in bytes and time, lets the client
//! read the answer and keeps the connection reusable. Beyond the bound (a client sending far
//! more than any endpoint accepts) the connection is simply closed, as before.

use axum::body::{Body, Bytes, HttpBody};
use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;
use http_body::{Frame, SizeHint};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

/// At most this much of an unread body is read and thrown away.
const MAX_DRAIN_BYTES: u64 = 1024 * 1024;
/// And for at most this long.
const MAX_DRAIN_TIME: Duration = Duration::from_secs(2);

type Slot = Arc<Mutex<Option<Body>>>;

/// The request body as the handler sees it: it reads from a slot the middleware keeps, so
/// whatever the handler leaves is still there after it returns.
struct SharedBody {
    slot: Slot,
    hint: SizeHint,
}

impl HttpBody for SharedBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let mut slot = self.slot.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        match slot.as_mut() {
            Some(body) => Pin::new(body).poll_frame(cx),
            None => Poll::Ready(None),
        }
    }

    fn is_end_stream(&self) -> bool {
        let slot = self.slot.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        slot.as_ref().is_none_or(HttpBody::is_end_stream)
    }

    fn size_hint(&self) -> SizeHint {
        // The handler's limits (DefaultBodyLimit) refuse by the declared length: keep it.
        self.hint
    }
}

pub async fn drain_unread_body(request: Request, next: Next) -> Response {
    let (parts, body) = request.into_parts();
    if body.is_end_stream() {
        return next.run(Request::from_parts(parts, body)).await;
    }
    let hint = body.size_hint();
    let slot: Slot = Arc::new(Mutex::new(Some(body)));
    let shared = SharedBody { slot: slot.clone(), hint };
    let response = next.run(Request::from_parts(parts, Body::new(shared))).await;
    let rest = slot.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take();
    if let Some(rest) = rest {
        // A body declared far beyond the bound is not worth reading: close instead.
        if !rest.is_end_stream() && hint.lower() <= MAX_DRAIN_BYTES {
            let _ = tokio::time::timeout(MAX_DRAIN_TIME, discard(rest)).await;
        }
    }
    response
}

async fn discard(mut body: Body) {
    let mut read = 0u64;
    while let Some(Ok(frame)) = std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await {
        if let Some(data) = frame.data_ref() {
            read += data.len() as u64;
            if read > MAX_DRAIN_BYTES {
                return;
            }
        }
    }
}
