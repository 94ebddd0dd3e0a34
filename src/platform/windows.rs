//! The maintenance windows in memory (`domain::windows`), so that placing and routing ask
//! "is this closed now, by which window, until when" without a query. As the blocklist
//! (`platform::blocklist`): each server reads `(count, newest id, latest change)` at most
//! once a second and reads the windows again when that changed; the server that changed
//! them reloads at once.

use crate::domain::Carrier;
use crate::domain::windows::{DaySpan, Recurrence, Schedule, Window, WindowScope};
use crate::platform::db::Database;
use crate::platform::followed::Followed;
use std::sync::Arc;

/// The columns [`from_row`] reads, in order.
pub const WINDOW_COLUMNS: &str =
    "id, title, scope_kind, carrier, province, channel_id, recurrence, starts_at, ends_at, day, span_start, span_end";

/// The schedule held, at the table's (count, newest id, latest change).
#[derive(Default)]
pub struct Windows(Followed<Schedule, (i64, i64, i64)>);

impl Windows {
    pub fn schedule(&self) -> Arc<Schedule> {
        self.0.get()
    }

    /// The windows as they stand in the database now (at start, and after a change here).
    pub async fn reload(&self, db: &Database) -> Result<usize, sqlx::Error> {
        let version = read_version(db).await?;
        self.load(db, version).await
    }

    /// Reads the windows, which stood at `version` just before.
    async fn load(&self, db: &Database, version: (i64, i64, i64)) -> Result<usize, sqlx::Error> {
        let sql = format!("SELECT {WINDOW_COLUMNS} FROM maintenance_windows WHERE $1 = $1 ORDER BY id");
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(0_i64).fetch_all(&db.pool).await?;
        let windows: Vec<Window> = rows.iter().filter_map(|row| from_row(row).ok().flatten()).collect();
        let held = windows.len();
        self.0.store(Schedule::new(windows), version);
        Ok(held)
    }

    /// The schedule for a placement or a routing: as held, after reading it again if
    /// another server changed it (checked at most once a second).
    pub async fn current(&self, db: &Database) -> Result<Arc<Schedule>, sqlx::Error> {
        if self.0.check_due() {
            let version = read_version(db).await?;
            if self.0.is_stale(version) {
                self.load(db, version).await?;
            }
        }
        Ok(self.schedule())
    }
}

async fn read_version(db: &Database) -> Result<(i64, i64, i64), sqlx::Error> {
    sqlx::query_as(
        "SELECT COUNT(*), COALESCE(MAX(id), 0), COALESCE(MAX(updated_at), 0) FROM maintenance_windows WHERE $1 = $1",
    )
    .bind(0_i64)
    .fetch_one(&db.pool)
    .await
}

/// A window from a row of [`WINDOW_COLUMNS`]; None when the row holds no window this
/// server understands (never written so: the handlers check every field).
pub fn from_row(row: &sqlx::any::AnyRow) -> Result<Option<Window>, sqlx::Error> {
    use sqlx::Row;
    let number = |index: usize| -> Result<Option<i64>, sqlx::Error> { row.try_get::<Option<i64>, _>(index) };
    let carrier = number(3)?.and_then(Carrier::from_code);
    let scope = match row.try_get::<i64, _>(2)? {
        1 => carrier.map(WindowScope::Carrier),
        2 => carrier.zip(number(4)?).map(|(carrier, code)| WindowScope::Province(carrier, code as u32)),
        3 => number(5)?.map(WindowScope::Channel),
        _ => None,
    };
    let span = number(10)?.zip(number(11)?).and_then(|(start, end)| DaySpan::new(start as u32, end as u32));
    let day = number(9)?.and_then(|day| u8::try_from(day).ok());
    let recurrence = match row.try_get::<i64, _>(6)? {
        1 => number(7)?.zip(number(8)?).map(|(start, end)| Recurrence::Once { start, end }),
        2 => span.map(|span| Recurrence::Daily { span }),
        3 => span.zip(day).map(|(span, weekday)| Recurrence::Weekly { weekday, span }),
        4 => span.zip(day).map(|(span, day)| Recurrence::Monthly { day, span }),
        _ => None,
    };
    Ok(scope.zip(recurrence).map(|(scope, recurrence)| Window {
        id: row.try_get(0).unwrap_or_default(),
        title: row.try_get(1).unwrap_or_default(),
        scope,
        recurrence,
    }))
}
