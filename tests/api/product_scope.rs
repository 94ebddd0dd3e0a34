//! Products by speed and sales area: a provincial product is offered and sold only for
//! numbers of its provinces (refused naming the number's province and carrier, in the
//! console, batches and both languages), and an order's deadline follows its product's
//! speed.

use crate::helpers::{ADMIN, Backend, TestApp, spawn_app_with};
use crate::on_both_backends;
use serde_json::{Value, json};

on_both_backends!(
    a_provincial_product_is_sold_only_for_numbers_of_its_provinces,
    a_batch_line_out_of_a_products_area_is_marked,
    an_orders_deadline_follows_its_products_speed,
    speeds_and_areas_are_validated_and_audited,
);

pub(crate) const BEIJING: &str = "13800138000";
pub(crate) const GUANGDONG: &str = "13822220000";
/// Allocated to China Mobile, but not in this test's table.
pub(crate) const UNKNOWN: &str = "13900139000";

/// A server with two segments of its own (the shipped table is 330,000 rows).
async fn scope_app(backend: Backend) -> TestApp {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    add_test_segments(&app).await;
    app
}

/// The segments of [`BEIJING`] and [`GUANGDONG`] (Shenzhen), in the table and in memory.
pub(crate) async fn add_test_segments(app: &TestApp) {
    for (prefix, code, province, city, en, city_en) in [
        ("1380013", "110000", "北京", "北京", "Beijing", "Beijing"),
        ("1382222", "440000", "广东", "深圳", "Guangdong", "Shenzhen"),
    ] {
        sqlx::query(
            "INSERT INTO number_segments (prefix, province_code, province, city, carrier, province_en, city_en)
             VALUES ($1, $2, $3, $4, 'mobile', $5, $6)",
        )
        .bind(prefix)
        .bind(code)
        .bind(province)
        .bind(city)
        .bind(en)
        .bind(city_en)
        .execute(&app.state.db.pool)
        .await
        .expect("a segment");
    }
    app.state.segments.reload(&app.state.db).await.expect("segments read");
}

fn product(key: &str, speed: &str, provinces: Value) -> Value {
    json!({"product_key": key, "name": format!("广东移动 {key}"), "carrier": "mobile", "product_kind": "direct",
           "face_value_fen": 5_000, "speed": speed, "provinces": provinces})
}

/// A merchant with money and a quote for a new Guangdong-only slow product.
async fn with_provincial_product(app: &TestApp) -> (i64, String) {
    let admin = app.login(ADMIN).await;
    let created =
        app.post_as(&admin, "/adminapi/admin/product/create", product("GD-SLOW-50", "slow", json!([440000]))).await;
    assert_eq!(created.code(), 20000, "{:?}", created.body);
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 100_000, 0).await;
    let quote = json!({"merchant_id": mid, "product_key": "GD-SLOW-50", "price_fen": 4_800});
    assert_eq!(app.post_as(&admin, "/adminapi/admin/quote/save", quote).await.code(), 20000);
    (mid, token)
}

async fn add_in(app: &TestApp, token: &str, language: &str, body: Value) -> crate::helpers::Answer {
    let request = app
        .client
        .post(app.url("/adminapi/order/add"))
        .bearer_auth(token)
        .header("accept-language", language)
        .json(&body);
    app.send(request).await
}

fn offered(answer: &crate::helpers::Answer) -> Vec<String> {
    let offers = answer.data()["offers"].as_array().cloned().unwrap_or_default();
    offers.iter().map(|offer| offer["product_key"].as_str().unwrap_or_default().to_string()).collect()
}

