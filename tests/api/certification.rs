use crate::helpers::{ADMIN, Backend, MERCHANT, spawn_app};
use crate::on_both_backends;
use serde_json::{Value, json};

on_both_backends!(
    certification_is_submitted_withdrawn_and_reviewed,
    certification_input_is_validated,
    merchants_cannot_touch_each_others_records,
    messages_are_read_only_by_their_owner,
    administrators_are_told_of_new_submissions,
    the_licence_image_is_checked_by_content_and_shown_to_administrators_only,
);

pub fn submission() -> Value {
    json!({
        "account_type": "enterprise",
        "legal_person": "张三",
        "legal_person_certificate_type": "id_card",
        "legal_person_certificate_number": "11010519491231002x",
        "enterprise_name": "北京示例科技有限公司",
        "enterprise_certificate_type": "unified_social_credit_code",
        "enterprise_certificate_number": "91350100M000100Y43"
    })
}

async fn certification_is_submitted_withdrawn_and_reviewed(backend: Backend) {
    let app = spawn_app(backend).await;
    let merchant = app.login(MERCHANT).await;
    let admin = app.login(ADMIN).await;
    let first = app.post_as(&merchant, "/adminapi/certification/submit", submission()).await;
    assert_eq!(first.code(), 20000, "{:?}", first.body);
    assert_eq!(first.data()["status"], 0);
    assert_eq!(first.data()["legal_person_certificate_number"], "11010519491231002X");
    let first_id = first.data()["id"].as_i64().unwrap();
    // One audit at a time.
    let second = app.post_as(&merchant, "/adminapi/certification/submit", submission()).await;
    assert_eq!(second.data()["keys"]["account_type"], "certification.pending");
    // Lists mask the numbers; the view shows them to the owner.
    let list = app.post_as(&merchant, "/adminapi/certification/list", json!({})).await;
    assert_eq!(list.data()[0]["legal_person_certificate_number"], "110***********002X");
    assert_eq!(list.data()[0]["numbers_masked"], true);
    let detail = app.post_as(&merchant, "/adminapi/certification/detail", json!({ "id": first_id })).await;
    assert_eq!(detail.data()["enterprise_certificate_number"], "91350100M000100Y43");
    // Withdraw while auditing, once.
    let withdrawn = app.post_as(&merchant, "/adminapi/certification/withdraw", json!({ "id": first_id })).await;
    assert_eq!(withdrawn.data()["status"], 3);
    let again = app.post_as(&merchant, "/adminapi/certification/withdraw", json!({ "id": first_id })).await;
    assert_eq!(again.data()["keys"]["id"], "certification.not_withdrawable");
    // A new submission; merchants cannot review; a rejection needs a reason.
    let id =
        app.post_as(&merchant, "/adminapi/certification/submit", submission()).await.data()["id"].as_i64().unwrap();
    let denied =
        app.post_as(&merchant, "/adminapi/certification/review", json!({ "id": id, "decision": "approve" })).await;
    assert_eq!(denied.code(), 40300);
    let no_reason =
        app.post_as(&admin, "/adminapi/certification/review", json!({ "id": id, "decision": "reject" })).await;
    assert_eq!(no_reason.data()["keys"]["reason"], "certification.reject_reason.required");
    let odd = app.post_as(&admin, "/adminapi/certification/review", json!({ "id": id, "decision": "maybe" })).await;
    assert_eq!(odd.data()["keys"]["decision"], "certification.decision.invalid");
    let rejected = app
        .post_as(
            &admin,
            "/adminapi/certification/review",
            json!({ "id": id, "decision": "reject", "reason": "营业执照不清晰" }),
        )
        .await;
    assert_eq!(rejected.data()["status"], 2);
    assert_eq!(rejected.data()["reject_reason"], "营业执照不清晰");
    let twice = app.post_as(&admin, "/adminapi/certification/review", json!({ "id": id, "decision": "approve" })).await;
    assert_eq!(twice.data()["keys"]["id"], "certification.not_reviewable");
    // Resubmitted and approved: the user is certified and told so.
    let id =
        app.post_as(&merchant, "/adminapi/certification/submit", submission()).await.data()["id"].as_i64().unwrap();
    let all = app.post_as(&admin, "/adminapi/certification/list", json!({ "status": 0 })).await;
    assert_eq!(all.data().as_array().unwrap().len(), 1);
    let approved =
        app.post_as(&admin, "/adminapi/certification/review", json!({ "id": id, "decision": "approve" })).await;
    assert_eq!(approved.data()["status"], 1);
    let info = app.post_as(&merchant, "/adminapi/merchant/userInfo", json!({})).await;
    assert_eq!(info.data()["certification"], 1);
    let notices = app.post_as(&merchant, "/adminapi/message/list", json!({ "type": "notice" })).await;
    let titles: Vec<&str> =
        notices.data().as_array().unwrap().iter().map(|item| item["title"].as_str().unwrap()).collect();
    assert!(titles.iter().any(|title| title.contains("passed")));
    assert!(titles.iter().any(|title| title.contains("rejected")));
    // Certificate numbers are not stored in plain text.
    let stored: Vec<(String, String)> =
        sqlx::query_as("SELECT legal_person_certificate_number, enterprise_certificate_number FROM certifications")
            .fetch_all(&app.state.db.pool)
            .await
            .unwrap();
    for (person, enterprise) in stored {
        assert!(!person.contains("110105") && !enterprise.contains("M000100Y"));
    }
}

