//! Administrators keep the product catalogue: create a product, edit it, switch it on or
//! off, delete it while nothing refers to it. A product that quotes or orders refer to
//! keeps its key, carrier, kind and face value (they were priced and sold as such) and is
//! switched off rather than deleted; an off product takes no new orders. Its speed and sales
//! area may change at any time: they apply to orders placed after the change.

use crate::domain::{Carrier, Money, ProductKind, Scope, Speed};
use crate::http::error::{ApiOk, ApiResult, AppError, FieldError};
use crate::http::extract::{ClientAddress, JsonBody};
use crate::i18n::audit::{AuditDetail, ProductFacts};
use crate::i18n::{CatalogueMessage, TradeMessage};
use crate::identity::session::AdminUser;
use crate::platform::audit;
use crate::platform::db::now_millis;
use crate::platform::state::AppState;
use axum::Router;
use axum::extract::State;
use axum::routing::post;
use serde::Deserialize;
use sqlx::{Any, Transaction};
use utoipa::ToSchema;

pub const MAX_PRODUCT_KEY_LENGTH: usize = 64;
pub const MAX_PRODUCT_NAME_LENGTH: usize = 64;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/adminapi/admin/product/create", post(create))
        .route("/adminapi/admin/product/update", post(update))
        .route("/adminapi/admin/product/delete", post(delete))
}

fn audit_target(product_id: i64) -> String {
    format!("product:{product_id}")
}

fn product_key(text: &str) -> Result<String, FieldError> {
    let key = text.trim();
    let valid = !key.is_empty()
        && key.len() <= MAX_PRODUCT_KEY_LENGTH
        && key.bytes().all(|byte| byte.is_ascii_uppercase() || byte.is_ascii_digit() || byte == b'-' || byte == b'_');
    if valid {
        Ok(key.to_string())
    } else {
        Err(FieldError::new("product_key", CatalogueMessage::ProductKeyInvalid { max: MAX_PRODUCT_KEY_LENGTH }.into()))
    }
}

fn product_name(text: &str) -> Result<String, FieldError> {
    let name = text.trim();
    if name.is_empty() || name.chars().count() > MAX_PRODUCT_NAME_LENGTH {
        Err(FieldError::new("name", CatalogueMessage::ProductNameInvalid { max: MAX_PRODUCT_NAME_LENGTH }.into()))
    } else {
        Ok(name.to_string())
    }
}

fn status(value: Option<i64>) -> Result<i64, FieldError> {
    match value.unwrap_or(1) {
        status @ (0 | 1) => Ok(status),
        _ => Err(FieldError::new("status", TradeMessage::InvalidChoice { allowed: "0, 1" }.into())),
    }
}

/// A product as an administrator describes it, parsed at the edge.
struct ProductFields {
    product_key: String,
    name: String,
    carrier: Carrier,
    kind: ProductKind,
    face_value_fen: i64,
    status: i64,
    speed: Speed,
    scope: Scope,
}

