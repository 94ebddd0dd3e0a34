//! Where SQLite and PostgreSQL differ, in one place. Everything else is written once in
//! the SQL both engines share (`$1` placeholders, `RETURNING`, `ON CONFLICT ... DO`,
//! integers for time and flags); what cannot be is here, each with both spellings side
//! by side, so a third engine or a change of one shows everything to look at:
//!
//! | difference | SQLite | PostgreSQL |
//! |---|---|---|
//! | placeholders | `$N` works, but plain `?` prepares big statements in linear time (`sql::for_engine`, beside the statement batches it serves) | `$N` |
//! | placing an order | hops on one connection | one statement (both in `orders/placing_sql.rs`) |
//! | a write transaction | `BEGIN IMMEDIATE` takes the write lock up front | plain `BEGIN`; writers lock rows (`UPDATE ... RETURNING`) |
//! | the next id of a table | max of the table and `sqlite_sequence` (under the write lock) | `nextval` of the identity sequence |
//! | a character by code | `char(n)` | `chr(n)` |
//! | a string's first code point | `unicode(s)` | `ascii(s)` |
//! | unix milliseconds as local (UTC+8) text | `datetime(seconds + 28800, 'unixepoch')` | `to_timestamp(seconds + 28800) AT TIME ZONE 'UTC'` as text (ISO date style) |
//! | fen as yuan, milliseconds as seconds | integer arithmetic joined as text, the cents by `substr(..., -2)` | the same, the cents by `lpad` (`substr` counts from the start) |
//! | a group's texts joined by commas | `group_concat(x, ',')` | `string_agg(x, ',')` |
//! | after a bulk load | nothing | `VACUUM (ANALYZE)` (planner statistics, all-visible pages) |
//! | a list of values bound as one parameter | JSON text read with `json_each` | JSON text read with `json_array_elements` |
//! | a long read (the orders' CSV export) | pages of 2,000 rows, each one text built by the database, two at once (`long_read`) | one statement read as a stream |
//! | a hot query's index | named (`INDEXED BY`): without statistics the planner may pick another, and the worker's claim read every order twice a second | the planner's choice (it has statistics) |
//! | many rows in one insert | `VALUES` lists of up to `MAX_BINDS` values (`sql::insert_rows`) | one array per column, `unnest` (same) |
//! | a batch submit's ranges | one after another, the writer excludes everyone | a range's row taken `FOR UPDATE`; two ranges side by side (`orders/batch/place.rs`) |
//! | a batch's invalid or refused line's batch | a foreign key | checked once per statement by a trigger (migration 0022) |
//! | the DDL (identity columns, types) | `migrations/sqlite` | `migrations/postgres` (same numbered steps, `tests/api/schema.rs`) |
//!
//! Bound values per statement (`sql::MAX_BINDS`) stay under both engines' limits.

use super::DatabaseKind::{self, Postgres, Sqlite};

/// SQLite: the statement opening a write transaction (see `Database::begin_write`).
pub const SQLITE_BEGIN_WRITE: &str = "BEGIN IMMEDIATE";

/// Which of a list of merchant order ids ($2, a JSON array of strings) the merchant ($1) has
/// used: one statement per list instead of one per thousand ids (a 100,000-line preview made
/// a hundred round trips). On PostgreSQL each id is looked up by itself, as in
/// `orders/placing_sql.rs` does for a run's repeats.
pub fn used_merchant_order_ids(engine: DatabaseKind) -> &'static str {
    match engine {
        Sqlite => {
            "SELECT merchant_order_id FROM orders
             WHERE merchant_id = $1 AND merchant_order_id IN (SELECT value FROM json_each($2))"
        }
        Postgres => {
            "SELECT o.merchant_order_id FROM json_array_elements_text($2::text::json) AS c(id)
             CROSS JOIN LATERAL (SELECT merchant_order_id FROM orders
                                 WHERE merchant_id = $1 AND merchant_order_id = c.id LIMIT 1) o"
        }
    }
}

/// The orders of batch `$3` among the merchant's (`$1`) merchant order ids in the JSON list
/// `$2`: (merchant order id, order number, status, failure reason), each id by the unique key.
pub fn batch_orders_by_ids(engine: DatabaseKind) -> &'static str {
    match engine {
        Sqlite => {
            "SELECT merchant_order_id, order_no, status, failure_reason FROM orders
             WHERE merchant_id = $1 AND merchant_order_id IN (SELECT value FROM json_each($2)) AND batch_id = $3"
        }
        Postgres => {
            "SELECT o.merchant_order_id, o.order_no, o.status, o.failure_reason
             FROM json_array_elements_text($2::text::json) AS c(id)
             CROSS JOIN LATERAL (SELECT merchant_order_id, order_no, status, failure_reason, batch_id FROM orders
                                 WHERE merchant_id = $1 AND merchant_order_id = c.id LIMIT 1) o
             WHERE o.batch_id = $3"
        }
    }
}

/// The texts of `column` in a group joined by commas, as an SQL aggregate (the segment
/// table is read as its places with their prefixes: a thousand rows, not 330,000).
pub fn joined_by_commas(engine: DatabaseKind, column: &str) -> String {
    match engine {
        Sqlite => format!("group_concat({column}, ',')"),
        Postgres => format!("string_agg({column}, ',')"),
    }
}