async fn certification_input_is_validated(backend: Backend) {
    let app = spawn_app(backend).await;
    let merchant = app.login(MERCHANT).await;
    let empty = app.post_as(&merchant, "/adminapi/certification/submit", json!({})).await;
    assert_eq!(empty.code(), 40000);
    for field in ["account_type", "legal_person", "legal_person_certificate_number", "enterprise_name"] {
        assert_eq!(empty.data()["fields"][field], "This field is required", "{field}");
    }
    for (field, value) in [
        ("legal_person_certificate_number", json!("110105194912310021")),
        ("legal_person_certificate_type", json!("driving_licence")),
        ("account_type", json!("personal")),
        ("enterprise_certificate_number", json!("91 11")),
        ("enterprise_name", json!("名".repeat(101))),
    ] {
        let mut body = submission();
        body[field] = value;
        let answer = app.post_as(&merchant, "/adminapi/certification/submit", body).await;
        assert_eq!(answer.code(), 40000, "{field}");
        assert!(answer.data()["fields"][field].is_string(), "{field}: {:?}", answer.body);
    }
    // The credit code's check character (GB 32100-2015): corrupted codes and "x" are refused.
    for number in ["91350100M000100Y44", "91350100M000100Y4", "X", "x"] {
        let mut body = submission();
        body["enterprise_certificate_number"] = json!(number);
        let answer = app.post_as(&merchant, "/adminapi/certification/submit", body).await;
        assert_eq!(
            answer.data()["keys"]["enterprise_certificate_number"],
            "certification.credit_code.invalid",
            "{number}"
        );
    }
    // An old business licence still needs the organisation code, with its own check character.
    let mut licence = submission();
    licence["enterprise_certificate_type"] = json!("business_license");
    licence["enterprise_certificate_number"] = json!("BL-2026-0001");
    let answer = app.post_as(&merchant, "/adminapi/certification/submit", licence.clone()).await;
    assert_eq!(answer.data()["keys"]["organization_code"], "certification.field.required");
    licence["organization_code"] = json!("x");
    let answer = app.post_as(&merchant, "/adminapi/certification/submit", licence.clone()).await;
    assert_eq!(answer.data()["keys"]["organization_code"], "certification.organization_code.invalid");
    let count: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM certifications").fetch_one(&app.state.db.pool).await.unwrap();
    assert_eq!(count, 0);
    licence["organization_code"] = json!("80210043-3");
    assert_eq!(app.post_as(&merchant, "/adminapi/certification/submit", licence).await.code(), 20000);
}

