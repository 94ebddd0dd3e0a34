//! Channels: the suppliers that actually top up a number or issue a card.
//!
//! The worker talks to a channel only through [`Channel`], so a supplier's protocol is
//! one more adapter (one file each: `sandbox.rs`, `http_json.rs`; docs/channels.md).
//! The contract every adapter meets is that the supplier remembers what it was given:
//! `submit` is idempotent per upstream order id, and `query` answers for any order it
//! ever received, also after our process restarted. That is what lets the worker re-drive
//! an interrupted attempt by asking instead of submitting it twice.
//!
//! Every answer is classified, and only a *definite* failure ([`ChannelStatus::Failed`])
//! lets an order move on to another channel. An error (timeout, reset, 5xx, an unmapped
//! code, a bad signature) means "unknown": the order stays with that channel. So does a
//! success without what the order is for, a card order's card (`deliverable.rs`).

pub mod attempts;
pub mod deliverable;
pub mod http_json;
pub mod model;
pub mod registry;
pub mod results;
pub mod routing;
pub mod sandbox;
pub mod settling;
pub mod statement;

use futures_util::future::BoxFuture;

/// What a channel needs to fulfil an order (one attempt of it).
#[derive(Debug, Clone)]
pub struct ChannelOrder {
    /// The id the channel knows this attempt by: derived from our order and the attempt
    /// number, so a resubmission of the same attempt is recognised as one.
    pub upstream_order_id: String,
    pub account: String,
    pub product_key: String,
    pub face_value_fen: i64,
    /// A card-secret order: the answer carries a card number and password.
    pub card: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardSecret {
    pub number: String,
    pub password: String,
}

/// A channel's classified answer about one order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChannelStatus {
    /// The channel never received this order (safe to submit).
    NotReceived,
    /// Received, no result yet ("processing").
    Pending,
    Succeeded {
        serial_no: String,
        card: Option<CardSecret>,
    },
    /// Definite failure: the channel did not and will not top up.
    Failed {
        reason: String,
    },
    /// Reversed (冲正): the channel had topped the order up (and may have said so), but
    /// the top-up did not stand. For a settled success the order is reversed and
    /// refunded; for an attempt still open it is a definite failure there.
    Reversed {
        reason: String,
    },
}

/// A supplier's result callback, after its signature was checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallbackReport {
    pub upstream_order_id: String,
    pub status: ChannelStatus,
}

#[derive(Debug, thiserror::Error)]
pub enum CallbackError {
    #[error("this channel's protocol has no callbacks")]
    Unsupported,
    #[error("bad signature")]
    BadSignature,
    #[error("malformed callback: {0}")]
    Malformed(String),
}

pub trait Channel: Send + Sync {
    /// Hands an order over; `Pending` when accepted. Submitting an order the channel
    /// already has changes nothing. An error is an unknown outcome.
    fn submit<'a>(&'a self, order: &'a ChannelOrder) -> BoxFuture<'a, anyhow::Result<ChannelStatus>>;

    /// Asks where an order stands. An error is an unknown outcome.
    fn query<'a>(&'a self, order: &'a ChannelOrder) -> BoxFuture<'a, anyhow::Result<ChannelStatus>>;

    /// The balance we hold with the channel, where the protocol tells it.
    fn balance(&self) -> BoxFuture<'_, anyhow::Result<Option<i64>>> {
        Box::pin(async { Ok(None) })
    }

    /// The supplier's statement of a Beijing day (`YYYY-MM-DD`): what it says it topped
    /// up, read under the budget of `statement.rs`.
    fn statement<'a>(
        &'a self,
        _date: &'a str,
    ) -> BoxFuture<'a, Result<Vec<statement::StatementLine>, statement::StatementError>> {
        Box::pin(async { Err(statement::StatementError::Unsupported) })
    }

    /// Checks and reads a result callback (raw body, as received).
    fn verify_callback(&self, _headers: &axum::http::HeaderMap, _body: &[u8]) -> Result<CallbackReport, CallbackError> {
        Err(CallbackError::Unsupported)
    }
}
