//! What a preview stores: the batch and its checked lines, the ids generated for the valid
//! lines that have none, and the lines that repeat a recent order.
//!
//! A preview's lines are many (100,000 in `bench/orders.sh`), and what is done to each of
//! them is string work: an id formatted, a set filled, a range encoded. Done in one go on an
//! async worker, each such pass held every other request for tens of milliseconds: 45–80 ms
//! a preview on a server with one worker (PostgreSQL's default, src/platform/runtime.rs;
//! bench/README.md). So each pass runs on the blocking pool. Valid lines are stored a range
//! at a time (`ranges.rs`), invalid ones a row each with their reason.

use super::check::Checked;
use super::decide::Line;
use super::lifecycle::{RecentDuplicate, recent_orders};
use super::outcome;
use super::ranges;
use crate::http::error::AppError;
use crate::platform::db::millis_to_rfc3339;
use crate::platform::sql::{Bind, bind_all};
use crate::platform::state::AppState;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// A preview's checked lines, shared with the blocking pool's passes over them.
pub type Lines = Arc<Vec<Checked>>;

/// Runs one pass over a batch's lines on the blocking pool.
pub async fn off_runtime<T: Send + 'static>(pass: impl FnOnce() -> T + Send + 'static) -> Result<T, AppError> {
    tokio::task::spawn_blocking(pass).await.map_err(|error| AppError::from(anyhow::Error::from(error)))
}

/// Stores the batch, previewed at `created_at`, and every checked line in one transaction;
/// returns the batch's id.
pub async fn store_batch(
    state: &AppState,
    merchant_id: i64,
    user_id: i64,
    (file_name, flagged, created_at): (&str, &super::Flagged, i64),
    checked: &Lines,
    total_fen: i64,
) -> Result<i64, AppError> {
    let valid = checked.iter().filter(|entry| entry.reason.is_none()).count() as i64;
    let flagged = serde_json::to_string(flagged).map_err(anyhow::Error::from)?;
    let mut transaction = state.db.begin_write().await?;
    let batch_id: i64 = sqlx::query_scalar(
        "INSERT INTO order_batches (merchant_id, file_name, status, total_rows, valid_rows, total_fen, created_by, created_at, duplicates)
         VALUES ($1, $2, 0, $3, $4, $5, $6, $7, $8) RETURNING id",
    )
    .bind(merchant_id)
    .bind(file_name)
    .bind(checked.len() as i64)
    .bind(valid)
    .bind(total_fen)
    .bind(user_id)
    .bind(created_at)
    .bind(flagged)
    .fetch_one(&mut *transaction)
    .await?;
    let generated = generated_ids(&mut transaction, merchant_id, batch_id, checked).await?;
    let engine = crate::platform::db::DatabaseKind::of(&transaction);
    let lines = Arc::clone(checked);
    let (invalid, ranges) = off_runtime(move || {
        let invalid: Vec<Vec<Bind>> = lines
            .iter()
            .filter_map(|entry| {
                let reason = entry.reason.as_ref()?;
                let line =
                    (entry.line_no, &*entry.account, &*entry.product_key, &*entry.merchant_order_id, entry.price_fen);
                Some(ranges::line_row(batch_id, line, outcome::INVALID, reason.stored()))
            })
            .collect();
        let valid: Vec<Line> = lines
            .iter()
            .filter(|entry| entry.reason.is_none())
            .map(|entry| Line {
                line_no: entry.line_no,
                account: entry.account.clone(),
                product_key: entry.product_key.clone(),
                merchant_order_id: generated
                    .get(&entry.line_no)
                    .cloned()
                    .unwrap_or_else(|| entry.merchant_order_id.clone()),
                preview_price: entry.price_fen,
            })
            .collect();
        ranges::encode(&valid, engine).map(|ranges| (ranges::line_rows(engine, invalid), ranges))
    })
    .await?
    .map_err(|error| AppError::from(anyhow::Error::from(error)))?;
    ranges::insert(&mut transaction, batch_id, ranges).await?;
    for (sql, binds) in invalid {
        bind_all(sqlx::query(crate::platform::sql::for_engine(&transaction, sql)), binds)
            .execute(&mut *transaction)
            .await?;
    }
    transaction.commit().await?;
    Ok(batch_id)
}

