//! Where orders are read and written: products with the merchant's quotes (offers), the
//! new-order row, the placing transaction's first read (offer + account lock + order id
//! in one hop), and the multi-row inserts batches and the generator use. Engine
//! differences of these statements stay here and in `db::dialect`.

use super::counters::Counted;
use super::model::{OrderRow, new_order_no, new_system_order_id};
use super::placing_sql as sql;
use crate::domain::{Carrier, OrderKind, OrderStatus, ProductKind, Scope, Speed};
use crate::money::finance::ledger::{Actor, Ledger};
use crate::platform::sql::{Bind, StatementBatch, bind_all, values_list};
use sqlx::{AnyConnection, Row};
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
    /// Sets the order's deadline.
    pub speed: Speed,
    /// Where the product may be sold.
    pub scope: Scope,
}

impl Offer {
    /// Whether the product may be sold for `account` of `province`: a card product without
    /// an account goes to the merchant, anywhere.
    pub fn account_in_scope(&self, account: &str, province: Option<u32>) -> bool {
        account.is_empty() || self.scope.admits(province)
    }
}

fn offer_from_row(row: &sqlx::any::AnyRow) -> Result<Offer, sqlx::Error> {
    offer_from_columns(row, 0)?.ok_or(sqlx::Error::RowNotFound)
}

/// The offer in `row` from column `first` on; `None` when they are NULL (no such product).
pub(super) fn offer_from_columns(row: &sqlx::any::AnyRow, first: usize) -> Result<Option<Offer>, sqlx::Error> {
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
        speed: Speed::from_code(row.try_get(first + 7)?).ok_or_else(|| sqlx::Error::Decode("unknown speed".into()))?,
        scope: Scope::from_stored(&row.try_get::<String, _>(first + 8)?)
            .ok_or_else(|| sqlx::Error::Decode("bad product provinces".into()))?,
    }))
}

/// Every product with the merchant's prices, by product key (for batches).
/// A batch submit passes its transaction, to read prices under the account lock.
pub async fn all_offers<'e>(
    executor: impl sqlx::Executor<'e, Database = sqlx::Any>,
    merchant_id: i64,
) -> Result<HashMap<String, Offer>, sqlx::Error> {
    let rows = sqlx::query(sql::OFFER_QUERY).bind(merchant_id).fetch_all(executor).await?;
    rows.iter().map(|row| offer_from_row(row).map(|offer| (offer.product_key.clone(), offer))).collect()
}

/// What the placing transaction reads first, in one hop: the merchant's account locked
/// (the ledger), the id the new order will get, and the product asked for with the
/// merchant's quote (`None`: no such product).
pub struct Opened {
    pub ledger: Ledger,
    pub order_id: i64,
    pub offer: Option<Offer>,
}

/// SQLite: begins the write transaction (with `begin`) and reads in one hop. `BEGIN IMMEDIATE` holds the
/// database's write lock, so no one else can take the id before the transaction ends.
pub async fn open_one_on_sqlite(
    write: &mut crate::platform::db::SqliteWrite,
    begin: bool,
    merchant_id: i64,
    actor: Actor,
    product_key: &str,
) -> Result<Opened, sqlx::Error> {
    Ok(open_one_on_sqlite_with(write, begin, &sql::OPEN_SQLITE, merchant_id, actor, product_key, &[]).await?.0)
}

/// [`open_one_on_sqlite`] with `sql`, which is `placing_sql::OPEN_SQLITE` followed by statements of the
/// caller's, whose parameters `more` are bound after the three; their rows are returned.
pub(super) async fn open_one_on_sqlite_with(
    write: &mut crate::platform::db::SqliteWrite,
    begin: bool,
    sql: &str,
    merchant_id: i64,
    actor: Actor,
    product_key: &str,
    more: &[String],
) -> Result<(Opened, Vec<sqlx::any::AnyRow>), sqlx::Error> {
    // Later orders of a group (group.rs) read inside the transaction the first one began.
    let sql = if begin { write.begin_with(sql) } else { sql.to_string() };
    let rows = open_query(sql, merchant_id, product_key, more).fetch_all(write.connection()).await?;
    let (account_row, order_id, offer, others) = split_open_rows(&rows)?;
    let ledger = match account_row {
        Some(row) => Ledger::from_locked_row(merchant_id, actor, row)?,
        // The merchant's first money movement: the ledger creates the account.
        None => Ledger::open(write.connection(), merchant_id, actor).await?,
    };
    Ok((Opened { ledger, order_id: order_id.ok_or(sqlx::Error::RowNotFound)?, offer }, others))
}

