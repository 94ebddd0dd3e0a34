//! The first hop of a run of the group commit (group.rs): one merchant's orders of one
//! product by one actor. With the account lock, the offer and an id for every order, it
//! reads what the run's orders would repeat: a merchant order id the merchant used before, an
//! open-API nonce used before. So a retried or replayed call is answered from this read
//! instead of failing the group's write (which would send every order of the group to be
//! placed alone), and the open API needs no read of its own in front of placing.
//!
//! The read is a shortcut, not the guard: the unique index of `orders` still refuses a
//! repeat that committed after it (a parallel call on another server), and the group then
//! falls back as before; the caller then tells a replay from a retry by the order's nonce.

use super::intent::PlaceIntent;
use crate::domain::MerchantOrderId;
use crate::http::error::AppError;
use crate::http::replay::NonceUse;
use crate::money::finance::ledger::{Account, Actor, Ledger};
use crate::orders::placing_sql as sql;
use crate::orders::store::{self, Offer, Opened};
use crate::platform::db::DatabaseKind;
use crate::platform::sql::Bind;
use sqlx::{AnyConnection, Row};
use std::collections::HashSet;

/// What a run's orders claim: their own merchant order ids and their calls' nonces.
pub struct Claims {
    merchant_order_ids: Vec<String>,
    nonces: Vec<(String, String)>,
}

impl Claims {
    pub fn of<'a>(intents: impl Iterator<Item = &'a PlaceIntent>) -> Self {
        let (mut merchant_order_ids, mut nonces) = (Vec::new(), Vec::new());
        for intent in intents {
            if let Some(id) = given_merchant_order_id(intent) {
                merchant_order_ids.push(id);
            }
            if let Some(NonceUse { key_id, nonce, .. }) = &intent.nonce {
                nonces.push((key_id.clone(), nonce.clone()));
            }
        }
        Self { merchant_order_ids, nonces }
    }

    /// The two JSON arrays the statements read.
    fn as_json(&self) -> [String; 2] {
        // Lists of strings: serializing them cannot fail.
        let ids = serde_json::to_string(&self.merchant_order_ids).unwrap_or_else(|_| "[]".into());
        [ids, self.nonces_json()]
    }

    /// The nonces alone, for a guard that reads no merchant order ids.
    fn nonces_json(&self) -> String {
        serde_json::to_string(&self.nonces).unwrap_or_else(|_| "[]".into())
    }
}

/// The merchant order id the caller gave, as it is stored; None when the server makes one
/// (those never collide) or when it is invalid (the order is refused for it anyway).
fn given_merchant_order_id(intent: &PlaceIntent) -> Option<String> {
    let given = intent.line.merchant_order_id.as_deref()?;
    MerchantOrderId::parse(given).map(|id| id.as_str().to_string())
}

/// Which claims were taken before this run: as read, then as the run's own orders take them.
#[derive(Default)]
pub struct Taken {
    merchant_order_ids: HashSet<String>,
    nonces: HashSet<(String, String)>,
}

impl Taken {
    fn read(ids: &str, nonces: &str) -> Result<Self, sqlx::Error> {
        let decode = |error: serde_json::Error| sqlx::Error::Decode(error.into());
        Ok(Self {
            merchant_order_ids: serde_json::from_str(ids).map_err(decode)?,
            nonces: serde_json::from_str(nonces).map_err(decode)?,
        })
    }

    /// Takes the intent's nonce; false when it was taken already (the call is a replay).
    pub fn take_nonce(&mut self, intent: &PlaceIntent) -> bool {
        match &intent.nonce {
            Some(NonceUse { key_id, nonce, .. }) => self.nonces.insert((key_id.clone(), nonce.clone())),
            None => true,
        }
    }

    /// Takes the intent's merchant order id; false when an order has it already.
    pub fn take_merchant_order_id(&mut self, intent: &PlaceIntent) -> bool {
        given_merchant_order_id(intent).is_none_or(|id| self.merchant_order_ids.insert(id))
    }
}

/// SQLite: how many following ids a run leaves known (`OrderIds::into_left`), enough for the
/// largest group (group.rs, 128).
const FOLLOWING_KNOWN: i64 = 128;

/// Where the ids of a run come from: on SQLite the write lock makes ids taken one after the
/// other free; on PostgreSQL each was drawn from the sequence.
pub enum OrderIds {
    Following(i64),
    Drawn(std::vec::IntoIter<i64>),
}

impl OrderIds {
    /// The ids drawn and not taken. SQLite draws none: there the next ones after the last
    /// taken, which an order written meanwhile by anyone else takes first (the orders' key
    /// then fails the write that counted on them).
    pub fn into_left(self) -> Vec<i64> {
        match self {
            OrderIds::Following(next) => (next..next + FOLLOWING_KNOWN).collect(),
            OrderIds::Drawn(ids) => ids.collect(),
        }
    }
}

