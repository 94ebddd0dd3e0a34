//! The saved views' SQL. Every read is limited to what the caller may see: its own views
//! and the views shared within its circle (`Circle`), on one engine's SQL for both.

use super::Circle;
use sqlx::{AnyPool, Row, any::AnyRow};

/// A view as read, with its owner's name.
pub(crate) struct StoredView {
    pub id: i64,
    pub user_id: i64,
    pub owner: String,
    pub page: String,
    pub name: String,
    pub state: String,
    pub shared: bool,
    pub updated_at: i64,
}

/// The visibility rule, for `saved_views v` with the caller's id as `$1`, its merchant as
/// `$2` (NULL for administrators) and `$3` 1 for administrators: a merchant user sees its
/// merchant's shared views, an administrator the administrators' (stored without merchant;
/// a merchant user without a merchant never shares, so none of its views is among them).
/// (Macros, not constants: the statements must stay literal text, `concat!`ed.)
macro_rules! visible {
    () => {
        "(v.user_id = $1 OR (v.shared = 1 AND (v.merchant_id = $2 OR ($3 = 1 AND v.merchant_id IS NULL))))"
    };
}

macro_rules! select_views {
    () => {
        "SELECT v.id, v.user_id, u.username, v.page, v.name, v.state, v.shared, v.updated_at
         FROM saved_views v JOIN users u ON u.id = v.user_id"
    };
}

fn read(row: &AnyRow) -> Result<StoredView, sqlx::Error> {
    Ok(StoredView {
        id: row.try_get("id")?,
        user_id: row.try_get("user_id")?,
        owner: row.try_get("username")?,
        page: row.try_get("page")?,
        name: row.try_get("name")?,
        state: row.try_get("state")?,
        shared: row.try_get::<i64, _>("shared")? == 1,
        updated_at: row.try_get("updated_at")?,
    })
}

fn administrators(circle: Circle) -> i64 {
    i64::from(circle == Circle::Administrators)
}

/// The caller's own views of a page and those shared with it: its own first, then by name.
pub(crate) async fn visible(
    pool: &AnyPool,
    user_id: i64,
    circle: Circle,
    page: &str,
) -> Result<Vec<StoredView>, sqlx::Error> {
    let sql = concat!(
        select_views!(),
        " WHERE v.page = $4 AND ",
        visible!(),
        " ORDER BY CASE WHEN v.user_id = $1 THEN 0 ELSE 1 END, v.name, v.id LIMIT 500"
    );
    let rows = sqlx::query(sql)
        .bind(user_id)
        .bind(circle.merchant())
        .bind(administrators(circle))
        .bind(page)
        .fetch_all(pool)
        .await?;
    rows.iter().map(read).collect()
}

/// One view the caller may see, or none.
pub(crate) async fn one(
    executor: impl sqlx::Executor<'_, Database = sqlx::Any>,
    user_id: i64,
    circle: Circle,
    id: i64,
) -> Result<Option<StoredView>, sqlx::Error> {
    let sql = concat!(select_views!(), " WHERE v.id = $4 AND ", visible!());
    let row = sqlx::query(sql)
        .bind(user_id)
        .bind(circle.merchant())
        .bind(administrators(circle))
        .bind(id)
        .fetch_optional(executor)
        .await?;
    row.as_ref().map(read).transpose()
}

/// The caller's default view of a page, if it still exists and the caller may still see it
/// (a view unshared since is not applied, though the row stays until it is replaced).
pub(crate) async fn default_of(
    pool: &AnyPool,
    user_id: i64,
    circle: Circle,
    page: &str,
) -> Result<Option<i64>, sqlx::Error> {
    let sql = concat!(
        "SELECT v.id FROM saved_view_defaults d JOIN saved_views v ON v.id = d.view_id
         WHERE d.user_id = $1 AND d.page = $4 AND ",
        visible!()
    );
    sqlx::query_scalar(sql)
        .bind(user_id)
        .bind(circle.merchant())
        .bind(administrators(circle))
        .bind(page)
        .fetch_optional(pool)
        .await
}

/// How many views the caller owns on a page.
pub(crate) async fn owned_count(
    executor: impl sqlx::Executor<'_, Database = sqlx::Any>,
    user_id: i64,
    page: &str,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM saved_views WHERE user_id = $1 AND page = $2")
        .bind(user_id)
        .bind(page)
        .fetch_one(executor)
        .await
}

/// Whether a write failed on the owner's unique name.
pub(crate) fn is_name_taken(error: &sqlx::Error) -> bool {
    matches!(error, sqlx::Error::Database(database_error) if database_error.is_unique_violation())
}
