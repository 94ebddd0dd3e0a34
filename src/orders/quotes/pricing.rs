//! A merchant's price list changed in bulk: a rule "face value × rate, rounded to the fen"
//! over the products of one carrier and kind (or all), previewed and then applied in one
//! transaction; and the history of every price change (who, when, from, to).
//!
//! Rates are basis points (9850 = 98.5 %) and prices integer fen: the price is
//! `face × rate / 10000` computed in integers, and the rounding is stated by the rule
//! (half up by default, or down, or up). No floating point touches a price.
//!
//! The preview names every price at or below the cheapest channel's cost or under the
//! minimum margin (`margin.rs`); applying such prices needs their acknowledgement.

use super::history::{self, PriceChange, Source};
use super::margin::{self, MarginWarning};
use crate::domain::{Carrier, MAX_AMOUNT_FEN, ProductKind};
use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::extract::{ClientAddress, JsonBody};
use crate::i18n::audit::AuditDetail;
use crate::i18n::{CatalogueMessage, TradeMessage};
use crate::identity::session::AdminUser;
use crate::platform::audit;
use crate::platform::state::AppState;
use axum::Router;
use axum::extract::State;
use axum::routing::post;
use serde::{Deserialize, Serialize};
use sqlx::Row;
use utoipa::ToSchema;

/// Rates from 0.01 % to 200 %: a price above twice the face value is a typo.
pub const MIN_RATE_BP: i64 = 1;
pub const MAX_RATE_BP: i64 = 20_000;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/adminapi/admin/quote/reprice/preview", post(preview))
        .route("/adminapi/admin/quote/reprice/apply", post(apply))
}

/// How a price that falls between two fen is rounded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Rounding {
    /// To the nearest fen, half a fen up (the default).
    #[default]
    HalfUp,
    /// Down to the fen below.
    Down,
    /// Up to the fen above.
    Up,
}

