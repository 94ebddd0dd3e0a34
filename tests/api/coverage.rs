//! Channel coverage (issue 51 part 3): a channel covers a product in some provinces or
//! nationally; routing takes only channels covering the number's province (a number whose
//! segment is unknown goes to national ones), the preview says which were excluded and
//! why, placing's window check counts only covering channels, and the coverage file
//! imports all lines or none. Administrators only.

use crate::channel_support::{attempts, channels_config, supplier_channel, without_sandbox};
use crate::helpers::{ADMIN, Answer, Backend, TestApp, spawn_app_with};
use crate::on_both_backends;
use crate::open_api::{Call, merchant_with_key, send};
use crate::product_scope::add_test_segments;
use backoffice::supply::simulator::SimConfig;
use serde_json::{Value, json};

on_both_backends!(
    orders_go_to_channels_covering_their_province,
    the_preview_names_why_channels_are_excluded,
    a_window_refuses_only_when_every_covering_channel_is_closed,
    the_coverage_file_imports_all_lines_or_none,
);

const BEIJING: &str = "13800138000";
const GUANGDONG: &str = "13822220000";
/// Allocated to China Mobile, but not in this test's table.
const UNKNOWN: &str = "13900139000";
const GD_ZJ: [u32; 2] = [330000, 440000];

/// Sets channel `id`'s supply of MOBILE-DIRECT-10, covering `provinces`.
async fn cover(app: &TestApp, admin: &str, id: i64, cost_fen: i64, priority: i64, provinces: Value) -> Answer {
    let item = json!({"product_key": "MOBILE-DIRECT-10", "cost_fen": cost_fen, "priority": priority, "weight": 1,
        "enabled": true, "provinces": provinces});
    app.post_as(admin, "/adminapi/admin/channel/products/save", json!({"id": id, "items": [item]})).await
}

/// A national channel (priority 5) and a cheaper Guangdong-and-Zhejiang one (priority 20).
async fn two_channels(app: &TestApp, admin: &str) -> (i64, i64) {
    without_sandbox(app).await;
    let (national, _) = supplier_channel(app, "national", 5, 985, SimConfig::default()).await;
    let (south, _) = supplier_channel(app, "south", 20, 950, SimConfig::default()).await;
    let saved = cover(app, admin, south, 950, 20, json!([440000, 330000])).await;
    assert_eq!(saved.code(), 20000, "{:?}", saved.body);
    (national, south)
}

async fn routed_to(app: &TestApp, order_id: i64) -> Vec<(String, String)> {
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE id = $1 AND status <> 2", order_id, 10).await;
    attempts(app, order_id).await
}

async fn add(app: &TestApp, token: &str, account: &str, id: &str) -> i64 {
    let body = json!({"account": account, "product_key": "MOBILE-DIRECT-10", "merchant_order_id": id});
    let answer = app.add_order(token, body).await;
    assert_eq!(answer.code(), 20000, "{:?}", answer.body);
    answer.data()["order"]["id"].as_i64().unwrap()
}

fn success(code: &str) -> Vec<(String, String)> {
    vec![(code.to_string(), "success".to_string())]
}

