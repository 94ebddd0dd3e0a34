//! Placing orders: what an order line must be to be accepted, and the transaction that
//! charges the merchant and writes the order, its log records, counter and timeline.

use super::counters::{Counted, CounterChanges};
use super::model::{OrderRow, new_order_no, new_system_order_id};
use crate::db::DatabaseKind;
use crate::domain::{Carrier, MerchantOrderId, OrderKind, OrderStatus, PhoneNumber, ProductKind};
use crate::error::AppError;
use crate::finance::ledger::{Actor, Ledger, OrderRef};
use crate::i18n::TradeMessage;
use crate::sql::{Bind, StatementBatch, bind_all, values_list};
use crate::state::AppState;
use sqlx::{AnyConnection, AnyPool, Row};
use std::collections::HashMap;

/// A product with the merchant's quote for it, if any.
#[derive(Debug, Clone)]
pub struct Offer {
    pub product_id: i64,
    pub product_key: String,
    pub product_name: String,
    pub carrier: Carrier,
    pub product_kind: ProductKind,
    pub face_value_fen: i64,
    /// The supply price, when the merchant has a quote that is on.
    pub price_fen: Option<i64>,
}

/// Every product with the merchant's ($1) quote, if on. A macro so that the one-product
/// form below is a constant too, not a string built for every order placed.
macro_rules! offer_query {
    () => {
        "SELECT p.id, p.product_key, p.name, p.carrier, p.product_kind, p.face_value_fen, q.price_fen
     FROM products p LEFT JOIN quotes q ON q.product_id = p.id AND q.merchant_id = $1 AND q.status = 1"
    };
}
const OFFER_QUERY: &str = offer_query!();
/// The product whose key is $3, with the merchant's quote (read with the account lock).
const OFFER_BY_KEY_QUERY: &str = concat!(offer_query!(), " WHERE p.product_key = $3");

fn offer_from_row(row: &sqlx::any::AnyRow) -> Result<Offer, sqlx::Error> {
    offer_from_columns(row, 0)?.ok_or(sqlx::Error::RowNotFound)
}

/// The offer in `row` from column `first` on; `None` when they are NULL (no such product).
fn offer_from_columns(row: &sqlx::any::AnyRow, first: usize) -> Result<Option<Offer>, sqlx::Error> {
    let Some(product_id) = row.try_get::<Option<i64>, _>(first)? else { return Ok(None) };
    let carrier: i64 = row.try_get(first + 3)?;
    let kind: i64 = row.try_get(first + 4)?;
    Ok(Some(Offer {
        product_id,
        product_key: row.try_get(first + 1)?,
        product_name: row.try_get(first + 2)?,
        carrier: Carrier::from_code(carrier).ok_or_else(|| sqlx::Error::Decode("unknown carrier".into()))?,
        product_kind: ProductKind::from_code(kind).ok_or_else(|| sqlx::Error::Decode("unknown product kind".into()))?,
        face_value_fen: row.try_get(first + 5)?,
        price_fen: row.try_get(first + 6)?,
    }))
}

/// Every product with the merchant's prices, by product key (for batches).
pub async fn all_offers(pool: &AnyPool, merchant_id: i64) -> Result<HashMap<String, Offer>, sqlx::Error> {
    let rows = sqlx::query(OFFER_QUERY).bind(merchant_id).fetch_all(pool).await?;
    rows.iter().map(|row| offer_from_row(row).map(|offer| (offer.product_key.clone(), offer))).collect()
}

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

/// Every column of a new order row.
#[derive(Debug, Clone)]
pub struct NewOrder {
    pub merchant_id: i64,
    pub merchant_order_id: String,
    pub order_no: String,
    pub system_order_id: String,
    pub offer: Offer,
    pub kind: OrderKind,
    pub account: String,
    pub price_fen: i64,
    pub paid: (i64, i64),
    pub status: OrderStatus,
    pub buyback: bool,
    pub created_at: i64,
    pub deadline_at: i64,
    pub submitted_at: Option<i64>,
    pub finished_at: Option<i64>,
    pub callback_at: Option<i64>,
    pub serial_no: Option<String>,
    pub failure_reason: Option<String>,
    pub card: Option<(String, String)>,
    pub batch_id: Option<i64>,
    pub remark: String,
    pub created_by: Option<i64>,
}

