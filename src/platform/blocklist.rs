//! The blocklist in memory (`domain::blocklist`), so that placing checks a number without a
//! query. Several servers share the table: each reads `(count, newest id)` at most once a
//! second on the placing path and reads the list again when that changed (any addition
//! raises the newest id, any removal alone lowers the count), so a change made on another
//! server bars its numbers here within about a second; the server that made it reloads at once.

use crate::domain::blocklist::{BlockPattern, BlockSet};
use crate::platform::db::Database;
use crate::platform::followed::Followed;
use std::sync::Arc;

/// The list held, at the table's (count, newest id).
#[derive(Default)]
pub struct Blocklist(Followed<BlockSet, (i64, i64)>);

impl Blocklist {
    pub fn set(&self) -> Arc<BlockSet> {
        self.0.get()
    }

    /// The list as it stands in the database now (at start, and after this server changed it).
    pub async fn reload(&self, db: &Database) -> Result<usize, sqlx::Error> {
        let version = read_version(db).await?;
        self.load(db, version).await
    }

    /// Reads the list, which stood at `version` just before (a change in between is seen
    /// by the next check: the version held is then older than the table's).
    async fn load(&self, db: &Database, version: (i64, i64)) -> Result<usize, sqlx::Error> {
        let patterns: Vec<String> = sqlx::query_scalar("SELECT pattern FROM blocked_numbers WHERE $1 = $1")
            .bind(0_i64)
            .fetch_all(&db.pool)
            .await?;
        let set = BlockSet::new(patterns.iter().filter_map(|text| BlockPattern::parse(text)));
        let held = set.len();
        self.0.store(set, version);
        Ok(held)
    }

    /// The list for a placement: as held, after reading it again if another server changed
    /// it (checked at most once a second).
    pub async fn current(&self, db: &Database) -> Result<Arc<BlockSet>, sqlx::Error> {
        if self.0.check_due() {
            let version = read_version(db).await?;
            if self.0.is_stale(version) {
                self.load(db, version).await?;
            }
        }
        Ok(self.set())
    }
}

async fn read_version(db: &Database) -> Result<(i64, i64), sqlx::Error> {
    sqlx::query_as("SELECT COUNT(*), COALESCE(MAX(id), 0) FROM blocked_numbers WHERE $1 = $1")
        .bind(0_i64)
        .fetch_one(&db.pool)
        .await
}
