use crate::helpers::{Backend, MERCHANT, TestApp, spawn_app};
use crate::on_both_backends;
use serde_json::{Value, json};

on_both_backends!(
    the_profile_is_saved_whole_and_normalised,
    every_profile_rule_is_checked_in_both_locales,
    an_invalid_form_saves_nothing,
    a_password_change_ends_the_other_sessions,
    password_rules_and_the_current_password_are_enforced,
    security_settings_are_validated_and_audited,
    avatars_are_checked_by_content_and_served_to_their_owner,
);

pub fn valid_form() -> Value {
    json!({
        "nickname": "演示商户",
        "email": "shop@example.com",
        "country_region": "中国",
        "area": "110000/110100/110101",
        "address": "北京市东城区",
        "contact_phone": "+86 138-0013-8000",
        "introduction": "话费充值服务商",
        "personal_website": "https://shop.example.com",
        "office_location": "北京",
        "notify_url": "https://shop.example.com/notify",
        "ip_whitelist": " 192.168.1.10, 10.1.2.3/8,2001:0db8::0001 "
    })
}

async fn post_in(app: &TestApp, token: &str, locale: &str, path: &str, body: Value) -> crate::helpers::Answer {
    app.send(app.client.post(app.url(path)).bearer_auth(token).header("accept-language", locale).json(&body)).await
}

async fn the_profile_is_saved_whole_and_normalised(backend: Backend) {
    let app = spawn_app(backend).await;
    let token = app.login(MERCHANT).await;
    // Read first: the answer this server keeps for a second must not outlive the change.
    let before = app.post_as(&token, "/adminapi/merchant/userInfo", json!({})).await;
    assert_ne!(before.data()["email"], "shop@example.com");
    let saved = app.post_as(&token, "/adminapi/merchant/changeInfo", valid_form()).await;
    assert_eq!(saved.code(), 20000, "{:?}", saved.body);
    assert_eq!(saved.data()["ip_whitelist"], "192.168.1.10,10.0.0.0/8,2001:db8::1");
    let profile = app.post_as(&token, "/adminapi/merchant/profile", json!({})).await;
    for (field, value) in [
        ("nickname", "演示商户"),
        ("email", "shop@example.com"),
        ("area", "110000/110100/110101"),
        ("notify_url", "https://shop.example.com/notify"),
        ("contact_phone", "+86 138-0013-8000"),
    ] {
        assert_eq!(profile.data()[field], value, "{field}");
    }
    let info = app.post_as(&token, "/adminapi/merchant/userInfo", json!({})).await;
    assert_eq!(info.data()["name"], "演示商户");
    assert_eq!(info.data()["email"], "shop@example.com");
    assert_eq!(info.data()["personalWebsite"], "https://shop.example.com");
}

