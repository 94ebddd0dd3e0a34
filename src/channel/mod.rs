//! Channels: the suppliers that actually top up a number or issue a card.
//!
//! The worker talks to a channel only through [`Channel`], so a real supplier's adapter
//! is one more implementation. The contract a supplier must meet, and the sandbox
//! meets, is that it remembers what it was given: `submit` is idempotent per system
//! order id, and `query` answers for any order it ever received, also after our process
//! restarted. That is what lets the worker re-drive an interrupted order by asking
//! instead of submitting it twice.

pub mod sandbox;

use futures_util::future::BoxFuture;

/// What a channel needs to fulfil an order.
#[derive(Debug, Clone)]
pub struct ChannelOrder {
    pub system_order_id: String,
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

/// A channel's answer about one order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChannelStatus {
    /// The channel never received this order (safe to submit).
    Unknown,
    /// Received, no result yet.
    Pending,
    Succeeded {
        serial_no: String,
        card: Option<CardSecret>,
    },
    Failed {
        reason: String,
    },
}

pub trait Channel: Send + Sync {
    /// Hands an order over. Submitting an order the channel already has changes nothing.
    fn submit<'a>(&'a self, order: &'a ChannelOrder) -> BoxFuture<'a, anyhow::Result<()>>;

    /// Asks where an order stands.
    fn query<'a>(&'a self, order: &'a ChannelOrder) -> BoxFuture<'a, anyhow::Result<ChannelStatus>>;
}
