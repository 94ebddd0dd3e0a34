//! Whether a merchant's prices pay. A price at or below the cheapest cost among the
//! channels able to supply the product earns nothing on any sale (whichever channel takes
//! the order); one above it by less than the minimum margin (`Config::min_margin_bp` of
//! the face value) earns too little to carry failed attempts and refunds. A bulk rule that
//! sets such prices is applied only when the administrator acknowledges exactly the
//! warnings the preview showed: a digest of them, so costs or prices that moved between
//! preview and apply are caught rather than silently accepted.

use crate::domain::product_scope::{PROVINCE_CODES, Scope};
use serde::Serialize;
use sha2::{Digest, Sha256};
use sqlx::Row;
use std::collections::HashMap;
use utoipa::ToSchema;

/// What is wrong with a price.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MarginProblem {
    /// At or below the cheapest channel's cost: every sale loses money or earns nothing.
    BelowCost,
    /// Above the cost by less than the minimum margin.
    UnderMargin,
}

/// One product whose new price does not pay, with the figures that say so.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct MarginWarning {
    pub product_id: i64,
    pub product_key: String,
    pub product_name: String,
    pub face_value_fen: i64,
    pub new_price_fen: i64,
    /// The cost the price must clear: in each province the product is sold in, the cheapest
    /// enabled channel covering it (enabled supply); the dearest of those (`dearest_cheapest`).
    pub cheapest_cost_fen: i64,
    /// `new_price_fen - cheapest_cost_fen`: zero or negative is a sale at a loss.
    pub margin_fen: i64,
    /// The least margin a price should keep: `min_margin_bp` of the face value, rounded up.
    pub min_margin_fen: i64,
    pub problem: MarginProblem,
}

/// `bp` basis points of the face value, rounded up to the fen (a minimum is never rounded
/// in the seller's disfavour), in integers.
pub fn min_margin_fen(face_fen: i64, bp: i64) -> i64 {
    let scaled = face_fen * bp;
    scaled / 10_000 + i64::from(scaled % 10_000 > 0)
}

/// What is wrong with `price` against `cost`, if anything.
pub fn judge(price_fen: i64, cost_fen: i64, min_margin_fen: i64) -> Option<MarginProblem> {
    let margin = price_fen - cost_fen;
    if margin <= 0 {
        Some(MarginProblem::BelowCost)
    } else if margin < min_margin_fen {
        Some(MarginProblem::UnderMargin)
    } else {
        None
    }
}

/// The cost a price must clear, for every product some enabled channel supplies (its supply
/// enabled too); products no channel supplies are absent (nothing to compare with). Paused
/// channels count: a pause is temporary and the price outlives it. See [`dearest_cheapest`].
pub async fn cheapest_costs<'e>(
    executor: impl sqlx::Executor<'e, Database = sqlx::Any>,
) -> Result<HashMap<i64, i64>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT cp.product_id, cp.cost_fen, cp.provinces, p.provinces FROM channel_products cp
         JOIN channels c ON c.id = cp.channel_id JOIN products p ON p.id = cp.product_id
         WHERE cp.enabled = 1 AND c.enabled = 1 ORDER BY cp.product_id",
    )
    .fetch_all(executor)
    .await?;
    let mut offers: HashMap<i64, (Scope, Vec<(i64, Scope)>)> = HashMap::new();
    for row in rows {
        let (product, cost): (i64, i64) = (row.try_get(0)?, row.try_get(1)?);
        // A stored scope that does not read is covered nowhere (routing passes it over too).
        let Some(covers) = Scope::from_stored(row.try_get::<String, _>(2)?.as_str()) else { continue };
        let sold_in = Scope::from_stored(row.try_get::<String, _>(3)?.as_str()).unwrap_or_default();
        offers.entry(product).or_insert_with(|| (sold_in, Vec::new())).1.push((cost, covers));
    }
    Ok(offers
        .into_iter()
        .filter_map(|(product, (sold_in, offers))| Some((product, dearest_cheapest(&sold_in, &offers)?)))
        .collect())
}

/// The cost a price of a product sold in `sold_in` must clear, given its channels' (cost,
/// coverage): in each province it is sold in, the cheapest channel covering that province;
/// the dearest of those. A national product priced above a provincial channel's cost but
/// under the national one's loses money on every order from elsewhere. Numbers of no known
/// province count where a national channel takes them. None when no channel covers any
/// province the product is sold in.
pub fn dearest_cheapest(sold_in: &Scope, offers: &[(i64, Scope)]) -> Option<i64> {
    // Mainland numbers only: Hong Kong, Macao and Taiwan close the code list.
    let provinces: Vec<Option<u32>> = if sold_in.is_national() {
        PROVINCE_CODES[..31].iter().copied().map(Some).chain([None]).collect()
    } else {
        sold_in.provinces().iter().copied().map(Some).collect()
    };
    provinces
        .into_iter()
        .filter_map(|province| offers.iter().filter(|(_, covers)| covers.admits(province)).map(|(cost, _)| *cost).min())
        .max()
}