async fn every_profile_rule_is_checked_in_both_locales(backend: Backend) {
    let app = spawn_app(backend).await;
    let token = app.login(MERCHANT).await;
    let path = "/adminapi/merchant/changeInfo";
    let empty = post_in(&app, &token, "en-US", path, json!({})).await;
    assert_eq!(empty.code(), 40000);
    let fields = &empty.data()["fields"];
    assert_eq!(fields["nickname"], "please enter nickname");
    assert_eq!(fields["email"], "please enter email");
    assert_eq!(fields["country_region"], "please select country/region");
    assert_eq!(fields["area"], "please select area");
    let chinese = post_in(&app, &token, "zh-CN", path, json!({})).await;
    let fields = &chinese.data()["fields"];
    assert_eq!(fields["nickname"], "请输入昵称");
    assert_eq!(fields["email"], "请输入邮箱");
    assert_eq!(fields["country_region"], "请选择国家/地区");
    assert_eq!(fields["area"], "请选择所在区域");
    assert_eq!(chinese.data()["keys"]["area"], "profile.area.required");

    let cases: Vec<(&str, Value, &str, &str)> = vec![
        ("introduction", json!("字".repeat(201)), "field.too_long", "at most 200 characters"),
        ("address", json!("a".repeat(201)), "field.too_long", "at most 200 characters"),
        ("email", json!("not-an-email"), "profile.email.invalid", "Please enter a valid email address"),
        (
            "notify_url",
            json!("ftp://shop.example.com"),
            "profile.notify_url.invalid",
            "The callback URL must be an http:// or https:// address",
        ),
        (
            "notify_url",
            json!("javascript:alert(1)"),
            "profile.notify_url.invalid",
            "The callback URL must be an http:// or https:// address",
        ),
        (
            "ip_whitelist",
            json!("1.2.3.4，5.6.7.8"),
            "profile.ip_whitelist.chinese_comma",
            "Separate IP addresses with English commas (,)",
        ),
        (
            "ip_whitelist",
            json!("1.2.3.4,999.1.1.1"),
            "profile.ip_whitelist.invalid",
            "\"999.1.1.1\" is not a valid IPv4 or IPv6 address or CIDR range",
        ),
        (
            "ip_whitelist",
            json!("10.0.0.0/33"),
            "profile.ip_whitelist.invalid",
            "\"10.0.0.0/33\" is not a valid IPv4 or IPv6 address or CIDR range",
        ),
        (
            "personal_website",
            json!("www.example.com"),
            "profile.website.invalid",
            "The website must be an http:// or https:// address",
        ),
        ("contact_phone", json!("call me"), "profile.phone.invalid", "Please enter a valid phone number"),
    ];
    for (field, value, key, english) in cases {
        let mut form = valid_form();
        form[field] = value;
        let answer = post_in(&app, &token, "en-US", path, form.clone()).await;
        assert_eq!(answer.code(), 40000, "{field}");
        assert_eq!(answer.data()["keys"][field], key, "{field}");
        assert_eq!(answer.data()["fields"][field], english, "{field}");
        let chinese = post_in(&app, &token, "zh-CN", path, form).await;
        let text = chinese.data()["fields"][field].as_str().unwrap();
        assert!(text.chars().any(|character| ('\u{4e00}'..='\u{9fff}').contains(&character)), "{field}: {text}");
    }
    // Wrong types and malformed bodies are validation errors too, never a 500.
    let mut form = valid_form();
    form["email"] = json!(5);
    assert_eq!(app.post_as(&token, path, form).await.code(), 40000);
    let raw = app
        .send(
            app.client
                .post(app.url(path))
                .bearer_auth(&token)
                .header("content-type", "application/json")
                .body("{\"email\":"),
        )
        .await;
    assert_eq!(raw.code(), 40000);
    let huge = json!({ "introduction": "x".repeat(100_000) });
    assert_eq!(app.post_as(&token, path, huge).await.code(), 40000);
}

async fn an_invalid_form_saves_nothing(backend: Backend) {
    let app = spawn_app(backend).await;
    let token = app.login(MERCHANT).await;
    assert_eq!(app.post_as(&token, "/adminapi/merchant/changeInfo", valid_form()).await.code(), 20000);
    let before = app.post_as(&token, "/adminapi/merchant/profile", json!({})).await.body;
    let mut form = valid_form();
    form["nickname"] = json!("新昵称");
    form["email"] = json!("new@example.com");
    form["ip_whitelist"] = json!("1.2.3.4, bad");
    assert_eq!(app.post_as(&token, "/adminapi/merchant/changeInfo", form).await.code(), 40000);
    // A bad password in the same form also keeps the profile as it was.
    let mut form = valid_form();
    form["nickname"] = json!("又一个昵称");
    form["password"] = json!("weak");
    form["current_password"] = json!(MERCHANT.1);
    assert_eq!(app.post_as(&token, "/adminapi/merchant/changeInfo", form).await.code(), 40000);
    let after = app.post_as(&token, "/adminapi/merchant/profile", json!({})).await.body;
    assert_eq!(before, after);
    assert_eq!(app.login_answer(MERCHANT.0, MERCHANT.1).await.code(), 20000);
}

