//! The number-segment table (`domain::segments`) of this application: filled from the
//! shipped default at first start, read from the database into memory, and swapped whole
//! when it is read again, so a lookup never waits for a query or a reload.

use crate::domain::segments::{Region, SegmentRow, SegmentTable, parse_prefix, parse_row};
use crate::domain::{Carrier, PhoneNumber};
use crate::platform::db::Database;
use crate::platform::db::dialect::joined_by_commas;
use crate::platform::sql::{Bind, bind_all, for_engine, insert_rows};
use anyhow::Context;
use sqlx::Row;
use std::io::Read;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, RwLock};

/// libphonenumber's +86 data as `scripts/segments/build.py` writes it (data/segments/SOURCE.md).
static DEFAULT_DATA: &[u8] = include_bytes!("../../data/segments/cn-segments.csv.gz");

/// The table in memory (`AppState::segments`), and the version it was read at: the id of
/// the administrators' upload last applied (`segment_state`; 0: the shipped default).
#[derive(Default)]
pub struct Segments(RwLock<Arc<SegmentTable>>, AtomicI64);

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

    /// The version of the table held.
    pub fn version(&self) -> i64 {
        self.1.load(Ordering::Relaxed)
    }

    /// Where an order's account belongs: None for an account that is not a mobile number,
    /// or a prefix the table lacks.
    pub fn region(&self, account: &str) -> Option<Region> {
        self.region_of(&PhoneNumber::parse(account)?)
    }

    /// Where a parsed number belongs: None for a prefix the table lacks.
    pub fn region_of(&self, number: &PhoneNumber) -> Option<Region> {
        Some(self.table().lookup(number).place?.region())
    }

    /// Reads the table from the database into memory (at start, and after a change). Read
    /// as its places, each with its prefixes joined: read row by row, 330,000 rows of seven
    /// columns made a start 1.8 s longer on SQLite (2 loaded cores), these 1,000 rows 0.6 s.
    pub async fn reload(&self, db: &Database) -> anyhow::Result<usize> {
        let version = read_version(db).await?;
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
        self.1.store(version, Ordering::Relaxed);
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
    let mut transaction = db.begin_write().await?;
    insert_all(&mut transaction, rows, "ON CONFLICT (prefix) DO NOTHING").await?;
    transaction.commit().await?;
    Ok(count)
}

/// Writes `rows` into `number_segments` in the caller's transaction, many to a statement.
pub async fn insert_all(
    transaction: &mut sqlx::Transaction<'static, sqlx::Any>,
    rows: Vec<SegmentRow>,
    tail: &str,
) -> Result<(), sqlx::Error> {
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
    let postgres = transaction.backend_name() != "SQLite";
    let head = "INSERT INTO number_segments (prefix, province_code, province, city, carrier, province_en, city_en)";
    for (sql, binds) in insert_rows(postgres, head, binds, tail) {
        bind_all(sqlx::query(for_engine(transaction, sql)), binds).execute(&mut **transaction).await?;
    }
    Ok(())
}

/// The version of the table in the database (`Segments::version`).
pub async fn read_version(db: &Database) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT version FROM segment_state WHERE id = 1").fetch_one(&db.pool).await
}

/// How stale another server's change of the table may be here.
const FOLLOW_EVERY: std::time::Duration = std::time::Duration::from_secs(5);

/// Several servers share a PostgreSQL database: each reads the table again once another
/// applied an upload (the server that applied it reloads at once). One small read every few
/// seconds, never on the placing path.
pub fn follow(
    segments: Arc<Segments>,
    db: Database,
    mut stop: tokio::sync::watch::Receiver<bool>,
) -> Option<tokio::task::JoinHandle<()>> {
    (db.kind == crate::platform::db::DatabaseKind::Postgres).then(|| {
        tokio::spawn(async move {
            let mut interval = tokio::time::interval(FOLLOW_EVERY);
            interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = interval.tick() => {}
                    _ = stop.wait_for(|stop| *stop) => break,
                }
                match read_version(&db).await {
                    Ok(version) if version != segments.version() => {
                        if let Err(error) = segments.reload(&db).await {
                            tracing::warn!(error = %error, "number segments not read again");
                        }
                    }
                    Ok(_) => {}
                    Err(error) => tracing::warn!(error = %error, "number segments: version not read"),
                }
            }
        })
    })
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
