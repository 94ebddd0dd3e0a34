//! Placing one order, read top-down: the caller's intent parsed at the edge
//! ([`PlaceIntent`]) → in one hop the product and quote, the account lock and the order
//! id (`store::open_on_*`) → the order built and checked against that offer → the
//! ledger's debit → every write together, and the commit. Also what an order line must
//! be to be accepted (`check_line`, shared with batches).

use super::counters::CounterChanges;
use super::group;
use super::model::OrderRow;
use super::store::{self, NewOrder, Offer, Opened};
use crate::domain::{MerchantOrderId, OrderKind, OrderStatus, PhoneNumber, ProductKind};
use crate::http::error::AppError;
use crate::http::replay::NonceUse;
use crate::i18n::TradeMessage;
use crate::money::finance::ledger::{Actor, Ledger, OrderRef};
use crate::platform::db::{Database, DatabaseKind, now_millis};
use crate::platform::sql::StatementBatch;
use crate::platform::state::AppState;
use std::time::Duration;

/// An order line as typed or uploaded, before checking.
#[derive(Debug, Clone, Default)]
pub struct OrderLine {
    pub account: String,
    pub product_key: String,
    pub merchant_order_id: Option<String>,
    /// The merchant confirms a number ported away from its segment's carrier.
    pub allow_ported: bool,
}

/// A line that passed every check that needs no lock.
#[derive(Debug, Clone)]
pub struct ValidLine {
    pub account: String,
    pub offer: Offer,
    pub price_fen: i64,
    pub merchant_order_id: Option<MerchantOrderId>,
}

/// Checks a line; on failure names the field and why. Card-secret products need no
/// recharge account (the card goes to the merchant), but one given must be valid.
pub fn check_line(line: &OrderLine, offer: Option<&Offer>) -> Result<ValidLine, (&'static str, TradeMessage)> {
    let merchant_order_id = match line.merchant_order_id.as_deref().map(str::trim).filter(|text| !text.is_empty()) {
        None => None,
        Some(text) => {
            Some(MerchantOrderId::parse(text).ok_or(("merchant_order_id", TradeMessage::MerchantOrderIdInvalid))?)
        }
    };
    if line.product_key.trim().is_empty() {
        return Err(("product_key", TradeMessage::ProductRequired));
    }
    let offer = offer.ok_or(("product_key", TradeMessage::ProductUnknown))?;
    let account_text = line.account.trim();
    let account = if account_text.is_empty() && offer.product_kind == ProductKind::Card {
        String::new()
    } else if account_text.is_empty() {
        return Err(("account", TradeMessage::AccountRequired));
    } else {
        let number = PhoneNumber::parse(account_text).ok_or(("account", TradeMessage::AccountInvalid))?;
        if number.carrier() != offer.carrier && !line.allow_ported {
            return Err((
                "account",
                TradeMessage::CarrierMismatch { number: number.carrier(), product: offer.carrier },
            ));
        }
        number.as_str().to_string()
    };
    let price_fen = offer.price_fen.ok_or(("product_key", TradeMessage::QuoteUnavailable))?;
    Ok(ValidLine { account, offer: offer.clone(), price_fen, merchant_order_id })
}

/// A refused line as an answer: what the OpenAPI document states (a merchant order id's
/// characters, a product key at all) is 400; what depends on the catalogue or the number
/// plan (no such product or quote, a number from no allocated segment, the wrong carrier,
/// an account the product needs) is 422, still 40000 naming the field.
fn line_error(field: &str, message: TradeMessage) -> AppError {
    match message {
        TradeMessage::MerchantOrderIdInvalid | TradeMessage::ProductRequired => AppError::field(field, message),
        other => AppError::unprocessable(field, other),
    }
}

/// What a caller asks to place, parsed from the request; checked against the product and
/// quote as they are inside the placing transaction.
#[derive(Debug, Clone)]
pub struct PlaceIntent {
    pub merchant_id: i64,
    pub line: OrderLine,
    /// On behalf: a person fulfils the order instead of the channel.
    pub behalf: bool,
    pub buyback: bool,
    pub remark: String,
    /// Where the result is notified (the open API's `notify_url`); None: the profile's.
    pub notify_url: Option<String>,
    /// The open-API call's nonce: checked in the placing transaction and stored with the
    /// order (`crate::http::replay`).
    pub nonce: Option<NonceUse>,
}

