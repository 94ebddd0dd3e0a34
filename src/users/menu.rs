//! The console's menu as the server sees it (spec §2 routes, §4 menu-from-server).
//!
//! The console asks for this tree when the menu-from-server setting is on and then
//! treats any route missing from it as not found. Entries the caller's role may not
//! open are left out, so the tree doubles as a statement of what each role may use.

use crate::error::{ApiOk, ApiResult};
use crate::session::{CurrentUser, Role};
use serde::Serialize;
use utoipa::ToSchema;

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MenuMeta {
    pub locale: String,
    pub requires_auth: bool,
    pub icon: Option<String>,
    pub order: Option<i64>,
    pub roles: Vec<String>,
    pub hide_in_menu: bool,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MenuEntry {
    pub path: String,
    pub name: String,
    pub meta: MenuMeta,
    #[schema(no_recursion)]
    pub children: Vec<MenuEntry>,
}

/// Who may open an entry.
#[derive(Clone, Copy)]
enum Audience {
    Everyone,
    AdminOnly,
}

struct Definition {
    path: &'static str,
    name: &'static str,
    locale: &'static str,
    icon: Option<&'static str>,
    audience: Audience,
    /// Reachable (from the navbar) but not listed in the side menu.
    hidden: bool,
    children: &'static [Definition],
}

const fn page(path: &'static str, name: &'static str, locale: &'static str, audience: Audience) -> Definition {
    Definition { path, name, locale, icon: None, audience, hidden: false, children: &[] }
}

const fn hidden_page(path: &'static str, name: &'static str, locale: &'static str) -> Definition {
    Definition { hidden: true, ..page(path, name, locale, Audience::Everyone) }
}

const MENU: &[Definition] = &[
    Definition {
        path: "/dashboard",
        name: "dashboard",
        locale: "menu.dashboard",
        icon: Some("icon-dashboard"),
        audience: Audience::Everyone,
        hidden: false,
        children: &[
            page("workplace", "Workplace", "menu.dashboard.workplace", Audience::Everyone),
            page("monitor", "Monitor", "menu.dashboard.monitor", Audience::AdminOnly),
        ],
    },
    Definition {
        path: "/order",
        name: "order",
        locale: "menu.order",
        icon: Some("icon-list"),
        audience: Audience::Everyone,
        hidden: false,
        children: &[
            page("list", "OrderList", "menu.order.list", Audience::Everyone),
            page("cardList", "CardList", "menu.order.cardList", Audience::Everyone),
            page("behalfList", "BehalfList", "menu.order.behalfList", Audience::Everyone),
            page("addList", "AddList", "menu.order.addList", Audience::Everyone),
            page("allAddList", "AllAddList", "menu.order.allAddList", Audience::Everyone),
        ],
    },
    Definition {
        path: "/qoute",
        name: "qoute",
        locale: "menu.qoute",
        icon: Some("icon-tags"),
        audience: Audience::Everyone,
        hidden: false,
        children: &[page("list", "QouteList", "menu.qoute.list", Audience::Everyone)],
    },
    Definition {
        path: "/finance",
        name: "finance",
        locale: "menu.finance",
        icon: Some("icon-bar-chart"),
        audience: Audience::Everyone,
        hidden: false,
        children: &[
            page("account", "Account", "menu.finance.account", Audience::Everyone),
            page("merchants", "Merchants", "menu.finance.merchants", Audience::AdminOnly),
            page("certifications", "Certifications", "menu.finance.certifications", Audience::AdminOnly),
        ],
    },
    Definition {
        path: "/result",
        name: "result",
        locale: "menu.result",
        icon: Some("icon-check-circle"),
        audience: Audience::Everyone,
        hidden: false,
        children: &[
            page("success", "Success", "menu.result.success", Audience::Everyone),
            page("error", "Error", "menu.result.error", Audience::Everyone),
        ],
    },
    Definition {
        path: "/exception",
        name: "exception",
        locale: "menu.exception",
        icon: Some("icon-exclamation-circle"),
        audience: Audience::Everyone,
        hidden: false,
        children: &[
            page("403", "403", "menu.exception.403", Audience::Everyone),
            page("404", "404", "menu.exception.404", Audience::Everyone),
            page("500", "500", "menu.exception.500", Audience::Everyone),
        ],
    },
    Definition {
        path: "/user",
        name: "user",
        locale: "menu.user",
        icon: Some("icon-user"),
        audience: Audience::Everyone,
        hidden: false,
        children: &[
            page("info", "Info", "menu.user.info", Audience::Everyone),
            page("setting", "Setting", "menu.user.setting", Audience::Everyone),
            hidden_page("message", "MessageCenter", "menu.user.messageCenter"),
            page("google-auth", "GoogleAuth", "menu.user.googleAuth", Audience::Everyone),
        ],
    },
];

fn may_see(audience: Audience, role: Role) -> bool {
    match audience {
        Audience::Everyone => true,
        Audience::AdminOnly => role == Role::Admin,
    }
}

fn build(definitions: &[Definition], role: Role) -> Vec<MenuEntry> {
    definitions
        .iter()
        .enumerate()
        .filter(|(_, definition)| may_see(definition.audience, role))
        .map(|(index, definition)| MenuEntry {
            path: definition.path.to_string(),
            name: definition.name.to_string(),
            meta: MenuMeta {
                locale: definition.locale.to_string(),
                requires_auth: true,
                icon: definition.icon.map(str::to_string),
                order: i64::try_from(index).ok(),
                roles: match definition.audience {
                    Audience::Everyone => vec!["*".to_string()],
                    Audience::AdminOnly => vec!["admin".to_string()],
                },
                hide_in_menu: definition.hidden,
            },
            children: build(definition.children, role),
        })
        .collect()
}

pub fn menu_for(role: Role) -> Vec<MenuEntry> {
    build(MENU, role)
}

/// The menu tree the caller's role may see.
#[utoipa::path(
    post, path = "/api/user/menu", tag = "user",
    responses((status = 200, description = "`data` is a list of MenuEntry")),
    security(("token" = []))
)]
pub async fn user_menu(caller: CurrentUser) -> ApiResult<Vec<MenuEntry>> {
    Ok(ApiOk(menu_for(caller.role)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(entries: &[MenuEntry]) -> Vec<String> {
        entries.iter().flat_map(|entry| std::iter::once(entry.name.clone()).chain(names(&entry.children))).collect()
    }

    #[test]
    fn the_monitor_is_for_administrators_only() {
        assert!(names(&menu_for(Role::Admin)).contains(&"Monitor".to_string()));
        assert!(!names(&menu_for(Role::User)).contains(&"Monitor".to_string()));
        assert!(names(&menu_for(Role::User)).contains(&"Workplace".to_string()));
    }

    #[test]
    fn merchant_funding_is_for_administrators_only() {
        assert!(names(&menu_for(Role::Admin)).contains(&"Merchants".to_string()));
        assert!(!names(&menu_for(Role::User)).contains(&"Merchants".to_string()));
    }

    #[test]
    fn certification_review_is_for_administrators_only() {
        assert!(names(&menu_for(Role::Admin)).contains(&"Certifications".to_string()));
        assert!(!names(&menu_for(Role::User)).contains(&"Certifications".to_string()));
    }

    #[test]
    fn the_message_center_is_routed_but_not_listed() {
        let user_group = menu_for(Role::User).into_iter().find(|entry| entry.name == "user").unwrap();
        let message_center = user_group.children.iter().find(|entry| entry.name == "MessageCenter").unwrap();
        assert!(message_center.meta.hide_in_menu);
        assert!(
            user_group
                .children
                .iter()
                .filter(|entry| entry.name != "MessageCenter")
                .all(|entry| !entry.meta.hide_in_menu)
        );
    }

    #[test]
    fn every_route_of_the_specification_is_present() {
        let all = names(&menu_for(Role::Admin));
        for name in [
            "Workplace",
            "Monitor",
            "Account",
            "OrderList",
            "CardList",
            "BehalfList",
            "AddList",
            "AllAddList",
            "QouteList",
            "Merchants",
            "Info",
            "Setting",
            "MessageCenter",
            "GoogleAuth",
        ] {
            assert!(all.contains(&name.to_string()), "{name} missing");
        }
    }
}
