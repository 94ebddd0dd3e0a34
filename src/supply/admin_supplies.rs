//! What a channel supplies: per product its cost, priority, weight, whether enabled and the
//! provinces it covers (coverage), read and set by administrators (in bulk), and
//! the same as a file (`admin_coverage.rs`).

use super::setup::{self, Supply};
use crate::domain::Scope;
use crate::http::error::{ApiOk, ApiResult, AppError, FieldError};
use crate::http::extract::{ClientAddress, JsonBody};
use crate::i18n::ChannelMessage;
use crate::i18n::audit::AuditDetail;
use crate::identity::session::AdminUser;
use crate::platform::audit::{self, action};
use crate::platform::channel::model;
use crate::platform::state::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Costs are at most this many fen (1 million yuan), weights at most `MAX_WEIGHT`.
pub const MAX_COST_FEN: i64 = 100_000_000;
pub const MAX_WEIGHT: i64 = 10_000;
/// Priorities are kept within ± this.
pub const MAX_PRIORITY: i64 = 1_000_000;

#[derive(Debug, Deserialize, ToSchema)]
pub struct ChannelIdRequest {
    pub id: i64,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SupplyItem {
    pub product_key: String,
    /// The channel's cost price, fen (0 to 100 million).
    #[schema(minimum = 0, maximum = 100000000)]
    pub cost_fen: i64,
    /// Higher goes first.
    pub priority: i64,
    /// Share within one priority, 0 to 10000.
    #[schema(minimum = 0, maximum = 10000)]
    pub weight: i64,
    pub enabled: bool,
    /// GB/T 2260 codes of the provinces whose numbers it tops up for this product (440000
    /// Guangdong); empty: national. Always answered; on a save, absent or null keeps the
    /// row's coverage (national for a new row).
    #[serde(default)]
    pub provinces: Option<Vec<u32>>,
}

/// One row of a channel's supplies as stored.
pub struct SupplyRow {
    pub product_key: String,
    pub cost_fen: i64,
    pub priority: i64,
    pub weight: i64,
    pub enabled: bool,
    pub provinces: Scope,
}

/// A channel's supplies in catalogue order.
pub async fn rows(pool: &sqlx::AnyPool, channel_id: i64) -> Result<Vec<SupplyRow>, sqlx::Error> {
    let rows: Vec<(String, i64, i64, i64, i64, String)> = sqlx::query_as(
        "SELECT p.product_key, cp.cost_fen, cp.priority, cp.weight, cp.enabled, cp.provinces FROM channel_products cp
         JOIN products p ON p.id = cp.product_id WHERE cp.channel_id = $1 ORDER BY p.id",
    )
    .bind(channel_id)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(product_key, cost_fen, priority, weight, enabled, provinces)| SupplyRow {
            product_key,
            cost_fen,
            priority,
            weight,
            enabled: enabled != 0,
            provinces: Scope::from_stored(&provinces).unwrap_or_default(),
        })
        .collect())
}

/// What a channel supplies, at what cost, priority and weight, covering which provinces.
#[utoipa::path(post, path = "/adminapi/admin/channel/products", tag = "channels", request_body = ChannelIdRequest,
    responses((status = 200, description = "`data` is a list of SupplyItem", body = [SupplyItem]),
        (status = 403, description = "40300: administrators only")),
    security(("token" = [])))]
pub async fn products(
    State(state): State<AppState>,
    _admin: AdminUser,
    JsonBody(request): JsonBody<ChannelIdRequest>,
) -> ApiResult<Vec<SupplyItem>> {
    let rows = rows(&state.db.pool, request.id).await?;
    Ok(ApiOk(
        rows.into_iter()
            .map(|row| SupplyItem {
                product_key: row.product_key,
                cost_fen: row.cost_fen,
                priority: row.priority,
                weight: row.weight,
                enabled: row.enabled,
                provinces: Some(row.provinces.provinces().to_vec()),
            })
            .collect(),
    ))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SaveSuppliesRequest {
    pub id: i64,
    /// Set in one go (bulk edit); products not named stay as they are.
    pub items: Vec<SupplyItem>,
}

/// Set cost prices, priorities, weights and coverage of products of a channel, all or nothing.
#[utoipa::path(post, path = "/adminapi/admin/channel/products/save", tag = "channels", request_body = SaveSuppliesRequest,
    responses((status = 200, description = "Done"),
        (status = 400, description = "40000: an item's cost or weight out of range (field `items[n].x`)"),
        (status = 403, description = "40300: administrators only"),
        (status = 404, description = "40400: no such channel"),
        (status = 422, description = "40000: an item names no product of the catalogue (field `items[n].product_key`) \
            or a code that is no province's (`items[n].provinces`)")),
    security(("token" = [])))]
pub async fn save_products(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<SaveSuppliesRequest>,
) -> ApiResult<()> {
    model::by_id(&state.db.pool, request.id).await?.ok_or(AppError::NotFound)?;
    let products: std::collections::HashMap<String, i64> =
        sqlx::query_as("SELECT product_key, id FROM products").fetch_all(&state.db.pool).await?.into_iter().collect();
    // `errors`: the document's ranges (400); `refused`: keys the catalogue lacks, codes no
    // province has (422).
    let (mut errors, mut refused) = (Vec::new(), Vec::new());
    let mut supplies = Vec::with_capacity(request.items.len());
    for (index, item) in request.items.iter().enumerate() {
        let field = |name: &str| format!("items[{index}].{name}");
        if !(0..=MAX_COST_FEN).contains(&item.cost_fen) {
            errors.push(FieldError::new(field("cost_fen"), ChannelMessage::CostInvalid.into()));
        }
        if !(0..=MAX_WEIGHT).contains(&item.weight) {
            errors.push(FieldError::new(field("weight"), ChannelMessage::WeightInvalid.into()));
        }
        let provinces = match &item.provinces {
            None => None,
            Some(codes) => match Scope::of(codes.iter().copied()) {
                Some(scope) => Some(scope.stored()),
                None => {
                    refused.push(FieldError::new(field("provinces"), ChannelMessage::ProvincesInvalid.into()));
                    None
                }
            },
        };
        let Some(product_id) = products.get(item.product_key.trim()) else {
            refused.push(FieldError::new(field("product_key"), ChannelMessage::ProductUnknown.into()));
            continue;
        };
        supplies.push(Supply {
            product_id: *product_id,
            cost_fen: item.cost_fen,
            priority: item.priority.clamp(-MAX_PRIORITY, MAX_PRIORITY),
            weight: item.weight,
            enabled: item.enabled,
            provinces,
        });
    }
    if !errors.is_empty() {
        errors.extend(refused);
        return Err(AppError::Validation(errors));
    }
    if !refused.is_empty() {
        return Err(AppError::Unprocessable(refused));
    }
    write_audited(&state, admin.user_id, &address.to_string(), request.id, &supplies).await
}

/// Writes supplies with their audit record, in one transaction.
pub async fn write_audited(
    state: &AppState,
    user_id: i64,
    address: &str,
    channel_id: i64,
    supplies: &[Supply],
) -> ApiResult<()> {
    let mut transaction = state.db.begin_write().await?;
    setup::write_supplies(&mut transaction, channel_id, supplies).await?;
    let detail = AuditDetail::ChannelProductsSaved { count: i64::try_from(supplies.len()).unwrap_or(i64::MAX) };
    let target = audit::target::channel(channel_id);
    audit::record_detail(&mut *transaction, Some(user_id), action::CHANNEL_PRODUCTS_SAVED, &target, &detail, address)
        .await?;
    transaction.commit().await?;
    Ok(ApiOk(()))
}
