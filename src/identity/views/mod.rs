//! Saved views of the console's list pages (issue 52): a user keeps a page's filters,
//! columns, density and sort under a name, on the server, so they follow the user to
//! another browser or machine; picks one as the page's default; and may share one with the
//! other users of the same merchant (an administrator: with the other administrators).
//!
//! The server does not read a view's state: it is the console's JSON object, checked only
//! for shape and size, so the console can add to it without a server change.

mod handlers;
mod store;

pub use handlers::*;

use crate::http::error::AppError;
use crate::i18n::ViewMessage;
use crate::identity::session::{CurrentUser, Role};
use crate::platform::state::AppState;
use axum::{Router, routing::post};
use serde_json::Value;

/// The list pages that keep views: the console's list keys (`listKey` of `ListPage`).
pub const PAGES: &[&str] = &[
    "orders-ordinary",
    "orders-card",
    "orders-behalf",
    "review-queue",
    "quotes",
    "account-records",
    "notifications",
    "merchants",
    "audit-log",
    "template-policies",
    "funding",
    "funding-review",
    "ported-numbers",
    "blocklist",
    "maintenance-windows",
    "products",
    "channels",
    "batches",
    "security-history",
    "report-profit",
    "report-sales",
];

pub const MAX_NAME_CHARS: usize = 40;
/// A state holds a page's filters, column order and a few words: 8 KiB is many times that.
pub const MAX_STATE_BYTES: usize = 8 * 1024;
/// Per user and page, shared ones of others not counted: a menu longer than this is not used.
pub const MAX_VIEWS_PER_PAGE: i64 = 50;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/adminapi/views/list", post(handlers::list))
        .route("/adminapi/views/create", post(handlers::create))
        .route("/adminapi/views/update", post(handlers::update))
        .route("/adminapi/views/delete", post(handlers::delete))
        .route("/adminapi/views/default", post(handlers::set_default))
}

/// Who sees a caller's shared views, and whose shared views the caller sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Circle {
    /// The users of one merchant.
    Merchant(i64),
    /// The administrators.
    Administrators,
    /// No one else (a merchant user without a merchant: never shares, sees only its own).
    Alone,
}

impl Circle {
    pub(crate) fn of(caller: &CurrentUser) -> Self {
        match (caller.role, caller.merchant_id) {
            (Role::Admin, _) => Circle::Administrators,
            (Role::User, Some(merchant)) => Circle::Merchant(merchant),
            (Role::User, None) => Circle::Alone,
        }
    }

    /// The `merchant_id` stored with the caller's views (NULL for administrators).
    pub(crate) fn merchant(self) -> Option<i64> {
        match self {
            Circle::Merchant(merchant) => Some(merchant),
            Circle::Administrators | Circle::Alone => None,
        }
    }
}

pub(crate) fn parse_page(page: &str) -> Result<&'static str, AppError> {
    PAGES
        .iter()
        .find(|known| **known == page)
        .copied()
        .ok_or_else(|| AppError::unprocessable("page", ViewMessage::PageUnknown))
}

/// The name trimmed. Empty or over 40 characters breaks the document (400); only spaces is
/// refused beyond it (422).
pub(crate) fn parse_name(name: &str) -> Result<String, AppError> {
    let trimmed = name.trim();
    if name.is_empty() {
        return Err(AppError::field("name", ViewMessage::NameRequired));
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(AppError::field("name", ViewMessage::NameTooLong { max: MAX_NAME_CHARS }));
    }
    if trimmed.is_empty() {
        return Err(AppError::unprocessable("name", ViewMessage::NameRequired));
    }
    Ok(trimmed.to_string())
}

/// The state as stored: an object (400 otherwise, as the document says), at most 8 KiB
/// written out (422: the document cannot count bytes).
pub(crate) fn parse_state(state: &Value) -> Result<String, AppError> {
    if !state.is_object() {
        return Err(AppError::field("state", ViewMessage::StateInvalid));
    }
    let text = state.to_string();
    if text.len() > MAX_STATE_BYTES {
        return Err(AppError::unprocessable("state", ViewMessage::StateTooLarge { max_kib: MAX_STATE_BYTES / 1024 }));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pages_are_the_known_list_keys_only() {
        assert_eq!(parse_page("orders-ordinary").unwrap(), "orders-ordinary");
        for bad in ["", "orders", "ORDERS-ORDINARY", "orders-ordinary ", "../x"] {
            assert!(parse_page(bad).is_err(), "{bad:?}");
        }
    }

    /// The console's lists with a saved-views menu (a `ListPage`, or a `ListTable` with
    /// `savedViews`) name their page by `listKey`: each must be one the server keeps views of,
    /// or the menu's every save is refused.
    #[test]
    fn every_console_list_with_views_is_a_page() {
        fn walk(dir: &std::path::Path, found: &mut Vec<(String, String)>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    walk(&path, found);
                } else if path.extension().is_some_and(|ext| ext == "tsx") && !path.to_string_lossy().contains(".test.")
                {
                    let text = std::fs::read_to_string(&path).unwrap();
                    if !(text.contains("<ListPage") || text.contains("savedViews")) {
                        continue;
                    }
                    for part in text.split("listKey=\"").skip(1) {
                        let key = part.split('"').next().unwrap().to_string();
                        found.push((path.display().to_string(), key));
                    }
                }
            }
        }
        let mut found = Vec::new();
        walk(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web/src/features"), &mut found);
        assert!(found.len() >= 15, "{found:?}");
        for (file, key) in found {
            assert!(PAGES.contains(&key.as_str()), "{file}: listKey {key:?} is not in views::PAGES");
        }
    }

    #[test]
    fn names_are_trimmed_and_bounded_in_characters() {
        assert_eq!(parse_name("  失败订单 ").unwrap(), "失败订单");
        assert_eq!(parse_name(&"视".repeat(40)).unwrap().chars().count(), 40);
        assert!(parse_name(&"视".repeat(41)).is_err());
        assert!(parse_name("   ").is_err());
        assert!(parse_name("").is_err());
    }

    #[test]
    fn states_are_objects_of_at_most_8_kib() {
        assert_eq!(parse_state(&json!({"filters": {"status": "3"}})).unwrap(), r#"{"filters":{"status":"3"}}"#);
        for bad in [json!([]), json!("x"), json!(1), json!(null)] {
            assert!(parse_state(&bad).is_err(), "{bad}");
        }
        let fits = json!({ "a": "x".repeat(MAX_STATE_BYTES - 8) });
        assert_eq!(parse_state(&fits).unwrap().len(), MAX_STATE_BYTES);
        assert!(parse_state(&json!({ "a": "x".repeat(MAX_STATE_BYTES - 7) })).is_err());
    }
}