impl Iterator for OrderIds {
    type Item = i64;
    fn next(&mut self) -> Option<i64> {
        match self {
            OrderIds::Following(next) => {
                *next += 1;
                Some(*next - 1)
            }
            OrderIds::Drawn(ids) => ids.next(),
        }
    }
}

/// What a run's first hop read.
pub struct RunOpened {
    pub ledger: Ledger,
    pub ids: OrderIds,
    pub offer: Option<Offer>,
    pub taken: Taken,
    pub standing: Standing,
}

/// Whether the run's merchant is disabled (`None`: no such merchant), read with the account
/// lock; refused as `finance::ensure_merchant_enabled` refuses, which placing alone asks.
#[derive(Clone, Copy)]
pub struct Standing(Option<bool>);

impl Standing {
    fn read(row: &sqlx::any::AnyRow) -> Result<Self, sqlx::Error> {
        let disabled: Option<i64> = row.try_get("merchant_standing")?;
        Ok(Self(disabled.map(|disabled| disabled != 0)))
    }

    /// Refused, if the run's orders are.
    pub fn check(self) -> Result<(), AppError> {
        crate::money::finance::merchant_may_order(self.0)
    }

    /// A merchant that exists and is not disabled.
    fn enabled() -> Self {
        Self(Some(false))
    }
}

/// SQLite, inside the group's transaction (begun by the first run, `begin`).
pub async fn open_run_on_sqlite(
    write: &mut crate::platform::db::SqliteWrite,
    begin: bool,
    merchant_id: i64,
    actor: Actor,
    product_key: &str,
    claims: &Claims,
) -> Result<RunOpened, sqlx::Error> {
    let (Opened { ledger, order_id, offer }, rows) = store::open_one_on_sqlite_with(
        write,
        begin,
        &sql::OPEN_RUN_SQLITE,
        merchant_id,
        actor,
        product_key,
        &claims.as_json(),
    )
    .await?;
    run_opened_on_sqlite(ledger, order_id, offer, &rows)
}

/// SQLite, outside a transaction on the writer's connection (unlocked.rs): as
/// [`open_run_on_sqlite`], the account as committed. None when the merchant has no account yet.
pub async fn read_run_on_sqlite(
    connection: &mut AnyConnection,
    merchant_id: i64,
    actor: Actor,
    product_key: &str,
    claims: &Claims,
) -> Result<Option<RunOpened>, sqlx::Error> {
    let more = claims.as_json();
    let read =
        store::read_one_on_sqlite_with(connection, &sql::READ_RUN_SQLITE, merchant_id, actor, product_key, &more);
    let Some((Opened { ledger, order_id, offer }, rows)) = read.await? else { return Ok(None) };
    run_opened_on_sqlite(ledger, order_id, offer, &rows).map(Some)
}

/// A SQLite run's first hop, read.
fn run_opened_on_sqlite(
    ledger: Ledger,
    order_id: i64,
    offer: Option<Offer>,
    rows: &[sqlx::any::AnyRow],
) -> Result<RunOpened, sqlx::Error> {
    let row = rows.first().ok_or(sqlx::Error::RowNotFound)?;
    let taken = Taken::read(&row.try_get::<String, _>(0)?, &row.try_get::<String, _>(1)?)?;
    Ok(RunOpened { ledger, ids: OrderIds::Following(order_id), offer, taken, standing: Standing::read(row)? })
}

/// How a PostgreSQL run reads the merchant's account.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Lock {
    /// Locked for the rest of the group's transaction.
    ForUpdate,
    /// Read as committed, outside a transaction: the ledger then stores the account only
    /// if it still holds these figures (`Ledger::from_unlocked_row`).
    None,
}

