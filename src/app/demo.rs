//! Demo data for `serve --demo`: accounts a newcomer can sign in with at once, the
//! product catalogue, and for the demo merchant (mid 10001) funds, quotes for every
//! product and a few thousand orders over the last 30 days in every state and kind.
//! Seeding is idempotent: what exists already is left as it is.

use crate::domain::{Carrier, ProductKind, Scope, Speed};
use crate::identity::session::Role;
use crate::identity::users::repository::{CreateUserError, FIRST_MERCHANT_ID, NewUser, create_user};
use crate::money::finance::ledger::{Actor, Ledger};
use crate::orders::generate::{GenerateOptions, generate};
use crate::platform::crypto::Secrets;
use crate::platform::db::{Database, now_millis};
use crate::platform::password::{NewPassword, PasswordHasher};
use sqlx::AnyPool;

pub const ADMIN_USERNAME: &str = "admin";
pub const ADMIN_PASSWORD: &str = "Admin123";
pub const MERCHANT_USERNAME: &str = "merchant";
pub const MERCHANT_PASSWORD: &str = "Merchant123";
pub const DEMO_MERCHANT_ID: i64 = FIRST_MERCHANT_ID;
/// Face values of the catalogue, in yuan.
pub const FACE_VALUES_YUAN: [i64; 6] = [10, 20, 30, 50, 100, 200];
/// The demo orders spread over this many days up to now.
pub const DEMO_HISTORY_DAYS: i64 = 30;

/// The open-API key the demo seed made on this start: shown once, on standard output.
#[derive(Clone)]
pub struct DemoApiKey {
    pub key_id: String,
    pub secret: String,
    /// The demo merchant's whitelist as stored, comma-separated (empty: every call refused).
    pub whitelist: String,
}

/// The secret stays out of anything that formats the key for a log.
impl std::fmt::Debug for DemoApiKey {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("DemoApiKey").field("key_id", &self.key_id).field("whitelist", &self.whitelist).finish()
    }
}

/// Seeds everything; `orders` demo orders are generated if the demo merchant has none.
/// Returns the open-API key it made, if it made one on this start.
pub async fn seed(
    db: &Database,
    hasher: &PasswordHasher,
    secrets: &Secrets,
    orders: usize,
) -> anyhow::Result<Option<DemoApiKey>> {
    seed_accounts(db, hasher).await?;
    seed_catalogue(&db.pool).await?;
    if orders > 0 {
        // The demo shows a business at work; tests (no demo orders) keep the plain catalogue.
        seed_speeds_and_areas(&db.pool).await?;
    }
    seed_merchant(db, DEMO_MERCHANT_ID).await?;
    if orders > 0 {
        // Work in the review queue; tests count their own requests.
        seed_funding_request(db, DEMO_MERCHANT_ID).await?;
        seed_security_history(db, DEMO_MERCHANT_ID).await?;
    }
    let made = seed_api_key(db, secrets).await?;
    let has_orders: Option<i64> = sqlx::query_scalar("SELECT id FROM orders WHERE merchant_id = $1 LIMIT 1")
        .bind(DEMO_MERCHANT_ID)
        .fetch_optional(&db.pool)
        .await?;
    if has_orders.is_none() && orders > 0 {
        let options = GenerateOptions {
            merchant_id: DEMO_MERCHANT_ID,
            count: orders,
            days: DEMO_HISTORY_DAYS,
            in_flight_share: 0.01,
            events: true,
        };
        generate(db, secrets, &options).await?;
        tracing::info!(count = orders, "demo orders generated");
    }
    Ok(made)
}

/// Whether the database holds more than the demo makes: a user other than the demo
/// accounts, or money moved by a person (the demo, the generator and the worker move it
/// with no user behind them).
pub async fn holds_non_demo_data(db: &Database) -> anyhow::Result<bool> {
    let other_user: Option<i64> =
        sqlx::query_scalar("SELECT id FROM users WHERE LOWER(username) NOT IN ($1, $2) LIMIT 1")
            .bind(ADMIN_USERNAME)
            .bind(MERCHANT_USERNAME)
            .fetch_optional(&db.pool)
            .await?;
    if other_user.is_some() {
        return Ok(true);
    }
    let moved_by_a_person: Option<i64> =
        sqlx::query_scalar("SELECT id FROM account_log WHERE actor_id IS NOT NULL LIMIT 1")
            .fetch_optional(&db.pool)
            .await?;
    Ok(moved_by_a_person.is_some())
}

