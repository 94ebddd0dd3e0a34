//! A security history per merchant (issue 52 §1): sign-ins with their address and
//! browser, failures and the lock, two-factor, key and staff events, seen by the merchant's
//! owners only (administrators: any merchant's), exported as CSV or xlsx, kept 180 days.

use crate::helpers::{ADMIN, Backend, TestApp, spawn_app};
use crate::on_both_backends;
use crate::two_factor::{enable_two_factor, wrong_code};
use serde_json::{Value, json};

on_both_backends!(
    sign_ins_failures_and_the_lock_are_in_the_merchants_history,
    staff_key_and_two_factor_events_are_seen_by_their_owners_only,
    the_history_exports_as_csv_and_xlsx,
    integration_changes_and_the_legacy_signing_switch_are_recorded,
    events_older_than_180_days_are_purged_and_younger_ones_stay
);

const PASSWORD: &str = "Staff123";
const BROWSER: &str = "Mozilla/5.0 (X11; Linux x86_64) SecurityTest/1.0";
const LIST: &str = "/adminapi/security/list";

async fn sign_in_from_browser(app: &TestApp, username: &str, password: &str) -> Value {
    let request = app
        .client
        .post(app.url("/adminapi/login/login"))
        .header("user-agent", BROWSER)
        .json(&json!({"username": username, "password": password}));
    app.send(request).await.body
}

async fn add_staff(app: &TestApp, owner: &str, username: &str, role: &str) -> i64 {
    let answer = app
        .post_as(owner, "/adminapi/staff/add", json!({"username": username, "password": PASSWORD, "role": role}))
        .await;
    assert_eq!(answer.code(), 20000, "{:?}", answer.body);
    answer.data()["user_id"].as_i64().unwrap()
}

/// The events a caller lists with these filters, newest first, in Chinese.
async fn events(app: &TestApp, token: &str, filter: Value) -> Vec<Value> {
    let mut body = filter;
    body["page_size"] = json!(500);
    let request = app.client.post(app.url(LIST)).bearer_auth(token).header("accept-language", "zh-CN").json(&body);
    let answer = app.send(request).await;
    assert_eq!(answer.code(), 20000, "{:?}", answer.body);
    answer.data()["list"].as_array().unwrap().clone()
}

fn kinds(events: &[Value]) -> Vec<&str> {
    events.iter().map(|event| event["kind"].as_str().unwrap()).collect()
}

async fn sign_ins_failures_and_the_lock_are_in_the_merchants_history(backend: Backend) {
    let app = spawn_app(backend).await;
    let (mid, owner) = app.merchant("sec_owner").await;
    add_staff(&app, &owner, "sec_ann", "operator").await;

    // A sign-in from a browser: its address and browser are recorded.
    let signed_in = sign_in_from_browser(&app, "sec_ann", PASSWORD).await;
    assert_eq!(signed_in["code"], 20000, "{signed_in:?}");
    let found = events(&app, &owner, json!({"kind": "sign_in", "user": "SEC_ANN"})).await;
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["merchant_id"], mid);
    assert_eq!(found[0]["username"], "sec_ann");
    assert_eq!(found[0]["client_address"], "127.0.0.1");
    assert_eq!(found[0]["user_agent"], BROWSER);
    assert_eq!(found[0]["detail"], "密码", "{found:?}");

    // Wrong passwords until the lock: each checked failure, then the one that locked.
    let max = app.state.config.throttle.account_max_failures;
    for _ in 0..max {
        let answer = sign_in_from_browser(&app, "sec_ann", "Wrong123").await;
        assert!(answer["code"] == 40100 || answer["code"] == 42900, "{answer:?}");
    }
    // Attempts refused while locked are not checked, and not recorded: no flood.
    for _ in 0..5 {
        let answer = sign_in_from_browser(&app, "sec_ann", PASSWORD).await;
        assert_eq!(answer["code"], 42900, "{answer:?}");
    }
    let failed = events(&app, &owner, json!({"kind": "sign_in_failed", "user": "sec_ann"})).await;
    assert_eq!(failed.len() as u32, max - 1, "{failed:?}");
    assert!(failed.iter().all(|event| event["user_agent"] == BROWSER && event["client_address"] == "127.0.0.1"));
    let locked = events(&app, &owner, json!({"kind": "sign_in_locked"})).await;
    assert_eq!(locked.len(), 1, "{locked:?}");
    assert_eq!(locked[0]["username"], "sec_ann");
    assert!(locked[0]["detail"].as_str().unwrap().starts_with("密码错误，锁定"), "{locked:?}");

    // A username that does not exist is in no merchant's history, nor the administrators'.
    sign_in_from_browser(&app, "no_such_user", "Wrong123").await;
    let admin = app.login(ADMIN).await;
    assert!(events(&app, &admin, json!({"user": "no_such_user"})).await.is_empty());
    // Filters: by address, by time.
    assert!(events(&app, &owner, json!({"address": "10.9.9.9"})).await.is_empty());
    let all = events(&app, &owner, json!({"address": " 127.0.0.1 "})).await;
    assert!(all.len() as u32 > max, "{all:?}");
    let later = events(&app, &owner, json!({"start_time": "2999-01-01T00:00:00Z"})).await;
    assert!(later.is_empty());
    let unknown = app.post_as(&owner, LIST, json!({"kind": "teleported"})).await;
    assert_eq!((unknown.status.as_u16(), unknown.code()), (400, 40000), "{:?}", unknown.body);
}