/// Ids for the valid lines that have none, so that submitting the batch twice meets the
/// unique index instead of placing a line twice: `B<batch>-<line>`, or with a suffix when
/// the file (or an earlier order) has that id already, which would fail the whole submit.
async fn generated_ids(
    connection: &mut sqlx::AnyConnection,
    merchant_id: i64,
    batch_id: i64,
    checked: &Lines,
) -> Result<HashMap<i64, String>, AppError> {
    let lines = Arc::clone(checked);
    let (wanted, plain) = off_runtime(move || {
        let wanted: Vec<(i64, String)> =
            without_id(&lines).map(|entry| (entry.line_no, format!("B{batch_id}-{}", entry.line_no))).collect();
        let plain: Vec<String> = wanted.iter().map(|(_, id)| id.clone()).collect();
        (wanted, plain)
    })
    .await?;
    if wanted.is_empty() {
        // Every valid line has its id: nothing to look up, and no set of the file's ids to
        // build.
        return Ok(HashMap::new());
    }
    let taken = super::place::used_ids(connection, merchant_id, &plain).await?;
    let lines = Arc::clone(checked);
    off_runtime(move || assign_ids(wanted, taken, &lines)).await
}

/// Each wanted id, or the first of its suffixed forms that neither the file nor an earlier
/// order (`taken`) has.
fn assign_ids(wanted: Vec<(i64, String)>, mut taken: HashSet<String>, lines: &[Checked]) -> HashMap<i64, String> {
    taken.extend(lines.iter().map(|entry| entry.merchant_order_id.clone()).filter(|id| !id.is_empty()));
    let mut generated = HashMap::with_capacity(wanted.len());
    for (line_no, base) in wanted {
        let mut id = base.clone();
        let mut attempt = 1;
        while taken.contains(&id) {
            attempt += 1;
            id = format!("{base}-{attempt}");
        }
        taken.insert(id.clone());
        generated.insert(line_no, id);
    }
    generated
}

/// Valid lines without a merchant order id that repeat an account and product ordered
/// within the day, or an earlier such line of the file: each would be placed as an order of
/// its own, so the person is warned before submitting.
pub async fn recent_duplicates(
    state: &AppState,
    merchant_id: i64,
    checked: &Lines,
) -> Result<Vec<RecentDuplicate>, AppError> {
    let lines = Arc::clone(checked);
    let accounts: Vec<String> = off_runtime(move || {
        let accounts: HashSet<&str> = without_id(&lines).map(|entry| entry.account.as_str()).collect();
        accounts.into_iter().map(str::to_string).collect()
    })
    .await?;
    let recent = recent_orders(state, merchant_id, &accounts).await?;
    let lines = Arc::clone(checked);
    off_runtime(move || {
        let mut first_lines: HashMap<(&str, &str), i64> = HashMap::new();
        without_id(&lines)
            .filter_map(|entry| {
                let product_key = entry.product_key.trim();
                let first = *first_lines.entry((entry.account.as_str(), product_key)).or_insert(entry.line_no);
                let repeats_line_no = (first != entry.line_no).then_some(first);
                let order = recent.get(&(entry.account.clone(), product_key.to_string()));
                if order.is_none() && repeats_line_no.is_none() {
                    return None;
                }
                Some(RecentDuplicate {
                    line_no: entry.line_no,
                    account: entry.account.clone(),
                    product_key: product_key.to_string(),
                    order_no: order.map(|(order_no, _)| order_no.clone()),
                    ordered_at: order.map(|(_, at)| millis_to_rfc3339(*at)),
                    repeats_line_no,
                })
            })
            .collect()
    })
    .await
}

/// The valid lines that came without a merchant order id.
fn without_id(lines: &[Checked]) -> impl Iterator<Item = &Checked> {
    lines.iter().filter(|entry| entry.reason.is_none() && entry.merchant_order_id.is_empty())
}