pub async fn seed_accounts(db: &Database, hasher: &PasswordHasher) -> anyhow::Result<()> {
    let accounts = [
        (ADMIN_USERNAME, ADMIN_PASSWORD, Role::Admin, None, "管理员"),
        (MERCHANT_USERNAME, MERCHANT_PASSWORD, Role::User, Some(DEMO_MERCHANT_ID), "演示商户"),
    ];
    for (username, password, role, merchant_id, display_name) in accounts {
        let password = NewPassword::parse(password).map_err(|message| anyhow::anyhow!("{message:?}"))?;
        let new_user = NewUser {
            username,
            password: &password,
            role,
            merchant_name: Some(display_name),
            merchant_id,
            display_name,
            recorded_as: None,
        };
        match create_user(db, hasher, new_user).await {
            Ok(_) => tracing::info!(username, "demo account created"),
            Err(CreateUserError::UsernameTaken(_)) => {}
            Err(error) => return Err(anyhow::anyhow!(error).context("seeding the demo accounts")),
        }
    }
    Ok(())
}

/// The product key of a catalogue product, e.g. MOBILE-DIRECT-100.
pub fn product_key(carrier: Carrier, kind: ProductKind, face_yuan: i64) -> String {
    let kind = match kind {
        ProductKind::Direct => "DIRECT",
        ProductKind::Card => "CARD",
    };
    format!("{}-{kind}-{face_yuan}", carrier.as_str().to_uppercase())
}

/// Products for the three carriers at every face value, in both kinds.
pub async fn seed_catalogue(pool: &AnyPool) -> anyhow::Result<()> {
    let now = now_millis();
    for carrier in [Carrier::Mobile, Carrier::Unicom, Carrier::Telecom] {
        for kind in [ProductKind::Direct, ProductKind::Card] {
            for face in FACE_VALUES_YUAN {
                let business = crate::i18n::files::business_name(kind);
                sqlx::query(
                    "INSERT INTO products (product_key, name, business_name, carrier, product_kind, face_value_fen, created_at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (product_key) DO NOTHING",
                )
                .bind(product_key(carrier, kind, face))
                .bind(format!("{}{business}{face}元", crate::i18n::files::carrier_name(carrier, crate::i18n::Locale::ZhCn)))
                .bind(business)
                .bind(carrier.code())
                .bind(kind.code())
                .bind(face * 100)
                .bind(now)
                .execute(pool)
                .await?;
            }
        }
    }
    crate::platform::channel::model::sandbox_supplies_catalogue(pool).await?;
    Ok(())
}

/// Products of a real catalogue beyond carrier × face value: a slow (慢充, cheaper) national
/// one and a Guangdong-only one, each supplied by the sandbox.
async fn seed_speeds_and_areas(pool: &AnyPool) -> anyhow::Result<()> {
    let products = [
        ("MOBILE-SLOW-100", "中国移动话费慢充100元", Speed::Slow, Scope::national()),
        ("MOBILE-GD-50", "广东移动话费直充50元", Speed::Fast, Scope::of([440_000]).unwrap_or_default()),
    ];
    let (now, kind) = (now_millis(), ProductKind::Direct);
    for (key, name, speed, scope) in products {
        let face = if speed == Speed::Slow { 10_000 } else { 5_000 };
        sqlx::query(
            "INSERT INTO products (product_key, name, business_name, carrier, product_kind, face_value_fen, created_at,
                                   speed, provinces)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (product_key) DO NOTHING",
        )
        .bind(key)
        .bind(name)
        .bind(crate::i18n::files::business_name(kind))
        .bind(Carrier::Mobile.code())
        .bind(kind.code())
        .bind(face)
        .bind(now)
        .bind(speed.code())
        .bind(scope.stored())
        .execute(pool)
        .await?;
    }
    crate::platform::channel::model::sandbox_supplies_catalogue(pool).await?;
    Ok(())
}

