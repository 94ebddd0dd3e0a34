//! The two migration folders describe one schema: after migrating both engines, the
//! tables, their columns, the indexes we create and the triggers are the same by name.
//! Types are not compared (they differ on purpose: INTEGER/BIGINT, BLOB/BYTEA).

use crate::helpers::{Backend, database_url, spawn_app_with};
use backoffice::platform::db::Database;
use sqlx::Row;
use std::collections::BTreeSet;

type Names = BTreeSet<String>;

/// "table", "table.column", "index:name", "trigger:table.name" of one migrated database.
async fn schema(backend: Backend) -> Names {
    let directory = tempfile::tempdir().expect("temporary directory");
    let db = Database::connect(&database_url(backend, &directory).await).await.expect("migrated database");
    let (tables, columns, indexes, triggers) = match backend {
        Backend::Sqlite => (
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \
             AND name <> '_sqlx_migrations'",
            "SELECT m.name || '.' || c.name FROM sqlite_master m JOIN pragma_table_info(m.name) c \
             WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name <> '_sqlx_migrations'",
            // Indexes SQLite makes itself for keys and UNIQUE have no SQL.
            "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL",
            "SELECT tbl_name || '.' || name FROM sqlite_master WHERE type = 'trigger'",
        ),
        Backend::Postgres => (
            "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema() \
             AND table_type = 'BASE TABLE' AND table_name <> '_sqlx_migrations'",
            "SELECT (table_name || '.' || column_name)::text FROM information_schema.columns \
             WHERE table_schema = current_schema() AND table_name <> '_sqlx_migrations'",
            // Indexes PostgreSQL makes itself for keys and UNIQUE back a constraint.
            "SELECT c.relname::text FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid \
             JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() \
             AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)",
            "SELECT (event_object_table || '.' || trigger_name)::text FROM information_schema.triggers \
             WHERE trigger_schema = current_schema() GROUP BY event_object_table, trigger_name",
        ),
    };
    let mut names = Names::new();
    for (prefix, sql) in [("", tables), ("", columns), ("index:", indexes), ("trigger:", triggers)] {
        for row in sqlx::query(sql).fetch_all(&db.pool).await.expect(sql) {
            let name: String = row.try_get(0).expect("a name");
            names.insert(format!("{prefix}{name}"));
        }
    }
    names
}

/// PostgreSQL's per-statement stand-in for a foreign key SQLite keeps (migration 0022).
const REFERENCE_CHECKS: &[&str] = &[
    "trigger:order_batch_rows.order_batch_rows_references_exist",
    "trigger:order_batch_rows.order_batch_rows_reference_fixed",
    "trigger:order_batches.order_batches_id_fixed",
    "trigger:order_batches.order_batches_rows_kept",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_engines_migrate_to_the_same_tables_columns_indexes_and_triggers() {
    let sqlite = schema(Backend::Sqlite).await;
    let postgres = schema(Backend::Postgres).await;
    assert!(sqlite.contains("orders.merchant_order_id") && sqlite.iter().any(|name| name.starts_with("index:")));
    assert!(sqlite.iter().any(|name| name.starts_with("trigger:")), "no trigger seen: {sqlite:?}");
    let only_sqlite: Vec<&String> = sqlite.difference(&postgres).collect();
    let only_postgres: Vec<&String> =
        postgres.difference(&sqlite).filter(|name| !REFERENCE_CHECKS.contains(&name.as_str())).collect();
    for check in REFERENCE_CHECKS {
        assert!(postgres.contains(*check), "PostgreSQL lacks {check}");
    }
    assert!(
        only_sqlite.is_empty() && only_postgres.is_empty(),
        "the migrations differ.\nonly on SQLite: {only_sqlite:?}\nonly on PostgreSQL: {only_postgres:?}"
    );
}

/// An order with the given merchant and product, keyed by `key` (its ids and numbers).
fn order_row(merchant_id: i64, product_id: i64, key: &str) -> String {
    format!(
        "({merchant_id}, '{key}', '{key}', '{key}', {product_id}, 'K', 'N', 1, 1, '13800138000', 1000, 1000, 1000, 0, 0, 0, 0)"
    )
}

async fn insert_orders(pool: &sqlx::AnyPool, rows: &[String]) -> Result<(), sqlx::Error> {
    let sql = format!(
        "INSERT INTO orders (merchant_id, merchant_order_id, order_no, system_order_id, product_id, product_key,
         product_name, carrier, order_kind, account, face_value_fen, price_fen, paid_balance_fen, paid_credit_fen,
         status, created_at, deadline_at) VALUES {}",
        rows.join(", ")
    );
    sqlx::query(sqlx::AssertSqlSafe(sql)).execute(pool).await.map(drop)
}