async fn staff_key_and_two_factor_events_are_seen_by_their_owners_only(backend: Backend) {
    let app = spawn_app(backend).await;
    let (mid, owner) = app.merchant("keys_owner").await;
    let (other_mid, other_owner) = app.merchant("keys_other").await;
    let ann = add_staff(&app, &owner, "keys_ann", "viewer").await;
    let answer = app.post_as(&owner, "/adminapi/staff/setRole", json!({"user_id": ann, "role": "finance"})).await;
    assert_eq!(answer.code(), 20000, "{:?}", answer.body);
    let key = app.post_as(&owner, "/adminapi/apikey/create", json!({"password": "Merchant123"})).await;
    assert_eq!(key.code(), 20000, "{:?}", key.body);
    let key_id = key.data()["key_id"].as_str().unwrap().to_string();
    let secret = key.data()["secret"].as_str().unwrap().to_string();
    let revoked = app.post_as(&owner, "/adminapi/apikey/revoke", json!({"key_id": key_id})).await;
    assert_eq!(revoked.code(), 20000, "{:?}", revoked.body);
    let changed = app
        .post_as(
            &owner,
            "/adminapi/merchant/changePassword",
            json!({"current_password": "Merchant123", "new_password": "Merchant456"}),
        )
        .await;
    assert_eq!(changed.code(), 20000, "{:?}", changed.body);

    // A two-factor sign-in failure of the staff member: in the history with its browser.
    let enabled = enable_two_factor(&app, ("keys_ann", PASSWORD)).await;
    let pending = sign_in_from_browser(&app, "keys_ann", PASSWORD).await;
    let pending_token = pending["data"]["pending_token"].as_str().expect("two-factor asked").to_string();
    let wrong = app
        .client
        .post(app.url("/adminapi/login/verify2FA"))
        .header("user-agent", BROWSER)
        .json(&json!({"pending_token": pending_token, "code": wrong_code(&enabled.secret)}));
    assert_eq!(app.send(wrong).await.code(), 40110);

    let seen = events(&app, &owner, json!({})).await;
    let seen_kinds = kinds(&seen);
    for kind in [
        "staff_added",
        "staff_role_changed",
        "api_key_created",
        "api_key_revoked",
        "password_changed",
        "two_factor_enabled",
        "sign_in_failed",
    ] {
        assert!(seen_kinds.contains(&kind), "{kind} missing from {seen_kinds:?}");
    }
    assert!(seen.iter().all(|event| event["merchant_id"] == mid), "only the merchant's own: {seen:?}");
    let role = seen.iter().find(|event| event["kind"] == "staff_role_changed").unwrap();
    assert_eq!(role["username"], "keys_owner");
    assert_eq!(role["detail"], "keys_ann：只读成员 → 财务");
    let code_failure = seen.iter().find(|event| event["kind"] == "sign_in_failed").unwrap();
    assert_eq!(code_failure["username"], "keys_ann");
    assert_eq!(code_failure["user_agent"], BROWSER);
    // English on request; the key named by its id, its secret nowhere.
    let english = app
        .send(app.client.post(app.url(LIST)).bearer_auth(&owner).header("accept-language", "en-US").json(&json!({})))
        .await;
    let text = english.body.to_string();
    assert!(text.contains("Staff role changed") && text.contains(&format!("Key {key_id}")), "{text}");
    for secret in [secret.as_str(), PASSWORD, "Merchant123", "Merchant456"] {
        assert!(!text.contains(secret), "no secret in the history: {text}");
    }

    // Another merchant's owner sees none of it, and may not ask for it.
    let others = events(&app, &other_owner, json!({})).await;
    assert!(others.iter().all(|event| event["merchant_id"] == other_mid), "{others:?}");
    assert!(!kinds(&others).contains(&"staff_role_changed"));
    let asked = app.post_as(&other_owner, LIST, json!({"merchant_id": mid})).await;
    assert_eq!(asked.code(), 40300, "{:?}", asked.body);
    // A role other than owner is refused, the export too.
    let finance = add_staff(&app, &owner, "keys_finance", "finance").await;
    assert!(finance > 0);
    let finance = app.login(("keys_finance", PASSWORD)).await;
    assert_eq!(app.post_as(&finance, LIST, json!({})).await.code(), 40300);
    assert_eq!(app.get_as(&finance, "/adminapi/security/export").await.code(), 40300);
    assert_eq!(app.post_as(&finance, "/adminapi/security/kinds", json!({})).await.code(), 40300);

    // Administrators: one merchant's with the filter, every merchant's without.
    let admin = app.login(ADMIN).await;
    let one = events(&app, &admin, json!({"merchant_id": mid})).await;
    assert!(one.len() > seen.len(), "the finance user added and signed in since: {one:?}");
    assert!(one.iter().all(|event| event["merchant_id"] == mid));
    let every = events(&app, &admin, json!({})).await;
    assert!(every.iter().any(|event| event["merchant_id"] == other_mid));
    assert!(every.iter().any(|event| event["merchant_id"].is_null() && event["username"] == "admin"));
    let names = app.post_as(&owner, "/adminapi/security/kinds", json!({})).await;
    let names = names.data().as_array().unwrap();
    assert!(names.iter().any(|item| item["kind"] == "sign_in_locked" && item["name"] == "Sign-in locked"));
}

