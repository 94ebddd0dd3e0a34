//! Demo data for `serve --demo`: accounts a newcomer can sign in with at once.
//! Seeding is idempotent: what exists already is left as it is.

use crate::auth::password::{NewPassword, PasswordHasher};
use crate::auth::session::Role;
use crate::users::repository::{CreateUserError, FIRST_MERCHANT_ID, NewUser, create_user};
use sqlx::AnyPool;

pub const ADMIN_USERNAME: &str = "admin";
pub const ADMIN_PASSWORD: &str = "Admin123";
pub const MERCHANT_USERNAME: &str = "merchant";
pub const MERCHANT_PASSWORD: &str = "Merchant123";
pub const DEMO_MERCHANT_ID: i64 = FIRST_MERCHANT_ID;

pub async fn seed(pool: &AnyPool, hasher: &PasswordHasher) -> anyhow::Result<()> {
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
        };
        match create_user(pool, hasher, new_user).await {
            Ok(_) => tracing::info!(username, "demo account created"),
            Err(CreateUserError::UsernameTaken(_)) => {}
            Err(error) => return Err(anyhow::anyhow!(error).context("seeding the demo accounts")),
        }
    }
    Ok(())
}