/// `face_fen × rate_bp / 10000`, rounded as asked, in integers (face ≤ 10^10 fen and
/// rate ≤ 20000 keep the product far below i64's range).
pub fn rule_price(face_fen: i64, rate_bp: i64, rounding: Rounding) -> i64 {
    let scaled = face_fen * rate_bp;
    let (whole, rest) = (scaled / 10_000, scaled % 10_000);
    match rounding {
        Rounding::HalfUp if rest * 2 >= 10_000 => whole + 1,
        Rounding::Up if rest > 0 => whole + 1,
        _ => whole,
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RepriceRequest {
    pub merchant_id: i64,
    /// Only this carrier's products (`mobile`, `unicom`, `telecom`); all when absent or blank.
    #[schema(pattern = r"^\s*(mobile|unicom|telecom)?\s*$")]
    pub carrier: Option<String>,
    /// Only this kind (`direct`, `card`); all when absent or blank.
    #[schema(pattern = r"^\s*(direct|card)?\s*$")]
    pub product_kind: Option<String>,
    /// Basis points of the face value, 1 to 20000: 9850 is 98.5 %.
    #[schema(minimum = 1, maximum = 20000)]
    pub rate_bp: i64,
    /// `half_up` (default), `down` or `up`.
    #[serde(default)]
    pub rounding: Rounding,
    /// Apply only: the preview's `acknowledgement`, when it had warnings. Required then:
    /// a rule setting prices at a loss or under the minimum margin is refused without it,
    /// and refused too when the warnings are no longer the ones acknowledged.
    #[schema(max_length = 64)]
    pub acknowledge_warnings: Option<String>,
}

/// The rule parsed: filters as codes.
struct Rule {
    merchant_id: i64,
    carrier: Option<Carrier>,
    kind: Option<ProductKind>,
    rate_bp: i64,
    rounding: Rounding,
}

impl RepriceRequest {
    fn parse(&self) -> Result<Rule, AppError> {
        let text = |value: &Option<String>| {
            value.as_deref().map(str::trim).filter(|text| !text.is_empty()).map(str::to_string)
        };
        let carrier = match text(&self.carrier) {
            Some(value) => Some(Carrier::parse(&value).ok_or_else(|| {
                AppError::field("carrier", TradeMessage::InvalidChoice { allowed: "mobile, unicom, telecom" })
            })?),
            None => None,
        };
        let kind = match text(&self.product_kind) {
            Some(value) => Some(ProductKind::parse(&value).ok_or_else(|| {
                AppError::field("product_kind", TradeMessage::InvalidChoice { allowed: "direct, card" })
            })?),
            None => None,
        };
        if !(MIN_RATE_BP..=MAX_RATE_BP).contains(&self.rate_bp) {
            return Err(AppError::field(
                "rate_bp",
                CatalogueMessage::RateInvalid { min: MIN_RATE_BP, max: MAX_RATE_BP },
            ));
        }
        Ok(Rule { merchant_id: self.merchant_id, carrier, kind, rate_bp: self.rate_bp, rounding: self.rounding })
    }
}

/// One product's price before and after the rule.
#[derive(Debug, Serialize, ToSchema)]
pub struct RepriceRow {
    pub product_id: i64,
    pub product_key: String,
    pub product_name: String,
    pub face_value_fen: i64,
    /// The current price; absent when the merchant has no quote yet (the rule creates one, on).
    pub old_price_fen: Option<i64>,
    pub new_price_fen: i64,
    /// The cost its price must clear (`margin::dearest_cheapest`); absent when no channel supplies it.
    pub cheapest_cost_fen: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RepricePreview {
    pub rows: Vec<RepriceRow>,
    /// Rows whose price changes (new quotes included).
    pub changed: i64,
    /// Every new price at or below the cheapest channel's cost or under the minimum margin.
    pub warnings: Vec<MarginWarning>,
    /// The minimum margin, basis points of the face value (server setting).
    pub min_margin_bp: i64,
    /// What `acknowledge_warnings` must carry to apply these warnings; absent without warnings.
    pub acknowledgement: Option<String>,
}

/// The rule's outcome for every matching product (products that are on), with the
/// products' cheapest costs, read on `connection`.
async fn compute(
    connection: &mut sqlx::AnyConnection,
    rule: &Rule,
    min_margin_bp: i64,
) -> Result<RepricePreview, AppError> {
    let mut sql = String::from(
        "SELECT p.id, p.product_key, p.name, p.face_value_fen, q.price_fen
         FROM products p LEFT JOIN quotes q ON q.product_id = p.id AND q.merchant_id = $1
         WHERE p.status = 1",
    );
    let mut query_carrier = None;
    let mut query_kind = None;
    if let Some(carrier) = rule.carrier {
        sql.push_str(" AND p.carrier = $2");
        query_carrier = Some(carrier.code());
    }
    if let Some(kind) = rule.kind {
        sql.push_str(if query_carrier.is_some() { " AND p.product_kind = $3" } else { " AND p.product_kind = $2" });
        query_kind = Some(kind.code());
    }
    sql.push_str(" ORDER BY p.carrier, p.product_kind, p.face_value_fen, p.id");
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(rule.merchant_id);
    for value in [query_carrier, query_kind].into_iter().flatten() {
        query = query.bind(value);
    }
    let matching = query.fetch_all(&mut *connection).await?;
    let costs = margin::cheapest_costs(&mut *connection).await?;
    let (mut rows, mut warnings) = (Vec::new(), Vec::new());
    let mut changed = 0;
    for row in matching {
        let face: i64 = row.try_get(3)?;
        let old: Option<i64> = row.try_get(4)?;
        let new = rule_price(face, rule.rate_bp, rule.rounding);
        if !(1..=MAX_AMOUNT_FEN).contains(&new) {
            // A rate within its range that prices a product out of range: beyond the document (422).
            return Err(AppError::unprocessable("rate_bp", CatalogueMessage::RulePriceInvalid));
        }
        if old != Some(new) {
            changed += 1;
        }
        let product_id: i64 = row.try_get(0)?;
        let cost = costs.get(&product_id).copied();
        let product = RepriceRow {
            product_id,
            product_key: row.try_get(1)?,
            product_name: row.try_get(2)?,
            face_value_fen: face,
            old_price_fen: old,
            new_price_fen: new,
            cheapest_cost_fen: cost,
        };
        // Every price the rule sets is judged, unchanged ones too: applying the rule
        // confirms them all.
        let min_margin = margin::min_margin_fen(face, min_margin_bp);
        if let Some(cost) = cost
            && let Some(problem) = margin::judge(new, cost, min_margin)
        {
            warnings.push(MarginWarning {
                product_id,
                product_key: product.product_key.clone(),
                product_name: product.product_name.clone(),
                face_value_fen: face,
                new_price_fen: new,
                cheapest_cost_fen: cost,
                margin_fen: new - cost,
                min_margin_fen: min_margin,
                problem,
            });
        }
        rows.push(product);
    }
    if rows.is_empty() {
        return Err(AppError::Conflict(CatalogueMessage::RuleMatchesNothing.into()));
    }
    let acknowledgement = (!warnings.is_empty()).then(|| margin::digest(rule.merchant_id, &warnings));
    Ok(RepricePreview { rows, changed, warnings, min_margin_bp, acknowledgement })
}

/// What a bulk rule would do, changing nothing.
#[utoipa::path(post, path = "/adminapi/admin/quote/reprice/preview", tag = "admin", request_body = RepriceRequest,
    responses((status = 200, description = "`data` is a RepricePreview", body = RepricePreview), (status = 400, description = "40000: rate or filter invalid"),
        (status = 404, description = "40400: no such merchant"), (status = 409, description = "40900: no product matches"),
        (status = 422, description = "40000: the rate prices a product under one fen or over 100 million yuan")),
    security(("token" = [])))]
pub async fn preview(
    State(state): State<AppState>,
    _admin: AdminUser,
    JsonBody(request): JsonBody<RepriceRequest>,
) -> ApiResult<RepricePreview> {
    let rule = request.parse()?;
    if !crate::money::finance::merchant_exists(&state.db.pool, rule.merchant_id).await? {
        return Err(AppError::NotFound);
    }
    let mut connection = state.db.pool.acquire().await?;
    Ok(ApiOk(compute(&mut connection, &rule, state.config.min_margin_bp).await?))
}

/// Apply a bulk rule: every matching product's quote set to its rule price (created, on,
/// where missing), each change in the price history, all in one transaction.
#[utoipa::path(post, path = "/adminapi/admin/quote/reprice/apply", tag = "admin", request_body = RepriceRequest,
    responses((status = 200, description = "`data` is the RepricePreview of what was applied", body = RepricePreview),
        (status = 400, description = "40000: rate or filter invalid"), (status = 404, description = "40400: no such merchant"),
        (status = 409, description = "40900: no product matches"),
        (status = 422, description = "40000: the rate prices a product under one fen or over 100 million yuan")),
    security(("token" = [])))]