/// The statement failed on a reference: SQLite's foreign-key error (787) or PostgreSQL's
/// foreign_key_violation (23503), not on anything else the row might get wrong.
fn refused(outcome: Result<(), sqlx::Error>, what: &str) {
    let code = match &outcome {
        Err(sqlx::Error::Database(error)) => error.code().map(|code| code.into_owned()),
        _ => None,
    };
    assert!(matches!(code.as_deref(), Some("787" | "23503")), "{what}: {outcome:?}");
}

/// What orders, the account log and batch lines name must exist, and a product an order names
/// or a batch with lines cannot be deleted: by foreign keys, except a batch's lines on
/// PostgreSQL, checked per statement there (migration 0022).
async fn the_database_refuses_broken_references(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let pool = &app.state.db.pool;
    let merchant = backoffice::app::demo::DEMO_MERCHANT_ID;
    sqlx::query(
        "INSERT INTO products (product_key, name, business_name, carrier, product_kind, face_value_fen, created_at)
         VALUES ('REF-TEST', 'ref test', 'direct', 1, 1, 1000, 0)",
    )
    .execute(pool)
    .await
    .unwrap();
    let product: i64 =
        sqlx::query_scalar("SELECT id FROM products WHERE product_key = 'REF-TEST'").fetch_one(pool).await.unwrap();
    let missing = 987_654_321;

    refused(insert_orders(pool, &[order_row(missing, product, "R1")]).await, "a missing merchant");
    refused(insert_orders(pool, &[order_row(merchant, missing, "R2")]).await, "a missing product");
    // One bad row fails the whole statement: the good row beside it is not kept.
    let mixed = [order_row(merchant, product, "R3"), order_row(merchant, missing, "R4")];
    refused(insert_orders(pool, &mixed).await, "a statement with one bad row");
    let kept: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM orders WHERE merchant_order_id LIKE 'R%'")
        .fetch_one(pool)
        .await
        .unwrap();
    assert_eq!(kept, 0);
    insert_orders(pool, &[order_row(merchant, product, "R5"), order_row(merchant, product, "R6")])
        .await
        .expect("rows that name what exists");

    let repoint = sqlx::query("UPDATE orders SET product_id = $1 WHERE merchant_order_id = 'R5'")
        .bind(missing)
        .execute(pool)
        .await;
    refused(repoint.map(drop), "an order's product changed to a missing one");
    let log = sqlx::query(
        "INSERT INTO account_log (merchant_id, account_type, change_type, amount_fen, balance_before_fen,
         balance_after_fen, credit_before_fen, credit_after_fen, actor_name, remark, created_at)
         VALUES ($1, 1, 6, 1, 0, 1, 0, 0, 'test', '', 0)",
    )
    .bind(missing)
    .execute(pool)
    .await;
    refused(log.map(drop), "an account record of a missing merchant");
    let line = sqlx::query(
        "INSERT INTO order_batch_rows (batch_id, line_no, account, product_key, merchant_order_id, outcome)
         VALUES ($1, 1, '13800138000', 'REF-TEST', 'L1', 0)",
    )
    .bind(missing)
    .execute(pool)
    .await;
    refused(line.map(drop), "a batch line of a missing batch");
    let batch: i64 = sqlx::query_scalar(
        "INSERT INTO order_batches (merchant_id, file_name, status, total_rows, valid_rows, total_fen, created_by,
         created_at) VALUES ($1, 'f.csv', 0, 1, 1, 0, 0, 0) RETURNING id",
    )
    .bind(merchant)
    .fetch_one(pool)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO order_batch_rows (batch_id, line_no, account, product_key, merchant_order_id, outcome)
         VALUES ($1, 1, '13800138000', 'REF-TEST', 'L1', 0), ($1, 2, '13800138000', 'REF-TEST', 'L2', 0)",
    )
    .bind(batch)
    .execute(pool)
    .await
    .expect("lines of a batch that exists");
    let moved = sqlx::query("UPDATE order_batch_rows SET batch_id = $1 WHERE batch_id = $2")
        .bind(missing)
        .bind(batch)
        .execute(pool)
        .await;
    refused(moved.map(drop), "lines moved to a missing batch");
    let dropped = sqlx::query("DELETE FROM order_batches WHERE id = $1").bind(batch).execute(pool).await;
    refused(dropped.map(drop), "a batch deleted under its lines");

    // A delete that waits for an uncommitted order naming the product still sees it.
    let mut placing = pool.begin().await.unwrap();
    let sql = format!(
        "INSERT INTO orders (merchant_id, merchant_order_id, order_no, system_order_id, product_id, product_key,
         product_name, carrier, order_kind, account, face_value_fen, price_fen, paid_balance_fen, paid_credit_fen,
         status, created_at, deadline_at) VALUES {}",
        order_row(merchant, product, "R7")
    );
    sqlx::query(sqlx::AssertSqlSafe(sql)).execute(&mut *placing).await.unwrap();
    let deleting = {
        let pool = pool.clone();
        tokio::spawn(async move {
            sqlx::query("DELETE FROM products WHERE id = $1")
                .bind(product)
                .execute(&pool)
                .await
                .map(|done| done.rows_affected())
        })
    };
    placing.commit().await.unwrap();
    refused(deleting.await.unwrap().map(drop), "a product that orders name was deleted");
    let orders: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM orders WHERE product_id = $1")
        .bind(product)
        .fetch_one(pool)
        .await
        .unwrap();
    assert_eq!(orders, 3);
}

