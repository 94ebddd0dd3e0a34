//! The product catalogue and merchants' price lists: administrators create and edit
//! products, a product in use is only switched off (and then takes no orders); a bulk
//! rule is previewed, then applied in one transaction; a price list is imported whole or
//! not at all, every bad line named; every price change is in the history and audited.
//! Merchants may do none of it.

use crate::helpers::{ADMIN, Backend, TestApp, spawn_app_with};
use crate::on_both_backends;
use serde_json::{Value, json};

on_both_backends!(
    products_are_created_edited_and_only_switched_off_once_in_use,
    a_bulk_rule_is_previewed_then_applied_with_its_history,
    a_price_list_is_imported_whole_or_not_at_all,
    merchants_may_not_change_the_catalogue_or_prices,
    a_product_only_a_channel_supplies_is_deleted_with_its_supply,
    a_gbk_price_list_is_read_like_utf8
);

fn no_worker(config: &mut backoffice::platform::config::Config) {
    config.worker.enabled = false;
}

fn product(key: &str, face_value_fen: i64) -> Value {
    json!({"product_key": key, "name": format!("测试商品 {key}"), "carrier": "mobile", "product_kind": "direct",
           "face_value_fen": face_value_fen})
}

async fn price(app: &TestApp, mid: i64, key: &str) -> Option<i64> {
    sqlx::query_scalar(
        "SELECT q.price_fen FROM quotes q JOIN products p ON p.id = q.product_id WHERE q.merchant_id = $1 AND p.product_key = $2",
    )
    .bind(mid)
    .bind(key)
    .fetch_optional(&app.state.db.pool)
    .await
    .unwrap()
}

async fn count(app: &TestApp, sql: &str, mid: i64) -> i64 {
    app.scalar(sql, mid).await
}