impl PlaceIntent {
    /// The order this intent becomes with `offer` (None: no such product), or why it
    /// cannot be placed.
    fn build(&self, offer: Option<&Offer>, now: i64, deadline_at: i64) -> Result<NewOrder, AppError> {
        let valid = check_line(&self.line, offer).map_err(|(field, message)| line_error(field, message))?;
        let kind = match (valid.offer.product_kind, self.behalf) {
            (ProductKind::Card, true) => {
                return Err(AppError::unprocessable(
                    "behalf",
                    TradeMessage::InvalidChoice { allowed: "false (card-secret products)" },
                ));
            }
            (ProductKind::Card, false) => OrderKind::Card,
            (ProductKind::Direct, true) => OrderKind::Behalf,
            (ProductKind::Direct, false) => OrderKind::Ordinary,
        };
        if kind == OrderKind::Behalf && valid.account.is_empty() {
            return Err(AppError::unprocessable("account", TradeMessage::AccountRequired));
        }
        let merchant_order_id = valid.merchant_order_id.unwrap_or_else(|| MerchantOrderId::generate(now));
        let mut order = NewOrder::pending(
            self.merchant_id,
            merchant_order_id.as_str().to_string(),
            valid.offer,
            kind,
            valid.account,
            valid.price_fen,
            now,
            deadline_at,
        );
        order.buyback = self.buyback;
        order.remark = self.remark.clone();
        order.notify_url = self.notify_url.clone();
        order.api_nonce = self.nonce.as_ref().map(NonceUse::stored);
        Ok(order)
    }
}

/// Charges and writes one order in one transaction. The merchant's account is locked
/// first, so parallel orders of one merchant queue there and the balance can never go
/// below zero; a reused merchant order id rolls everything back (nothing charged).
pub async fn place_one(state: &AppState, actor: Actor, intent: PlaceIntent) -> Result<OrderRow, AppError> {
    if intent.line.product_key.trim().is_empty() {
        // Refused without touching the database: without a product the intent cannot build.
        return Err(intent
            .build(None, 0, 0)
            .err()
            .unwrap_or_else(|| AppError::field("product_key", TradeMessage::ProductRequired)));
    }
    // A disabled merchant is refused by the group's first read (run.rs), placing alone below.
    let deadline = state.config.channel.deadline;
    let (order, id, balance) =
        state.services.get_or_init(group::Placements::default).place(&state.db, deadline, actor, intent).await?;
    state.live.placed(crate::platform::live::aggregate::Placed {
        id,
        merchant_id: order.merchant_id,
        price_fen: order.price_fen,
        created_at: order.created_at,
    });
    state.services.get_or_init(Arrivals::default).0.notify_one();
    crate::money::finance::alerts::low_balance_after_debit(state, order.merchant_id, balance.0, balance.1).await;
    Ok(order.into_row(id))
}

/// Rung when an order was placed: the order worker waits on it between its looks (at the
/// poll interval otherwise), so an order goes to its channel as soon as it is committed.
/// A ring while the worker is busy is kept until it next waits.
#[derive(Default)]
pub struct Arrivals(pub tokio::sync::Notify);

/// The balance (before, after) of a placed order.
pub type BalanceChange = (i64, i64);

/// Places one order in a transaction of its own (group.rs falls back to this when a
/// group cannot commit).
pub async fn place_alone(
    db: &Database,
    deadline: Duration,
    actor: &Actor,
    intent: &PlaceIntent,
) -> Result<(NewOrder, i64, BalanceChange), AppError> {
    crate::money::finance::ensure_merchant_enabled(&db.pool, intent.merchant_id).await?;
    match db.kind {
        DatabaseKind::Sqlite => place_on_sqlite(db, deadline, actor, intent).await,
        DatabaseKind::Postgres => place_on_postgres(db, deadline, actor, intent).await,
    }
}