async fn merchants_cannot_touch_each_others_records(backend: Backend) {
    let app = spawn_app(backend).await;
    let merchant = app.login(MERCHANT).await;
    app.create_merchant("other", "Other123").await;
    let other = app.login(("other", "Other123")).await;
    let id =
        app.post_as(&merchant, "/adminapi/certification/submit", submission()).await.data()["id"].as_i64().unwrap();
    for path in ["/adminapi/certification/detail", "/adminapi/certification/withdraw"] {
        let answer = app.post_as(&other, path, json!({ "id": id })).await;
        assert_eq!(answer.code(), 40400, "{path}");
    }
    let list = app.post_as(&other, "/adminapi/certification/list", json!({ "mid": 10001 })).await;
    assert_eq!(list.data().as_array().unwrap().len(), 0);
    let mine = app.post_as(&merchant, "/adminapi/certification/detail", json!({ "id": id })).await;
    assert_eq!(mine.data()["status"], 0);
}

async fn messages_are_read_only_by_their_owner(backend: Backend) {
    let app = spawn_app(backend).await;
    let merchant = app.login(MERCHANT).await;
    app.create_merchant("other", "Other123").await;
    let other = app.login(("other", "Other123")).await;
    // Real events make real messages: two password changes for the merchant, one for the other.
    for (token, from, to) in
        [(&merchant, MERCHANT.1, "Second222"), (&merchant, "Second222", "Third333x"), (&other, "Other123", "Other456")]
    {
        let answer = app
            .post_as(
                token,
                "/adminapi/merchant/changePassword",
                json!({ "current_password": from, "new_password": to }),
            )
            .await;
        assert_eq!(answer.code(), 20000);
    }
    let counts = app.get_as(&merchant, "/adminapi/message/unreadCount").await;
    assert_eq!(counts.data()["notice"], 2);
    assert_eq!(counts.data()["total"], 2);
    let theirs = app.post_as(&other, "/adminapi/message/list", json!({})).await;
    let their_id = theirs.data()[0]["id"].as_i64().unwrap();
    let mine = app.post_as(&merchant, "/adminapi/message/list", json!({ "type": "notice" })).await;
    let my_ids: Vec<i64> = mine.data().as_array().unwrap().iter().map(|item| item["id"].as_i64().unwrap()).collect();
    assert_eq!(mine.data()[0]["status"], 0);
    // Marking someone else's message does nothing to it.
    let marked = app.post_as(&merchant, "/adminapi/message/read", json!({ "ids": [my_ids[0], their_id] })).await;
    assert_eq!(marked.data()["marked"], 1);
    assert_eq!(marked.data()["unread"]["total"], 1);
    assert_eq!(app.get_as(&other, "/adminapi/message/unreadCount").await.data()["total"], 1);
    for bad in [json!({ "ids": "1" }), json!({ "ids": [0] }), json!({ "ids": ["x"] }), json!({})] {
        assert_eq!(app.post_as(&merchant, "/adminapi/message/read", bad.clone()).await.code(), 40000, "{bad}");
    }
    let all = app.post_as(&merchant, "/adminapi/message/readAll", json!({})).await;
    assert_eq!(all.data()["marked"], 1);
    assert_eq!(all.data()["unread"]["total"], 0);
    assert_eq!(app.get_as(&other, "/adminapi/message/unreadCount").await.data()["total"], 1);
    let list = app.post_as(&merchant, "/adminapi/message/list", json!({ "type": "todo" })).await;
    assert_eq!(list.data().as_array().unwrap().len(), 0);
    assert_eq!(app.post_as(&merchant, "/adminapi/message/list", json!({ "type": "spam" })).await.code(), 40000);
}