impl ProductFields {
    /// What the audit trail keeps of the product.
    fn facts(&self) -> ProductFacts {
        let (product_key, name) = (self.product_key.clone(), self.name.clone());
        let (face_value_fen, status) = (self.face_value_fen, self.status);
        let (speed, provinces) = (self.speed.code(), self.scope.stored());
        ProductFacts { product_key, name, face_value_fen, status, speed, provinces }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ProductRequest {
    /// Updates only: the product's id.
    pub id: Option<i64>,
    /// 1 to 64 of A-Z, 0-9, `-`, `_`, e.g. `MOBILE-DIRECT-100`.
    #[schema(pattern = r"^\s*[A-Z0-9_-]{1,64}\s*$")]
    pub product_key: String,
    /// 1 to 64 characters, e.g. 中国移动话费直充100元.
    #[schema(pattern = r"^\s*\S([\s\S]{0,62}\S)?\s*$")]
    pub name: String,
    /// `mobile`, `unicom` or `telecom`.
    #[schema(pattern = r"^\s*(mobile|unicom|telecom)\s*$")]
    pub carrier: String,
    /// `direct` (话费直充) or `card` (话费卡密).
    #[schema(pattern = r"^\s*(direct|card)\s*$")]
    pub product_kind: String,
    /// Face value in fen (positive, at most 100 million yuan).
    #[schema(minimum = 1, maximum = 10000000000.0)]
    pub face_value_fen: i64,
    /// 1 on (default), 0 off.
    #[schema(minimum = 0, maximum = 1)]
    pub status: Option<i64>,
    /// `fast` (快充, default) or `slow` (慢充): sets how long its orders may take.
    #[schema(pattern = r"^\s*(fast|slow)\s*$")]
    pub speed: Option<String>,
    /// GB/T 2260 codes of the provinces it is sold in (440000 Guangdong); empty or absent:
    /// national.
    #[schema(max_items = 34)]
    pub provinces: Option<Vec<u32>>,
}

impl ProductRequest {
    /// Every field's problem at once, so the form marks them all.
    fn parse(&self) -> Result<ProductFields, AppError> {
        let carrier = Carrier::parse(self.carrier.trim()).ok_or_else(|| {
            FieldError::new("carrier", TradeMessage::InvalidChoice { allowed: "mobile, unicom, telecom" }.into())
        });
        let kind = ProductKind::parse(self.product_kind.trim()).ok_or_else(|| {
            FieldError::new("product_kind", TradeMessage::InvalidChoice { allowed: "direct, card" }.into())
        });
        let face = Money::positive(self.face_value_fen)
            .map(|money| money.fen())
            .ok_or_else(|| FieldError::new("face_value_fen", CatalogueMessage::FaceValueInvalid.into()));
        let speed = match self.speed.as_deref().map(str::trim) {
            None => Ok(Speed::Fast),
            Some(text) => Speed::parse(text)
                .ok_or_else(|| FieldError::new("speed", TradeMessage::InvalidChoice { allowed: "fast, slow" }.into())),
        };
        let scope = Scope::of(self.provinces.clone().unwrap_or_default())
            .ok_or_else(|| FieldError::new("provinces", CatalogueMessage::ProvincesInvalid.into()));
        let fields =
            (product_key(&self.product_key), product_name(&self.name), carrier, kind, face, status(self.status));
        match (fields, speed, scope) {
            (
                (Ok(product_key), Ok(name), Ok(carrier), Ok(kind), Ok(face_value_fen), Ok(status)),
                Ok(speed),
                Ok(scope),
            ) => Ok(ProductFields { product_key, name, carrier, kind, face_value_fen, status, speed, scope }),
            // Whole numbers as documented, but not provinces' codes: 422, as a wrong number is.
            ((Ok(_), Ok(_), Ok(_), Ok(_), Ok(_), Ok(_)), Ok(_), Err(scope)) => {
                Err(AppError::Unprocessable(vec![scope]))
            }
            ((key, name, carrier, kind, face, status), speed, scope) => Err(AppError::Validation(
                [key.err(), name.err(), carrier.err(), kind.err(), face.err(), status.err(), speed.err(), scope.err()]
                    .into_iter()
                    .flatten()
                    .collect(),
            )),
        }
    }
}

/// A product as stored: key, name, carrier, kind, face value, status, speed, sales area.
type StoredProduct = (String, String, i64, i64, i64, i64, i64, String);

/// Another product has the key: a refusal by the current state (409), not a malformed field.
fn key_taken(error: sqlx::Error) -> AppError {
    match &error {
        sqlx::Error::Database(database_error) if database_error.is_unique_violation() => {
            AppError::conflict_on("product_key", CatalogueMessage::ProductKeyTaken)
        }
        _ => error.into(),
    }
}

/// Whether any quote or order refers to the product ($1): one probe of each table's index
/// (`orders_product`, migration 0023), not a scan of the orders.
pub const IN_USE: &str = "SELECT CAST(1 AS BIGINT) WHERE EXISTS (SELECT 1 FROM quotes WHERE product_id = $1)
     OR EXISTS (SELECT 1 FROM orders WHERE product_id = $1)";

/// Whether any quote or order refers to the product.
async fn in_use(transaction: &mut Transaction<'_, Any>, product_id: i64) -> Result<bool, sqlx::Error> {
    let used: Option<i64> = sqlx::query_scalar(IN_USE).bind(product_id).fetch_optional(&mut **transaction).await?;
    Ok(used.is_some())
}

/// Create a product.
#[utoipa::path(post, path = "/adminapi/admin/product/create", tag = "admin", request_body = ProductRequest,
    responses((status = 200, description = "`data` is the new product's id", body = i64, content_type = "application/json"),
        (status = 400, description = "40000: a field is not of the documented form"), (status = 422, description = "40000: `provinces` names a code that is no province's"), (status = 403, description = "40300: not an administrator"),
        (status = 409, description = "40900: another product has the key")),
    security(("token" = [])))]
pub async fn create(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<ProductRequest>,
) -> ApiResult<i64> {
    let fields = request.parse()?;
    let now = now_millis();
    let mut transaction = state.db.begin_write().await?;
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO products (product_key, name, business_name, carrier, product_kind, face_value_fen, status,
                               created_at, updated_at, speed, provinces)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9, $10) RETURNING id",
    )
    .bind(&fields.product_key)
    .bind(&fields.name)
    .bind(crate::i18n::files::business_name(fields.kind))
    .bind(fields.carrier.code())
    .bind(fields.kind.code())
    .bind(fields.face_value_fen)
    .bind(fields.status)
    .bind(now)
    .bind(fields.speed.code())
    .bind(fields.scope.stored())
    .fetch_one(&mut *transaction)
    .await
    .map_err(key_taken)?;
    let detail = AuditDetail::ProductCreated { product: fields.facts() };
    audit::record_detail(
        &mut *transaction,
        Some(admin.user_id),
        audit::action::PRODUCT_CREATED,
        &audit_target(id),
        &detail,
        &address.to_string(),
    )
    .await?;
    transaction.commit().await?;
    Ok(ApiOk(id))
}

