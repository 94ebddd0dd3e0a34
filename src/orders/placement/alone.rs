//! One order placed in a transaction of its own, read top-down: in one hop the product and
//! quote, the account lock and the order id (`store::open_one_on_*`) → the order built and
//! checked against that offer → the ledger's debit → every write together, and the commit.
//! The build and the charge are shared with the groups (`decide.rs`).

use super::intent::PlaceIntent;
use crate::orders::counters::CounterChanges;

use crate::domain::OrderStatus;
use crate::http::error::AppError;
use crate::i18n::TradeMessage;
use crate::money::finance::ledger::{Actor, Ledger, OrderRef};
use crate::orders::store::{self, NewOrder, Offer, Opened};
use crate::platform::config::Deadlines;
use crate::platform::db::{Database, DatabaseKind, now_millis};
use crate::platform::sql::StatementBatch;

/// The balance (before, after) of a placed order.
pub type BalanceChange = (i64, i64);

/// Places one order in a transaction of its own (group.rs falls back to this when a
/// group cannot commit).
pub async fn place_alone(
    db: &Database,
    deadline: Deadlines,
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
    deadline: Deadlines,
    actor: &Actor,
    intent: &PlaceIntent,
) -> Result<(NewOrder, i64, BalanceChange), AppError> {
    let mut write = db.sqlite_write().await?;
    let Opened { ledger, order_id, offer } =
        store::open_one_on_sqlite(&mut write, true, intent.merchant_id, actor.clone(), &intent.line.product_key)
            .await?;
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
    deadline: Deadlines,
    actor: &Actor,
    intent: &PlaceIntent,
) -> Result<(NewOrder, i64, BalanceChange), AppError> {
    let mut transaction = db.begin_write().await?;
    let Opened { ledger, order_id, offer } =
        store::open_one_on_postgres(&mut transaction, intent.merchant_id, actor.clone(), &intent.line.product_key)
            .await?;
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
    deadline: Deadlines,
    intent: &PlaceIntent,
    offer: Option<&Offer>,
    ledger: &Ledger,
    actor: &Actor,
) -> Result<NewOrder, AppError> {
    let now = now_millis();
    // The deadline follows the product's speed (a missing product is refused by `build`).
    let allowance = deadline.millis_of(offer.map(|offer| offer.speed).unwrap_or_default());
    let mut order = intent.build(offer, now, now + allowance)?;
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
    counters.add(&order.counted(), OrderStatus::Pending.code(), false, 1);
    (balance_before, ledger.account().balance_fen)
}

/// A merchant order id used before is the merchant's mistake, not a server failure.
fn duplicate_id_as_conflict(error: sqlx::Error) -> AppError {
    if is_duplicate_merchant_order_id(&error) {
        AppError::Conflict(TradeMessage::MerchantOrderIdDuplicate.into())
    } else if crate::orders::risk::is_number_in_flight(&error) {
        // The number has an unfinished order (placed by another group or server meanwhile).
        crate::orders::risk::refused(crate::domain::risk::RiskRefusal::NumberInFlight, &Default::default())
    } else {
        error.into()
    }
}

fn is_duplicate_merchant_order_id(error: &sqlx::Error) -> bool {
    error
        .as_database_error()
        .is_some_and(|error| error.is_unique_violation() && error.message().contains("merchant_order_id"))
}