async fn products_are_created_edited_and_only_switched_off_once_in_use(backend: Backend) {
    let app = spawn_app_with(backend, no_worker).await;
    let admin = app.login(ADMIN).await;
    let created = app.post_as(&admin, "/adminapi/admin/product/create", product("MOBILE-DIRECT-7", 700)).await;
    assert_eq!(created.code(), 20000, "{:?}", created.body);
    let id = created.data().as_i64().unwrap();
    // Every bad field is named at once; a taken key is refused.
    let bad = json!({"product_key": "bad key", "name": "", "carrier": "x", "product_kind": "y", "face_value_fen": 0});
    let refused = app.post_as(&admin, "/adminapi/admin/product/create", bad).await;
    assert_eq!((refused.status.as_u16(), refused.code()), (400, 40000), "the document's patterns and range");
    let keys = &refused.data()["keys"];
    assert_eq!(keys["product_key"], "product.key.invalid");
    assert_eq!(keys["name"], "product.name.invalid");
    assert_eq!(keys["face_value_fen"], "product.face_value.invalid");
    assert!(keys["carrier"].is_string() && keys["product_kind"].is_string(), "{keys}");
    let taken = app.post_as(&admin, "/adminapi/admin/product/create", product("MOBILE-DIRECT-7", 800)).await;
    assert_eq!((taken.status.as_u16(), taken.code()), (409, 40900), "a state refusal");
    assert_eq!(taken.data()["keys"]["product_key"], "product.key.taken");

    // Unused: everything may change, and it may be deleted.
    let mut edit = product("MOBILE-DIRECT-8", 800);
    edit["id"] = json!(id);
    assert_eq!(app.post_as(&admin, "/adminapi/admin/product/update", edit).await.code(), 20000);
    let listed = app.post_as(&admin, "/adminapi/product/list", json!({})).await;
    let row = listed.data().as_array().unwrap().iter().find(|row| row["id"] == id).cloned().unwrap();
    assert_eq!(
        (row["product_key"].as_str(), row["face_value_fen"].as_i64(), row["status"].as_i64()),
        (Some("MOBILE-DIRECT-8"), Some(800), Some(1))
    );
    assert_eq!(app.post_as(&admin, "/adminapi/admin/product/delete", json!({"id": id})).await.code(), 20000);
    assert_eq!(app.post_as(&admin, "/adminapi/admin/product/delete", json!({"id": id})).await.code(), 40400);

    // In use (a quote refers to it): not deleted, its face value kept; switched off, it takes no order.
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 100_000, 0).await;
    let used: i64 = sqlx::query_scalar("SELECT id FROM products WHERE product_key = 'MOBILE-DIRECT-10'")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    let refused = app.post_as(&admin, "/adminapi/admin/product/delete", json!({"id": used})).await;
    assert_eq!(refused.code(), 40900);
    assert_eq!(refused.msg(), "This product is used by quotes or orders: it cannot be deleted, only switched off");
    let mut face = product("MOBILE-DIRECT-10", 2_000);
    face["id"] = json!(used);
    assert_eq!(app.post_as(&admin, "/adminapi/admin/product/update", face).await.code(), 40900);
    let mut off = product("MOBILE-DIRECT-10", 1_000);
    off["id"] = json!(used);
    off["status"] = json!(0);
    off["name"] = json!("中国移动话费直充10元（停售）");
    assert_eq!(app.post_as(&admin, "/adminapi/admin/product/update", off.clone()).await.code(), 20000);
    let order = json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10", "merchant_order_id": "OFF-1"});
    let refused = app.add_order(&token, order.clone()).await;
    assert_ne!(refused.code(), 20000, "an off product takes no orders: {:?}", refused.body);
    assert_eq!(count(&app, "SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, 0);
    off["status"] = json!(1);
    assert_eq!(app.post_as(&admin, "/adminapi/admin/product/update", off).await.code(), 20000);
    assert_eq!(app.add_order(&token, order).await.code(), 20000);
    let audited = count(
        &app,
        "SELECT COUNT(*) FROM audit_events WHERE action LIKE 'product_%' AND user_id IS NOT NULL AND $1 > 0",
        1,
    )
    .await;
    assert_eq!(audited, 5, "created, updated, deleted, switched off, on");
}

async fn a_bulk_rule_is_previewed_then_applied_with_its_history(backend: Backend) {
    let app = spawn_app_with(backend, no_worker).await;
    let admin = app.login(ADMIN).await;
    let (mid, _) = app.merchant("priced").await;
    let rule = json!({"merchant_id": mid, "carrier": "mobile", "product_kind": "direct", "rate_bp": 9_750, "rounding": "half_up"});
    let preview = app.post_as(&admin, "/adminapi/admin/quote/reprice/preview", rule.clone()).await;
    assert_eq!(preview.code(), 20000, "{:?}", preview.body);
    let rows = preview.data()["rows"].as_array().unwrap().clone();
    assert_eq!(rows.len(), 6, "China Mobile's six direct products");
    let ten = rows.iter().find(|row| row["product_key"] == "MOBILE-DIRECT-10").unwrap();
    assert_eq!((ten["old_price_fen"].as_i64(), ten["new_price_fen"].as_i64()), (Some(985), Some(975)));
    // A preview changes nothing.
    assert_eq!(price(&app, mid, "MOBILE-DIRECT-10").await, Some(985));
    assert_eq!(count(&app, "SELECT COUNT(*) FROM quote_price_history WHERE merchant_id = $1", mid).await, 0);

    // 97.5 % is under the sandbox channel's 98 % cost: applied with the preview's acknowledgement.
    let mut rule = rule;
    rule["acknowledge_warnings"] = preview.data()["acknowledgement"].clone();
    let applied = app.post_as(&admin, "/adminapi/admin/quote/reprice/apply", rule).await;
    assert_eq!(applied.code(), 20000, "{:?}", applied.body);
    assert_eq!(applied.data()["changed"], 6);
    assert_eq!(price(&app, mid, "MOBILE-DIRECT-10").await, Some(975));
    assert_eq!(price(&app, mid, "MOBILE-DIRECT-200").await, Some(19_500));
    // Other carriers and kinds are untouched.
    assert_eq!(price(&app, mid, "UNICOM-DIRECT-10").await, Some(985));
    assert_eq!(price(&app, mid, "MOBILE-CARD-10").await, Some(990));

    // Rounding is the rule's: 98.55 % of 10 yuan is 985.5 fen.
    let down = json!({"merchant_id": mid, "carrier": "mobile", "product_kind": "direct", "rate_bp": 9_855, "rounding": "down"});
    assert_eq!(app.post_as(&admin, "/adminapi/admin/quote/reprice/apply", down).await.code(), 20000);
    assert_eq!(price(&app, mid, "MOBILE-DIRECT-10").await, Some(985));
    let up =
        json!({"merchant_id": mid, "carrier": "mobile", "product_kind": "direct", "rate_bp": 9_855, "rounding": "up"});
    // Up moves only the prices that fall between two fen: 10, 30 and 50 yuan (985.5, 2956.5, 4927.5 fen).
    assert_eq!(app.post_as(&admin, "/adminapi/admin/quote/reprice/apply", up).await.data()["changed"], 3);
    assert_eq!(price(&app, mid, "MOBILE-DIRECT-10").await, Some(986));

    // Bad rates and filters are refused with nothing changed.
    for bad in [
        json!({"merchant_id": mid, "rate_bp": 0}),
        json!({"merchant_id": mid, "rate_bp": 20_001}),
        json!({"merchant_id": mid, "rate_bp": 9_000, "carrier": "mars"}),
        json!({"merchant_id": mid, "rate_bp": 9_000, "rounding": "sideways"}),
    ] {
        let refused = app.post_as(&admin, "/adminapi/admin/quote/reprice/apply", bad.clone()).await;
        assert_eq!(refused.code(), 40000, "{bad}: {:?}", refused.body);
    }
    let missing = json!({"merchant_id": 999_999, "rate_bp": 9_000});
    assert_eq!(app.post_as(&admin, "/adminapi/admin/quote/reprice/apply", missing).await.code(), 40400);
    assert_eq!(price(&app, mid, "MOBILE-DIRECT-10").await, Some(986));

    // The history: who, when, from, to, newest first; the rule is audited.
    let history = app
        .post_as(
            &admin,
            "/adminapi/admin/quote/history",
            json!({"merchant_id": mid, "product_key": "MOBILE-DIRECT-10"}),
        )
        .await;
    assert_eq!(history.code(), 20000, "{:?}", history.body);
    assert_eq!(history.data()["total"], 3);
    let newest = &history.data()["list"][0];
    assert_eq!((newest["old_price_fen"].as_i64(), newest["new_price_fen"].as_i64()), (Some(985), Some(986)));
    assert_eq!(newest["changed_by"], "admin");
    assert_eq!(newest["source"], "rule");
    assert!(newest["changed_at"].as_str().is_some_and(|time| time.starts_with("20")));
    assert_eq!(
        count(
            &app,
            "SELECT COUNT(*) FROM audit_events WHERE action = 'quotes_repriced' AND target = 'merchant:' || $1",
            mid
        )
        .await,
        3
    );
    // A single save is in the history too.
    let save = json!({"merchant_id": mid, "product_key": "MOBILE-DIRECT-10", "price_fen": 990});
    assert_eq!(app.post_as(&admin, "/adminapi/admin/quote/save", save).await.code(), 20000);
    let history = app.post_as(&admin, "/adminapi/admin/quote/history", json!({"merchant_id": mid})).await;
    assert_eq!(history.data()["list"][0]["source"], "edit");
    assert_eq!(history.data()["list"][0]["new_price_fen"], 990);
}

async fn import(app: &TestApp, token: &str, mid: i64, bytes: Vec<u8>, name: &str) -> crate::helpers::Answer {
    let form = reqwest::multipart::Form::new()
        .text("merchant_id", mid.to_string())
        .part("file", reqwest::multipart::Part::bytes(bytes).file_name(name.to_string()));
    app.send(app.client.post(app.url("/adminapi/admin/quote/import")).bearer_auth(token).multipart(form)).await
}

/// A price list saved as Excel's plain CSV on Chinese Windows (GBK) is read through the
/// same decoder as order files, its Chinese status words and lower-case keys understood.
async fn a_gbk_price_list_is_read_like_utf8(backend: Backend) {
    let app = spawn_app_with(backend, no_worker).await;
    let admin = app.login(ADMIN).await;
    let (mid, _) = app.merchant("gbk-prices").await;
    let (gbk, _, _) = encoding_rs::GB18030.encode("商品编号,供货价,状态\nmobile-direct-30,29.10,下架\n");
    assert!(std::str::from_utf8(&gbk).is_err(), "the file is GBK");
    let answer = import(&app, &admin, mid, gbk.into_owned(), "价格表.csv").await;
    assert_eq!((answer.code(), answer.data()["changed"].as_i64()), (20000, Some(1)), "{:?}", answer.body);
    assert_eq!(price(&app, mid, "MOBILE-DIRECT-30").await, Some(2_910));
    let off = "SELECT q.status FROM quotes q JOIN products p ON p.id = q.product_id WHERE q.merchant_id = $1 AND p.product_key = 'MOBILE-DIRECT-30'";
    assert_eq!(count(&app, off, mid).await, 0, "下架 read as off");
}

async fn a_price_list_is_imported_whole_or_not_at_all(backend: Backend) {
    let app = spawn_app_with(backend, no_worker).await;
    let admin = app.login(ADMIN).await;
    let (mid, _) = app.merchant("imported").await;
    // The export's own file comes back in: change one price and switch one quote off.
    let url = app.url(&format!("/adminapi/quote/export?merchant_id={mid}&carrier=mobile&format=csv"));
    let text = app.client.get(url).bearer_auth(&admin).send().await.unwrap().text().await.unwrap();
    assert!(text.contains("MOBILE-DIRECT-10"), "{text}");
    // Text cells may be quoted: the key is followed by a comma or a quote.
    let is = |line: &str, key: &str| line.contains(&format!("{key},")) || line.contains(&format!("{key}\","));
    let edited: String = text
        .lines()
        .map(|line| {
            if is(line, "MOBILE-DIRECT-10") {
                line.replace(",9.85,", ",9.70,")
            } else if is(line, "MOBILE-DIRECT-20") {
                line.replace("上架", "下架").replace(",on,", ",off,").replace("\"on\"", "\"off\"")
            } else {
                line.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let answer = import(&app, &admin, mid, edited.clone().into_bytes(), "quotes.csv").await;
    assert_eq!(answer.code(), 20000, "{:?}", answer.body);
    assert_eq!(answer.data()["changed"], 1, "{edited}");
    assert_eq!(price(&app, mid, "MOBILE-DIRECT-10").await, Some(970));
    let off = "SELECT q.status FROM quotes q JOIN products p ON p.id = q.product_id WHERE q.merchant_id = $1 AND p.product_key = 'MOBILE-DIRECT-20'";
    assert_eq!(count(&app, off, mid).await, 0);

    // Short lines; one bad line of each kind: every one named, nothing applied.
    let bad = "商品编号,供货价\nMOBILE-DIRECT-30,29.00\nNO-SUCH-KEY,1\nMOBILE-DIRECT-50,4.999\nMOBILE-DIRECT-30,28\nMOBILE-DIRECT-100\nMOBILE-DIRECT-200,190,maybe\n";
    let refused = import(&app, &admin, mid, bad.as_bytes().to_vec(), "short.csv").await;
    // What the lines hold is beyond the document's schema: 422, still 40000 naming each.
    assert_eq!((refused.status.as_u16(), refused.code()), (422, 40000), "{:?}", refused.body);
    let keys = &refused.data()["keys"];
    assert_eq!(keys["line:3"], "quote.import.product");
    assert_eq!(keys["line:4"], "quote.import.price");
    assert_eq!(keys["line:5"], "quote.import.duplicate");
    assert_eq!(keys["line:6"], "quote.import.incomplete");
    assert_eq!(keys["line:7"], "quote.import.status");
    assert!(keys.get("line:2").is_none(), "{keys}");
    assert_eq!(refused.data()["fields"]["line:5"], "Line 5: the same product as line 2");
    assert_eq!(price(&app, mid, "MOBILE-DIRECT-30").await, Some(2_955), "nothing half-applied");

    // Another merchant's file is refused line by line; an unreadable file is named.
    // A file without a title row: its first line is a price line too.
    let untitled = import(&app, &admin, mid, b"MOBILE-DIRECT-30,29.00\nMOBILE-DIRECT-30,28\n".to_vec(), "u.csv").await;
    assert_eq!(untitled.data()["keys"]["line:2"], "quote.import.duplicate", "{:?}", untitled.body);
    let other = format!("{},话费直充,x,MOBILE-DIRECT-30,29.00,30.00,on,x\n", mid + 1);
    let refused = import(&app, &admin, mid, other.into_bytes(), "other.csv").await;
    assert_eq!(refused.data()["keys"]["line:1"], "quote.import.merchant", "{:?}", refused.body);
    let broken = import(&app, &admin, mid, b"PK\x03\x04broken".to_vec(), "broken.xlsx").await;
    assert_eq!((broken.status.as_u16(), broken.code()), (422, 40000));
    assert!(broken.data()["fields"]["file"].is_string(), "{:?}", broken.body);
    assert_eq!(count(&app, "SELECT COUNT(*) FROM quote_price_history WHERE merchant_id = $1", mid).await, 1);
    assert_eq!(
        count(
            &app,
            "SELECT COUNT(*) FROM audit_events WHERE action = 'quotes_imported' AND target = 'merchant:' || $1",
            mid
        )
        .await,
        1
    );
}

async fn merchants_may_not_change_the_catalogue_or_prices(backend: Backend) {
    let app = spawn_app_with(backend, no_worker).await;
    let (mid, token) = app.merchant("sneaky").await;
    let calls = [
        ("/adminapi/admin/product/create", product("MOBILE-DIRECT-9", 900)),
        (
            "/adminapi/admin/product/update",
            json!({"id": 1, "product_key": "X", "name": "x", "carrier": "mobile", "product_kind": "direct", "face_value_fen": 1}),
        ),
        ("/adminapi/admin/product/delete", json!({"id": 1})),
        ("/adminapi/admin/quote/reprice/preview", json!({"merchant_id": mid, "rate_bp": 1})),
        ("/adminapi/admin/quote/reprice/apply", json!({"merchant_id": mid, "rate_bp": 1})),
        ("/adminapi/admin/quote/history", json!({"merchant_id": mid})),
        ("/adminapi/admin/quote/import", json!({"merchant_id": mid, "text": "MOBILE-DIRECT-10,0.01"})),
    ];
    for (path, body) in calls {
        let refused = app.post_as(&token, path, body).await;
        assert_eq!(refused.code(), 40300, "{path}: {:?}", refused.body);
    }
    assert_eq!(price(&app, mid, "MOBILE-DIRECT-10").await, Some(985));
    assert_eq!(
        count(&app, "SELECT COUNT(*) FROM products WHERE product_key = 'MOBILE-DIRECT-9' AND $1 > 0", 1).await,
        0
    );
}

/// A product no quote or order refers to, that a channel was set to supply, is deleted
/// with that supply (the foreign key refused it before, a 500).
async fn a_product_only_a_channel_supplies_is_deleted_with_its_supply(backend: Backend) {
    let app = spawn_app_with(backend, no_worker).await;
    let admin = app.login(ADMIN).await;
    let created = app.post_as(&admin, "/adminapi/admin/product/create", product("MOBILE-DIRECT-7", 700)).await;
    let id = created.data().as_i64().unwrap();
    let sandbox: i64 = app.scalar("SELECT id FROM channels WHERE code = 'sandbox' AND $1 > 0", 1).await;
    let item = json!({"product_key": "MOBILE-DIRECT-7", "cost_fen": 690, "priority": 1, "weight": 1, "enabled": true});
    let saved =
        app.post_as(&admin, "/adminapi/admin/channel/products/save", json!({"id": sandbox, "items": [item]})).await;
    assert_eq!(saved.code(), 20000, "{:?}", saved.body);
    let deleted = app.post_as(&admin, "/adminapi/admin/product/delete", json!({"id": id})).await;
    assert_eq!(deleted.code(), 20000, "{:?}", deleted.body);
    let supplied = app.scalar("SELECT COUNT(*) FROM channel_products WHERE product_id = $1", id).await;
    assert_eq!(supplied, 0, "its supply went with it");
    let listed = app.post_as(&admin, "/adminapi/admin/channel/products", json!({"id": sandbox})).await;
    assert_eq!(listed.code(), 20000, "the channel's supply still reads: {:?}", listed.body);
    let keys: Vec<&str> =
        listed.data().as_array().unwrap().iter().filter_map(|row| row["product_key"].as_str()).collect();
    assert!(!keys.contains(&"MOBILE-DIRECT-7") && !keys.is_empty(), "{keys:?}");
}