async fn a_password_change_ends_the_other_sessions(backend: Backend) {
    let app = spawn_app(backend).await;
    let current = app.login(MERCHANT).await;
    let other = app.login(MERCHANT).await;
    let changed = app
        .post_as(
            &current,
            "/adminapi/merchant/changePassword",
            json!({ "current_password": MERCHANT.1, "new_password": "Changed456" }),
        )
        .await;
    assert_eq!(changed.code(), 20000, "{:?}", changed.body);
    assert_eq!(changed.data()["changed"], true);
    assert_eq!(changed.data()["other_sessions_ended"], 1);
    assert_eq!(app.post_as(&other, "/adminapi/merchant/userInfo", json!({})).await.code(), 50012);
    assert_eq!(app.post_as(&current, "/adminapi/merchant/userInfo", json!({})).await.code(), 20000);
    assert_eq!(app.login_answer(MERCHANT.0, MERCHANT.1).await.code(), 40100);
    let fresh = app.login((MERCHANT.0, "Changed456")).await;
    // The same through the profile form, which also ends the other sessions.
    let mut form = valid_form();
    form["password"] = json!("Again789x");
    form["current_password"] = json!("Changed456");
    assert_eq!(app.post_as(&fresh, "/adminapi/merchant/changeInfo", form).await.code(), 20000);
    assert_eq!(app.post_as(&current, "/adminapi/merchant/userInfo", json!({})).await.code(), 50012);
    assert_eq!(app.login_answer(MERCHANT.0, "Again789x").await.code(), 20000);
    // The user hears about it in the message center.
    let notices = app.post_as(&fresh, "/adminapi/message/list", json!({ "type": "notice" })).await;
    assert_eq!(notices.data().as_array().unwrap().len(), 2);
}

async fn password_rules_and_the_current_password_are_enforced(backend: Backend) {
    let app = spawn_app(backend).await;
    let token = app.login(MERCHANT).await;
    let path = "/adminapi/merchant/changePassword";
    let blank = app.post_as(&token, path, json!({ "new_password": "" })).await;
    assert_eq!(blank.data()["changed"], false);
    let cases = [
        (
            json!({ "current_password": MERCHANT.1, "new_password": "abc12" }),
            "new_password",
            "Password must be at least 6 characters",
        ),
        (
            json!({ "current_password": MERCHANT.1, "new_password": "abcdef12" }),
            "new_password",
            "Password must contain digits and both upper and lower case letters",
        ),
        (
            json!({ "current_password": MERCHANT.1, "new_password": "Abc 12345" }),
            "new_password",
            "Password may contain only digits, letters and non-space special characters",
        ),
        (json!({ "new_password": "Abcdef123" }), "current_password", "Please enter the current password"),
        (
            json!({ "current_password": "Wrong1234", "new_password": "Abcdef123" }),
            "current_password",
            "The current password is wrong",
        ),
        (
            json!({ "current_password": MERCHANT.1, "new_password": MERCHANT.1 }),
            "new_password",
            "The new password must differ from the current one",
        ),
    ];
    for (body, field, message) in cases {
        let answer = app.post_as(&token, path, body.clone()).await;
        // A wrong current password is a refusal (40300), not a malformed request.
        let expected = if body["current_password"] == "Wrong1234" { 40300 } else { 40000 };
        assert_eq!(answer.code(), expected, "{body}");
        assert_eq!(answer.data()["fields"][field], message, "{body}");
    }
    assert_eq!(app.login_answer(MERCHANT.0, MERCHANT.1).await.code(), 20000);
}

async fn security_settings_are_validated_and_audited(backend: Backend) {
    let app = spawn_app(backend).await;
    let token = app.login(MERCHANT).await;
    let path = "/adminapi/merchant/security";
    let missing_answer = app.post_as(&token, path, json!({ "security_question": "我的小学？" })).await;
    assert_eq!(missing_answer.data()["keys"]["security_answer"], "security.answer.required");
    // The document does not require an answer: the stored question decides, a rule beyond it.
    assert_eq!((missing_answer.status.as_u16(), missing_answer.code()), (422, 40000));
    let bad = app.post_as(&token, path, json!({ "security_email": "x@", "security_phone": "abc" })).await;
    assert_eq!(bad.data()["keys"]["security_email"], "profile.email.invalid");
    assert_eq!(bad.data()["keys"]["security_phone"], "profile.phone.invalid");
    let saved = app
        .post_as(
            &token,
            path,
            json!({ "security_question": "我的小学？", "security_answer": "Nanjing Road", "security_email": "safe@example.com", "security_phone": "13800138000" }),
        )
        .await;
    assert_eq!(saved.code(), 20000);
    assert_eq!(saved.data()["security_answer_set"], true);
    assert_eq!(saved.data()["security_email"], "safe@example.com");
    let stored: String = sqlx::query_scalar("SELECT security_answer_hash FROM users WHERE username = 'merchant'")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert!(!stored.to_lowercase().contains("nanjing") && stored.len() == 64);
    // Changing only the phone keeps the question and answer, and audits only the phone.
    app.post_as(&token, path, json!({ "security_question": "我的小学？", "security_email": "safe@example.com", "security_phone": "13900139000" }))
        .await;
    let activity = app.get_as(&token, "/adminapi/merchant/activity").await;
    let actions: Vec<&str> =
        activity.data().as_array().unwrap().iter().map(|item| item["action"].as_str().unwrap()).collect();
    assert_eq!(actions.iter().filter(|action| **action == "security_phone_changed").count(), 2);
    assert_eq!(actions.iter().filter(|action| **action == "security_question_changed").count(), 1);
    assert_eq!(actions.iter().filter(|action| **action == "security_email_changed").count(), 1);
    assert!(actions.contains(&"login"));
}

