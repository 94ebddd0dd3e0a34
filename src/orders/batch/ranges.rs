//! A batch's valid lines, stored a range at a time (migration 0025): one row per range of
//! lines that a submit places in one transaction, the lines as a JSON array. A row per line
//! cost a preview of 100,000 lines 0.34-0.43 s of PostgreSQL's time (a heap row and a key
//! entry each); 40 rows of JSON cost a few tens of milliseconds, and a submit reads a range
//! in one value. Invalid lines, and lines refused at submit, keep a row each in
//! `order_batch_rows` with their reason.
//!
//! A range is cut at preview and never again, so every submit places the same ranges; its
//! `placed` flag is set in the transaction that places it (placed whole or not at all).

use super::decide::Line;
use crate::platform::db::DatabaseKind;
use crate::platform::sql::Bind;
use sqlx::AnyConnection;

/// Lines a range holds. On PostgreSQL, where two ranges go side by side, every range costs a
/// commit and its own statements, and too few ranges leave one lane idle at the end and hold
/// the account lock longer each: 2,500 was the fastest size measured, with 1,500–4,000
/// alike (bench/README.md). SQLite's single writer does better with fewer, larger
/// transactions.
pub const fn range_lines(engine: DatabaseKind) -> usize {
    match engine {
        DatabaseKind::Postgres => 2_500,
        DatabaseKind::Sqlite => 5_000,
    }
}

/// A line as stored: line number, account, product key, merchant order id, price at preview.
pub type Stored<'a> = (i64, &'a str, &'a str, &'a str, i64);

/// A valid line as it is stored.
pub fn stored(line: &Line) -> Stored<'_> {
    (line.line_no, &line.account, &line.product_key, &line.merchant_order_id, line.preview_price)
}

/// The binds of a line's own row in `order_batch_rows`: an invalid line (at preview) or one
/// refused at submit, with its outcome and its reason's stored key.
pub fn line_row(batch_id: i64, line: Stored, outcome: i64, reason: String) -> Vec<Bind> {
    let (line_no, account, product_key, merchant_order_id, price_fen) = line;
    vec![
        Bind::Int(batch_id),
        Bind::Int(line_no),
        Bind::Text(account.to_string()),
        Bind::Text(product_key.to_string()),
        Bind::Text(merchant_order_id.to_string()),
        Bind::Int(price_fen),
        Bind::Int(outcome),
        Bind::Text(reason),
    ]
}

/// The statements that write rows made by [`line_row`], as many a statement as the engine
/// binds (`sql::insert_rows`).
pub fn line_rows(engine: DatabaseKind, rows: Vec<Vec<Bind>>) -> Vec<(String, Vec<Bind>)> {
    let head = "INSERT INTO order_batch_rows (batch_id, line_no, account, product_key, merchant_order_id, price_fen, outcome, reason)";
    crate::platform::sql::insert_rows(engine == DatabaseKind::Postgres, head, rows, "")
}

/// A range as stored: first and last line numbers and the lines as JSON.
pub struct Encoded {
    pub first_line: i64,
    pub last_line: i64,
    pub lines: String,
}

/// Cuts lines (in file order) into ranges and encodes each. CPU work: call it on the blocking
/// pool for a whole file.
pub fn encode(lines: &[Line], engine: DatabaseKind) -> Result<Vec<Encoded>, serde_json::Error> {
    lines
        .chunks(range_lines(engine))
        .map(|range| {
            let stored: Vec<Stored> = range.iter().map(stored).collect();
            Ok(Encoded {
                first_line: range.first().map_or(0, |line| line.line_no),
                last_line: range.last().map_or(0, |line| line.line_no),
                lines: serde_json::to_string(&stored)?,
            })
        })
        .collect()
}

/// A range's lines, in line order.
pub fn decode(text: &str) -> Result<Vec<Line>, sqlx::Error> {
    let stored: Vec<(i64, String, String, String, i64)> =
        serde_json::from_str(text).map_err(|error| sqlx::Error::Decode(error.into()))?;
    let mut lines: Vec<Line> = stored
        .into_iter()
        .map(|(line_no, account, product_key, merchant_order_id, preview_price)| Line {
            line_no,
            account,
            product_key,
            merchant_order_id,
            preview_price,
        })
        .collect();
    // Written in order; ranges carried over from the row-per-line table are sorted too.
    lines.sort_by_key(|line| line.line_no);
    Ok(lines)
}

/// Stores a batch's ranges (inside the preview's transaction).
pub async fn insert(connection: &mut AnyConnection, batch_id: i64, ranges: Vec<Encoded>) -> Result<(), sqlx::Error> {
    for range in ranges {
        sqlx::query(
            "INSERT INTO order_batch_ranges (batch_id, first_line, last_line, lines, placed) VALUES ($1, $2, $3, $4, 0)",
        )
        .bind(batch_id)
        .bind(range.first_line)
        .bind(range.last_line)
        .bind(range.lines)
        .execute(&mut *connection)
        .await?;
    }
    Ok(())
}

