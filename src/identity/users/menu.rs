//! The console's menu as the server sees it (its routes, sent to the console at sign-in).
//!
//! The console asks for this tree when the menu-from-server setting is on and then
//! treats any route missing from it as not found. Entries the caller's role may not
//! open are left out, so the tree doubles as a statement of what each role may use.

use crate::http::error::{ApiOk, ApiResult};
use crate::identity::permissions::MerchantRole;
use crate::identity::session::{CurrentUser, Role};
use crate::platform::state::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use std::sync::LazyLock;
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
    /// Template and demo material, listed only with `--template-pages`.
    pub template: bool,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MenuEntry {
    pub path: String,
    pub name: String,
    pub meta: MenuMeta,
    #[schema(no_recursion)]
    pub children: Vec<MenuEntry>,
}

/// One entry of the menu's single definition, `web/src/app/routes/menu.json`, which the
/// console's route table reads too: paths, names, roles and order are written once.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Definition {
    path: String,
    name: String,
    locale: String,
    #[serde(default)]
    icon: Option<String>,
    /// `["*"]` for everyone, `"admin"`, `"user"` (every merchant user) or merchant roles
    /// (`"owner"`, `"finance"`...: the merchant users holding one).
    roles: Vec<String>,
    /// Reachable (from the navbar) but not listed in the side menu.
    #[serde(default)]
    hide_in_menu: bool,
    /// A template page (mock material): left out unless the server runs with
    /// `--template-pages`; a group marked so takes all its entries with it.
    #[serde(default)]
    template: bool,
    #[serde(default)]
    children: Vec<Definition>,
}

const MENU_JSON: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/web/src/app/routes/menu.json"));

/// Parsed once; the file is part of the binary, so a malformed one fails the tests and
/// the first menu request of a broken build, never silently.
static MENU: LazyLock<Vec<Definition>> =
    LazyLock::new(|| serde_json::from_str(MENU_JSON).expect("web/src/app/routes/menu.json is a valid menu"));

/// Who sees an entry. A merchant user of no known role counts as an owner.
#[derive(Clone, Copy)]
struct Viewer {
    role: Role,
    merchant_role: Option<MerchantRole>,
}

fn may_see(roles: &[String], viewer: Viewer) -> bool {
    roles.iter().any(|allowed| {
        allowed == "*"
            || (allowed == "admin" && viewer.role == Role::Admin)
            || (allowed == "user" && viewer.role == Role::User)
            || (viewer.role == Role::User
                && viewer.merchant_role.unwrap_or(MerchantRole::Owner).as_str() == allowed.as_str())
    })
}

fn build(definitions: &[Definition], viewer: Viewer, template_pages: bool, top_level: bool) -> Vec<MenuEntry> {
    definitions
        .iter()
        .enumerate()
        .filter(|(_, definition)| may_see(&definition.roles, viewer) && (template_pages || !definition.template))
        .map(|(index, definition)| MenuEntry {
            path: definition.path.clone(),
            name: definition.name.clone(),
            meta: MenuMeta {
                locale: definition.locale.clone(),
                requires_auth: true,
                icon: definition.icon.clone(),
                // Groups are ordered from 1 (the /dashboard group is 1), as the
                // console's own table orders them; entries keep their file order.
                order: i64::try_from(index).ok().map(|index| if top_level { index + 1 } else { index }),
                roles: definition.roles.clone(),
                hide_in_menu: definition.hide_in_menu,
                template: definition.template,
            },
            children: build(&definition.children, viewer, template_pages, false),
        })
        .collect()
}

pub fn menu_for(role: Role, template_pages: bool) -> Vec<MenuEntry> {
    menu_of(role, None, template_pages)
}

/// The menu of a merchant user of a role (None: an administrator, or an owner).
pub fn menu_of(role: Role, merchant_role: Option<MerchantRole>, template_pages: bool) -> Vec<MenuEntry> {
    build(&MENU, Viewer { role, merchant_role }, template_pages, true)
}

