//! A channel's successes as the application state queues them for settling: the callbacks'
//! writer (`supply::settle`) settles whatever is waiting in one transaction. Only the data
//! lives here, so the state can hold the queue; the writer and its checks stay in `supply`.

use super::CardSecret;
use super::attempts::Attempt;
use tokio::sync::{mpsc, oneshot};

/// A channel's success for one attempt (not a probe).
#[derive(Debug, Clone)]
pub struct Success {
    pub attempt: Attempt,
    pub serial_no: String,
    pub card: Option<CardSecret>,
}

/// What a success did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settled {
    /// The order moved to success.
    Changed,
    /// Already settled (a duplicate, or a late answer).
    Unchanged,
    /// The attempt had already definitely failed: ignored (the order may have moved on).
    Contradicted,
}

/// A callback's success waiting for the writer, answered after its group commits.
pub struct Callback {
    pub success: Success,
    pub answer: oneshot::Sender<anyhow::Result<Settled>>,
}

/// The queue in front of the callbacks' writer, which the first callback starts. The writer
/// ends when the queue is dropped with the application state.
pub type Callbacks = std::sync::OnceLock<mpsc::UnboundedSender<Callback>>;