/// The acknowledgement of a list of warnings for one merchant: what the console sends
/// back to apply them. Any change of product, price, cost or problem changes it.
pub fn digest(merchant_id: i64, warnings: &[MarginWarning]) -> String {
    let mut hasher = Sha256::new();
    hasher.update(format!("merchant {merchant_id}\n"));
    let mut sorted: Vec<&MarginWarning> = warnings.iter().collect();
    sorted.sort_by_key(|warning| warning.product_id);
    for warning in sorted {
        hasher.update(format!(
            "{} {} {} {} {:?}\n",
            warning.product_id,
            warning.new_price_fen,
            warning.cheapest_cost_fen,
            warning.min_margin_fen,
            warning.problem
        ));
    }
    hex::encode(&hasher.finalize()[..16])
}

/// The products named in a refusal: the first few keys, then how many more.
pub fn named_products(warnings: &[MarginWarning]) -> String {
    const SHOWN: usize = 5;
    let mut names: Vec<&str> = warnings.iter().take(SHOWN).map(|warning| warning.product_key.as_str()).collect();
    let more = warnings.len().saturating_sub(SHOWN);
    let more_text = format!("+{more}");
    if more > 0 {
        names.push(&more_text);
    }
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warning(product_id: i64, cost: i64) -> MarginWarning {
        MarginWarning {
            product_id,
            product_key: format!("P-{product_id}"),
            product_name: String::new(),
            face_value_fen: 5_000,
            new_price_fen: 2_500,
            cheapest_cost_fen: cost,
            margin_fen: 2_500 - cost,
            min_margin_fen: 25,
            problem: MarginProblem::BelowCost,
        }
    }

    #[test]
    fn a_provincial_channel_lowers_the_cost_only_where_it_covers() {
        let national = Scope::national();
        let guangdong = Scope::of([440000]).unwrap();
        let both = Scope::of([440000, 330000]).unwrap();
        // A national product: elsewhere only the national channel's 980 takes it.
        assert_eq!(dearest_cheapest(&national, &[(980, national.clone()), (950, guangdong.clone())]), Some(980));
        // Sold in Guangdong only: the provincial channel is the cheapest wherever it is sold.
        assert_eq!(dearest_cheapest(&guangdong, &[(980, national.clone()), (950, guangdong.clone())]), Some(950));
        // Sold in two provinces, one covered cheaply, the other by the national channel only.
        assert_eq!(dearest_cheapest(&both, &[(980, national.clone()), (950, guangdong.clone())]), Some(980));
        // Only provincial channels: the dearest province's cheapest, provinces no one covers left out.
        assert_eq!(dearest_cheapest(&national, &[(950, guangdong.clone()), (970, both.clone())]), Some(970));
        // No channel where it is sold.
        assert_eq!(dearest_cheapest(&Scope::of([110000]).unwrap(), &[(950, guangdong)]), None);
        assert_eq!(dearest_cheapest(&national, &[]), None);
    }

    #[test]
    fn prices_are_judged_against_the_cost_and_the_minimum_margin() {
        // 0.5 % of 50 yuan is 25 fen; of 0.33 yuan 0.165 fen, rounded up to 1.
        assert_eq!(min_margin_fen(5_000, 50), 25);
        assert_eq!(min_margin_fen(33, 50), 1);
        assert_eq!(min_margin_fen(5_000, 0), 0);
        // 49.25 yuan for a 49.25 yuan cost earns nothing: flagged like a loss.
        assert_eq!(judge(4_925, 4_925, 25), Some(MarginProblem::BelowCost));
        assert_eq!(judge(2_500, 4_900, 25), Some(MarginProblem::BelowCost));
        assert_eq!(judge(4_949, 4_925, 25), Some(MarginProblem::UnderMargin));
        assert_eq!(judge(4_950, 4_925, 25), None);
    }

    #[test]
    fn the_digest_changes_with_any_figure_and_not_with_the_order() {
        let both = [warning(1, 4_900), warning(2, 9_800)];
        let swapped = [warning(2, 9_800), warning(1, 4_900)];
        assert_eq!(digest(7, &both), digest(7, &swapped));
        assert_ne!(digest(7, &both), digest(8, &both), "another merchant");
        assert_ne!(digest(7, &both), digest(7, &[warning(1, 4_901), warning(2, 9_800)]), "a cost moved");
        assert_ne!(digest(7, &both), digest(7, &both[..1]), "a warning fewer");
    }

    #[test]
    fn a_refusal_names_the_first_products_and_counts_the_rest() {
        let many: Vec<MarginWarning> = (1..=7).map(|id| warning(id, 4_900)).collect();
        assert_eq!(named_products(&many[..2]), "P-1, P-2");
        assert_eq!(named_products(&many), "P-1, P-2, P-3, P-4, P-5, +2");
    }
}