async fn orders_go_to_channels_covering_their_province(backend: Backend) {
    let app = spawn_app_with(backend, channels_config).await;
    add_test_segments(&app).await;
    let admin = app.login(ADMIN).await;
    let (_, south) = two_channels(&app, &admin).await;
    let (mid, token, key) = merchant_with_key(&app, "buyer").await;
    app.fund(mid, 100_000, 0).await;

    // The console: Guangdong to the provincial channel, Beijing and an unknown segment to the national one.
    assert_eq!(routed_to(&app, add(&app, &token, GUANGDONG, "GD-1").await).await, success("south"));
    assert_eq!(routed_to(&app, add(&app, &token, BEIJING, "BJ-1").await).await, success("national"));
    assert_eq!(routed_to(&app, add(&app, &token, UNKNOWN, "UN-1").await).await, success("national"));
    // The open API, the same.
    for (account, id, channel) in [(GUANGDONG, "API-GD", "south"), (BEIJING, "API-BJ", "national")] {
        let body = json!({"merchant_order_id": id, "product_key": "MOBILE-DIRECT-10", "account": account});
        let (placed, _) = send(&app, &key, Call::post("/openapi/v1/orders", &body)).await;
        assert_eq!(placed.code(), 20000, "{:?}", placed.body);
        let order_id: i64 = sqlx::query_scalar("SELECT id FROM orders WHERE merchant_order_id = $1")
            .bind(id)
            .fetch_one(&app.state.db.pool)
            .await
            .unwrap();
        assert_eq!(routed_to(&app, order_id).await, success(channel), "{id}");
    }
    // The supply lists its coverage; a save without `provinces` keeps it.
    let listed = app.post_as(&admin, "/adminapi/admin/channel/products", json!({"id": south})).await;
    let row = listed.data().as_array().unwrap().iter().find(|row| row["product_key"] == "MOBILE-DIRECT-10").cloned();
    assert_eq!(row.unwrap()["provinces"], json!(GD_ZJ));
    let item =
        json!({"product_key": "MOBILE-DIRECT-10", "cost_fen": 940, "priority": 20, "weight": 1, "enabled": true});
    let kept =
        app.post_as(&admin, "/adminapi/admin/channel/products/save", json!({"id": south, "items": [item]})).await;
    assert_eq!(kept.code(), 20000, "{:?}", kept.body);
    let stored: String = sqlx::query_scalar(
        "SELECT cp.provinces FROM channel_products cp JOIN products p ON p.id = cp.product_id
         WHERE cp.channel_id = $1 AND p.product_key = 'MOBILE-DIRECT-10'",
    )
    .bind(south)
    .fetch_one(&app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(stored, "330000,440000");
    // A code that is no province's is refused, naming the item (and nothing changes).
    let bad = cover(&app, &admin, south, 950, 20, json!([440100])).await;
    assert_eq!(
        (bad.status.as_u16(), bad.data()["keys"]["items[0].provinces"].as_str()),
        (422, Some("channel.provinces.invalid"))
    );
}

async fn preview(app: &TestApp, admin: &str, body: Value) -> Vec<Value> {
    let answer = app.post_as(admin, "/adminapi/admin/channel/routing", body).await;
    assert_eq!(answer.code(), 20000, "{:?}", answer.body);
    answer.data().as_array().unwrap().clone()
}

fn reasons(items: &[Value]) -> Vec<(String, Value)> {
    // The sandbox, switched off here, is listed too (as `channel_disabled`): left out.
    items
        .iter()
        .filter(|item| item["code"] != "sandbox")
        .map(|item| (item["code"].as_str().unwrap().to_string(), item["excluded"].clone()))
        .collect()
}

async fn the_preview_names_why_channels_are_excluded(backend: Backend) {
    let app = spawn_app_with(backend, |config| {
        channels_config(config);
        config.worker.enabled = false;
    })
    .await;
    add_test_segments(&app).await;
    let admin = app.login(ADMIN).await;
    let (_, south) = two_channels(&app, &admin).await;
    // A supplier of the slow product only (mobile, direct, 10 yuan, slow).
    let slow = json!({"product_key": "MOBILE-SLOW-10", "name": "移动慢充10元", "carrier": "mobile",
        "product_kind": "direct", "face_value_fen": 1_000, "speed": "slow"});
    assert_eq!(app.post_as(&admin, "/adminapi/admin/product/create", slow).await.code(), 20000);
    let spec = backoffice::supply::setup::ChannelSpec {
        code: "slowonly",
        name: "slowonly",
        adapter: "http-json",
        base_url: "http://127.0.0.1:9",
        secret: Some("s"),
        timeout_ms: 1_000,
        enabled: true,
        low_balance_fen: 0,
    };
    let slow_id = backoffice::supply::setup::upsert(&app.state.db.pool, &app.state.secrets, &spec).await.unwrap();
    let item = json!({"product_key": "MOBILE-SLOW-10", "cost_fen": 900, "priority": 1, "weight": 1, "enabled": true});
    let saved =
        app.post_as(&admin, "/adminapi/admin/channel/products/save", json!({"id": slow_id, "items": [item]})).await;
    assert_eq!(saved.code(), 20000, "{:?}", saved.body);
    let excluded = |name: &str| (name.to_string(), json!("province_not_covered"));
    let candidate = |name: &str| (name.to_string(), Value::Null);
    let slow_only = ("slowonly".to_string(), json!("speed_not_offered"));

    // Guangdong: the provincial channel first; the slow-only supplier named.
    let gd = preview(&app, &admin, json!({"product_key": "MOBILE-DIRECT-10", "province": 440000})).await;
    assert_eq!(reasons(&gd), [candidate("south"), candidate("national"), slow_only.clone()]);
    assert_eq!(gd[0]["provinces"], json!(GD_ZJ));
    assert_eq!(gd[0]["first_choice_share"], 1.0);
    assert_eq!(gd.iter().find(|item| item["code"] == "sandbox").unwrap()["excluded"], "channel_disabled");
    // A Beijing number, and a number of no known segment: national only.
    for account in [BEIJING, UNKNOWN] {
        let items = preview(&app, &admin, json!({"product_key": "MOBILE-DIRECT-10", "account": account})).await;
        assert_eq!(reasons(&items), [candidate("national"), excluded("south"), slow_only.clone()], "{account}");
    }
    // No province asked: coverage not checked; each channel's coverage shown.
    let any = preview(&app, &admin, json!({"product_key": "MOBILE-DIRECT-10"})).await;
    assert_eq!(reasons(&any)[..2], [candidate("south"), candidate("national")]);
    // Paused and not covering: the coverage is named (it is why, whatever the pause).
    sqlx::query("UPDATE channels SET paused_until = $1 WHERE id = $2")
        .bind(backoffice::platform::db::now_millis() + 3_600_000)
        .bind(south)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    let paused = preview(&app, &admin, json!({"product_key": "MOBILE-DIRECT-10", "province": 110000})).await;
    assert_eq!(reasons(&paused)[1], excluded("south"));
    let paused = preview(&app, &admin, json!({"product_key": "MOBILE-DIRECT-10", "province": 440000})).await;
    assert_eq!(reasons(&paused)[1], ("south".to_string(), json!("paused")));
    // Bad questions: 422 naming the field; merchants: 403.
    let bad = app
        .post_as(
            &admin,
            "/adminapi/admin/channel/routing",
            json!({"product_key": "MOBILE-DIRECT-10", "province": 440100}),
        )
        .await;
    assert_eq!(
        (bad.status.as_u16(), bad.data()["keys"]["province"].as_str()),
        (422, Some("channel.provinces.invalid"))
    );
    let bad = app
        .post_as(&admin, "/adminapi/admin/channel/routing", json!({"product_key": "MOBILE-DIRECT-10", "account": "12"}))
        .await;
    assert_eq!((bad.status.as_u16(), bad.data()["keys"]["account"].as_str()), (422, Some("order.account.invalid")));
    let (_, merchant) = app.merchant("shop").await;
    for (path, body) in [
        ("/adminapi/admin/channel/routing", json!({"product_key": "MOBILE-DIRECT-10", "province": 440000})),
        ("/adminapi/admin/channel/products", json!({"id": south})),
        ("/adminapi/admin/channel/products/save", json!({"id": south, "items": []})),
    ] {
        let refused = app.post_as(&merchant, path, body).await;
        assert_eq!((refused.status.as_u16(), refused.code()), (403, 40300), "{path}");
    }
}

async fn a_window_refuses_only_when_every_covering_channel_is_closed(backend: Backend) {
    let app = spawn_app_with(backend, |config| {
        channels_config(config);
        config.worker.enabled = false;
    })
    .await;
    add_test_segments(&app).await;
    let admin = app.login(ADMIN).await;
    let (national, _) = two_channels(&app, &admin).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 100_000, 0).await;
    let now = backoffice::platform::db::now_millis();
    let rfc = |millis: i64| {
        let moment = time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(millis) * 1_000_000).unwrap();
        moment.format(&time::format_description::well_known::Rfc3339).unwrap()
    };
    let window = json!({"title": "全国渠道维护", "recurrence": "once", "scope": "channel", "channel_id": national,
        "starts_at": rfc(now - 60_000), "ends_at": rfc(now + 3_600_000)});
    assert_eq!(app.post_as(&admin, "/adminapi/admin/windows/create", window).await.code(), 20000);
    // Beijing: only the national channel covers it, and it is closed: a fast order is refused
    // (the open provincial channel does not admit it).
    let body = json!({"account": BEIJING, "product_key": "MOBILE-DIRECT-10"});
    let refused = app.add_order(&token, body).await;
    assert_eq!(
        (refused.status.as_u16(), refused.data()["keys"]["product_key"].as_str()),
        (422, Some("order.channel.window"))
    );
    // Guangdong: the provincial channel is open: taken.
    add(&app, &token, GUANGDONG, "GD-W").await;
}

