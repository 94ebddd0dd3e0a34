//! Who may call what (issue 52 §1): one table for every signed-in path, checked by the
//! session extractor (`session::CurrentUser`) before any handler runs, so no handler can
//! forget. A path without a rule is refused to everyone (40300); a table test
//! (`app::api_docs`) walks the served OpenAPI document and fails on any path without one.
//!
//! Administrators keep what they had: the table never refuses them a path that has a
//! rule (admin-only handlers still take `AdminUser`). A merchant's user is allowed a path
//! when its role is in the path's set. The roles:
//! - owner: everything a merchant may do, its staff (`/adminapi/staff/...`) and its
//!   security history (`/adminapi/security/...`);
//! - finance: balance, account log, statements, the sales report, funding requests, exports;
//! - operator: orders, batches, card secrets;
//! - developer: API keys, notification settings and secret, the signature helper, and
//!   orders read-only;
//! - viewer: read-only.
//!
//! Everyone signed in may read and change their own profile, password, two-factor, inbox
//! and saved views, and read products, quotes, orders and maintenance windows.
//!
//! A leaf module: the session extractor imports it, it imports nothing of the crate.

use serde::{Deserialize, Serialize};

/// A merchant user's role (`users.merchant_role`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum MerchantRole {
    Owner,
    Finance,
    Operator,
    Developer,
    Viewer,
}

impl MerchantRole {
    pub const ALL: [MerchantRole; 5] = [
        MerchantRole::Owner,
        MerchantRole::Finance,
        MerchantRole::Operator,
        MerchantRole::Developer,
        MerchantRole::Viewer,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            MerchantRole::Owner => "owner",
            MerchantRole::Finance => "finance",
            MerchantRole::Operator => "operator",
            MerchantRole::Developer => "developer",
            MerchantRole::Viewer => "viewer",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        MerchantRole::ALL.into_iter().find(|role| role.as_str() == text)
    }
}

/// What a path asks of its caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// Not a session's call: sign-in, health, the signed open API, supplier callbacks.
    NoSession,
    /// Administrators only.
    Admin,
    /// Administrators, and merchant users of these roles.
    Merchant(&'static [MerchantRole]),
}

use MerchantRole::{Developer as D, Finance as F, Operator as P, Owner as O, Viewer as V};

const EVERYONE: &[MerchantRole] = &[O, F, P, D, V];
const OWNER: &[MerchantRole] = &[O];
const OWNER_VIEWER: &[MerchantRole] = &[O, V];
const FINANCE: &[MerchantRole] = &[O, F];
const FINANCE_READ: &[MerchantRole] = &[O, F, V];
const OPERATOR: &[MerchantRole] = &[O, P];
const DEVELOPER: &[MerchantRole] = &[O, D];
const DEVELOPER_READ: &[MerchantRole] = &[O, D, V];
const EXPORTS_OF_ORDERS: &[MerchantRole] = &[O, F, P];

/// The rule of a path and method (`GET`, `POST`...); None: no rule, refused.
pub fn rule(method: &str, path: &str) -> Option<Rule> {
    use Rule::{Admin, Merchant, NoSession};
    if path.starts_with("/adminapi/admin/") {
        return Some(Admin);
    }
    if path.starts_with("/openapi/v1/") || path.starts_with("/channel/callback/") {
        return Some(NoSession);
    }
    if path.starts_with("/api/template/") {
        return Some(Merchant(EVERYONE));
    }
    let rule = match (method, path) {
        (_, "/adminapi/login/login" | "/adminapi/login/verify2FA" | "/adminapi/login/logout") => NoSession,
        (_, "/healthz" | "/readyz" | "/metrics") => NoSession,
        // The event stream is opened with a one-time ticket only administrators get.
        (_, "/adminapi/monitor/stream") => NoSession,
        (_, "/adminapi/monitor/overview" | "/adminapi/monitor/stream/ticket") => Admin,
        (_, "/adminapi/certification/review" | "/adminapi/certification/pendingCount") => Admin,
        ("GET", "/adminapi/certification/licence") => Admin,
        // One's own account.
        (
            _,
            "/api/user/menu"
            | "/api/system/info"
            | "/adminapi/merchant/userInfo"
            | "/adminapi/merchant/profile"
            | "/adminapi/merchant/changeInfo"
            | "/adminapi/merchant/changePassword"
            | "/adminapi/merchant/security"
            | "/adminapi/merchant/activity"
            | "/adminapi/merchant/avatar"
            | "/adminapi/message/list"
            | "/adminapi/message/read"
            | "/adminapi/message/readAll"
            | "/adminapi/message/unreadCount"
            | "/adminapi/views/list"
            | "/adminapi/views/create"
            | "/adminapi/views/update"
            | "/adminapi/views/delete"
            | "/adminapi/views/default"
            | "/adminapi/google-auth/setup2FA"
            | "/adminapi/google-auth/enable2FA"
            | "/adminapi/google-auth/disable2FA"
            | "/adminapi/google-auth/regenerateBackupCodes"
            | "/adminapi/google-auth/get2FAStatus",
        ) => Merchant(EVERYONE),
        // The merchant's staff and its settings; its security history (who signed in from
        // where, keys, roles) is the owners', as Stripe and Adyen keep it to their owners.
        (_, path) if path.starts_with("/adminapi/staff/") => Merchant(OWNER),
        (_, "/adminapi/security/list" | "/adminapi/security/export" | "/adminapi/security/kinds") => Merchant(OWNER),
        ("POST", "/adminapi/certification/licence")
        | (_, "/adminapi/certification/submit" | "/adminapi/certification/withdraw") => Merchant(OWNER),
        (_, "/adminapi/certification/list" | "/adminapi/certification/detail") => Merchant(OWNER_VIEWER),
        (_, "/adminapi/merchant/risk") => Merchant(FINANCE_READ),
        // Money.
        (
            _,
            "/adminapi/finance/overview"
            | "/adminapi/finance/account/list"
            | "/adminapi/finance/statement"
            | "/adminapi/funding/list"
            | "/adminapi/funding/proof"
            | "/adminapi/report/sales",
        ) => Merchant(FINANCE_READ),
        (
            _,
            "/adminapi/finance/account/export"
            | "/adminapi/finance/statement/export"
            | "/adminapi/report/sales/export"
            | "/adminapi/funding/create"
            | "/adminapi/funding/withdraw"
            | "/adminapi/quote/export",
        ) => Merchant(FINANCE),
        // Orders.
        (
            _,
            "/adminapi/product/list"
            | "/adminapi/quote/list"
            | "/adminapi/order/list"
            | "/adminapi/order/detail"
            | "/adminapi/order/batch/list"
            | "/adminapi/order/batch/detail"
            | "/adminapi/order/batch/result"
            | "/adminapi/windows/upcoming",
        ) => Merchant(EVERYONE),
        (_, "/adminapi/order/export") => Merchant(EXPORTS_OF_ORDERS),
        (
            _,
            "/adminapi/order/add"
            | "/adminapi/order/price"
            | "/adminapi/segment/lookup"
            | "/adminapi/order/batch/preview"
            | "/adminapi/order/batch/submit"
            | "/adminapi/order/batch/discard"
            | "/adminapi/order/batch/template"
            | "/adminapi/order/card/reveal"
            | "/adminapi/order/card/export",
        ) => Merchant(OPERATOR),
        // Integration.
        (_, "/adminapi/apikey/list" | "/adminapi/notify/list" | "/adminapi/notify/attempts") => {
            Merchant(DEVELOPER_READ)
        }
        (
            _,
            "/adminapi/apikey/create"
            | "/adminapi/apikey/revoke"
            | "/adminapi/apikey/setLegacy"
            | "/adminapi/apikey/signCheck"
            | "/adminapi/merchant/changeIntegration"
            | "/adminapi/notify/resend"
            | "/adminapi/notify/resendFailed"
            | "/adminapi/notify/rotateSecret"
            | "/adminapi/notify/test",
        ) => Merchant(DEVELOPER),
        _ => return None,
    };
    Some(rule)
}

