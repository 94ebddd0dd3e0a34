//! Routing: which channels may take an order of a product now, and which one does.
//!
//! Candidates are the enabled channels supplying the product (their product row enabled
//! too), not paused, whose known balance covers the cost, and which this order has not
//! already definitely failed at. They are ordered by priority (higher first), and within
//! one priority one is drawn with probability proportional to its weight. A channel whose
//! cool-down is over but whose probe has not answered takes only its probe order.
//! A channel covers a product in some provinces (or nationally): `cover` passes over the
//! channels whose coverage lacks the order's province, from the row already read.

use super::model::{CHANNEL_COLUMNS, ChannelRow};
use crate::domain::windows::{Closed, Schedule};
use crate::domain::{Carrier, Scope};
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
    /// A maintenance window closes the channel, or the order's carrier (in its province),
    /// now: `Route::window` names it.
    Window,
    /// The channel's coverage for the product lacks the order's province (or the number's
    /// province is unknown and the channel is not national).
    ProvinceNotCovered,
    /// The channel supplies the same carrier, face value and kind at the other speed only
    /// (named by the preview; routing never reads such a channel for the product).
    SpeedNotOffered,
}

#[derive(Debug, Clone)]
pub struct Route {
    pub channel: ChannelRow,
    pub cost_fen: i64,
    pub priority: i64,
    pub weight: i64,
    /// The provinces it covers for the product (national when empty).
    pub provinces: Scope,
    pub excluded: Option<Exclusion>,
    /// The maintenance window excluding it (with `Exclusion::Window`).
    pub window: Option<Closed>,
}

static ROUTES_SQL: LazyLock<String> = LazyLock::new(|| {
    let columns: Vec<String> = CHANNEL_COLUMNS.split(", ").map(|column| format!("c.{column}")).collect();
    format!(
        "SELECT {}, cp.cost_fen, cp.priority, cp.weight, cp.enabled, cp.provinces FROM channel_products cp
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
        // Stored only after `Scope` read it (admin.rs, the import), so it always reads back.
        let provinces: String = row.try_get(20)?;
        let provinces = Scope::from_stored(&provinces).unwrap_or_default();
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
        routes.push(Route {
            channel,
            cost_fen,
            priority: row.try_get(17)?,
            weight: row.try_get(18)?,
            provinces,
            excluded,
            window: None,
        });
    }
    Ok(routes)
}

/// Excludes the routes whose coverage lacks the order's province (None: a number whose
/// segment is unknown, or a card order: only national channels take it). Answers in
/// memory. Coverage goes before the passing reasons (paused, balance, …): it is why the
/// channel is not for this order at all; a disabled channel or product stays so named.
pub fn cover(routes: &mut [Route], province: Option<u32>) {
    for route in routes.iter_mut() {
        let disabled = matches!(route.excluded, Some(Exclusion::ChannelDisabled | Exclusion::ProductDisabled));
        if !disabled && !route.provinces.admits(province) {
            route.excluded = Some(Exclusion::ProvinceNotCovered);
            route.window = None;
        }
    }
}

/// Whether any route covers only some provinces (routes of a product then differ by order).
pub fn provincial(routes: &[Route]) -> bool {
    routes.iter().any(|route| !route.provinces.is_national())
}

/// Excludes the routes a maintenance window closes at `now`: every one when a window closes
/// the order's number (`number`: its carrier and province), otherwise the channels in a
/// window. Routes excluded for another reason stay so. Answers in memory (the schedule).
pub fn close_windows(routes: &mut [Route], schedule: &Schedule, number: Option<(Carrier, Option<u32>)>, now: i64) {
    let for_number = number.and_then(|(carrier, province)| schedule.closing_number(carrier, province, now));
    for route in routes.iter_mut().filter(|route| route.excluded.is_none()) {
        let closed = for_number.clone().or_else(|| schedule.closing_channel(route.channel.id, now));
        if closed.is_some() {
            route.excluded = Some(Exclusion::Window);
            route.window = closed;
        }
    }
}

/// When no candidate is left only because of windows: the earliest moment one of them
/// ends (when the order may be routed again). None when a route is a candidate, or no
/// window excluded any.
pub fn waiting_for_window(routes: &[Route]) -> Option<i64> {
    if routes.iter().any(|route| route.excluded.is_none()) {
        return None;
    }
    routes.iter().filter_map(|route| route.window.as_ref().map(|closed| closed.until)).min()
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
        Route { channel, cost_fen: 100, priority, weight, provinces: Scope::national(), excluded, window: None }
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

    #[test]
    fn only_channels_covering_the_province_stay_candidates() {
        let mut south = route(1, 9, 1, None);
        south.provinces = Scope::of([440000, 330000]).unwrap();
        let mut disabled = route(3, 9, 1, Some(Exclusion::ChannelDisabled));
        disabled.provinces = Scope::of([110000]).unwrap();
        let mut paused = route(4, 9, 1, Some(Exclusion::Paused));
        paused.provinces = Scope::of([110000]).unwrap();
        let routes = [south, route(2, 1, 1, None), disabled, paused];

        let mut guangdong = routes.clone();
        cover(&mut guangdong, Some(440000));
        assert_eq!(choose(&guangdong, 0.5).unwrap().channel.id, 1, "the provincial channel, higher, takes it");
        assert_eq!(guangdong[3].excluded, Some(Exclusion::ProvinceNotCovered), "not covered says more than paused");

        let mut beijing = routes.clone();
        cover(&mut beijing, Some(110000));
        assert_eq!(beijing[0].excluded, Some(Exclusion::ProvinceNotCovered));
        assert_eq!(choose(&beijing, 0.5).unwrap().channel.id, 2, "the national one");
        assert_eq!(beijing[2].excluded, Some(Exclusion::ChannelDisabled), "disabled stays named so");
        assert_eq!(beijing[3].excluded, Some(Exclusion::Paused), "covered: the passing reason stays");

        let mut unknown = routes.clone();
        cover(&mut unknown, None);
        assert_eq!(unknown[0].excluded, Some(Exclusion::ProvinceNotCovered), "no segment: national channels only");
        assert_eq!(choose(&unknown, 0.5).unwrap().channel.id, 2);
        assert!(provincial(&routes) && !provincial(&routes[1..2]));
    }
}
