//! Generated order history, for the demo (`serve --demo`) and for benchmarks
//! (`backoffice generate-orders`). Orders go through the same insert, ledger and counter
//! code as real ones, many rows per statement and tens of thousands per transaction,
//! so the account log still sums to the balance and every list total is right.

use super::counters::CounterChanges;
use super::model::{new_order_no, new_system_order_id};
use super::store::{NewOrder, Offer, all_offers, insert_events, insert_orders};
use crate::domain::{Carrier, DAY_MS, OrderKind, OrderStatus, ProductKind};
use crate::money::finance::ledger::{Actor, Ledger, OrderRef};
use crate::platform::channel::sandbox::card_for;
use crate::platform::crypto::Secrets;
use crate::platform::db::{Database, now_millis};
use rand::RngExt;
use sqlx::Row;
use std::collections::{BTreeMap, HashMap};

/// Orders per transaction.
const CHUNK: usize = 20_000;

#[derive(Debug, Clone)]
pub struct GenerateOptions {
    pub merchant_id: i64,
    pub count: usize,
    /// Order times spread evenly over this many days up to now.
    pub days: i64,
    /// Share of orders left in flight (pending/processing; the worker will drive them).
    pub in_flight_share: f64,
    /// Write the timeline events too (the final status change of each order).
    pub events: bool,
}

fn phone_for(carrier: Carrier, rng: &mut impl RngExt) -> String {
    let prefix = match carrier {
        Carrier::Mobile => ["138", "139", "150", "187"][rng.random_range(0..4)],
        Carrier::Unicom => ["130", "186", "155", "176"][rng.random_range(0..4)],
        _ => ["189", "133", "177", "199"][rng.random_range(0..4)],
    };
    format!("{prefix}{:08}", rng.random_range(0..100_000_000u32))
}

fn pick_status(rng: &mut impl RngExt, kind: OrderKind, in_flight_share: f64) -> OrderStatus {
    let roll: f64 = rng.random();
    if roll < in_flight_share {
        return if kind == OrderKind::Behalf || rng.random_bool(0.5) {
            OrderStatus::Pending
        } else {
            OrderStatus::Processing
        };
    }
    match rng.random_range(0..100) {
        0..=84 => OrderStatus::Success,
        85..=96 => OrderStatus::Failure,
        _ if kind == OrderKind::Behalf => OrderStatus::Pending,
        _ => OrderStatus::ManualReview,
    }
}