impl NewOrder {
    /// The row as stored, without reading it back.
    pub fn into_row(self, id: i64) -> OrderRow {
        OrderRow {
            id,
            merchant_id: self.merchant_id,
            merchant_order_id: self.merchant_order_id,
            order_no: self.order_no,
            system_order_id: self.system_order_id,
            product_key: self.offer.product_key,
            product_name: self.offer.product_name,
            carrier: self.offer.carrier.code(),
            order_kind: self.kind.code(),
            account: self.account,
            face_value_fen: self.offer.face_value_fen,
            price_fen: self.price_fen,
            paid_balance_fen: self.paid.0,
            paid_credit_fen: self.paid.1,
            status: self.status.code(),
            buyback: i64::from(self.buyback),
            created_at: self.created_at,
            deadline_at: self.deadline_at,
            submitted_at: self.submitted_at,
            finished_at: self.finished_at,
            duration_ms: self.finished_at.map(|finished| finished - self.created_at),
            callback_at: self.callback_at,
            serial_no: self.serial_no,
            failure_reason: self.failure_reason,
            batch_id: self.batch_id,
            remark: self.remark,
            has_card: self.card.is_some(),
            created_by: self.created_by,
        }
    }

    pub fn counted(&self) -> Counted {
        Counted {
            merchant_id: self.merchant_id,
            created_at: self.created_at,
            order_kind: self.kind.code(),
            carrier: self.offer.carrier.code(),
            face_value_fen: self.offer.face_value_fen,
            buyback: i64::from(self.buyback),
        }
    }
}

const INSERT_COLUMNS: usize = 30;
const ORDER_COLUMNS: &str = "merchant_id, merchant_order_id, order_no, system_order_id, product_id, product_key,
     product_name, carrier, order_kind, account, face_value_fen, price_fen, paid_balance_fen, paid_credit_fen,
     status, buyback, created_at, deadline_at, submitted_at, finished_at, duration_ms, callback_at, serial_no,
     failure_reason, card_no_enc, card_secret_enc, batch_id, remark, created_by, lease_until";

/// The values of `ORDER_COLUMNS` for one order.
fn order_binds(order: &NewOrder) -> [Bind; INSERT_COLUMNS] {
    // Only orders a channel handles are queued for the worker, due at once.
    let in_flight = !order.status.is_final() && order.status != OrderStatus::ManualReview;
    let lease_until = (in_flight && order.kind != OrderKind::Behalf).then_some(order.created_at);
    [
        Bind::Int(order.merchant_id),
        Bind::Text(order.merchant_order_id.clone()),
        Bind::Text(order.order_no.clone()),
        Bind::Text(order.system_order_id.clone()),
        Bind::Int(order.offer.product_id),
        Bind::Text(order.offer.product_key.clone()),
        Bind::Text(order.offer.product_name.clone()),
        Bind::Int(order.offer.carrier.code()),
        Bind::Int(order.kind.code()),
        Bind::Text(order.account.clone()),
        Bind::Int(order.offer.face_value_fen),
        Bind::Int(order.price_fen),
        Bind::Int(order.paid.0),
        Bind::Int(order.paid.1),
        Bind::Int(order.status.code()),
        Bind::Int(i64::from(order.buyback)),
        Bind::Int(order.created_at),
        Bind::Int(order.deadline_at),
        Bind::OptInt(order.submitted_at),
        Bind::OptInt(order.finished_at),
        Bind::OptInt(order.finished_at.map(|finished| finished - order.created_at)),
        Bind::OptInt(order.callback_at),
        Bind::OptText(order.serial_no.clone()),
        Bind::OptText(order.failure_reason.clone()),
        Bind::OptText(order.card.as_ref().map(|card| card.0.clone())),
        Bind::OptText(order.card.as_ref().map(|card| card.1.clone())),
        Bind::OptInt(order.batch_id),
        Bind::Text(order.remark.clone()),
        Bind::OptInt(order.created_by),
        Bind::OptInt(lease_until),
    ]
}