crate::on_both_backends!(the_database_refuses_broken_references);

/// Rows written by `sql::insert_rows` read back as they were on both engines: on
/// PostgreSQL they travel as array literals, so quotes, backslashes, commas, braces, a text
/// reading NULL, empty texts, NULLs and non-ASCII text must all survive the quoting.
async fn inserted_rows_read_back_unchanged(backend: Backend) {
    use backoffice::platform::sql::{Bind, bind_all, for_engine, insert_rows};
    let directory = tempfile::tempdir().expect("temporary directory");
    let db = Database::connect(&database_url(backend, &directory).await).await.expect("migrated database");
    sqlx::query("CREATE TABLE round_trip (n BIGINT, m BIGINT, t TEXT, u TEXT)").execute(&db.pool).await.unwrap();
    let texts =
        ["", "NULL", "null", "a,b", "{x}", "say \"hi\"", "back\\slash", " padded ", "话费充值", "tab\tnew\nline"];
    let rows: Vec<Vec<Bind>> = texts
        .iter()
        .enumerate()
        .map(|(n, text)| {
            let n = n as i64;
            vec![
                Bind::Int(n),
                Bind::OptInt((n % 2 == 0).then_some(-n)),
                Bind::Text(text.to_string()),
                Bind::OptText((n % 3 != 0).then(|| format!("{text}!"))),
            ]
        })
        .collect();
    let expected: Vec<(i64, Option<i64>, String, Option<String>)> = rows
        .iter()
        .map(|row| match &row[..] {
            [Bind::Int(n), Bind::OptInt(m), Bind::Text(t), Bind::OptText(u)] => (*n, *m, t.clone(), u.clone()),
            other => panic!("{other:?}"),
        })
        .collect();
    let postgres = matches!(backend, Backend::Postgres);
    let mut connection = db.pool.acquire().await.unwrap();
    for (sql, binds) in insert_rows(postgres, "INSERT INTO round_trip (n, m, t, u)", rows, "") {
        bind_all(sqlx::query(for_engine(&connection, sql)), binds).execute(&mut *connection).await.unwrap();
    }
    let stored: Vec<(i64, Option<i64>, String, Option<String>)> =
        sqlx::query_as("SELECT n, m, t, u FROM round_trip ORDER BY n").fetch_all(&db.pool).await.unwrap();
    assert_eq!(stored, expected);
}

crate::on_both_backends!(inserted_rows_read_back_unchanged);
