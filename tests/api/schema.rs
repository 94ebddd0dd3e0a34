//! The two migration folders describe one schema: after migrating both engines, the
//! tables, their columns, the indexes we create and the triggers are the same by name.
//! Types are not compared (they differ on purpose: INTEGER/BIGINT, BLOB/BYTEA).

use crate::helpers::{Backend, database_url};
use backoffice::db::Database;
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_engines_migrate_to_the_same_tables_columns_indexes_and_triggers() {
    let sqlite = schema(Backend::Sqlite).await;
    let postgres = schema(Backend::Postgres).await;
    assert!(sqlite.contains("orders.merchant_order_id") && sqlite.iter().any(|name| name.starts_with("index:")));
    assert!(sqlite.iter().any(|name| name.starts_with("trigger:")), "no trigger seen: {sqlite:?}");
    let only_sqlite: Vec<&String> = sqlite.difference(&postgres).collect();
    let only_postgres: Vec<&String> = postgres.difference(&sqlite).collect();
    assert!(
        only_sqlite.is_empty() && only_postgres.is_empty(),
        "the migrations differ.\nonly on SQLite: {only_sqlite:?}\nonly on PostgreSQL: {only_postgres:?}"
    );
}
