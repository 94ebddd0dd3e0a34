//! Merchants' funding requests (issue 52): filed with a proof image checked by content,
//! refused for a reference already on a pending or approved request, withdrawn while
//! pending, approved once (a top-up through the ledger linked to its record) or rejected
//! with a reason; every step audited, the decision told to the merchant's users.

use crate::helpers::{ADMIN, Answer, Backend, MERCHANT, TestApp, spawn_app};
use crate::on_both_backends;
use crate::two_factor::{code_now, enable_two_factor};
use serde_json::json;

on_both_backends!(
    an_approval_credits_once_and_links_the_ledger_record,
    a_reference_funds_once_whatever_its_spelling,
    a_rejection_needs_a_reason_and_only_pending_requests_change,
    merchants_see_and_withdraw_only_their_own,
    the_proof_must_be_an_image_by_content,
    approving_needs_a_step_up_when_two_factor_is_on
);

const CREATE: &str = "/adminapi/funding/create";
const APPROVE: &str = "/adminapi/admin/funding/approve";
const REJECT: &str = "/adminapi/admin/funding/reject";
const WITHDRAW: &str = "/adminapi/funding/withdraw";

fn jpeg() -> Vec<u8> {
    let mut bytes = vec![0xFF, 0xD8, 0xFF, 0xE0];
    bytes.extend_from_slice(&[7u8; 2000]);
    bytes
}

async fn file_with(app: &TestApp, token: &str, amount_fen: &str, reference: &str, proof: Vec<u8>) -> Answer {
    let part = reqwest::multipart::Part::bytes(proof).file_name("receipt.png").mime_str("image/png").unwrap();
    let form = reqwest::multipart::Form::new()
        .text("amount_fen", amount_fen.to_string())
        .text("bank_reference", reference.to_string())
        .text("payer_name", "张三")
        .text("note", "十一月货款")
        .part("file", part);
    app.send(app.client.post(app.url(CREATE)).bearer_auth(token).multipart(form)).await
}

/// Files a request and returns its id.
async fn file(app: &TestApp, token: &str, amount_fen: i64, reference: &str) -> i64 {
    let answer = file_with(app, token, &amount_fen.to_string(), reference, jpeg()).await;
    assert_eq!(answer.code(), 20000, "{:?}", answer.body);
    assert_eq!(answer.data()["status"], "pending");
    answer.data()["id"].as_i64().unwrap()
}

async fn balance(app: &TestApp, mid: i64) -> i64 {
    app.scalar("SELECT COALESCE(MAX(balance_fen), 0) FROM merchant_accounts WHERE merchant_id = $1", mid).await
}

async fn audited(app: &TestApp, action: &str) -> i64 {
    sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM audit_events WHERE action = $1 AND target = 'merchant:10001'")
        .bind(action)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap()
}

async fn approve(app: &TestApp, token: &str, id: i64, key: &str) -> Answer {
    let request = app.client.post(app.url(APPROVE)).bearer_auth(token).header("Idempotency-Key", key);
    app.send(request.json(&json!({"id": id}))).await
}

async fn an_approval_credits_once_and_links_the_ledger_record(backend: Backend) {
    let app = spawn_app(backend).await;
    let (merchant, admin) = (app.login(MERCHANT).await, app.login(ADMIN).await);
    let start = balance(&app, 10001).await;
    let id = file(&app, &merchant, 123_456, "abc123").await;
    assert_eq!(balance(&app, 10001).await, start, "filing moves nothing");
    let queue = app.post_as(&admin, "/adminapi/admin/funding/list", json!({"status": "pending"})).await;
    let listed = &queue.data()["list"][0];
    assert_eq!((listed["id"].as_i64(), listed["merchant_id"].as_i64()), (Some(id), Some(10001)), "{:?}", queue.body);
    assert_eq!((listed["payer_name"].as_str(), listed["proof_type"].as_str()), (Some("张三"), Some("image/jpeg")));

    let approved = approve(&app, &admin, id, "approve-1").await;
    assert_eq!(approved.code(), 20000, "{:?}", approved.body);
    assert_eq!(approved.data()["status"], "approved");
    assert_eq!(balance(&app, 10001).await, start + 123_456);
    // The same key again answers the first result; another call finds it decided: one credit.
    let replayed = approve(&app, &admin, id, "approve-1").await;
    assert_eq!(replayed.body, approved.body);
    let again = approve(&app, &admin, id, "approve-2").await;
    assert_eq!((again.status.as_u16(), again.code()), (409, 40900), "{:?}", again.body);
    assert_eq!(again.msg(), "This funding request was decided or withdrawn already");
    let plain = app.post_as(&admin, APPROVE, json!({"id": id})).await;
    assert_eq!(plain.code(), 40900);
    assert_eq!(balance(&app, 10001).await, start + 123_456, "credited once");
    app.assert_books_balance(10001).await;

    // The request links to its ledger record, whose remark names the request and the transfer.
    let log_id = approved.data()["ledger_log_id"].as_i64().expect("linked");
    let record = app.post_as(&merchant, "/adminapi/finance/account/list", json!({"change_type": "topup"})).await;
    let record = record.data()["list"].as_array().unwrap().iter().find(|r| r["id"] == log_id).cloned().unwrap();
    assert_eq!(record["amount_fen"], 123_456);
    let remark = record["remark"].as_str().unwrap();
    assert!(remark.contains(&format!("充值申请 #{id}")) && remark.contains("abc123"), "{remark}");
    // The merchant's users are told; every step is audited once.
    let inbox = app.post_as(&merchant, "/adminapi/message/list", json!({"type": "notice"})).await;
    assert!(inbox.body.to_string().contains(&format!("#{id}")), "{:?}", inbox.body);
    assert_eq!((audited(&app, "funding_filed").await, audited(&app, "funding_approved").await), (1, 1));
    // A decided request cannot be withdrawn.
    let late = app.post_as(&merchant, WITHDRAW, json!({"id": id})).await;
    assert_eq!((late.code(), late.body["data"].is_null()), (40900, true), "{:?}", late.body);
}