/// [`open_one_on_sqlite_with`] outside a transaction, on the writer's connection, with `sql` made
/// from `placing_sql::READ_SQLITE`: the account as committed, for a write that holds only if it still
/// is (`Ledger::from_unlocked_row`). None when the merchant has no account yet (placing alone
/// creates it).
pub(super) async fn read_one_on_sqlite_with(
    connection: &mut AnyConnection,
    sql: &str,
    merchant_id: i64,
    actor: Actor,
    product_key: &str,
    more: &[String],
) -> Result<Option<(Opened, Vec<sqlx::any::AnyRow>)>, sqlx::Error> {
    let rows = open_query(sql.to_string(), merchant_id, product_key, more).fetch_all(connection).await?;
    let (account_row, order_id, offer, others) = split_open_rows(&rows)?;
    let Some(row) = account_row else { return Ok(None) };
    let ledger = Ledger::from_unlocked_row(merchant_id, actor, row)?;
    Ok(Some((Opened { ledger, order_id: order_id.ok_or(sqlx::Error::RowNotFound)?, offer }, others)))
}

/// `placing_sql::OPEN_SQLITE` or `placing_sql::READ_SQLITE` (and what follows) with its values: the merchant, the
/// time, the product key, then `more`.
fn open_query<'q>(
    sql: String,
    merchant_id: i64,
    product_key: &'q str,
    more: &'q [String],
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments> {
    let query = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(merchant_id)
        .bind(crate::platform::db::now_millis())
        .bind(product_key);
    more.iter().fold(query, |query, value| query.bind(value.as_str()))
}

/// The rows of `placing_sql::OPEN_SQLITE` and what follows it: the account's (if any), the next order id,
/// the offer (if any), and the rest.
#[allow(clippy::type_complexity)]
fn split_open_rows(
    rows: &[sqlx::any::AnyRow],
) -> Result<(Option<&sqlx::any::AnyRow>, Option<i64>, Option<Offer>, Vec<sqlx::any::AnyRow>), sqlx::Error> {
    use sqlx::Column;
    let (mut offer, mut account_row, mut order_id, mut others) = (None, None, None, Vec::new());
    for row in rows {
        match row.columns().first().map(|column| column.name()) {
            Some("balance_fen") => account_row = Some(row),
            Some("next_order_id") => order_id = Some(row.try_get(0)?),
            Some("id") => offer = Some(offer_from_row(row)?),
            _ => others.push(row.clone()),
        }
    }
    Ok((account_row, order_id, offer, others))
}

/// PostgreSQL: the read in one round trip inside the caller's transaction; the UPDATE
/// takes the account's row lock.
pub async fn open_one_on_postgres(
    connection: &mut AnyConnection,
    merchant_id: i64,
    actor: Actor,
    product_key: &str,
) -> Result<Opened, sqlx::Error> {
    let (ledger, row) =
        Ledger::open_with(connection, merchant_id, actor, &sql::OPEN_POSTGRES, Some(product_key)).await?;
    Ok(Opened { ledger, order_id: row.try_get(4)?, offer: offer_from_columns(&row, 5)? })
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
    /// Where this order's result is notified (open API orders may name one); None: the
    /// profile's notify URL.
    pub notify_url: Option<String>,
    /// The open-API call that placed it, `key_id:nonce` (`crate::http::replay`).
    pub api_nonce: Option<String>,
    /// The number's province and city, from the segment table in memory (no query).
    pub province: Option<String>,
    pub city: Option<String>,
    /// Placed while its merchant kept one order in flight per number (`orders::risk`).
    pub single_flight: bool,
}

impl NewOrder {
    /// What the live monitor is told once the order, stored as `id`, is committed.
    pub fn live_placed(&self, id: i64) -> crate::platform::live::aggregate::Placed {
        crate::platform::live::aggregate::Placed {
            id,
            merchant_id: self.merchant_id,
            price_fen: self.price_fen,
            created_at: self.created_at,
            province: crate::i18n::provinces::live_code(self.province.as_deref()),
        }
    }