/// Inserts orders, many per statement. A merchant order id the merchant already used is
/// skipped, not an error: the result lists (merchant order id, id) of the rows inserted.
pub async fn insert_orders(
    connection: &mut AnyConnection,
    orders: &[NewOrder],
) -> Result<Vec<(String, i64)>, sqlx::Error> {
    let mut inserted = Vec::with_capacity(orders.len());
    for chunk in orders.chunks(crate::sql::MAX_BINDS / INSERT_COLUMNS) {
        let sql = format!(
            "INSERT INTO orders ({ORDER_COLUMNS}) VALUES {}
             ON CONFLICT (merchant_id, merchant_order_id) DO NOTHING RETURNING merchant_order_id, id",
            values_list(chunk.len(), INSERT_COLUMNS)
        );
        let binds: Vec<Bind> = chunk.iter().flat_map(order_binds).collect();
        let rows =
            bind_all(sqlx::query(crate::sql::for_engine(connection, sql)), binds).fetch_all(&mut *connection).await?;
        for row in rows {
            inserted.push((row.try_get(0)?, row.try_get(1)?));
        }
    }
    Ok(inserted)
}

/// Appends timeline events: (order id, status, note, actor, time).
pub async fn insert_events(
    connection: &mut AnyConnection,
    events: &[(i64, OrderStatus, &str, Option<i64>, i64)],
) -> Result<(), sqlx::Error> {
    const COLUMNS: usize = 5;
    for chunk in events.chunks(crate::sql::MAX_BINDS / COLUMNS) {
        let sql = format!(
            "INSERT INTO order_events (order_id, status, note, actor_id, created_at) VALUES {}",
            values_list(chunk.len(), COLUMNS)
        );
        let mut binds = Vec::with_capacity(chunk.len() * COLUMNS);
        for (order_id, status, note, actor, at) in chunk {
            binds.extend([
                Bind::Int(*order_id),
                Bind::Int(status.code()),
                Bind::Text(note.to_string()),
                Bind::OptInt(*actor),
                Bind::Int(*at),
            ]);
        }
        bind_all(sqlx::query(crate::sql::for_engine(connection, sql)), binds).execute(&mut *connection).await?;
    }
    Ok(())
}

/// What a new in-flight order looks like before it is charged.
pub fn new_pending_order(state: &AppState, merchant_id: i64, line: &ValidLine, kind: OrderKind, now: i64) -> NewOrder {
    NewOrder {
        merchant_id,
        merchant_order_id: line
            .merchant_order_id
            .clone()
            .unwrap_or_else(|| MerchantOrderId::generate(now))
            .as_str()
            .to_string(),
        order_no: new_order_no(now),
        system_order_id: new_system_order_id(),
        offer: line.offer.clone(),
        kind,
        account: line.account.clone(),
        price_fen: line.price_fen,
        paid: (0, 0),
        status: OrderStatus::Pending,
        buyback: false,
        created_at: now,
        deadline_at: now + crate::config::millis(state.config.channel.deadline),
        submitted_at: None,
        finished_at: None,
        callback_at: None,
        serial_no: None,
        failure_reason: None,
        card: None,
        batch_id: None,
        remark: String::new(),
        created_by: None,
    }
}

/// Charges and writes one order in one transaction. The merchant's account is locked
/// first, so parallel orders of one merchant queue there and the balance can never go
/// below zero; a reused merchant order id rolls everything back (nothing charged).
pub async fn place_one(
    state: &AppState,
    actor: Actor,
    merchant_id: i64,
    product_key: &str,
    prepare: impl FnOnce(Option<&Offer>) -> Result<NewOrder, AppError>,
) -> Result<OrderRow, AppError> {
    let (order, id, balance) = match state.db.kind {
        DatabaseKind::Sqlite => place_on_sqlite(state, actor, merchant_id, product_key, prepare).await?,
        DatabaseKind::Postgres => place_on_postgres(state, actor, merchant_id, product_key, prepare).await?,
    };
    crate::finance::alerts::low_balance_after_debit(state, merchant_id, balance.0, balance.1).await;
    Ok(order.into_row(id))
}

/// The balance (before, after) of a placed order.
type BalanceChange = (i64, i64);