async fn a_reference_funds_once_whatever_its_spelling(backend: Backend) {
    let app = spawn_app(backend).await;
    let merchant = app.login(MERCHANT).await;
    let (_, other) = app.merchant("other").await;
    let id = file(&app, &merchant, 5_000, "TX-42").await;
    for (token, spelling) in [(&merchant, "TX-42"), (&merchant, "  tx-42 "), (&other, "Tx-42")] {
        let refused = file_with(&app, token, "5000", spelling, jpeg()).await;
        assert_eq!((refused.status.as_u16(), refused.code()), (409, 40900), "{spelling}: {:?}", refused.body);
        assert_eq!(refused.data()["keys"]["bank_reference"], "funding.reference.duplicate");
    }
    // Withdrawn, it gives its reference back.
    let withdrawn = app.post_as(&merchant, WITHDRAW, json!({"id": id})).await;
    assert_eq!((withdrawn.code(), withdrawn.data()["status"].as_str()), (20000, Some("withdrawn")));
    let refiled = file(&app, &merchant, 5_000, "tx-42").await;
    assert!(refiled > id);
    assert_eq!(audited(&app, "funding_withdrawn").await, 1);
}

async fn a_rejection_needs_a_reason_and_only_pending_requests_change(backend: Backend) {
    let app = spawn_app(backend).await;
    let (merchant, admin) = (app.login(MERCHANT).await, app.login(ADMIN).await);
    let start = balance(&app, 10001).await;
    let id = file(&app, &merchant, 9_900, "R-1").await;
    let blank = app.post_as(&admin, REJECT, json!({"id": id, "reason": "  "})).await;
    assert_eq!(
        (blank.status.as_u16(), blank.data()["keys"]["reason"].as_str()),
        (422, Some("funding.reason.required"))
    );
    let rejected = app.post_as(&admin, REJECT, json!({"id": id, "reason": "未收到该笔转账"})).await;
    assert_eq!(rejected.code(), 20000, "{:?}", rejected.body);
    assert_eq!(
        (rejected.data()["status"].as_str(), rejected.data()["reason"].as_str()),
        (Some("rejected"), Some("未收到该笔转账"))
    );
    assert!(rejected.data()["decided_at"].is_string() && rejected.data()["ledger_log_id"].is_null());
    // Decided: neither approved, rejected again nor withdrawn; nothing credited.
    assert_eq!(app.post_as(&admin, APPROVE, json!({"id": id})).await.code(), 40900);
    assert_eq!(app.post_as(&admin, REJECT, json!({"id": id, "reason": "x"})).await.code(), 40900);
    assert_eq!(app.post_as(&merchant, WITHDRAW, json!({"id": id})).await.code(), 40900);
    assert_eq!(app.post_as(&admin, APPROVE, json!({"id": 999_999})).await.code(), 40400);
    assert_eq!(balance(&app, 10001).await, start);
    let inbox = app.post_as(&merchant, "/adminapi/message/list", json!({"type": "notice"})).await;
    assert!(inbox.body.to_string().contains("未收到该笔转账"), "{:?}", inbox.body);
    assert_eq!(audited(&app, "funding_rejected").await, 1);
    let own = app.post_as(&merchant, "/adminapi/funding/list", json!({"status": "rejected"})).await;
    assert_eq!((own.data()["total"].as_i64(), own.data()["list"][0]["id"].as_i64()), (Some(1), Some(id)));
}