/// The first lines of the batch's ranges not placed yet, in file order (as committed: each
/// is checked again under its lock, [`take`]).
pub async fn waiting(pool: &sqlx::AnyPool, batch_id: i64) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT first_line FROM order_batch_ranges WHERE batch_id = $1 AND placed = 0 ORDER BY first_line",
    )
    .bind(batch_id)
    .fetch_all(pool)
    .await
}

/// Takes a range for placing: its lines, or `None` when a submit has placed it already. On
/// PostgreSQL the range's row stays locked until the transaction ends, so two submits of one
/// batch place it once; SQLite's single writer already excludes everyone.
pub async fn take(
    transaction: &mut AnyConnection,
    batch_id: i64,
    first_line: i64,
) -> Result<Option<Vec<Line>>, sqlx::Error> {
    let sql = match DatabaseKind::of(transaction) {
        DatabaseKind::Postgres => {
            "SELECT lines FROM order_batch_ranges WHERE batch_id = $1 AND first_line = $2 AND placed = 0 FOR UPDATE"
        }
        DatabaseKind::Sqlite => {
            "SELECT lines FROM order_batch_ranges WHERE batch_id = $1 AND first_line = $2 AND placed = 0"
        }
    };
    let text: Option<String> =
        sqlx::query_scalar(sql).bind(batch_id).bind(first_line).fetch_optional(&mut *transaction).await?;
    text.as_deref().map(decode).transpose()
}

/// Marks a taken range placed (in the transaction that placed it).
pub async fn mark_placed(transaction: &mut AnyConnection, batch_id: i64, first_line: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE order_batch_ranges SET placed = 1 WHERE batch_id = $1 AND first_line = $2")
        .bind(batch_id)
        .bind(first_line)
        .execute(&mut *transaction)
        .await
        .map(drop)
}

/// The stored lines numbered after `after` up to `through`, in line order (a result file's
/// page).
pub async fn lines_between(
    pool: &sqlx::AnyPool,
    batch_id: i64,
    after: i64,
    through: i64,
) -> Result<Vec<Line>, sqlx::Error> {
    let texts: Vec<String> = sqlx::query_scalar(
        "SELECT lines FROM order_batch_ranges WHERE batch_id = $1 AND last_line > $2 AND first_line <= $3
         ORDER BY first_line",
    )
    .bind(batch_id)
    .bind(after)
    .bind(through)
    .fetch_all(pool)
    .await?;
    let mut lines = Vec::new();
    for text in texts {
        lines.extend(decode(&text)?.into_iter().filter(|line| line.line_no > after && line.line_no <= through));
    }
    lines.sort_by_key(|line| line.line_no);
    Ok(lines)
}

/// The last line of the first range that ends after `after`, if any (where a result page
/// that reads whole ranges may stop).
pub async fn next_range_end(pool: &sqlx::AnyPool, batch_id: i64, after: i64) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT MIN(last_line) FROM order_batch_ranges WHERE batch_id = $1 AND last_line > $2")
        .bind(batch_id)
        .bind(after)
        .fetch_one(pool)
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(line_no: i64, merchant_order_id: &str) -> Line {
        Line {
            line_no,
            account: "13800138000".into(),
            product_key: "MOBILE-DIRECT-10".into(),
            merchant_order_id: merchant_order_id.into(),
            preview_price: 985,
        }
    }

    #[test]
    fn ranges_are_cut_by_the_engines_size_and_read_back_unchanged() {
        let lines: Vec<Line> = (2..=5_003).map(|number| line(number, &format!("ID \"{number}\"\\,"))).collect();
        let ranges = encode(&lines, DatabaseKind::Postgres).unwrap();
        let bounds: Vec<(i64, i64)> = ranges.iter().map(|range| (range.first_line, range.last_line)).collect();
        assert_eq!(bounds, vec![(2, 2_501), (2_502, 5_001), (5_002, 5_003)]);
        assert_eq!(encode(&lines, DatabaseKind::Sqlite).unwrap().len(), 2);
        let read: Vec<Line> = ranges.iter().flat_map(|range| decode(&range.lines).unwrap()).collect();
        assert_eq!(read.len(), lines.len());
        for (read, written) in read.iter().zip(&lines) {
            assert_eq!(
                (read.line_no, &read.account, &read.product_key, &read.merchant_order_id, read.preview_price),
                (written.line_no, &written.account, &written.product_key, &written.merchant_order_id, 985)
            );
        }
    }

    #[test]
    fn a_range_out_of_order_reads_in_line_order_and_a_damaged_one_is_an_error() {
        let text = r#"[[7,"a","P","m7",1],[3,"b","P","m3",2]]"#;
        let numbers: Vec<i64> = decode(text).unwrap().iter().map(|line| line.line_no).collect();
        assert_eq!(numbers, vec![3, 7]);
        assert!(decode(r#"[[7,"a","P"]]"#).is_err());
    }
}