/// A character by its code point, as an SQL expression.
pub fn char_by_code(engine: DatabaseKind, code: u32) -> String {
    match engine {
        Sqlite => format!("char({code})"),
        Postgres => format!("chr({code})"),
    }
}

/// The function giving a string's first code point.
pub fn first_code_point_function(engine: DatabaseKind) -> &'static str {
    match engine {
        Sqlite => "unicode",
        Postgres => "ascii",
    }
}

/// A stored time (unix milliseconds) as a quoted CSV field of China time,
/// `"YYYY-MM-DD HH:MM:SS"`, or `""` when NULL.
pub fn quoted_local_time(engine: DatabaseKind, column: &str) -> String {
    match engine {
        // The offset added to the seconds instead of a '+8 hours' modifier, which SQLite
        // would parse again on every row.
        Sqlite => format!(
            "CASE WHEN {column} IS NULL THEN '\"\"' ELSE '\"' || datetime({column} / 1000 + 28800, 'unixepoch') || '\"' END"
        ),
        // A timestamp's own text, which is `YYYY-MM-DD HH:MI:SS` under the ISO date style
        // every connection of sqlx asks for at start-up: `to_char` took twice as long.
        Postgres => format!(
            "COALESCE('\"' || CAST(to_timestamp({column} / 1000 + 28800) AT TIME ZONE 'UTC' AS text) || '\"', '\"\"')"
        ),
    }
}

/// Fen as yuan text with two decimals, as `domain::yuan` writes it. Integers only on both
/// engines: SQLite's `printf('%.2f', x / 100.0)` went through a float and its decimal
/// conversion (a sixth of a million-row export's time), and PostgreSQL's `numeric` division
/// and `to_char` cost 0.2 s more than these for each amount column of a million rows.
pub fn fen_as_yuan(engine: DatabaseKind, column: &str) -> String {
    // The cents with a leading zero: `substr` counts a negative start from the end on
    // SQLite only.
    let cents = match engine {
        Sqlite => format!("substr('0' || (abs({column}) % 100), -2)"),
        Postgres => format!("lpad((abs({column}) % 100)::text, 2, '0')"),
    };
    format!("CASE WHEN {column} < 0 THEN '-' ELSE '' END || (abs({column}) / 100) || '.' || {cents}")
}

/// An order's duration (`duration_ms`) as seconds with one decimal, rounded half up, or ''
/// when NULL: as `domain::seconds` writes it. Integer arithmetic, the same on both engines.
pub fn duration_seconds() -> &'static str {
    "CASE WHEN duration_ms IS NULL THEN '' ELSE CASE WHEN duration_ms < 0 THEN '-' ELSE '' END \
     || ((abs(duration_ms) + 50) / 1000) || '.' || ((abs(duration_ms) + 50) / 100 % 10) END"
}

/// Statements to run after loading many rows into `tables`. PostgreSQL plans by
/// statistics that autovacuum refreshes only later: until then it plans the lists for a
/// small table (an export of a million orders several times slower). And a table just
/// loaded is not yet marked all-visible: every index-only scan of the lists visits the
/// table too, and autovacuum's first pass over the load comes a minute later, in the middle
/// of whatever runs then (figures in bench/README.md). So the load is vacuumed and analysed
/// at once, as a restored database is. SQLite needs none.
pub fn after_bulk_load(engine: DatabaseKind, tables: &[&str]) -> Vec<String> {
    match engine {
        Sqlite => Vec::new(),
        Postgres => tables.iter().map(|table| format!("VACUUM (ANALYZE) {table}")).collect(),
    }
}

/// The index a query on `table` must use (SQLite: `INDEXED BY`, refused at prepare time if
/// the index cannot serve the query, so a renamed index shows at once), or, with `None`,
/// only the table's primary key (`NOT INDEXED`). PostgreSQL: the table alone.
pub fn table_using(engine: DatabaseKind, table: &str, index: Option<&str>) -> String {
    match (engine, index) {
        (Sqlite, Some(index)) => format!("{table} INDEXED BY {index}"),
        (Sqlite, None) => format!("{table} NOT INDEXED"),
        (Postgres, _) => table.to_string(),
    }
}

/// How a read of many rows (an export) goes through the driver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LongRead {
    /// Keyset pages, each page's rows gathered into one value by the database.
    Pages,
    /// One statement whose rows are read as a stream.
    OneStatement,
}

/// SQLite: pages. Each row read through sqlx's SQLite driver is a hand-over between its
/// connection thread and ours, so a million single rows cost more than 500 pages (an export
/// of a million orders took 6.8 s streamed, 4.8 s in pages, same machine and hour); two
/// pages are built at once (`orders/export.rs`).
/// PostgreSQL: one statement. Its rows arrive in the socket's stream, while each page is a
/// round trip planned, sorted into its text and started again from its cursor (9.6 s in
/// pages, 3.9 s streamed).
pub fn long_read(engine: DatabaseKind) -> LongRead {
    match engine {
        Sqlite => LongRead::Pages,
        Postgres => LongRead::OneStatement,
    }
}
