//! The encrypted card-secret export: the chosen orders' cards in an xlsx that opens with the
//! merchant's password only (decrypted here by an implementation that is not the server's),
//! for the owning merchant alone, with a code when two-factor is on, audited and told to
//! the merchant's other users; neither the password nor a card reaches the trail.

use crate::channel_support::card_order;
use crate::helpers::{ADMIN, Backend, TestApp, spawn_app};
use crate::on_both_backends;
use crate::two_factor::{code_now, enable_two_factor, wrong_code};
use calamine::{Data, Reader};
use serde_json::{Value, json};

on_both_backends!(
    chosen_orders_export_decrypts_to_their_cards_and_is_audited_and_told,
    only_the_owning_merchant_exports_and_the_rules_hold,
    two_factor_on_needs_a_right_code,
);

const EXPORT: &str = "/adminapi/order/card/export";
const PASSWORD: &str = "Secret2026";

/// A raw answer: (status, content type, body bytes).
async fn export(app: &TestApp, token: &str, language: &str, body: Value) -> (u16, String, Vec<u8>) {
    let response = app
        .client
        .post(app.url(EXPORT))
        .bearer_auth(token)
        .header("token", token)
        .header("accept-language", language)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let kind = response.headers().get("content-type").map(|value| value.to_str().unwrap().to_string());
    (status, kind.unwrap_or_default(), response.bytes().await.unwrap().to_vec())
}

/// The envelope code of a refused export.
async fn refused(app: &TestApp, token: &str, body: Value) -> (i64, Value) {
    let (_, _, bytes) = export(app, token, "en-US", body).await;
    let envelope: Value = serde_json::from_slice(&bytes).expect("an envelope");
    (envelope["code"].as_i64().unwrap(), envelope)
}

/// The rows of the decrypted workbook's sheet, as text.
fn rows(encrypted: Vec<u8>, password: &str) -> Vec<Vec<String>> {
    assert_eq!(encrypted[..4], [0xd0, 0xcf, 0x11, 0xe0], "an OLE compound file, not a plain xlsx");
    let plain = office_crypto::decrypt_from_bytes(encrypted, password).expect("the password opens it");
    let mut book: calamine::Xlsx<_> = calamine::open_workbook_from_rs(std::io::Cursor::new(plain)).unwrap();
    let sheet = book.worksheet_range_at(0).unwrap().unwrap();
    sheet
        .rows()
        .map(|row| {
            row.iter()
                .map(|cell| match cell {
                    Data::String(text) => text.clone(),
                    Data::Empty => String::new(),
                    other => format!("{other:?}"),
                })
                .collect()
        })
        .collect()
}

/// A merchant with `count` successful card orders (the sandbox delivers each a card).
async fn merchant_with_cards(app: &TestApp, username: &str, count: usize) -> (i64, String, Vec<i64>) {
    let (mid, token) = app.merchant(username).await;
    app.fund(mid, 100_000, 0).await;
    let mut ids = Vec::new();
    for index in 0..count {
        ids.push(card_order(app, &token, &format!("{username}-{index}")).await);
    }
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND status <> 2", mid, 20).await;
    (mid, token, ids)
}

async fn revealed(app: &TestApp, token: &str, order_id: i64) -> (String, String) {
    let answer = app.post_as(token, "/adminapi/order/card/reveal", json!({"order_id": order_id})).await;
    assert_eq!(answer.code(), 20000, "{:?}", answer.body);
    let field = |name: &str| answer.data()[name].as_str().unwrap().to_string();
    (field("card_no"), field("card_secret"))
}

async fn exports_audited(app: &TestApp) -> Vec<(i64, String)> {
    sqlx::query_as("SELECT user_id, params FROM audit_events WHERE action = 'card_secrets_exported' ORDER BY id")
        .fetch_all(&app.state.db.pool)
        .await
        .unwrap()
}

/// A second user of the same merchant.
async fn colleague(app: &TestApp, mid: i64, username: &str) -> i64 {
    let password = backoffice::platform::password::NewPassword::parse("Merchant123").unwrap();
    let new_user = backoffice::identity::users::repository::NewUser {
        username,
        password: &password,
        role: backoffice::identity::session::Role::User,
        merchant_name: Some(username),
        merchant_id: None,
        display_name: username,
        recorded_as: None,
    };
    // Users are created with a merchant of their own; the colleague is then moved to `mid`.
    let user_id = backoffice::identity::users::repository::create_user(&app.state.db, &app.state.hasher, new_user)
        .await
        .unwrap()
        .0;
    sqlx::query("UPDATE users SET merchant_id = $1 WHERE id = $2")
        .bind(mid)
        .bind(user_id)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    user_id
}