async fn merchants_see_and_withdraw_only_their_own(backend: Backend) {
    let app = spawn_app(backend).await;
    let (merchant, admin) = (app.login(MERCHANT).await, app.login(ADMIN).await);
    let (mid, other) = app.merchant("other").await;
    let id = file(&app, &merchant, 1_000, "OWN-1").await;
    let seen = app.post_as(&other, "/adminapi/funding/list", json!({})).await;
    assert_eq!((seen.code(), seen.data()["total"].as_i64()), (20000, Some(0)));
    let foreign = app.post_as(&other, WITHDRAW, json!({"id": id})).await;
    assert_eq!((foreign.status.as_u16(), foreign.code()), (404, 40400));
    let proof = app.client.get(app.url(&format!("/adminapi/funding/proof?id={id}"))).bearer_auth(&other);
    assert_eq!(proof.send().await.unwrap().status(), 404);
    let own = app.client.get(app.url(&format!("/adminapi/funding/proof?id={id}"))).bearer_auth(&merchant);
    let own = own.send().await.unwrap();
    assert_eq!((own.status().as_u16(), own.headers()["content-type"].to_str().unwrap()), (200, "image/jpeg"));
    assert_eq!(own.bytes().await.unwrap().to_vec(), jpeg());
    let shown = app.client.get(app.url(&format!("/adminapi/admin/funding/proof?id={id}"))).bearer_auth(&admin);
    assert_eq!(shown.send().await.unwrap().status(), 200);
    // Merchants use neither the queue nor the decisions; administrators file none.
    assert_eq!(app.post_as(&merchant, "/adminapi/admin/funding/list", json!({})).await.code(), 40300);
    assert_eq!(app.post_as(&merchant, APPROVE, json!({"id": id})).await.code(), 40300);
    let by_admin = file_with(&app, &admin, "100", "ADM-1", jpeg()).await;
    assert_eq!((by_admin.code(), by_admin.msg()), (40300, "Only a merchant's users file or withdraw funding requests"));
    for (mid, count) in [(10001, 1), (mid, 0)] {
        let filtered =
            app.post_as(&admin, "/adminapi/admin/funding/list", json!({"merchant_id": mid, "status": "pending"})).await;
        assert_eq!(filtered.data()["total"], count, "{mid}: {:?}", filtered.body);
    }
    let bad = app.post_as(&admin, "/adminapi/admin/funding/list", json!({"status": "paid"})).await;
    assert_eq!(bad.code(), 40000);
}

async fn the_proof_must_be_an_image_by_content(backend: Backend) {
    let app = spawn_app(backend).await;
    let merchant = app.login(MERCHANT).await;
    let refused = file_with(&app, &merchant, "100", "IMG-1", b"<svg onload=alert(1)>".to_vec()).await;
    assert_eq!(refused.status.as_u16(), 422);
    assert_eq!(refused.data()["keys"]["file"], "certification.licence.not_an_image", "{:?}", refused.body);
    for (amount, field) in [("0", "amount_fen"), ("-5", "amount_fen")] {
        let wrong = file_with(&app, &merchant, amount, "IMG-2", jpeg()).await;
        assert_eq!(
            (wrong.code(), wrong.data()["fields"][field].is_string()),
            (40000, true),
            "{amount}: {:?}",
            wrong.body
        );
    }
    let blank = file_with(&app, &merchant, "100", "   ", jpeg()).await;
    assert_eq!(blank.data()["keys"]["bank_reference"], "funding.reference.invalid");
    let total = app.post_as(&merchant, "/adminapi/funding/list", json!({})).await;
    assert_eq!(total.data()["total"], 0, "nothing was filed");
}

async fn approving_needs_a_step_up_when_two_factor_is_on(backend: Backend) {
    let app = spawn_app(backend).await;
    let merchant = app.login(MERCHANT).await;
    let admin = enable_two_factor(&app, ADMIN).await;
    let start = balance(&app, 10001).await;
    let id = file(&app, &merchant, 700, "SU-1").await;
    let refused = approve(&app, &admin.token, id, "k1").await;
    assert_eq!((refused.status.as_u16(), refused.code()), (403, 40340), "{:?}", refused.body);
    assert_eq!(balance(&app, 10001).await, start);
    let confirmed =
        app.post_as(&admin.token, "/adminapi/admin/stepUp/confirm", json!({"code": code_now(&admin.secret)})).await;
    assert_eq!(confirmed.code(), 20000, "{:?}", confirmed.body);
    // The refused call claimed nothing: its key works once confirmed.
    let approved = approve(&app, &admin.token, id, "k1").await;
    assert_eq!(approved.code(), 20000, "{:?}", approved.body);
    assert_eq!(balance(&app, 10001).await, start + 700);
    app.assert_books_balance(10001).await;
}