async fn administrators_are_told_of_new_submissions(backend: Backend) {
    let app = spawn_app(backend).await;
    let merchant = app.login(MERCHANT).await;
    let admin = app.login(ADMIN).await;
    let count = |token: String| {
        let app = &app;
        async move { app.get_as(&token, "/adminapi/certification/pendingCount").await }
    };
    assert_eq!(count(merchant.clone()).await.code(), 40300);
    assert_eq!(count(admin.clone()).await.data()["pending"], 0);
    let todos = |token: String| {
        let app = &app;
        async move { app.post_as(&token, "/adminapi/message/list", json!({"type": "todo"})).await }
    };
    let before = todos(admin.clone()).await.data().as_array().map_or(0, Vec::len);
    assert_eq!(app.post_as(&merchant, "/adminapi/certification/submit", submission()).await.code(), 20000);
    assert_eq!(count(admin.clone()).await.data()["pending"], 1);
    let after = todos(admin.clone()).await;
    let list = after.data().as_array().unwrap();
    assert_eq!(list.len(), before + 1, "{:?}", after.body);
    assert!(list.iter().any(|message| message["content"].as_str().unwrap().contains("北京示例科技有限公司")));
    // The merchant's own inbox gets no such to-do.
    let merchant_todos = todos(merchant.clone()).await;
    assert!(
        merchant_todos
            .data()
            .as_array()
            .unwrap()
            .iter()
            .all(|message| !message["title"].as_str().unwrap().contains("待审核"))
    );
}