/// What userInfo says about the caller's avatar.
async fn has_avatar(app: &TestApp, token: &str) -> Option<bool> {
    app.post_as(token, "/adminapi/merchant/userInfo", json!({})).await.data()["hasAvatar"].as_bool()
}

async fn avatars_are_checked_by_content_and_served_to_their_owner(backend: Backend) {
    let app = spawn_app(backend).await;
    let token = app.login(MERCHANT).await;
    let upload = |bytes: Vec<u8>, name: &'static str, mime: &'static str| {
        let part = reqwest::multipart::Part::bytes(bytes).file_name(name).mime_str(mime).unwrap();
        app.client
            .post(app.url("/adminapi/merchant/avatar"))
            .bearer_auth(&token)
            .multipart(reqwest::multipart::Form::new().part("file", part))
    };
    assert_eq!(app.get_as(&token, "/adminapi/merchant/avatar").await.code(), 40400);
    assert_eq!(has_avatar(&app, &token).await, Some(false));
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    png.extend_from_slice(&[7u8; 500]);
    let saved = app.send(upload(png.clone(), "me.png", "image/png")).await;
    assert_eq!(saved.code(), 20000, "{:?}", saved.body);
    assert_eq!(saved.data()["content_type"], "image/png");
    let image = app.client.get(app.url("/adminapi/merchant/avatar")).bearer_auth(&token).send().await.unwrap();
    assert_eq!(image.headers()["content-type"], "image/png");
    assert_eq!(image.bytes().await.unwrap().to_vec(), png);
    // Names and declared types do not make an image.
    let disguised = app.send(upload(b"<svg onload=alert(1)>".to_vec(), "x.png", "image/png")).await;
    assert_eq!(disguised.data()["keys"]["file"], "avatar.not_an_image");
    let mut large = b"\x89PNG\r\n\x1a\n".to_vec();
    large.resize(2 * 1024 * 1024 + 1, 0);
    let too_large = app.send(upload(large, "big.png", "image/png")).await;
    assert_eq!(too_large.code(), 40000);
    // A form broken after a good file (a part header with a control character) is a
    // broken form: 400 with the envelope, nothing stored.
    let mut body = b"--x\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.png\"\r\n\r\n".to_vec();
    body.extend_from_slice(b"\x89PNG\r\n\x1a\nnew");
    body.extend_from_slice(b"\r\n--x\r\nContent-Disposition: form-data; name=\"a\x12\"\r\n\r\n1\r\n--x--\r\n");
    let broken = app.client.post(app.url("/adminapi/merchant/avatar")).bearer_auth(&token);
    let broken = app.send(broken.header("content-type", "multipart/form-data; boundary=x").body(body)).await;
    assert_eq!((broken.status.as_u16(), broken.code()), (400, 40000), "{:?}", broken.body);
    assert_eq!(broken.data()["keys"]["body"], "request.malformed_form");
    let image = app.client.get(app.url("/adminapi/merchant/avatar")).bearer_auth(&token).send().await.unwrap();
    assert_eq!(image.bytes().await.unwrap().to_vec(), png, "the earlier avatar stays");
    // Another merchant sees only its own (none).
    app.create_merchant("other", "Other123").await;
    let other = app.login(("other", "Other123")).await;
    assert_eq!(app.get_as(&other, "/adminapi/merchant/avatar").await.code(), 40400);
    let profile = app.post_as(&token, "/adminapi/merchant/profile", json!({})).await;
    assert_eq!(profile.data()["has_avatar"], true);
    // userInfo says so too (the console asks for the image only then), each for its own.
    assert_eq!(has_avatar(&app, &token).await, Some(true));
    assert_eq!(has_avatar(&app, &other).await, Some(false));
}