async fn a_provincial_product_is_sold_only_for_numbers_of_its_provinces(backend: Backend) {
    let app = scope_app(backend).await;
    let (mid, token) = with_provincial_product(&app).await;

    // The add-order form is offered what fits the number.
    let guangdong = app.post_as(&token, "/adminapi/order/price", json!({"account": GUANGDONG})).await;
    assert!(offered(&guangdong).contains(&"GD-SLOW-50".to_string()), "{:?}", guangdong.body);
    let offer =
        guangdong.data()["offers"].as_array().unwrap().iter().find(|o| o["product_key"] == "GD-SLOW-50").cloned();
    assert_eq!(offer.map(|o| (o["speed"].clone(), o["provinces"].clone())), Some((json!("slow"), json!([440000]))));
    for elsewhere in [BEIJING, UNKNOWN] {
        let answer = app.post_as(&token, "/adminapi/order/price", json!({"account": elsewhere})).await;
        assert!(offered(&answer).contains(&"MOBILE-DIRECT-10".to_string()), "{:?}", answer.body);
        assert!(!offered(&answer).contains(&"GD-SLOW-50".to_string()), "{elsewhere}: {:?}", answer.body);
    }

    // Placing one anyway is refused, naming the number's province and carrier.
    let body = json!({"account": BEIJING, "product_key": "gd-slow-50"});
    let zh = add_in(&app, &token, "zh-CN", body.clone()).await;
    assert_eq!((zh.status.as_u16(), zh.code()), (422, 40000), "{:?}", zh.body);
    assert_eq!(zh.data()["keys"]["product_key"], "order.product.out_of_scope");
    assert!(zh.msg().contains("北京") && zh.msg().contains("中国移动"), "{}", zh.msg());
    let en = add_in(&app, &token, "en-US", body).await;
    assert!(en.msg().contains("Beijing") && en.msg().contains("China Mobile"), "{}", en.msg());
    let unknown = add_in(&app, &token, "en-US", json!({"account": UNKNOWN, "product_key": "GD-SLOW-50"})).await;
    assert_eq!(unknown.data()["keys"]["product_key"], "order.product.out_of_scope");
    assert!(unknown.msg().contains("not known"), "{}", unknown.msg());
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, 0, "nothing placed");
    assert_eq!(app.scalar("SELECT balance_fen FROM merchant_accounts WHERE merchant_id = $1", mid).await, 100_000);

    // A number of the province is sold it, and charged once.
    let placed = app.add_order(&token, json!({"account": GUANGDONG, "product_key": "GD-SLOW-50"})).await;
    assert_eq!(placed.code(), 20000, "{:?}", placed.body);
    assert_eq!(placed.data()["order"]["province"], "广东");
    assert_eq!(app.scalar("SELECT balance_fen FROM merchant_accounts WHERE merchant_id = $1", mid).await, 95_200);

    // Made national, it is sold for any number of its carrier.
    let admin = app.login(ADMIN).await;
    let id = app.scalar("SELECT id FROM products WHERE product_key = 'GD-SLOW-50' AND $1 = $1", 0).await;
    let national = json!({"id": id, "product_key": "GD-SLOW-50", "name": "移动慢充 50", "carrier": "mobile",
                          "product_kind": "direct", "face_value_fen": 5_000, "speed": "slow", "provinces": []});
    let updated = app.post_as(&admin, "/adminapi/admin/product/update", national).await;
    assert_eq!(updated.code(), 20000, "{:?}", updated.body);
    let placed = app.add_order(&token, json!({"account": BEIJING, "product_key": "GD-SLOW-50"})).await;
    assert_eq!(placed.code(), 20000, "{:?}", placed.body);
}

async fn a_batch_line_out_of_a_products_area_is_marked(backend: Backend) {
    let app = scope_app(backend).await;
    let (_, token) = with_provincial_product(&app).await;
    let text = [
        format!("{GUANGDONG},GD-SLOW-50,B-1"),
        format!("{BEIJING},GD-SLOW-50,B-2"),
        format!("{UNKNOWN},GD-SLOW-50,B-3"),
        format!("{BEIJING},MOBILE-DIRECT-10,B-4"),
    ]
    .join("\n");
    let preview = app.post_as(&token, "/adminapi/order/batch/preview", json!({"text": text})).await;
    assert_eq!(preview.code(), 20000, "{:?}", preview.body);
    let data = preview.data();
    assert_eq!((data["valid_rows"].as_i64(), data["invalid_rows"].as_i64()), (Some(2), Some(2)), "{data:?}");
    let reasons: Vec<(i64, String)> = data["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|error| (error["line_no"].as_i64().unwrap(), error["reason_key"].as_str().unwrap().to_string()))
        .collect();
    let out = "order.product.out_of_scope".to_string();
    assert_eq!(reasons, vec![(2, out.clone()), (3, out)], "{data:?}");
}

async fn an_orders_deadline_follows_its_products_speed(backend: Backend) {
    let app = scope_app(backend).await;
    let (mid, token) = with_provincial_product(&app).await;
    let slow = app.add_order(&token, json!({"account": GUANGDONG, "product_key": "GD-SLOW-50"})).await;
    let fast = app.add_order(&token, json!({"account": BEIJING, "product_key": "MOBILE-DIRECT-10"})).await;
    assert_eq!((slow.code(), fast.code()), (20000, 20000), "{:?} {:?}", slow.body, fast.body);
    let allowance = |answer: &crate::helpers::Answer| {
        let order = &answer.data()["order"];
        let at = |field: &str| {
            let text = order[field].as_str().unwrap_or_default();
            let parsed = time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339);
            (parsed.expect("an RFC 3339 time").unix_timestamp_nanos() / 1_000_000) as i64
        };
        at("deadline_at") - at("created_at")
    };
    let channel = &app.state.config.channel;
    assert_eq!(allowance(&slow), channel.slow_deadline.as_millis() as i64);
    assert_eq!(allowance(&fast), channel.deadline.as_millis() as i64);
    assert_ne!(channel.slow_deadline, channel.deadline);

    // A batch's orders too.
    let text = format!("{GUANGDONG},GD-SLOW-50,S-1\n{BEIJING},MOBILE-DIRECT-10,F-1");
    let preview = app.post_as(&token, "/adminapi/order/batch/preview", json!({"text": text})).await;
    let batch_id = preview.data()["batch_id"].as_i64().expect("a batch");
    let submitted = app.post_as(&token, "/adminapi/order/batch/submit", json!({"batch_id": batch_id})).await;
    assert_eq!(submitted.code(), 20000, "{:?}", submitted.body);
    let waits: Vec<(String, i64)> = sqlx::query_as(
        "SELECT merchant_order_id, deadline_at - COALESCE(submitted_at, created_at) FROM orders
         WHERE batch_id IS NOT NULL AND merchant_id = $1
         ORDER BY merchant_order_id",
    )
    .bind(mid)
    .fetch_all(&app.state.db.pool)
    .await
    .unwrap();
    let fast_ms = channel.deadline.as_millis() as i64;
    let slow_ms = channel.slow_deadline.as_millis() as i64;
    assert_eq!(waits, vec![("F-1".to_string(), fast_ms), ("S-1".to_string(), slow_ms)]);
}

