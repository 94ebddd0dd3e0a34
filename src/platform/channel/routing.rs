//! Routing: which channels may take an order of a product now, and which one does.
//!
//! Candidates are the enabled channels supplying the product (their product row enabled
//! too), not paused, whose known balance covers the cost, and which this order has not
//! already definitely failed at. They are ordered by priority (higher first), and within
//! one priority one is drawn with probability proportional to its weight. A channel whose
//! cool-down is over but whose probe has not answered takes only its probe order.

use super::model::{CHANNEL_COLUMNS, ChannelRow};
use serde::Serialize;
use sqlx::Row;
use std::sync::LazyLock;
use utoipa::ToSchema;

/// Why a channel supplying the product would not take an order now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Exclusion {
    ChannelDisabled,
    ProductDisabled,
    Paused,
    /// Cool-down over; another order is its probe.
    Probing,
    BalanceShort,
    /// This order already failed there.
    AlreadyFailed,
}

#[derive(Debug, Clone)]
pub struct Route {
    pub channel: ChannelRow,
    pub cost_fen: i64,
    pub priority: i64,
    pub weight: i64,
    pub excluded: Option<Exclusion>,
}

static ROUTES_SQL: LazyLock<String> = LazyLock::new(|| {
    let columns: Vec<String> = CHANNEL_COLUMNS.split(", ").map(|column| format!("c.{column}")).collect();
    format!(
        "SELECT {}, cp.cost_fen, cp.priority, cp.weight, cp.enabled FROM channel_products cp
         JOIN channels c ON c.id = cp.channel_id WHERE cp.product_id = $1 ORDER BY cp.priority DESC, c.id",
        columns.join(", ")
    )
});

/// Every channel supplying the product, by priority, each with why it is excluded (if).
pub async fn routes(
    pool: &sqlx::AnyPool,
    product_id: i64,
    order_id: Option<i64>,
    failed: &[i64],
    now: i64,
) -> Result<Vec<Route>, sqlx::Error> {
    let rows = sqlx::query(sqlx::AssertSqlSafe(ROUTES_SQL.as_str())).bind(product_id).fetch_all(pool).await?;
    let mut routes = Vec::with_capacity(rows.len());
    for row in &rows {
        let channel = ChannelRow::from_row(row)?;
        let cost_fen: i64 = row.try_get(16)?;
        let product_enabled: i64 = row.try_get(19)?;
        let excluded = if !channel.enabled {
            Some(Exclusion::ChannelDisabled)
        } else if product_enabled == 0 {
            Some(Exclusion::ProductDisabled)
        } else if failed.contains(&channel.id) {
            Some(Exclusion::AlreadyFailed)
        } else if channel.paused_now(now) {
            Some(Exclusion::Paused)
        } else if channel.probing(now) && channel.probe_order_id.is_some_and(|probe| Some(probe) != order_id) {
            Some(Exclusion::Probing)
        } else if channel.balance_fen.is_some_and(|balance| balance < cost_fen) {
            Some(Exclusion::BalanceShort)
        } else {
            None
        };
        routes.push(Route { channel, cost_fen, priority: row.try_get(17)?, weight: row.try_get(18)?, excluded });
    }
    Ok(routes)
}

/// The route an order takes: the highest priority with a candidate, then by weight.
/// `draw` is uniform in [0, 1) (random in the worker, fixed in tests).
pub fn choose(routes: &[Route], draw: f64) -> Option<&Route> {
    let candidates: Vec<&Route> = routes.iter().filter(|route| route.excluded.is_none()).collect();
    let top = candidates.first()?.priority;
    let group: Vec<&Route> = candidates.into_iter().filter(|route| route.priority == top).collect();
    let total: i64 = group.iter().map(|route| route.weight.max(0)).sum();
    if total == 0 {
        return group.first().copied();
    }
    let mut point = (draw.clamp(0.0, 0.999_999) * total as f64) as i64;
    for route in &group {
        let weight = route.weight.max(0);
        if point < weight {
            return Some(route);
        }
        point -= weight;
    }
    group.last().copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn route(id: i64, priority: i64, weight: i64, excluded: Option<Exclusion>) -> Route {
        let channel = ChannelRow {
            id,
            code: format!("c{id}"),
            name: String::new(),
            adapter: "sandbox".into(),
            base_url: String::new(),
            secret_sealed: None,
            timeout_ms: 1000,
            enabled: true,
            paused_until: None,
            pause_reason: None,
            probe_order_id: None,
            unknown_streak: 0,
            balance_fen: None,
            balance_at: None,
            low_balance_fen: 0,
            updated_at: 0,
        };
        Route { channel, cost_fen: 100, priority, weight, excluded }
    }

    #[test]
    fn highest_priority_first_then_by_weight() {
        let routes = [
            route(1, 5, 1, Some(Exclusion::Paused)),
            route(2, 3, 1, None),
            route(3, 3, 3, None),
            route(4, 1, 100, None),
        ];
        assert_eq!(choose(&routes, 0.0).unwrap().channel.id, 2);
        assert_eq!(choose(&routes, 0.24).unwrap().channel.id, 2);
        assert_eq!(choose(&routes, 0.26).unwrap().channel.id, 3);
        assert_eq!(choose(&routes, 0.99).unwrap().channel.id, 3);
        assert!(choose(&[route(1, 1, 1, Some(Exclusion::BalanceShort))], 0.5).is_none());
        // Weight 0 everywhere: the first of the group still takes it.
        assert_eq!(choose(&[route(7, 1, 0, None), route(8, 1, 0, None)], 0.7).unwrap().channel.id, 7);
    }
}