/// Edit a product. One in use keeps its key, carrier, kind and face value.
#[utoipa::path(post, path = "/adminapi/admin/product/update", tag = "admin", request_body = ProductRequest,
    responses((status = 200, description = "done"), (status = 400, description = "40000: a field is not of the documented form"), (status = 422, description = "40000: `provinces` names a code that is no province's"),
        (status = 404, description = "40400: no such product (or no id)"),
        (status = 409, description = "40900: in use, only name and on/off may change; or another product has the key")),
    security(("token" = [])))]
pub async fn update(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<ProductRequest>,
) -> ApiResult<()> {
    let id = request.id.ok_or(AppError::NotFound)?;
    let fields = request.parse()?;
    let mut transaction = state.db.begin_write().await?;
    let before: Option<StoredProduct> = sqlx::query_as(
        "SELECT product_key, name, carrier, product_kind, face_value_fen, status, speed, provinces
         FROM products WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(&mut *transaction)
    .await?;
    let (key, name, carrier, kind, face, status, speed, provinces) = before.ok_or(AppError::NotFound)?;
    let identity_changed = key != fields.product_key
        || carrier != fields.carrier.code()
        || kind != fields.kind.code()
        || face != fields.face_value_fen;
    if identity_changed && in_use(&mut transaction, id).await? {
        return Err(AppError::Conflict(CatalogueMessage::ProductLocked.into()));
    }
    sqlx::query(
        "UPDATE products SET product_key = $1, name = $2, business_name = $3, carrier = $4, product_kind = $5,
                face_value_fen = $6, status = $7, updated_at = $8, speed = $10, provinces = $11
         WHERE id = $9",
    )
    .bind(&fields.product_key)
    .bind(&fields.name)
    .bind(crate::i18n::files::business_name(fields.kind))
    .bind(fields.carrier.code())
    .bind(fields.kind.code())
    .bind(fields.face_value_fen)
    .bind(fields.status)
    .bind(now_millis())
    .bind(id)
    .bind(fields.speed.code())
    .bind(fields.scope.stored())
    .execute(&mut *transaction)
    .await
    .map_err(key_taken)?;
    let before = ProductFacts { product_key: key, name, face_value_fen: face, status, speed, provinces };
    let detail = AuditDetail::ProductUpdated { before, after: fields.facts() };
    audit::record_detail(
        &mut *transaction,
        Some(admin.user_id),
        audit::action::PRODUCT_UPDATED,
        &audit_target(id),
        &detail,
        &address.to_string(),
    )
    .await?;
    transaction.commit().await?;
    Ok(ApiOk(()))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ProductIdRequest {
    pub id: i64,
}

/// Delete a product no quote or order refers to, with the channels' supply of it; one in
/// use is refused (switch it off instead).
#[utoipa::path(post, path = "/adminapi/admin/product/delete", tag = "admin", request_body = ProductIdRequest,
    responses((status = 200, description = "done"), (status = 404, description = "40400: no such product"),
        (status = 409, description = "40900: quotes or orders refer to it")),
    security(("token" = [])))]
pub async fn delete(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<ProductIdRequest>,
) -> ApiResult<()> {
    let mut transaction = state.db.begin_write().await?;
    let key: String = sqlx::query_scalar("SELECT product_key FROM products WHERE id = $1")
        .bind(request.id)
        .fetch_optional(&mut *transaction)
        .await?
        .ok_or(AppError::NotFound)?;
    // Checked inside the write transaction: no order can take the product meanwhile.
    if in_use(&mut transaction, request.id).await? {
        return Err(AppError::Conflict(CatalogueMessage::ProductInUse.into()));
    }
    // What a channel supplies of a product nobody can buy is no longer anything: it goes with
    // the product (its foreign key refused the delete, a 500, when a channel still named it).
    sqlx::query("DELETE FROM channel_products WHERE product_id = $1")
        .bind(request.id)
        .execute(&mut *transaction)
        .await?;
    sqlx::query("DELETE FROM products WHERE id = $1").bind(request.id).execute(&mut *transaction).await?;
    audit::record_detail(
        &mut *transaction,
        Some(admin.user_id),
        audit::action::PRODUCT_DELETED,
        &audit_target(request.id),
        &AuditDetail::ProductDeleted { product_key: key },
        &address.to_string(),
    )
    .await?;
    transaction.commit().await?;
    Ok(ApiOk(()))
}