async fn integration_changes_and_the_legacy_signing_switch_are_recorded(backend: Backend) {
    let app = spawn_app(backend).await;
    let (mid, owner) = app.merchant("integ_owner").await;
    let integration =
        |notify_url: &str, ip_whitelist: &str| json!({"notify_url": notify_url, "ip_whitelist": ip_whitelist});
    let save = "/adminapi/merchant/changeIntegration";
    let answer = app.post_as(&owner, save, integration("https://shop.example.com/notify?token=abc", "")).await;
    assert_eq!(answer.code(), 20000, "{:?}", answer.body);
    // The same settings again: no event. Only the whitelist: named alone.
    app.post_as(&owner, save, integration("https://shop.example.com/notify?token=abc", "")).await;
    app.post_as(&owner, save, integration("https://shop.example.com/notify?token=abc", "203.0.113.7")).await;
    let found = events(&app, &owner, json!({"kind": "integration_changed"})).await;
    let details: Vec<&str> = found.iter().map(|event| event["detail"].as_str().unwrap()).collect();
    assert_eq!(details, ["IP 白名单", "回调地址"], "newest first: {found:?}");
    assert!(!found.iter().any(|event| event.to_string().contains("token=abc")), "never the URL: {found:?}");
    // The profile form saves them too, and is recorded the same way.
    let mut form = crate::profile::valid_form();
    (form["notify_url"], form["ip_whitelist"]) = (json!("https://shop.example.com/other"), json!("203.0.113.7"));
    let changed = app.post_as(&owner, "/adminapi/merchant/changeInfo", form).await;
    assert_eq!(changed.code(), 20000, "{:?}", changed.body);
    let found = events(&app, &owner, json!({"kind": "integration_changed"})).await;
    assert_eq!(found.len(), 3, "{found:?}");
    assert_eq!(found[0]["detail"], "回调地址");

    // An administrator's switch of a key to legacy MD5 signing, and back: in the merchant's
    // history, by the administrator.
    let key = app.post_as(&owner, "/adminapi/apikey/create", json!({"password": "Merchant123"})).await;
    let key_id = key.data()["key_id"].as_str().unwrap().to_string();
    let admin = app.login(ADMIN).await;
    for enabled in [true, false] {
        let answer =
            app.post_as(&admin, "/adminapi/apikey/setLegacy", json!({"key_id": key_id, "enabled": enabled})).await;
        assert_eq!(answer.code(), 20000, "{:?}", answer.body);
    }
    let switched = events(&app, &owner, json!({})).await;
    let switched: Vec<(&str, &str, &str)> = switched
        .iter()
        .filter(|event| event["kind"].as_str().unwrap().starts_with("api_key_legacy"))
        .map(|event| {
            (event["kind"].as_str().unwrap(), event["username"].as_str().unwrap(), event["detail"].as_str().unwrap())
        })
        .collect();
    let detail = format!("密钥 {key_id}");
    assert_eq!(
        switched,
        [("api_key_legacy_off", "admin", detail.as_str()), ("api_key_legacy_on", "admin", detail.as_str())]
    );
    assert!(events(&app, &admin, json!({"merchant_id": mid, "kind": "api_key_legacy_on"})).await.len() == 1);
}