/// Two hops to SQLite's connection thread: begin + product and quote + lock + read,
/// then every write + commit. The write lock is held from `BEGIN IMMEDIATE`, so the
/// order id is known before the order is written, and the log records can name it.
async fn place_on_sqlite(
    state: &AppState,
    actor: Actor,
    merchant_id: i64,
    product_key: &str,
    prepare: impl FnOnce(Option<&Offer>) -> Result<NewOrder, AppError>,
) -> Result<(NewOrder, i64, BalanceChange), AppError> {
    let mut write = state.db.sqlite_write().await?;
    let (ledger, id, offer_rows) =
        Ledger::begin_with_next_order_id(&mut write, merchant_id, actor.clone(), OFFER_BY_KEY_QUERY, product_key)
            .await?;
    let offer = offer_rows.first().map(offer_from_row).transpose()?;
    let order = match charge(prepare(offer.as_ref()), &ledger, &actor) {
        Ok(order) => order,
        Err(error) => {
            write.rollback().await;
            return Err(error);
        }
    };
    let mut batch = StatementBatch::default();
    let balance = add_order_writes(&mut batch, ledger, id, &order);
    write.commit_with(batch).await.map_err(duplicate_id_as_conflict)?;
    Ok((order, id, balance))
}

/// Three round trips inside the transaction: begin; lock the account, take the order id
/// and read the product and quote; write everything as one statement and commit. A
/// reused merchant order id fails the write, and the rollback takes the charge back.
async fn place_on_postgres(
    state: &AppState,
    actor: Actor,
    merchant_id: i64,
    product_key: &str,
    prepare: impl FnOnce(Option<&Offer>) -> Result<NewOrder, AppError>,
) -> Result<(NewOrder, i64, BalanceChange), AppError> {
    let mut transaction = state.db.begin_write().await?;
    let (ledger, id, row) =
        Ledger::open_with_next_order_id(&mut transaction, merchant_id, actor.clone(), OFFER_BY_KEY_QUERY, product_key)
            .await?;
    let offer = offer_from_columns(&row, 5)?;
    // An early return drops the transaction, which rolls it back.
    let order = charge(prepare(offer.as_ref()), &ledger, &actor)?;
    let mut batch = StatementBatch::one_statement();
    let balance = add_order_writes(&mut batch, ledger, id, &order);
    batch.execute(&mut transaction).await.map_err(duplicate_id_as_conflict)?;
    transaction.commit().await?;
    Ok((order, id, balance))
}

/// The prepared order with who placed it and how it is paid (balance first, then
/// credit), or why it cannot be placed.
fn charge(prepared: Result<NewOrder, AppError>, ledger: &Ledger, actor: &Actor) -> Result<NewOrder, AppError> {
    let mut order = prepared?;
    order.created_by = actor.id;
    order.paid = ledger.split(order.price_fen).ok_or(AppError::InsufficientFunds)?;
    Ok(order)
}

/// Debits the order and adds its writes to `batch`: the order with the id taken
/// beforehand, the account and its log records, the pending counter. No "placed" event:
/// the timeline starts from the order's own time (see `detail`).
fn add_order_writes(batch: &mut StatementBatch, mut ledger: Ledger, id: i64, order: &NewOrder) -> BalanceChange {
    let balance_before = ledger.account().balance_fen;
    ledger.debit_order(order.paid, OrderRef { id, order_no: &order.order_no });
    let balance = (balance_before, ledger.account().balance_fen);
    let mut binds = vec![Bind::Int(id)];
    binds.extend(order_binds(order));
    batch
        .push(format!("INSERT INTO orders (id, {ORDER_COLUMNS}) VALUES {}", values_list(1, INSERT_COLUMNS + 1)), binds);
    ledger.add_to(batch);
    pending_counter(order).add_to(batch);
    balance
}

/// A merchant order id used before is the merchant's mistake, not a server failure.
fn duplicate_id_as_conflict(error: sqlx::Error) -> AppError {
    if is_duplicate_merchant_order_id(&error) {
        AppError::Conflict(TradeMessage::MerchantOrderIdDuplicate.into())
    } else {
        error.into()
    }
}

fn pending_counter(order: &NewOrder) -> CounterChanges {
    let mut counters = CounterChanges::default();
    counters.add(order.counted().key(OrderStatus::Pending.code(), false), 1);
    counters
}

fn is_duplicate_merchant_order_id(error: &sqlx::Error) -> bool {
    error
        .as_database_error()
        .is_some_and(|error| error.is_unique_violation() && error.message().contains("merchant_order_id"))
}
