//! The number-segment table (`domain::segments`) of this application: filled from the
//! shipped default at first start, read from the database into memory, and swapped whole
//! when it is read again, so a lookup never waits for a query or a reload.

use crate::domain::segments::{SegmentRow, SegmentTable, parse_prefix, parse_row};
use crate::domain::{Carrier, PhoneNumber};
use crate::platform::db::Database;
use crate::platform::db::dialect::joined_by_commas;
use crate::platform::sql::{Bind, bind_all, for_engine, insert_rows};
use anyhow::Context;
use sqlx::Row;
use std::io::Read;
use std::sync::{Arc, RwLock};

/// libphonenumber's +86 data as `scripts/segments/build.py` writes it (data/segments/SOURCE.md).
static DEFAULT_DATA: &[u8] = include_bytes!("../../data/segments/cn-segments.csv.gz");

/// The table in memory (`AppState::segments`).
#[derive(Default)]
pub struct Segments(RwLock<Arc<SegmentTable>>);

impl Segments {
    /// The table as last read; a reload replaces it for later callers only.
    pub fn table(&self) -> Arc<SegmentTable> {
        self.0.read().unwrap_or_else(|poisoned| poisoned.into_inner()).clone()
    }

    /// Replaces the table for later callers (`reload`, and the bench's table built without
    /// a database).
    pub fn install(&self, table: SegmentTable) {
        *self.0.write().unwrap_or_else(|poisoned| poisoned.into_inner()) = Arc::new(table);
    }

    /// The stored (province, city) of an order's account: None for an account that is not
    /// a mobile number, or a prefix the table lacks.
    pub fn region(&self, account: &str) -> Option<(String, String)> {
        let number = PhoneNumber::parse(account)?;
        let table = self.table();
        let place = table.lookup(&number).place?;
        Some((place.province.clone(), place.city.clone()))
    }

    /// Reads the table from the database into memory (at start, and after a change). Read
    /// as its places, each with its prefixes joined: read row by row, 330,000 rows of seven
    /// columns made a start 1.8 s longer on SQLite (2 loaded cores), these 1,000 rows 0.6 s.
    pub async fn reload(&self, db: &Database) -> anyhow::Result<usize> {
        let sql = format!(
            "SELECT province_code, province, city, COALESCE(carrier, ''), province_en, city_en, {}
             FROM number_segments GROUP BY province_code, province, city, carrier, province_en, city_en",
            joined_by_commas(db.kind, "prefix")
        );
        let groups = sqlx::query(sqlx::AssertSqlSafe(sql)).fetch_all(&db.pool).await?;
        let mut parsed = Vec::new();
        for group in &groups {
            let place =
                (0..6).map(|column| group.try_get::<String, _>(column)).collect::<Result<Vec<_>, _>>()?.join(",");
            let prefixes: String = group.try_get(6)?;
            let mut prefixes = prefixes.split(',');
            // The group's place is read (and checked) once, with its first prefix.
            let line = format!("{},{place}", prefixes.next().unwrap_or_default());
            let first = parse_row(&line).with_context(|| format!("number_segments holds a bad row: {line}"))?;
            for prefix in prefixes {
                let prefix = parse_prefix(prefix).with_context(|| format!("number_segments: bad prefix {prefix}"))?;
                parsed.push(SegmentRow { prefix, ..first.clone() });
            }
            parsed.push(first);
        }
        let table = SegmentTable::new(parsed);
        let count = table.len();
        self.install(table);
        Ok(count)
    }
}

/// The shipped default's rows.
pub fn default_rows() -> anyhow::Result<Vec<SegmentRow>> {
    let mut text = String::new();
    flate2::read::GzDecoder::new(DEFAULT_DATA).read_to_string(&mut text).context("reading the shipped segments")?;
    // The first line is the header.
    let rows: Vec<SegmentRow> = text.lines().skip(1).filter_map(parse_row).collect();
    anyhow::ensure!(rows.len() + 1 == text.lines().count(), "the shipped segment file has a malformed line");
    Ok(rows)
}

/// Fills an empty table with the shipped default, in one transaction: all rows or none. A
/// second server starting at the same moment inserts nothing (ON CONFLICT). Returns the
/// rows written.
pub async fn fill_if_empty(db: &Database) -> anyhow::Result<usize> {
    let present: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM (SELECT 1 FROM number_segments LIMIT 1) s")
        .fetch_one(&db.pool)
        .await?;
    if present > 0 {
        return Ok(0);
    }
    let rows = default_rows()?;
    let count = rows.len();
    let binds: Vec<Vec<Bind>> = rows
        .into_iter()
        .map(|row| {
            vec![
                Bind::Text(format!("{:07}", row.prefix)),
                Bind::Text(row.place.province_code),
                Bind::Text(row.place.province),
                Bind::Text(row.place.city),
                Bind::OptText(row.carrier.map(|carrier| Carrier::as_str(carrier).to_string())),
                Bind::Text(row.place.province_en),
                Bind::Text(row.place.city_en),
            ]
        })
        .collect();
    let postgres = db.kind == crate::platform::db::DatabaseKind::Postgres;
    let head = "INSERT INTO number_segments (prefix, province_code, province, city, carrier, province_en, city_en)";
    let mut transaction = db.begin_write().await?;
    for (sql, binds) in insert_rows(postgres, head, binds, "ON CONFLICT (prefix) DO NOTHING") {
        bind_all(sqlx::query(for_engine(&transaction, sql)), binds).execute(&mut *transaction).await?;
    }
    transaction.commit().await?;
    Ok(count)
}

/// At start: the default when the table is empty and `fill_default` allows it, then the
/// table into memory.
pub async fn start(segments: &Segments, db: &Database, fill_default: bool) -> anyhow::Result<()> {
    let started = std::time::Instant::now();
    let written = if fill_default { fill_if_empty(db).await? } else { 0 };
    let held = segments.reload(db).await?;
    tracing::info!(written, held, millis = started.elapsed().as_millis() as u64, "number segments loaded");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_default_reads_whole_and_knows_beijing() {
        let rows = default_rows().expect("the shipped file reads");
        assert!(rows.len() > 300_000, "{} rows", rows.len());
        let table = SegmentTable::new(rows);
        let number = PhoneNumber::parse("13800138000").expect("a number");
        let found = table.lookup(&number);
        let place = found.place.expect("1380013 is in the default");
        assert_eq!((place.province.as_str(), place.city.as_str(), found.carrier), ("北京", "北京", Carrier::Mobile));
        assert_eq!(place.province_code, "110000");
    }
}