async fn the_history_exports_as_csv_and_xlsx(backend: Backend) {
    let app = spawn_app(backend).await;
    let (_, owner) = app.merchant("export_owner").await;
    let signed_in = sign_in_from_browser(&app, "export_owner", "Merchant123").await;
    assert_eq!(signed_in["code"], 20000);
    let export = |query: &str| {
        app.client
            .get(app.url(&format!("/adminapi/security/export{query}")))
            .bearer_auth(&owner)
            .header("accept-language", "en-US")
    };
    let csv = export("?kind=sign_in").send().await.unwrap();
    assert_eq!(csv.status(), 200);
    assert!(csv.headers()["content-type"].to_str().unwrap().starts_with("text/csv"));
    let csv = csv.text().await.unwrap();
    assert!(csv.starts_with("\u{feff}\"Id\",\"Time\",\"Merchant id\",\"User\",\"Event\""), "{csv}");
    assert_eq!(csv.lines().count(), 1 + 2, "two sign-ins: {csv}");
    assert!(csv.contains(BROWSER) && csv.contains("\"Signed in\""), "{csv}");
    let xlsx = export("?format=xlsx").send().await.unwrap();
    assert_eq!(xlsx.status(), 200);
    assert_eq!(xlsx.headers()["content-type"], "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    let bytes = xlsx.bytes().await.unwrap().to_vec();
    use calamine::Reader;
    let mut book: calamine::Xlsx<_> = calamine::open_workbook_from_rs(std::io::Cursor::new(bytes)).unwrap();
    let sheet = book.worksheet_range_at(0).unwrap().unwrap();
    assert_eq!(sheet.get((0, 4)).unwrap().to_string(), "Event");
    assert!(sheet.rows().skip(1).any(|row| row[8] == BROWSER));
    let bad = export("?kind=nope").send().await.unwrap();
    assert_eq!(bad.status(), 400);
}

async fn events_older_than_180_days_are_purged_and_younger_ones_stay(backend: Backend) {
    let app = spawn_app(backend).await;
    let pool = &app.state.db.pool;
    let day = 24 * 3600 * 1000_i64;
    let now = 1_800_000_000_000_i64;
    // More old rows than one batch deletes, and young ones around the boundary.
    sqlx::query(
        "INSERT INTO security_events
             (merchant_id, user_id, username, kind, detail, client_address, user_agent, created_at)
         WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1005)
         SELECT 10001, NULL, 'old', 'sign_in', '{\"t\":\"none\"}', '127.0.0.1', '', $1 - i FROM n",
    )
    .bind(now - 180 * day)
    .execute(pool)
    .await
    .unwrap();
    for (name, age) in [("young", 180 * day - 1), ("new", day)] {
        sqlx::query(
            "INSERT INTO security_events
                 (merchant_id, user_id, username, kind, detail, client_address, user_agent, created_at)
             VALUES (10001, NULL, $1, 'sign_in', '{\"t\":\"none\"}', '127.0.0.1', '', $2)",
        )
        .bind(name)
        .bind(now - age)
        .execute(pool)
        .await
        .unwrap();
    }
    let count = |name: &'static str| {
        sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM security_events WHERE username = $1")
            .bind(name)
            .fetch_one(pool)
    };
    assert_eq!(count("old").await.unwrap(), 1005);
    let deleted = backoffice::identity::security_history::purge::purge(pool, now).await.unwrap();
    assert_eq!(deleted, 1005);
    let left = (count("old").await.unwrap(), count("young").await.unwrap(), count("new").await.unwrap());
    assert_eq!(left, (0, 1, 1));
}
