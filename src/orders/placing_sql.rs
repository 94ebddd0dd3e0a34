//! The SQL of placing an order, every statement in one file: the first hop of a lone order
//! (offer + account lock + next id) and of a run of the group commit (the same, with what
//! the run's orders would repeat), on each engine, and the guard of a run decided without a
//! read. The account's lock and read are the ledger's own statements (`money/finance/ledger.rs`),
//! composed in here; every other piece is written below.

use crate::money::finance::ledger;
use std::sync::LazyLock;

/// SQLite: the next order id, taken under the write lock; it never reuses one
/// AUTOINCREMENT handed out (orders are never deleted, but the sequence is the authority).
pub(super) const SQLITE_NEXT_ORDER_ID: &str = "SELECT MAX(COALESCE((SELECT MAX(id) FROM orders), 0),
     COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'orders'), 0)) + 1 AS next_order_id";

/// PostgreSQL: the next id of `orders` from its identity sequence, so ids taken here and
/// ids the database hands out itself never collide.
pub(super) const POSTGRES_NEXT_ORDER_ID: &str = "nextval(pg_get_serial_sequence('orders', 'id'))";

/// Whether the run's merchant ($1) is disabled: 1 yes, 0 no, NULL no such merchant; a column
/// of the run's first hop, so a placement needs no read of its own for it.
macro_rules! merchant_standing {
    () => {
        "(SELECT CASE WHEN disabled_at IS NULL THEN 0 ELSE 1 END FROM merchants WHERE id = $1) AS merchant_standing"
    };
}

/// SQLite: which of a run's merchant order ids ($4, a JSON array of strings) the merchant ($1)
/// used before, and which of its (key id, nonce) pairs ($5, a JSON array of pairs) were used
/// before, as two JSON arrays in one row, then the merchant's standing (orders/placement/run.rs). A
/// statement of the run's first hop.
pub(super) const SQLITE_RUN_REPEATS: &str = concat!(
    "SELECT
     (SELECT json_group_array(merchant_order_id) FROM orders
      WHERE merchant_id = $1 AND merchant_order_id IN (SELECT value FROM json_each($4))) AS repeated_merchant_order_ids,
     (SELECT json_group_array(json_array(n.key_id, n.nonce)) FROM json_each($5) j
      JOIN api_nonces n ON n.key_id = json_extract(j.value, '$[0]') AND n.nonce = json_extract(j.value, '$[1]'))
      AS repeated_nonces,
     ",
    merchant_standing!()
);

/// PostgreSQL: a (key id, nonce) pair `j` of a JSON array found in `api_nonces`, looked up by
/// itself (a row `n` when used), for `CROSS JOIN LATERAL` after `json_array_elements(…) AS j`.
macro_rules! postgres_nonce_used {
    () => {
        "(SELECT key_id, nonce FROM api_nonces WHERE key_id = j.value->>0 AND nonce = j.value->>1 LIMIT 1) n"
    };
}