/// Quotes for every product (where missing) and, once, funds: a balance of 200,000 yuan
/// and a credit limit of 50,000 yuan.
pub async fn seed_merchant(db: &Database, merchant_id: i64) -> anyhow::Result<()> {
    // Dated before the history the demo generates (30 days back): the quotes its orders
    // were priced by, and the funds they were paid from, so that the log read by time
    // runs from one balance to the next without a jump.
    let opened_at = now_millis() - (DEMO_HISTORY_DAYS + 1) * crate::domain::DAY_MS;
    seed_quotes_at(&db.pool, merchant_id, opened_at).await?;
    fund_once(db, merchant_id, opened_at).await
}

/// A quote that is on for every product the merchant has none for: 98.5% of the face
/// value for direct credit, 99% for card secrets.
pub async fn seed_quotes(pool: &AnyPool, merchant_id: i64) -> anyhow::Result<()> {
    seed_quotes_at(pool, merchant_id, now_millis()).await
}

async fn seed_quotes_at(pool: &AnyPool, merchant_id: i64, created_at: i64) -> anyhow::Result<()> {
    sqlx::query(
        "INSERT INTO quotes (merchant_id, product_id, price_fen, status, created_at, updated_at)
         SELECT $1, id, CASE product_kind WHEN 1 THEN face_value_fen * 985 / 1000 ELSE face_value_fen * 99 / 100 END, 1, $2, $2
         FROM products WHERE 1 = 1 ON CONFLICT (merchant_id, product_id) DO NOTHING",
    )
    .bind(merchant_id)
    .bind(created_at)
    .execute(pool)
    .await?;
    Ok(())
}

async fn fund_once(db: &Database, merchant_id: i64, at: i64) -> anyhow::Result<()> {
    let funded: Option<i64> = sqlx::query_scalar("SELECT merchant_id FROM merchant_accounts WHERE merchant_id = $1")
        .bind(merchant_id)
        .fetch_optional(&db.pool)
        .await?;
    if funded.is_none() {
        let mut transaction = db.begin_write().await?;
        let mut ledger = Ledger::open(&mut transaction, merchant_id, Actor { id: None, name: "demo".into() }).await?;
        ledger.set_time(at);
        ledger.top_up(20_000_000, "demo funds");
        ledger.set_credit_limit(5_000_000, "demo credit");
        ledger.flush(&mut transaction).await?;
        transaction.commit().await?;
    }
    Ok(())
}

/// A 1×1 PNG: the demo request's transfer receipt.
const DEMO_PROOF_PNG: &[u8] = &[
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89, 0x00, 0x00, 0x00, 0x0D, 0x49,
    0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8, 0xCF, 0xC0, 0xF0, 0x1F, 0x00, 0x05, 0x00, 0x01, 0xFF, 0x89, 0x99, 0x3D,
    0x1D, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
];

/// One pending funding request of the demo merchant, once, so the review queue has work.
async fn seed_funding_request(db: &Database, merchant_id: i64) -> anyhow::Result<()> {
    let filed: Option<i64> = sqlx::query_scalar("SELECT id FROM funding_requests WHERE merchant_id = $1 LIMIT 1")
        .bind(merchant_id)
        .fetch_optional(&db.pool)
        .await?;
    let user: Option<i64> = sqlx::query_scalar("SELECT MIN(id) FROM users WHERE merchant_id = $1")
        .bind(merchant_id)
        .fetch_one(&db.pool)
        .await?;
    let (None, Some(user)) = (filed, user) else { return Ok(()) };
    let now = now_millis();
    sqlx::query(
        "INSERT INTO funding_requests (merchant_id, amount_fen, bank_reference, reference_key, payer_name, note,
             proof_type, proof, proof_size, status, created_by, created_at, updated_at)
         VALUES ($1, 5000000, 'DEMO-20261201-001', 'DEMO-20261201-001', '示例科技有限公司', 'demo', 'image/png', $2, $3,
             'pending', $4, $5, $5)",
    )
    .bind(merchant_id)
    .bind(DEMO_PROOF_PNG)
    .bind(DEMO_PROOF_PNG.len() as i64)
    .bind(user)
    .bind(now)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// A few days of the demo merchant's security history, once, so its page has rows from