fn build(
    options: &GenerateOptions,
    offers: &[Offer],
    secrets: &Secrets,
    created_at: i64,
    rng: &mut impl RngExt,
) -> NewOrder {
    let offer = offers[rng.random_range(0..offers.len())].clone();
    let kind = match offer.product_kind {
        ProductKind::Card => OrderKind::Card,
        ProductKind::Direct if rng.random_bool(0.1) => OrderKind::Behalf,
        ProductKind::Direct => OrderKind::Ordinary,
    };
    let status = pick_status(rng, kind, options.in_flight_share);
    let finished_at = status.is_final().then(|| created_at + rng.random_range(3_000..180_000));
    let success = status == OrderStatus::Success;
    // A card supplier's success is the card it hands over, so a card order always carries one;
    // a direct top-up's success now and then comes without a serial number.
    let serial_no = (success && (kind == OrderKind::Card || rng.random_bool(0.97)))
        .then(|| format!("SN{created_at}{:06}", rng.random_range(0..1_000_000)));
    let system_order_id = new_system_order_id();
    let card = match (&serial_no, kind) {
        (Some(serial), OrderKind::Card) => {
            let card = card_for(secrets, serial);
            let sealed = |value: &str, purpose: &str| {
                secrets.encrypt(value.as_bytes(), &format!("{purpose}:{system_order_id}")).ok()
            };
            sealed(&card.number, "card_no").zip(sealed(&card.password, "card_secret"))
        }
        _ => None,
    };
    let price = offer.price_fen.unwrap_or(offer.face_value_fen);
    NewOrder {
        merchant_id: options.merchant_id,
        merchant_order_id: format!("G{created_at}{:06}", rng.random_range(0..1_000_000)),
        order_no: new_order_no(created_at),
        system_order_id,
        account: if kind == OrderKind::Card && rng.random_bool(0.5) {
            String::new()
        } else {
            phone_for(offer.carrier, rng)
        },
        offer,
        kind,
        price_fen: price,
        paid: (price, 0),
        status,
        buyback: rng.random_bool(0.05),
        created_at,
        deadline_at: created_at + 600_000,
        submitted_at: (status != OrderStatus::Pending).then_some(created_at + 50),
        callback_at: finished_at.filter(|_| kind != OrderKind::Behalf),
        finished_at,
        failure_reason: (status == OrderStatus::Failure)
            .then(|| crate::i18n::FailureReason::CarrierRefused.code().to_string()),
        serial_no,
        card,
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

/// Generates `count` orders for a merchant that has quotes, topping its balance up first
/// by what they cost. Returns the number of orders written.
pub async fn generate(db: &Database, secrets: &Secrets, options: &GenerateOptions) -> anyhow::Result<usize> {
    let offers: Vec<Offer> = all_offers(&db.pool, options.merchant_id)
        .await?
        .into_values()
        .filter(|offer| offer.price_fen.is_some())
        .collect();
    anyhow::ensure!(!offers.is_empty(), "merchant {} has no quotes to order from", options.merchant_id);
    let supply = channel_costs(db).await?;
    let segments = crate::platform::segments::Segments::default();
    segments.reload(db).await?;
    let now = now_millis();
    let span = options.days.max(1) * DAY_MS;
    let start = now - span;
    let step = span as f64 / options.count.max(1) as f64;
    let generator = Actor { id: None, name: "generator".to_string() };
    let mut written = 0;
    let mut first = true;
    while written < options.count {
        let size = CHUNK.min(options.count - written);
        let orders: Vec<NewOrder> = {
            // The thread's generator is not Send: it must not live across an await.
            let mut rng = rand::rng();
            (0..size)
                .map(|index| {
                    let created_at = start + ((written + index) as f64 * step) as i64;
                    let mut order = build(options, &offers, secrets, created_at, &mut rng);
                    // Where the number belongs, as placing records it (lists, filters and
                    // statements by province show the demo history too).
                    if let Some(region) = segments.region(&order.account) {
                        (order.province, order.city) = (Some(region.province), Some(region.city));
                    }
                    order
                })
                .collect()
        };
        let mut transaction = db.begin_write().await?;
        let mut ledger = Ledger::open(&mut transaction, options.merchant_id, generator.clone()).await?;
        if first {
            // Funds for everything that follows, so the balance never goes below zero.
            let most = offers.iter().filter_map(|offer| offer.price_fen).max().unwrap_or(0);
            ledger.set_time(start - 60_000);
            ledger.top_up(most * options.count as i64, "generated history");
            first = false;
        }
        let inserted = insert_orders(&mut transaction, &orders).await?;
        anyhow::ensure!(inserted.len() == orders.len(), "generated merchant order ids collided; run again");
        let id_of: std::collections::HashMap<&str, i64> =
            inserted.iter().map(|(key, id)| (key.as_str(), *id)).collect();
        let mut counters = CounterChanges::default();
        let mut events = Vec::new();
        let mut fulfilled: BTreeMap<(i64, i64), Vec<i64>> = BTreeMap::new();
        for order in &orders {
            let id = &id_of[order.merchant_order_id.as_str()];
            let order_ref = OrderRef { id: *id, order_no: &order.order_no };
            ledger.set_time(order.created_at);
            ledger.debit_order(order.paid, order_ref);
            if order.status == OrderStatus::Failure {
                ledger.set_time(order.finished_at.unwrap_or(order.created_at));
                ledger.refund_order(order.paid, order_ref);
            }
            let mut counted = order.counted();
            // A channel's success records the channel and its cost, as the worker's does, so
            // the profit report has margins to show; a person fulfils on-behalf orders.
            let choices = supply.get(&order.offer.product_id).filter(|choices| !choices.is_empty());
            if let (OrderStatus::Success, false, Some(choices)) =
                (order.status, order.kind == OrderKind::Behalf, choices)
            {
                let channel = choices[(*id as usize) % choices.len()];
                counted = counted.fulfilled_by(Some(channel));
                fulfilled.entry(channel).or_default().push(*id);
            }
            counters.add(&counted, order.status.code(), order.serial_no.is_some(), 1);
            if options.events && order.status != OrderStatus::Pending {
                let at = order.finished_at.or(order.submitted_at).unwrap_or(order.created_at);
                events.push((*id, order.status, order.status.name(), None, at));
            }
        }
        record_channels(&mut transaction, &fulfilled).await?;
        ledger.flush(&mut transaction).await?;
        counters.apply(&mut transaction).await?;
        insert_events(&mut transaction, &events).await?;
        transaction.commit().await?;
        written += size;
        tracing::info!(written, total = options.count, "orders generated");
    }
    for statement in
        crate::platform::db::dialect::after_bulk_load(db.kind, &crate::platform::db::first_statistics::TABLES)
    {
        sqlx::query(sqlx::AssertSqlSafe(statement)).execute(&db.pool).await?;
    }
    Ok(written)
}

/// Each product's enabled channels and their costs, fen: who fulfils a generated success.
async fn channel_costs(db: &Database) -> Result<HashMap<i64, Vec<(i64, i64)>>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT product_id, channel_id, cost_fen FROM channel_products WHERE enabled = 1 ORDER BY product_id, channel_id",
    )
    .fetch_all(&db.pool)
    .await?;
    let mut costs: HashMap<i64, Vec<(i64, i64)>> = HashMap::new();
    for row in rows {
        costs.entry(row.try_get(0)?).or_default().push((row.try_get(1)?, row.try_get(2)?));
    }
    Ok(costs)
}

/// Records on generated successes the channel that fulfilled them and its cost: one
/// statement per channel and cost (a handful per transaction), not one per order.
async fn record_channels(
    connection: &mut sqlx::AnyConnection,
    fulfilled: &BTreeMap<(i64, i64), Vec<i64>>,
) -> Result<(), sqlx::Error> {
    for (&(channel_id, cost_fen), ids) in fulfilled {
        for chunk in ids.chunks(crate::platform::sql::MAX_BINDS - 2) {
            let placeholders: Vec<String> = (3..chunk.len() + 3).map(|n| format!("${n}")).collect();
            let sql =
                format!("UPDATE orders SET channel_id = $1, cost_fen = $2 WHERE id IN ({})", placeholders.join(", "));
            let sql = crate::platform::sql::for_engine(connection, sql);
            let mut query = sqlx::query(sql).bind(channel_id).bind(cost_fen);
            for id in chunk {
                query = query.bind(*id);
            }
            query.execute(&mut *connection).await?;
        }
    }
    Ok(())
}