async fn the_licence_image_is_checked_by_content_and_shown_to_administrators_only(backend: Backend) {
    let app = spawn_app(backend).await;
    let merchant = app.login(MERCHANT).await;
    let admin = app.login(ADMIN).await;
    let id =
        app.post_as(&merchant, "/adminapi/certification/submit", submission()).await.data()["id"].as_i64().unwrap();
    let upload = |token: &str, id: i64, bytes: Vec<u8>, name: &'static str, mime: &'static str| {
        let part = reqwest::multipart::Part::bytes(bytes).file_name(name).mime_str(mime).unwrap();
        let form = reqwest::multipart::Form::new().text("id", id.to_string()).part("file", part);
        app.client.post(app.url("/adminapi/certification/licence")).bearer_auth(token).multipart(form)
    };
    let mut jpeg = vec![0xFF, 0xD8, 0xFF, 0xE0];
    jpeg.extend_from_slice(&[9u8; 4000]);
    // Names and declared types do not make an image; SVG and GIF are not accepted.
    for (bytes, name) in [(b"<svg onload=alert(1)>".to_vec(), "licence.jpg"), (b"GIF89a....".to_vec(), "l.gif")] {
        let refused = app.send(upload(&merchant, id, bytes, name, "image/jpeg")).await;
        assert_eq!(refused.status.as_u16(), 422, "what the file holds is beyond the document");
        assert_eq!(refused.data()["keys"]["file"], "certification.licence.not_an_image", "{:?}", refused.body);
    }
    let mut large = jpeg.clone();
    large.resize(5 * 1024 * 1024 + 1, 0);
    let too_large = app.send(upload(&merchant, id, large, "big.jpg", "image/jpeg")).await;
    assert_eq!((too_large.status.as_u16(), too_large.code()), (422, 40000));
    // Not a form the document describes: the 40000 envelope (never axum's plain text),
    // naming the missing or malformed part where there is one.
    let url = app.url("/adminapi/certification/licence");
    let no_form = app.send(app.client.post(&url).bearer_auth(&merchant)).await;
    assert_eq!((no_form.status.as_u16(), no_form.code()), (400, 40000), "no multipart boundary");
    let broken = app.client.post(&url).bearer_auth(&merchant).header("content-type", "multipart/form-data; boundary=x");
    let broken =
        app.send(broken.body("--x\r\nContent-Disposition: form-data; name=\"a\u{12}\"\r\n\r\n1\r\n--x--\r\n")).await;
    assert_eq!((broken.status.as_u16(), broken.code()), (400, 40000), "a part header with a control character");
    assert_eq!(broken.data()["keys"]["body"], "request.malformed_form", "{:?}", broken.body);
    let form =
        reqwest::multipart::Form::new().text("id", "seven").part("file", reqwest::multipart::Part::bytes(jpeg.clone()));
    let bad_id = app.send(app.client.post(&url).bearer_auth(&merchant).multipart(form)).await;
    assert_eq!((bad_id.status.as_u16(), bad_id.data()["fields"]["id"].is_string()), (400, true), "{:?}", bad_id.body);
    let form = reqwest::multipart::Form::new().text("id", id.to_string());
    let no_file = app.send(app.client.post(&url).bearer_auth(&merchant).multipart(form)).await;
    assert_eq!((no_file.status.as_u16(), no_file.data()["keys"]["file"].as_str()), (400, Some("avatar.missing")));
    // Only to one's own record under review.
    app.create_merchant("other", "Other123").await;
    let other = app.login(("other", "Other123")).await;
    // Another merchant's record is answered as no record at all, as `detail` answers it.
    let foreign = app.send(upload(&other, id, jpeg.clone(), "l.jpg", "image/jpeg")).await;
    assert_eq!((foreign.status.as_u16(), foreign.code()), (404, 40400), "{:?}", foreign.body);
    let none = app.send(upload(&other, 999_999, jpeg.clone(), "l.jpg", "image/jpeg")).await;
    assert_eq!(none.body, foreign.body);
    let listed = app.post_as(&admin, "/adminapi/certification/detail", json!({"id": id})).await;
    assert_eq!(listed.data()["has_licence"], false);
    let saved = app.send(upload(&merchant, id, jpeg.clone(), "scan.png", "image/png")).await;
    assert_eq!((saved.code(), saved.data()["content_type"].as_str()), (20000, Some("image/jpeg")), "{:?}", saved.body);
    // `id` is an integer as JSON Schema reads one (`7.0` too), as in a JSON body.
    let part = reqwest::multipart::Part::bytes(jpeg.clone()).file_name("scan.jpg");
    let form = reqwest::multipart::Form::new().text("id", format!("{id}.0")).part("file", part);
    let again = app.send(app.client.post(&url).bearer_auth(&merchant).multipart(form)).await;
    assert_eq!((again.code(), again.data()["id"].as_i64()), (20000, Some(id)), "{:?}", again.body);
    // The reviewing administrator sees it with the record; merchants never read it back.
    let detail = app.post_as(&admin, "/adminapi/certification/detail", json!({"id": id})).await;
    assert_eq!(detail.data()["has_licence"], true);
    let path = format!("/adminapi/certification/licence?id={id}");
    let image = app.client.get(app.url(&path)).bearer_auth(&admin).send().await.unwrap();
    assert_eq!(image.headers()["content-type"], "image/jpeg");
    assert_eq!(image.headers()["x-content-type-options"], "nosniff");
    assert_eq!(image.bytes().await.unwrap().to_vec(), jpeg);
    assert_eq!(app.get_as(&merchant, &path).await.code(), 40300);
    assert_eq!(app.get_as(&admin, "/adminapi/certification/licence?id=999999").await.code(), 40400);
    let no_id = app.get_as(&admin, "/adminapi/certification/licence").await;
    assert_eq!((no_id.status.as_u16(), no_id.code()), (400, 40000), "a missing query parameter: the envelope");
    // Once decided, the evidence is fixed.
    let approved =
        app.post_as(&admin, "/adminapi/certification/review", json!({"id": id, "decision": "approve"})).await;
    assert_eq!(approved.code(), 20000);
    let late = app.send(upload(&merchant, id, jpeg, "l.jpg", "image/jpeg")).await;
    assert_eq!((late.status.as_u16(), late.code()), (409, 40900));
    assert_eq!(late.data()["keys"]["id"], "certification.licence.not_editable");
}