async fn notices_of(app: &TestApp, user_id: i64) -> Vec<String> {
    sqlx::query_scalar("SELECT content FROM inbox_messages WHERE user_id = $1 AND title LIKE '卡密已导出%'")
        .bind(user_id)
        .fetch_all(&app.state.db.pool)
        .await
        .unwrap()
}

async fn chosen_orders_export_decrypts_to_their_cards_and_is_audited_and_told(backend: Backend) {
    let app = spawn_app(backend).await;
    let (mid, token, ids) = merchant_with_cards(&app, "cards", 3).await;
    let exporter: i64 = app.scalar("SELECT id FROM users WHERE username = 'cards' AND merchant_id = $1", mid).await;
    let other_user = colleague(&app, mid, "cards-colleague").await;
    let chosen = [ids[0], ids[2]];
    let (status, kind, file) = export(&app, &token, "zh-CN", json!({"order_ids": chosen, "password": PASSWORD})).await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&file));
    assert!(kind.contains("spreadsheetml"), "{kind}");
    // office-crypto does not check the password's verifier: a wrong one gives noise, no zip.
    let opened = office_crypto::decrypt_from_bytes(file.clone(), "Secret2027").ok();
    assert!(opened.is_none_or(|noise| !noise.starts_with(b"PK")), "a wrong password opens nothing");
    let sheet = rows(file, PASSWORD);
    assert_eq!(sheet[0][..3], ["订单号", "商户订单号", "商品名称"]);
    assert_eq!(sheet[0][5..7], ["卡号", "卡密"]);
    assert_eq!(sheet.len(), 3, "the title row and the two chosen orders: {sheet:?}");
    for (row, order_id) in sheet[1..].iter().zip([ids[2], ids[0]]) {
        let (card_no, card_secret) = revealed(&app, &token, order_id).await;
        assert_eq!(row[5], card_no, "{row:?}");
        assert_eq!(row[6], card_secret, "{row:?}");
        let (order_no, merchant_order_id): (String, String) =
            sqlx::query_as("SELECT order_no, merchant_order_id FROM orders WHERE id = $1")
                .bind(order_id)
                .fetch_one(&app.state.db.pool)
                .await
                .unwrap();
        assert_eq!(row[..2], [order_no, merchant_order_id]);
    }
    // Audited without a secret; told to the colleague, not to the exporter, who has one.
    let audited = exports_audited(&app).await;
    assert_eq!(audited, [(exporter, r#"{"t":"card_secrets_exported","count":2}"#.to_string())]);
    assert_eq!(notices_of(&app, exporter).await.len(), 0);
    let told = notices_of(&app, other_user).await;
    assert_eq!(told.len(), 1);
    assert!(told[0].contains("cards") && told[0].contains("2"), "{told:?}");

    // By the list's filter, in English: every delivered card order of the merchant.
    let body = json!({"filter": {"kind": "card", "status": 2}, "password": PASSWORD});
    let (status, _, file) = export(&app, &token, "en-US", body).await;
    assert_eq!(status, 200);
    let sheet = rows(file, PASSWORD);
    assert_eq!(sheet[0][5..7], ["Card number", "Card secret"]);
    assert_eq!(sheet.len(), 4);
    assert_eq!(
        exports_audited(&app).await[1].1,
        r#"{"t":"card_secrets_exported","count":3,"filter":"{\"status\":2}"}"#
    );
    // Nothing of a card or the password in the trail or the inbox.
    let (card_no, card_secret) = revealed(&app, &token, ids[1]).await;
    for secret in [PASSWORD, card_no.as_str(), card_secret.as_str()] {
        let found = "SELECT (SELECT COUNT(*) FROM audit_events WHERE detail || COALESCE(params, '') LIKE '%' || $1 || '%') + \
                     (SELECT COUNT(*) FROM inbox_messages WHERE content LIKE '%' || $1 || '%')";
        let count: i64 = sqlx::query_scalar(found).bind(secret).fetch_one(&app.state.db.pool).await.unwrap();
        assert_eq!(count, 0, "{secret} was written down");
    }
}

async fn only_the_owning_merchant_exports_and_the_rules_hold(backend: Backend) {
    let app = spawn_app(backend).await;
    let (mid, token, ids) = merchant_with_cards(&app, "owner", 1).await;
    let (_, stranger, theirs) = merchant_with_cards(&app, "stranger", 1).await;
    let exporter = app.scalar("SELECT id FROM users WHERE merchant_id = $1", mid).await;
    // Another merchant's order among one's own refuses the whole export.
    let (code, _) = refused(&app, &token, json!({"order_ids": [ids[0], theirs[0]], "password": PASSWORD})).await;
    assert_eq!(code, 40300);
    let (code, _) = refused(&app, &stranger, json!({"order_ids": ids, "password": PASSWORD})).await;
    assert_eq!(code, 40300);
    let admin = app.login(ADMIN).await;
    let (code, _) = refused(&app, &admin, json!({"filter": {"merchant_id": mid}, "password": PASSWORD})).await;
    assert_eq!(code, 40300, "administrators do not take merchants' cards");
    // A merchant's filter never reaches another merchant's orders.
    let (code, _) = refused(&app, &token, json!({"filter": {"merchant_id": mid + 1}, "password": PASSWORD})).await;
    assert_eq!(code, 40300);
    // The length is the document's (400); letters and digits both, a rule it cannot state (422).
    for (weak, status) in [("", 400), ("short1", 400), ("lettersonly", 422), ("1234567890", 422)] {
        let (answered, _, bytes) = export(&app, &token, "en-US", json!({"order_ids": ids, "password": weak})).await;
        let envelope: Value = serde_json::from_slice(&bytes).expect("an envelope");
        assert_eq!((answered, envelope["code"].as_i64()), (status, Some(40000)), "{weak}");
        assert_eq!(envelope["data"]["keys"]["password"], "order.card_export.password_weak", "{envelope}");
    }
    let (code, envelope) = refused(&app, &token, json!({"password": PASSWORD})).await;
    assert_eq!((code, &envelope["data"]["keys"]["order_ids"]), (40000, &json!("order.card_export.none_chosen")));
    let too_many: Vec<i64> = (1..=10_001).collect();
    let (code, envelope) = refused(&app, &token, json!({"order_ids": too_many, "password": PASSWORD})).await;
    assert_eq!((code, &envelope["data"]["keys"]["order_ids"]), (40000, &json!("order.card_export.too_many")));
    // An ordinary order has no card: nothing to export.
    let ordinary = crate::channel_support::order(&app, &token, "plain-1").await;
    let (code, _) = refused(&app, &token, json!({"order_ids": [ordinary], "password": PASSWORD})).await;
    assert_eq!(code, 40900);
    assert!(exports_audited(&app).await.is_empty(), "a refused export is no export");
    // The only user of a merchant hears of the export in their own inbox.
    let (status, _, _) = export(&app, &token, "en-US", json!({"order_ids": ids, "password": PASSWORD})).await;
    assert_eq!(status, 200);
    assert_eq!(notices_of(&app, exporter).await.len(), 1);
}

async fn two_factor_on_needs_a_right_code(backend: Backend) {
    let app = spawn_app(backend).await;
    let (_, _, ids) = merchant_with_cards(&app, "guarded", 1).await;
    let enabled = enable_two_factor(&app, ("guarded", "Merchant123")).await;
    let body = |code: Option<String>| json!({"order_ids": ids, "password": PASSWORD, "code": code});
    let (code, _) = refused(&app, &enabled.token, body(None)).await;
    assert_eq!(code, 40110, "no code");
    let (code, _) = refused(&app, &enabled.token, body(Some(wrong_code(&enabled.secret)))).await;
    assert_eq!(code, 40110, "a wrong code");
    assert!(exports_audited(&app).await.is_empty());
    let right = code_now(&enabled.secret);
    let (status, _, file) = export(&app, &enabled.token, "en-US", body(Some(right.clone()))).await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&file));
    assert_eq!(rows(file, PASSWORD).len(), 2);
    assert_eq!(exports_audited(&app).await.len(), 1);
    // The code was spent: the same one again is refused.
    let (code, _) = refused(&app, &enabled.token, body(Some(right))).await;
    assert_eq!(code, 40110, "a used code");
}