/// Two hops to SQLite's connection thread: begin + product and quote + lock + order id,
/// then every write + commit. The write lock is held from `BEGIN IMMEDIATE`, so the
/// order id is known before the order is written, and the log records can name it.
async fn place_on_sqlite(
    db: &Database,
    deadline: Duration,
    actor: &Actor,
    intent: &PlaceIntent,
) -> Result<(NewOrder, i64, BalanceChange), AppError> {
    let mut write = db.sqlite_write().await?;
    let Opened { ledger, order_id, offer } =
        store::open_on_sqlite(&mut write, true, intent.merchant_id, actor.clone(), &intent.line.product_key).await?;
    let order = match build_and_charge(deadline, intent, offer.as_ref(), &ledger, actor) {
        Ok(order) => order,
        Err(error) => {
            write.rollback().await;
            return Err(error);
        }
    };
    let mut batch = StatementBatch::default();
    let balance = add_order_writes(&mut batch, ledger, order_id, &order);
    write.commit_with(batch).await.map_err(duplicate_id_as_conflict)?;
    Ok((order, order_id, balance))
}

/// Four round trips inside the transaction: `BEGIN`; lock the account, take the order id
/// and read the product and quote (one statement); every write as one statement;
/// `COMMIT`. With the session check before it, a request makes five. A reused merchant
/// order id fails the write, and the rollback takes the charge back.
async fn place_on_postgres(
    db: &Database,
    deadline: Duration,
    actor: &Actor,
    intent: &PlaceIntent,
) -> Result<(NewOrder, i64, BalanceChange), AppError> {
    let mut transaction = db.begin_write().await?;
    let Opened { ledger, order_id, offer } =
        store::open_on_postgres(&mut transaction, intent.merchant_id, actor.clone(), &intent.line.product_key).await?;
    // An early return drops the transaction, which rolls it back.
    let order = build_and_charge(deadline, intent, offer.as_ref(), &ledger, actor)?;
    let mut batch = StatementBatch::one_statement();
    let balance = add_order_writes(&mut batch, ledger, order_id, &order);
    batch.execute(&mut transaction).await.map_err(duplicate_id_as_conflict)?;
    transaction.commit().await?;
    Ok((order, order_id, balance))
}

/// The order the intent becomes with the offer read under the lock, with who placed it
/// and how it is paid (balance first, then credit), or why it cannot be placed.
pub fn build_and_charge(
    deadline: Duration,
    intent: &PlaceIntent,
    offer: Option<&Offer>,
    ledger: &Ledger,
    actor: &Actor,
) -> Result<NewOrder, AppError> {
    let now = now_millis();
    let mut order = intent.build(offer, now, now + crate::platform::config::millis(deadline))?;
    order.created_by = actor.id;
    order.paid = ledger.split(order.price_fen).ok_or(AppError::InsufficientFunds)?;
    Ok(order)
}

/// Debits the order and adds its writes to `batch`: the order with the id taken
/// beforehand, the account and its log records, the pending counter. No "placed" event:
/// the timeline starts from the order's own time (see `detail`).
fn add_order_writes(batch: &mut StatementBatch, mut ledger: Ledger, id: i64, order: &NewOrder) -> BalanceChange {
    let mut counters = CounterChanges::default();
    let balance = charge_order(&mut ledger, &mut counters, id, order);
    store::add_orders(batch, [(id, order)]);
    ledger.add_to(batch);
    counters.add_to(batch);
    balance
}

/// The order's debit in `ledger` and its count in `counters`: the caller writes the order's
/// row (with the open-API nonce that placed it, `store::add_orders`), then the ledger and the
/// counters (once for a run of orders, in group.rs).
pub fn charge_order(ledger: &mut Ledger, counters: &mut CounterChanges, id: i64, order: &NewOrder) -> BalanceChange {
    let balance_before = ledger.account().balance_fen;
    ledger.debit_order(order.paid, OrderRef { id, order_no: &order.order_no });
    counters.add(order.counted().key(OrderStatus::Pending.code(), false), 1);
    (balance_before, ledger.account().balance_fen)
}

/// A merchant order id used before is the merchant's mistake, not a server failure.
fn duplicate_id_as_conflict(error: sqlx::Error) -> AppError {
    if is_duplicate_merchant_order_id(&error) {
        AppError::Conflict(TradeMessage::MerchantOrderIdDuplicate.into())
    } else {
        error.into()
    }
}

fn is_duplicate_merchant_order_id(error: &sqlx::Error) -> bool {
    error
        .as_database_error()
        .is_some_and(|error| error.is_unique_violation() && error.message().contains("merchant_order_id"))
}