/// PostgreSQL, in the group's transaction or (`Lock::None`) before its one statement. None
/// when the merchant has no account yet (the caller places such orders alone: that path
/// creates it).
pub async fn open_run_on_postgres(
    connection: &mut AnyConnection,
    lock: Lock,
    merchant_id: i64,
    actor: Actor,
    product_key: &str,
    count: usize,
    claims: &Claims,
) -> Result<Option<RunOpened>, sqlx::Error> {
    let [ids_json, nonces_json] = claims.as_json();
    let sql = match lock {
        Lock::ForUpdate => sql::OPEN_RUN_POSTGRES.as_str(),
        Lock::None => sql::READ_RUN_POSTGRES.as_str(),
    };
    let row = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(merchant_id)
        .bind(crate::platform::db::now_millis())
        .bind(product_key)
        .bind(count as i64)
        .bind(ids_json)
        .bind(nonces_json)
        .fetch_optional(connection)
        .await?;
    let Some(first) = row.as_ref() else { return Ok(None) };
    let ledger = match lock {
        Lock::ForUpdate => Ledger::from_locked_row(merchant_id, actor, first)?,
        Lock::None => Ledger::from_unlocked_row(merchant_id, actor, first)?,
    };
    let ids = drawn_ids(&first.try_get::<String, _>(4)?)?;
    let taken = Taken::read(
        &first.try_get::<String, _>("repeated_merchant_order_ids")?,
        &first.try_get::<String, _>("repeated_nonces")?,
    )?;
    Ok(Some(RunOpened {
        ledger,
        ids: OrderIds::Drawn(ids.into_iter()),
        offer: store::offer_from_columns(first, 5)?,
        taken,
        standing: Standing::read(first)?,
    }))
}

/// The ids a PostgreSQL run drew, as its first hop lists them ("11,12,13").
fn drawn_ids(text: &str) -> Result<Vec<i64>, sqlx::Error> {
    text.split(',')
        .map(|id| id.parse().map_err(|_| sqlx::Error::Decode(format!("bad order id {id:?}").into())))
        .collect()
}

/// What a placement writer knows after writing a run without the lock, every order
/// of it placed (unlocked.rs): the account as that write left it, the offer the orders were
/// charged at, and ids drawn beyond the run's own. The writer's next run of the same merchant,
/// product and actor is decided from it without reading first (one round trip for the run
/// instead of two), and its write holds only if all of it still holds: the account's update
/// is guarded by these figures, [`Known::open`]'s guard finds the merchant enabled, the product
/// and quote as they were and none of the run's nonces used, and the orders' unique key
/// refuses a merchant order id used before.
pub struct Known {
    merchant_id: i64,
    actor: Actor,
    account: Account,
    offer: Offer,
    ids: Vec<i64>,
}

impl Known {
    /// What a run leaves known: None without an offer with a price or without ids left.
    pub fn after(
        merchant_id: i64,
        actor: Actor,
        account: Account,
        offer: Option<Offer>,
        ids: Vec<i64>,
    ) -> Option<Self> {
        let offer = offer.filter(|offer| offer.price_fen.is_some())?;
        (!ids.is_empty()).then_some(Self { merchant_id, actor, account, offer, ids })
    }

    pub fn merchant_id(&self) -> i64 {
        self.merchant_id
    }

    /// Whether a run of `count` orders of this merchant, product and actor can be decided
    /// from it.
    pub fn fits(&self, merchant_id: i64, product_key: &str, actor: &Actor, count: usize) -> bool {
        self.merchant_id == merchant_id
            && self.offer.product_key == product_key
            && self.actor.id == actor.id
            && self.actor.name == actor.name
            && self.ids.len() >= count
    }

    /// The run opened from what is known (nothing of the past taken: the guard checks that),
    /// and the guard its write must carry ([`crate::platform::sql::StatementBatch::push_guard`]).
    pub fn open(self, claims: &Claims, engine: DatabaseKind) -> (RunOpened, (String, Vec<Bind>)) {
        let nonces_json = claims.nonces_json();
        let offer = &self.offer;
        let mut binds = vec![
            Bind::Int(self.merchant_id),
            Bind::Int(offer.product_id),
            Bind::Text(offer.product_key.clone()),
            Bind::Text(offer.product_name.clone()),
            Bind::Int(offer.carrier.code()),
            Bind::Int(offer.product_kind.code()),
            Bind::Int(offer.face_value_fen),
            Bind::OptInt(offer.price_fen),
        ];
        let guard = match engine {
            DatabaseKind::Postgres => sql::KNOWN_STILL_HOLDS,
            DatabaseKind::Sqlite => {
                binds.push(Bind::Int(self.merchant_id));
                sql::KNOWN_STILL_HOLDS_SQLITE
            }
        };
        binds.push(Bind::Text(nonces_json));
        if engine == DatabaseKind::Sqlite {
            binds.push(Bind::Int(offer.product_id));
        }
        binds.push(Bind::Int(offer.speed.code()));
        binds.push(Bind::Text(offer.scope.stored()));
        let opened = RunOpened {
            ledger: Ledger::from_unlocked_figures(self.merchant_id, self.actor, self.account),
            ids: OrderIds::Drawn(self.ids.into_iter()),
            offer: Some(self.offer),
            taken: Taken::default(),
            standing: Standing::enabled(),
        };
        (opened, (guard.to_string(), binds))
    }
}