/// The menu tree the caller's role may see.
#[utoipa::path(
    post, path = "/api/user/menu", tag = "user",
    responses((status = 200, description = "`data` is a list of MenuEntry", body = [MenuEntry])),
    security(("token" = []))
)]
pub async fn user_menu(State(state): State<AppState>, caller: CurrentUser) -> ApiResult<Vec<MenuEntry>> {
    Ok(ApiOk(menu_of(caller.role, caller.merchant_role, state.config.template_pages)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(entries: &[MenuEntry]) -> Vec<String> {
        entries.iter().flat_map(|entry| std::iter::once(entry.name.clone()).chain(names(&entry.children))).collect()
    }

    #[test]
    fn the_shared_definition_parses_with_known_roles_only() {
        fn check(definitions: &[Definition]) {
            for definition in definitions {
                assert!(
                    definition
                        .roles
                        .iter()
                        .all(|role| ["*", "admin", "user"].contains(&role.as_str())
                            || MerchantRole::parse(role).is_some()),
                    "{}",
                    definition.name
                );
                check(&definition.children);
            }
        }
        check(&MENU);
    }

    #[test]
    fn merchant_roles_see_their_part() {
        let operator = names(&menu_of(Role::User, Some(MerchantRole::Operator), false));
        assert!(operator.contains(&"AddList".to_string()));
        assert!(!operator.contains(&"Account".to_string()) && !operator.contains(&"Funding".to_string()));
        assert!(!operator.contains(&"Staff".to_string()));
        let finance = names(&menu_of(Role::User, Some(MerchantRole::Finance), false));
        assert!(finance.contains(&"Funding".to_string()) && !finance.contains(&"AddList".to_string()));
        let owner = names(&menu_of(Role::User, Some(MerchantRole::Owner), false));
        assert!(owner.contains(&"Staff".to_string()) && owner.contains(&"Funding".to_string()));
        assert!(!names(&menu_for(Role::Admin, false)).contains(&"Staff".to_string()));
        // The security history: owners, and administrators (any merchant's).
        assert!(owner.contains(&"SecurityHistory".to_string()) && !finance.contains(&"SecurityHistory".to_string()));
        assert!(names(&menu_for(Role::Admin, false)).contains(&"SecurityHistory".to_string()));
    }

    #[test]
    fn the_monitor_is_for_administrators_only() {
        assert!(names(&menu_for(Role::Admin, false)).contains(&"Monitor".to_string()));
        assert!(!names(&menu_for(Role::User, false)).contains(&"Monitor".to_string()));
        assert!(names(&menu_for(Role::User, false)).contains(&"Workplace".to_string()));
    }

    #[test]
    fn merchant_funding_is_for_administrators_only() {
        assert!(names(&menu_for(Role::Admin, false)).contains(&"Merchants".to_string()));
        assert!(!names(&menu_for(Role::User, false)).contains(&"Merchants".to_string()));
    }

    #[test]
    fn certification_review_is_for_administrators_only() {
        assert!(names(&menu_for(Role::Admin, false)).contains(&"Certifications".to_string()));
        assert!(!names(&menu_for(Role::User, false)).contains(&"Certifications".to_string()));
    }

    #[test]
    fn the_message_center_is_routed_but_not_listed() {
        let user_group = menu_for(Role::User, false).into_iter().find(|entry| entry.name == "user").unwrap();
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
        let all = names(&menu_for(Role::Admin, false));
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

    #[test]
    fn the_dashboard_group_comes_first_with_order_1() {
        let menu = menu_for(Role::User, false);
        assert_eq!(menu[0].path, "/dashboard");
        assert_eq!(menu[0].meta.order, Some(1));
        assert_eq!(menu[0].children[0].name, "Workplace");
    }

    #[test]
    fn the_template_section_is_listed_only_with_template_pages() {
        fn templates(entries: &[MenuEntry]) -> usize {
            entries.iter().map(|entry| usize::from(entry.meta.template) + templates(&entry.children)).sum()
        }
        let without = menu_for(Role::Admin, false);
        let with = menu_for(Role::Admin, true);
        assert_eq!(templates(&without), 0);
        assert!(templates(&with) >= 8);
        for name in ["PolicyList", "ChannelForm", "ContentDashboard", "DataVisualization", "Faq", "Documentation"] {
            assert!(names(&with).contains(&name.to_string()), "{name}");
            assert!(!names(&without).contains(&name.to_string()), "{name}");
        }
        // The real product is the same either way.
        assert!(names(&without).iter().all(|name| names(&with).contains(name)));
    }
}