/// other addresses and browsers beside the sign-ins of whoever tries the demo.
async fn seed_security_history(db: &Database, merchant_id: i64) -> anyhow::Result<()> {
    let any: Option<i64> = sqlx::query_scalar("SELECT id FROM security_events WHERE merchant_id = $1 LIMIT 1")
        .bind(merchant_id)
        .fetch_optional(&db.pool)
        .await?;
    let user: Option<(i64, String)> =
        sqlx::query_as("SELECT id, username FROM users WHERE merchant_id = $1 ORDER BY id LIMIT 1")
            .bind(merchant_id)
            .fetch_optional(&db.pool)
            .await?;
    let (None, Some((user_id, username))) = (any, user) else { return Ok(()) };
    const WINDOWS_CHROME: &str = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
    const MAC_FIREFOX: &str = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.6; rv:132.0) Gecko/20100101 Firefox/132.0";
    const HOUR: i64 = 3600 * 1000;
    let events: [(&str, &str, &str, &str, i64); 5] = [
        ("sign_in", r#"{"t":"sign_in","with_code":false}"#, "203.0.113.7", WINDOWS_CHROME, 120),
        ("api_key_created", r#"{"t":"api_key","key_id":"ak_demo"}"#, "203.0.113.7", WINDOWS_CHROME, 119),
        ("sign_in_failed", r#"{"t":"failed","reason":"password"}"#, "198.51.100.23", MAC_FIREFOX, 50),
        ("sign_in", r#"{"t":"sign_in","with_code":false}"#, "198.51.100.23", MAC_FIREFOX, 49),
        ("password_changed", r#"{"t":"none"}"#, "198.51.100.23", MAC_FIREFOX, 48),
    ];
    let now = now_millis();
    for (kind, detail, address, agent, hours_ago) in events {
        sqlx::query(
            "INSERT INTO security_events
                 (merchant_id, user_id, username, kind, detail, client_address, user_agent, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(merchant_id)
        .bind(user_id)
        .bind(&username)
        .bind(kind)
        .bind(detail)
        .bind(address)
        .bind(agent)
        .bind(now - hours_ago * HOUR)
        .execute(&db.pool)
        .await?;
    }
    Ok(())
}

/// The demo merchant's open-API key, made (with a whitelist of the loopback addresses,
/// if it has none) when the merchant has never had a key, so a newcomer can call the
/// API at once; returned only then. A key the merchant made later in the console is
/// never returned here: its secret was shown once, there.
async fn seed_api_key(db: &Database, secrets: &Secrets) -> anyhow::Result<Option<DemoApiKey>> {
    let any: Option<i64> = sqlx::query_scalar("SELECT id FROM api_keys WHERE merchant_id = $1 LIMIT 1")
        .bind(DEMO_MERCHANT_ID)
        .fetch_optional(&db.pool)
        .await?;
    if any.is_some() {
        return Ok(None);
    }
    let (key_id, secret) = crate::identity::api_keys::store::generate();
    let sealed = crate::identity::api_keys::store::seal(secrets, &key_id, &secret)?;
    let mut transaction = db.begin_write().await?;
    crate::identity::api_keys::store::insert(&mut transaction, &key_id, DEMO_MERCHANT_ID, &sealed, None).await?;
    sqlx::query("UPDATE users SET ip_whitelist = '127.0.0.1,::1' WHERE merchant_id = $1 AND ip_whitelist = ''")
        .bind(DEMO_MERCHANT_ID)
        .execute(&mut *transaction)
        .await?;
    transaction.commit().await?;
    let whitelist = crate::identity::api_keys::store::whitelist(&db.pool, DEMO_MERCHANT_ID).await?.join(",");
    Ok(Some(DemoApiKey { key_id, secret, whitelist }))
}

/// The demo merchant's newest active key: (key id, secret). For the benchmarks, which
/// sign calls with it; never printed by the server.
pub async fn demo_api_key(db: &Database, secrets: &Secrets) -> anyhow::Result<Option<(String, String)>> {
    let row: Option<(String, String)> = sqlx::query_as(
        "SELECT key_id, secret_enc FROM api_keys WHERE merchant_id = $1 AND revoked_at IS NULL ORDER BY id DESC LIMIT 1",
    )
    .bind(DEMO_MERCHANT_ID)
    .fetch_optional(&db.pool)
    .await?;
    row.map(|(key_id, sealed)| Ok((key_id.clone(), crate::identity::api_keys::store::open(secrets, &key_id, &sealed)?)))
        .transpose()
}