    /// A new order waiting for the channel, as `add` and a batch submit place it: unpaid
    /// until the ledger says how (`paid`), due at `deadline_at`, queued for the worker.
    #[allow(clippy::too_many_arguments)]
    pub fn pending(
        merchant_id: i64,
        merchant_order_id: String,
        offer: Offer,
        kind: OrderKind,
        account: String,
        price_fen: i64,
        now: i64,
        deadline_at: i64,
    ) -> Self {
        Self {
            merchant_id,
            merchant_order_id,
            order_no: new_order_no(now),
            system_order_id: new_system_order_id(),
            offer,
            kind,
            account,
            price_fen,
            paid: (0, 0),
            status: OrderStatus::Pending,
            buyback: false,
            created_at: now,
            deadline_at,
            submitted_at: None,
            finished_at: None,
            callback_at: None,
            serial_no: None,
            failure_reason: None,
            card: None,
            batch_id: None,
            remark: String::new(),
            created_by: None,
            notify_url: None,
            api_nonce: None,
            province: None,
            city: None,
            single_flight: false,
        }
    }

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
            province: self.province,
            city: self.city,
            reversed_at: None,
            reversal_reason: None,
            product_id: self.offer.product_id,
            channel_id: None,
            cost_fen: None,
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
            product_id: self.offer.product_id,
            price_fen: self.price_fen,
            province: self.province.clone().unwrap_or_default(),
            // A new order has no channel yet (generated history sets it, `generate.rs`).
            channel_id: 0,
            cost_fen: 0,
        }
    }
}

const INSERT_COLUMNS: usize = 35;
const ORDER_COLUMNS: &str = "merchant_id, merchant_order_id, order_no, system_order_id, product_id, product_key,
     product_name, carrier, order_kind, account, face_value_fen, price_fen, paid_balance_fen, paid_credit_fen,
     status, buyback, created_at, deadline_at, submitted_at, finished_at, duration_ms, callback_at, serial_no,
     failure_reason, card_no_enc, card_secret_enc, batch_id, remark, created_by, lease_until, notify_url, api_nonce, province, city, single_flight";

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
        Bind::OptText(order.notify_url.clone()),
        Bind::OptText(order.api_nonce.clone()),
        Bind::OptText(order.province.clone()),
        Bind::OptText(order.city.clone()),
        Bind::Int(i64::from(order.single_flight)),
    ]
}

/// Inserts orders, many per statement: (merchant order id, id) of each. Callers have checked
/// the merchant order ids under the account lock, so a repeat is an error that rolls their
/// transaction back (each caller refused a skipped row anyway; skipping cost PostgreSQL a
/// conflict check per row).
pub async fn insert_orders(
    connection: &mut AnyConnection,
    orders: &[NewOrder],
) -> Result<Vec<(String, i64)>, sqlx::Error> {
    let mut inserted = Vec::with_capacity(orders.len());
    let postgres = crate::platform::db::DatabaseKind::of(connection) == crate::platform::db::DatabaseKind::Postgres;
    let rows: Vec<Vec<Bind>> = orders.iter().map(|order| order_binds(order).into()).collect();
    let head = format!("INSERT INTO orders ({ORDER_COLUMNS})");
    for (sql, binds) in crate::platform::sql::insert_rows(postgres, &head, rows, "RETURNING merchant_order_id, id") {
        let rows = bind_all(sqlx::query(crate::platform::sql::for_engine(connection, sql)), binds)
            .fetch_all(&mut *connection)
            .await?;
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
    for chunk in events.chunks(crate::platform::sql::MAX_BINDS / COLUMNS) {
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
        bind_all(sqlx::query(crate::platform::sql::for_engine(connection, sql)), binds)
            .execute(&mut *connection)
            .await?;
    }
    Ok(())
}

/// Adds new orders' rows, each with the id taken by [`open_one_on_sqlite`] or
/// [`open_one_on_postgres`], to the statements written together: one multi-row insert (a
/// statement per order made PostgreSQL plan a WITH clause per order, two thirds of a
/// group's time; see bench/README.md).
pub fn add_orders<'a>(batch: &mut StatementBatch, orders: impl IntoIterator<Item = (i64, &'a NewOrder)>) {
    let rows = orders.into_iter().map(|(id, order)| std::iter::once(Bind::Int(id)).chain(order_binds(order)).collect());
    // VALUES lists, as `Ledger::add_to`: the batch may become one statement of WITH clauses.
    let head = format!("INSERT INTO orders (id, {ORDER_COLUMNS})");
    for (sql, binds) in crate::platform::sql::insert_rows(false, &head, rows.collect(), "") {
        batch.push(sql, binds);
    }
}