/// PostgreSQL: the same two arrays as columns of the run's one statement, from $5 and $6.
/// Each value is looked up by itself in the unique index (a LATERAL subquery with LIMIT is
/// never turned into a join), whatever the planner believes of the merchant's order count:
/// as a join, a plan chosen while the merchant had few orders walked all of them on every
/// run (auto_explain: 1,381 index entries for a run of one order, 1.2 ms; bench/README.md).
pub(super) const POSTGRES_RUN_REPEATS: &str = concat!(
    "
     (SELECT COALESCE(json_agg(o.merchant_order_id), '[]')::text
      FROM json_array_elements_text($5::text::json) AS c(id)
      CROSS JOIN LATERAL (SELECT merchant_order_id FROM orders
                          WHERE merchant_id = $1 AND merchant_order_id = c.id LIMIT 1) o)
      AS repeated_merchant_order_ids,
     (SELECT COALESCE(json_agg(json_build_array(n.key_id, n.nonce)), '[]')::text
      FROM json_array_elements($6::text::json) AS j CROSS JOIN LATERAL ",
    postgres_nonce_used!(),
    ") AS repeated_nonces,
     ",
    merchant_standing!()
);

/// Every product with the merchant's ($1) quote, if on. A macro so that the one-product
/// form below is a constant too, not a string built for every order placed.
macro_rules! offer_query {
    () => {
        "SELECT p.id, p.product_key, p.name, p.carrier, p.product_kind, p.face_value_fen, q.price_fen, p.speed,
            p.provinces
     FROM products p LEFT JOIN quotes q ON q.product_id = p.id AND q.merchant_id = $1 AND q.status = 1 AND p.status = 1"
    };
}
pub(super) const OFFER_QUERY: &str = offer_query!();
/// The product whose key is $3, with the merchant's quote (read with the account lock).
pub(super) const OFFER_BY_KEY_QUERY: &str = concat!(offer_query!(), " WHERE p.product_key = $3");

/// SQLite: the offer, the account lock and the next id as three statements of one text,
/// sent after `BEGIN IMMEDIATE` in the same hop. Built once.
pub(super) static OPEN_SQLITE: LazyLock<String> =
    LazyLock::new(|| format!("{OFFER_BY_KEY_QUERY};\n{};\n{}", ledger::LOCK_ACCOUNT, SQLITE_NEXT_ORDER_ID));

/// [`OPEN_SQLITE`] reading the account without writing it, outside a transaction
/// (`store::read_one_on_sqlite_with`).
pub(super) static READ_SQLITE: LazyLock<String> =
    LazyLock::new(|| format!("{OFFER_BY_KEY_QUERY};\n{};\n{}", ledger::READ_ACCOUNT_SQLITE, SQLITE_NEXT_ORDER_ID));

/// PostgreSQL: one statement (one round trip). The id comes from the orders table's own
/// identity sequence, so ids taken here and ids the database hands out itself (batches)
/// never collide. Columns: the account's four, the id, then the offer (NULL if none).
pub(super) static OPEN_POSTGRES: LazyLock<String> = LazyLock::new(|| {
    format!(
        "WITH locked AS ({}) SELECT locked.*, {} AS next_order_id, offer.*
         FROM locked LEFT JOIN ({OFFER_BY_KEY_QUERY}) offer ON TRUE",
        ledger::LOCK_ACCOUNT_FOR_UPDATE,
        POSTGRES_NEXT_ORDER_ID
    )
});

/// SQLite: the single order's hop with the repeats read after it.
pub(super) static OPEN_RUN_SQLITE: LazyLock<String> =
    LazyLock::new(|| format!("{};\n{}", *OPEN_SQLITE, SQLITE_RUN_REPEATS));
/// [`OPEN_RUN_SQLITE`] outside a transaction, writing nothing (`placement::run::read_run_on_sqlite`).
pub(super) static READ_RUN_SQLITE: LazyLock<String> =
    LazyLock::new(|| format!("{};\n{}", *READ_SQLITE, SQLITE_RUN_REPEATS));

/// PostgreSQL: one statement answering one row, with an id for each of the run's $4 orders;
/// the account is read with `account` ([`ledger::LOCK_ACCOUNT_FOR_UPDATE`] or
/// [`ledger::READ_ACCOUNT`]). Columns: the account's four, the ids (comma-separated text),
/// the offer (NULL if none), the two arrays of repeats. The ids come as one text rather than
/// a row per order: the placement writer decodes every column of every row it is sent, and
/// that decoding of the same account and offer once per order was a sixth of its time.
fn open_run_postgres(account: &str) -> String {
    format!(
        "WITH locked AS ({account}) SELECT locked.*,
           array_to_string(ARRAY(SELECT {} FROM generate_series(1, $4::bigint)), ',') AS next_order_ids,
           offer.*, {}
         FROM locked LEFT JOIN ({}) offer ON TRUE",
        POSTGRES_NEXT_ORDER_ID, POSTGRES_RUN_REPEATS, OFFER_BY_KEY_QUERY,
    )
}
pub(super) static OPEN_RUN_POSTGRES: LazyLock<String> =
    LazyLock::new(|| open_run_postgres(ledger::LOCK_ACCOUNT_FOR_UPDATE));
pub(super) static READ_RUN_POSTGRES: LazyLock<String> = LazyLock::new(|| open_run_postgres(ledger::READ_ACCOUNT));

/// The guard of a run decided from `placement::run::Known`: one row when the merchant ($1) is enabled, the
/// product ($2…$7, its speed and scope $10, $11) and the merchant's quote ($8) are as known, and none of the run's nonces
/// ($9) was used (looked up as `POSTGRES_RUN_REPEATS` does). A merchant order id used before
/// needs no look-up here: the orders' unique key fails the statement.
pub(super) const KNOWN_STILL_HOLDS: &str = concat!(
    "SELECT 1 WHERE
     EXISTS (SELECT 1 FROM merchants WHERE id = $1 AND disabled_at IS NULL)
     AND EXISTS (SELECT 1 FROM products p JOIN quotes q ON q.product_id = p.id AND q.merchant_id = $1
                 WHERE p.id = $2 AND p.product_key = $3 AND p.name = $4 AND p.carrier = $5
                   AND p.product_kind = $6 AND p.face_value_fen = $7 AND p.status = 1
                   AND q.price_fen = $8 AND q.status = 1 AND p.speed = $10 AND p.provinces = $11)
     AND NOT EXISTS (SELECT 1 FROM json_array_elements($9::text::json) AS j CROSS JOIN LATERAL ",
    postgres_nonce_used!(),
    ")"
);

/// [`KNOWN_STILL_HOLDS`] in SQLite's words, each placeholder once and in order: the merchant
/// ($1, again as $9), the product ($2…$7), the quote ($8), the nonces ($10, looked up as
/// `SQLITE_RUN_REPEATS` does), the product's speed and scope ($11 its id again, $12, $13).
pub(super) const KNOWN_STILL_HOLDS_SQLITE: &str = "SELECT 1 WHERE
     EXISTS (SELECT 1 FROM merchants WHERE id = $1 AND disabled_at IS NULL)
     AND EXISTS (SELECT 1 FROM products p JOIN quotes q ON q.product_id = p.id
                 WHERE p.id = $2 AND p.product_key = $3 AND p.name = $4 AND p.carrier = $5
                   AND p.product_kind = $6 AND p.face_value_fen = $7 AND p.status = 1
                   AND q.price_fen = $8 AND q.status = 1 AND q.merchant_id = $9)
     AND NOT EXISTS (SELECT 1 FROM json_each($10) j
                     JOIN api_nonces n ON n.key_id = json_extract(j.value, '$[0]') AND n.nonce = json_extract(j.value, '$[1]'))
     AND EXISTS (SELECT 1 FROM products WHERE id = $11 AND speed = $12 AND provinces = $13)";