/// Posts a coverage file for channel `id`.
async fn import(app: &TestApp, token: &str, id: i64, bytes: Vec<u8>, language: &str) -> Answer {
    let form =
        reqwest::multipart::Form::new().part("file", reqwest::multipart::Part::bytes(bytes).file_name("coverage.csv"));
    let url = app.url(&format!("/adminapi/admin/channel/coverage/import?id={id}"));
    app.send(app.client.post(url).bearer_auth(token).header("accept-language", language).multipart(form)).await
}

async fn export(app: &TestApp, token: &str, id: i64, language: &str) -> (u16, String) {
    let url = app.url(&format!("/adminapi/admin/channel/coverage/export?id={id}"));
    let answer = app.client.get(url).bearer_auth(token).header("accept-language", language).send().await.unwrap();
    (answer.status().as_u16(), answer.text().await.unwrap())
}

async fn supplies(app: &TestApp, admin: &str, id: i64) -> Vec<Value> {
    app.post_as(admin, "/adminapi/admin/channel/products", json!({"id": id})).await.data().as_array().unwrap().clone()
}

async fn the_coverage_file_imports_all_lines_or_none(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let admin = app.login(ADMIN).await;
    let sandbox = app.scalar("SELECT id FROM channels WHERE code = 'sandbox' AND $1 = $1", 0).await;
    let before = supplies(&app, &admin, sandbox).await;

    // Bad lines are each named, in the caller's language; nothing changes.
    let bad = "商品编码,覆盖省份,成本(元),优先级,权重\nMOBILE-DIRECT-10,广东;浙江,9.50,20,1\nNO-SUCH,全国,1,0,1\nMOBILE-DIRECT-20,火星,19,0,1\nMOBILE-DIRECT-30,,abc,0,1\nMOBILE-DIRECT-10,全国,9.6,0,1\n";
    let refused = import(&app, &admin, sandbox, bad.as_bytes().to_vec(), "en-US").await;
    assert_eq!((refused.status.as_u16(), refused.code()), (422, 40000), "{:?}", refused.body);
    let keys = &refused.data()["keys"];
    assert_eq!(
        [&keys["line:3"], &keys["line:4"], &keys["line:5"], &keys["line:6"]],
        [
            &json!("quote.import.product"),
            &json!("channel.coverage.provinces"),
            &json!("channel.coverage.cost"),
            &json!("quote.import.duplicate")
        ],
        "{:?}",
        refused.body
    );
    assert!(refused.data()["fields"]["line:4"].as_str().unwrap().starts_with("Line 4"), "{:?}", refused.body);
    assert_eq!(supplies(&app, &admin, sandbox).await, before, "all or none");

    // A good file in GBK (Excel's CSV on Chinese Windows): applied, others untouched.
    let good = "商品编码,覆盖省份,成本(元),优先级,权重\nMOBILE-DIRECT-10,广东;浙江,9.50,'-3,2\nMOBILE-DIRECT-20,全国,19.40,0,1\n";
    let (gbk, _, _) = encoding_rs::GBK.encode(good);
    let imported = import(&app, &admin, sandbox, gbk.to_vec(), "zh-CN").await;
    assert_eq!((imported.code(), &imported.data()["lines"]), (20000, &json!(2)), "{:?}", imported.body);
    let after = supplies(&app, &admin, sandbox).await;
    let row = |key: &str| after.iter().find(|row| row["product_key"] == key).cloned().unwrap();
    let ten = row("MOBILE-DIRECT-10");
    assert_eq!(
        (&ten["provinces"], &ten["cost_fen"], &ten["priority"], &ten["weight"]),
        (&json!(GD_ZJ), &json!(950), &json!(-3), &json!(2))
    );
    assert_eq!(row("MOBILE-DIRECT-20")["provinces"], json!([]));
    assert_eq!(
        row("MOBILE-DIRECT-50"),
        before.iter().find(|row| row["product_key"] == "MOBILE-DIRECT-50").cloned().unwrap()
    );
    let audited =
        app.scalar("SELECT COUNT(*) FROM audit_events WHERE action = 'channel_products_saved' AND $1 = $1", 0).await;
    assert_eq!(audited, 1);

    // The export: the same layout, safe in Excel (the negative priority quoted), and it imports back.
    let (status, text) = export(&app, &admin, sandbox, "en-US").await;
    assert_eq!(status, 200);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("\u{feff}\"Product key\",\"Provinces\",\"Cost (yuan)\""), "{text}");
    let line = lines.iter().find(|line| line.starts_with("\"MOBILE-DIRECT-10\"")).unwrap();
    assert_eq!(*line, "\"MOBILE-DIRECT-10\",\"Zhejiang;Guangdong\",9.50,\"'-3\",2");
    assert!(text.contains("\"MOBILE-DIRECT-20\",\"National\",19.40,\"0\",1"), "{text}");
    let (_, zh) = export(&app, &admin, sandbox, "zh-CN").await;
    assert!(zh.contains("\"浙江;广东\""), "{zh}");
    let again = import(&app, &admin, sandbox, text.into_bytes(), "en-US").await;
    assert_eq!(again.code(), 20000, "{:?}", again.body);
    assert_eq!(supplies(&app, &admin, sandbox).await, after, "the export imports back unchanged");

    // Administrators only; an unknown channel is 404.
    let (_, merchant) = app.merchant("shop").await;
    let refused = import(&app, &merchant, sandbox, good.as_bytes().to_vec(), "en-US").await;
    assert_eq!(refused.status.as_u16(), 403);
    assert_eq!(export(&app, &merchant, sandbox, "en-US").await.0, 403);
    assert_eq!(import(&app, &admin, 999_999, good.as_bytes().to_vec(), "en-US").await.status.as_u16(), 404);
}