async fn speeds_and_areas_are_validated_and_audited(backend: Backend) {
    let app = scope_app(backend).await;
    let admin = app.login(ADMIN).await;
    let refused =
        app.post_as(&admin, "/adminapi/admin/product/create", product("BAD-1", "medium", json!([440100, 1]))).await;
    assert_eq!((refused.status.as_u16(), refused.code()), (400, 40000), "{:?}", refused.body);
    let keys = &refused.data()["keys"];
    assert_eq!(
        (&keys["speed"], &keys["provinces"]),
        (&json!("request.invalid_choice"), &json!("product.provinces.invalid"))
    );
    assert_eq!(app.scalar("SELECT COUNT(*) FROM products WHERE product_key = 'BAD-1' AND $1 = $1", 0).await, 0);
    // Whole numbers as documented but no province's code: 422.
    let city = app.post_as(&admin, "/adminapi/admin/product/create", product("BAD-2", "fast", json!([440100]))).await;
    assert_eq!((city.status.as_u16(), &city.data()["keys"]["provinces"]), (422, &json!("product.provinces.invalid")));
    let blank = app.post_as(&admin, "/adminapi/admin/product/create", product("BAD-3", "", json!([]))).await;
    assert_eq!((blank.status.as_u16(), &blank.data()["keys"]["speed"]), (400, &json!("request.invalid_choice")));

    let created = app
        .post_as(&admin, "/adminapi/admin/product/create", product("ZJ-50", "fast", json!([330000, 440000, 330000])))
        .await;
    assert_eq!(created.code(), 20000, "{:?}", created.body);
    let listed = app.post_as(&admin, "/adminapi/product/list", json!({})).await;
    let row = listed.data().as_array().unwrap().iter().find(|p| p["product_key"] == "ZJ-50").cloned().unwrap();
    assert_eq!((&row["speed"], &row["provinces"]), (&json!("fast"), &json!([330000, 440000])));

    let id = created.data().as_i64().unwrap();
    let change = json!({"id": id, "product_key": "ZJ-50", "name": "广东移动 ZJ-50", "carrier": "mobile",
                        "product_kind": "direct", "face_value_fen": 5_000, "speed": "slow", "provinces": []});
    assert_eq!(app.post_as(&admin, "/adminapi/admin/product/update", change).await.code(), 20000);
    let request = app
        .client
        .post(app.url("/adminapi/admin/audit/list"))
        .bearer_auth(&admin)
        .header("accept-language", "zh-CN")
        .json(&json!({"action": "product_updated"}));
    let audit = app.send(request).await;
    let detail = audit.data()["list"][0]["detail"].as_str().unwrap_or_default().to_string();
    assert_eq!(detail, "商品 ZJ-50：速度 快充 → 慢充；销售地区 浙江、广东 → 全国", "{:?}", audit.body);
}