pub async fn apply(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<RepriceRequest>,
) -> ApiResult<RepricePreview> {
    let rule = request.parse()?;
    if !crate::money::finance::merchant_exists(&state.db.pool, rule.merchant_id).await? {
        return Err(AppError::NotFound);
    }
    let mut transaction = state.db.begin_write().await?;
    // Computed again inside the transaction: the prices changed, and the warnings
    // acknowledged, are the ones read here.
    let outcome = compute(&mut transaction, &rule, state.config.min_margin_bp).await?;
    let acknowledged = request.acknowledge_warnings.as_deref().map(str::trim).filter(|text| !text.is_empty());
    match (&outcome.acknowledgement, acknowledged) {
        (None, _) => {}
        (Some(expected), Some(given)) if expected == given => {}
        (Some(_), given) => {
            let count = outcome.warnings.len();
            let products = margin::named_products(&outcome.warnings);
            let message = match given {
                None => CatalogueMessage::RuleNeedsAcknowledgement { count, products },
                Some(_) => CatalogueMessage::RuleWarningsChanged { count, products },
            };
            return Err(AppError::conflict_on("acknowledge_warnings", message));
        }
    }
    let changes: Vec<PriceChange> = outcome
        .rows
        .iter()
        .filter(|row| row.old_price_fen != Some(row.new_price_fen))
        .map(|row| PriceChange {
            merchant_id: rule.merchant_id,
            product_id: row.product_id,
            old_price_fen: row.old_price_fen,
            new_price_fen: row.new_price_fen,
            status: None,
        })
        .collect();
    history::apply_changes(&mut transaction, &changes, Source::Rule, admin.user_id).await?;
    let detail = AuditDetail::QuotesRepriced {
        carrier: rule.carrier.map(|carrier| carrier.as_str().to_string()),
        kind: rule.kind.map(|kind| if kind == ProductKind::Direct { "direct" } else { "card" }.to_string()),
        rate_bp: rule.rate_bp,
        rounding: match rule.rounding {
            Rounding::HalfUp => "half_up",
            Rounding::Down => "down",
            Rounding::Up => "up",
        }
        .to_string(),
        changed: i64::try_from(changes.len()).unwrap_or(i64::MAX),
        total: i64::try_from(outcome.rows.len()).unwrap_or(i64::MAX),
        // The prices confirmed at a loss or under the margin are named with their figures.
        acknowledged: outcome
            .warnings
            .iter()
            .map(|warning| (warning.product_key.clone(), warning.new_price_fen, warning.cheapest_cost_fen))
            .collect(),
    };
    audit::record_detail(
        &mut *transaction,
        Some(admin.user_id),
        audit::action::QUOTES_REPRICED,
        &audit::target::merchant(rule.merchant_id),
        &detail,
        &address.to_string(),
    )
    .await?;
    transaction.commit().await?;
    Ok(ApiOk(outcome))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_prices_are_integer_and_rounded_as_stated() {
        // 98.5 % of 10 yuan is exactly 9.85 yuan.
        assert_eq!(rule_price(1_000, 9_850, Rounding::HalfUp), 985);
        // 98.5 % of 0.33 yuan is 32.505 fen: half up 33, down 32, up 33.
        assert_eq!(rule_price(33, 9_850, Rounding::HalfUp), 33);
        assert_eq!(rule_price(33, 9_850, Rounding::Down), 32);
        assert_eq!(rule_price(33, 9_850, Rounding::Up), 33);
        // 98.49 % of 0.33 yuan is 32.5017 fen: half up 33; 98.47 % is 32.4951: 32.
        assert_eq!(rule_price(33, 9_849, Rounding::HalfUp), 33);
        assert_eq!(rule_price(33, 9_847, Rounding::HalfUp), 32);
        // Exact results are never moved by Up.
        assert_eq!(rule_price(10_000, 9_900, Rounding::Up), 9_900);
        // The largest face value at the largest rate stays exact.
        assert_eq!(rule_price(MAX_AMOUNT_FEN, MAX_RATE_BP, Rounding::HalfUp), 2 * MAX_AMOUNT_FEN);
    }
}