/// Whether a signed-in caller may call a path: an administrator (`merchant_role` None)
/// any path with a rule, a merchant user the paths whose rule names its role.
pub fn allows(merchant_role: Option<MerchantRole>, method: &str, path: &str) -> bool {
    match (rule(method, path), merchant_role) {
        (None, _) => false,
        (Some(_), None) => true,
        (Some(Rule::Merchant(roles)), Some(role)) => roles.contains(&role),
        (Some(Rule::Admin | Rule::NoSession), Some(_)) => false,
    }
}

/// What a user of a merchant that requires two-factor may still call before turning it
/// on: who they are, the server's flags, the menu, the set-up itself, and signing out.
pub const TWO_FACTOR_SETUP_PATHS: [&str; 8] = [
    "/adminapi/merchant/userInfo",
    "/api/system/info",
    "/api/user/menu",
    "/adminapi/google-auth/setup2FA",
    "/adminapi/google-auth/enable2FA",
    "/adminapi/google-auth/get2FAStatus",
    "/adminapi/merchant/changePassword",
    "/adminapi/login/logout",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_read_back() {
        for role in MerchantRole::ALL {
            assert_eq!(MerchantRole::parse(role.as_str()), Some(role));
        }
        assert_eq!(MerchantRole::parse("admin"), None);
    }

    #[test]
    fn unknown_paths_are_refused_to_everyone() {
        assert!(!allows(None, "POST", "/adminapi/nothing/here"));
        assert!(!allows(Some(MerchantRole::Owner), "POST", "/adminapi/nothing/here"));
    }

    #[test]
    fn each_role_gets_its_part() {
        let may = |role, path| allows(Some(role), "POST", path);
        for role in MerchantRole::ALL {
            assert!(may(role, "/adminapi/order/list"), "{role:?} reads orders");
            assert!(may(role, "/adminapi/merchant/userInfo"));
            assert!(!may(role, "/adminapi/admin/merchant/list"));
            assert_eq!(may(role, "/adminapi/staff/list"), role == O);
            assert_eq!(may(role, "/adminapi/security/list"), role == O);
            assert_eq!(allows(Some(role), "GET", "/adminapi/security/export"), role == O);
            assert_eq!(may(role, "/adminapi/funding/create"), matches!(role, O | F));
            assert_eq!(may(role, "/adminapi/order/add"), matches!(role, O | P));
            assert_eq!(may(role, "/adminapi/order/card/reveal"), matches!(role, O | P));
            assert_eq!(may(role, "/adminapi/apikey/create"), matches!(role, O | D));
            assert_eq!(may(role, "/adminapi/finance/account/list"), matches!(role, O | F | V));
        }
        assert!(allows(None, "POST", "/adminapi/admin/merchant/list"));
        assert!(allows(None, "POST", "/adminapi/order/add"));
        assert!(allows(None, "GET", "/adminapi/certification/licence"));
        assert!(!allows(Some(O), "GET", "/adminapi/certification/licence"));
        assert!(allows(Some(O), "POST", "/adminapi/certification/licence"));
    }
}
