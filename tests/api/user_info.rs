use crate::helpers::{ADMIN, Backend, MERCHANT, spawn_app};
use crate::on_both_backends;
use serde_json::json;

on_both_backends!(
    a_merchant_reads_its_own_information,
    a_merchant_cannot_read_another_merchant,
    an_administrator_reads_any_merchant,
    bad_merchant_ids_are_validation_errors,
    the_menu_follows_the_role,
);

const USER_INFO: &str = "/adminapi/merchant/userInfo";

async fn a_merchant_reads_its_own_information(backend: Backend) {
    let app = spawn_app(backend).await;
    let login = app.login_answer(MERCHANT.0, MERCHANT.1).await;
    let token = login.data()["token"].as_str().unwrap();
    let mid = login.data()["loginfo"]["mid"].as_i64().unwrap();
    for body in [json!({ "mid": mid }), json!({ "mid": mid.to_string() }), json!({})] {
        let answer = app.post_as(token, USER_INFO, body).await;
        assert_eq!(answer.code(), 20000);
        let data = answer.data();
        assert_eq!(data["username"], "merchant");
        assert_eq!(data["role"], "user");
        assert_eq!(data["mid"], mid);
        assert_eq!(data["accountId"], mid.to_string());
        for field in [
            "name",
            "avatar",
            "job",
            "organization",
            "location",
            "email",
            "introduction",
            "personalWebsite",
            "jobName",
            "organizationName",
            "locationName",
            "phone",
            "registrationDate",
        ] {
            assert!(data[field].is_string(), "{field} missing in {data}");
        }
        assert!(data["certification"].is_i64());
    }
}

async fn a_merchant_cannot_read_another_merchant(backend: Backend) {
    let app = spawn_app(backend).await;
    let other_mid = app.create_merchant("other", "Other123").await;
    let token = app.login(MERCHANT).await;
    let answer = app.post_as(&token, USER_INFO, json!({ "mid": other_mid })).await;
    assert_eq!((answer.status.as_u16(), answer.code()), (403, 40300));
    assert_eq!(answer.msg(), "your user group does not have permission for this operation");
    assert!(answer.data().is_null());
    // A mid that exists nowhere is refused the same way: no probing for merchants.
    let answer = app.post_as(&token, USER_INFO, json!({ "mid": 987654 })).await;
    assert_eq!(answer.code(), 40300);
    // And the other merchant reads its own.
    let other_token = app.login(("other", "Other123")).await;
    let answer = app.post_as(&other_token, USER_INFO, json!({ "mid": other_mid })).await;
    assert_eq!(answer.data()["username"], "other");
}

async fn an_administrator_reads_any_merchant(backend: Backend) {
    let app = spawn_app(backend).await;
    let other_mid = app.create_merchant("other", "Other123").await;
    let token = app.login(ADMIN).await;
    let answer = app.post_as(&token, USER_INFO, json!({ "mid": other_mid })).await;
    assert_eq!(answer.code(), 20000);
    assert_eq!(answer.data()["username"], "other");
    let own = app.post_as(&token, USER_INFO, json!({ "mid": null })).await;
    assert_eq!(own.data()["username"], "admin");
    assert_eq!(own.data()["role"], "admin");
    assert!(own.data()["mid"].is_null());
    let missing = app.post_as(&token, USER_INFO, json!({ "mid": 987654 })).await;
    assert_eq!((missing.status.as_u16(), missing.code()), (404, 40400));
}

async fn bad_merchant_ids_are_validation_errors(backend: Backend) {
    let app = spawn_app(backend).await;
    let token = app.login(ADMIN).await;
    for mid in [json!(-1), json!(0), json!("abc"), json!(1.5), json!({}), json!([1]), json!(true)] {
        let answer = app.post_as(&token, USER_INFO, json!({ "mid": mid })).await;
        assert_eq!((answer.status.as_u16(), answer.code()), (400, 40000), "mid {mid}");
        assert_eq!(answer.data()["fields"]["mid"], "Mid must be a positive integer");
    }
}

async fn the_menu_follows_the_role(backend: Backend) {
    let app = spawn_app(backend).await;
    let names = |menu: &serde_json::Value| -> Vec<String> {
        let mut names = Vec::new();
        for group in menu.as_array().unwrap() {
            for child in group["children"].as_array().unwrap() {
                names.push(child["name"].as_str().unwrap().to_string());
            }
        }
        names
    };
    let merchant = app.login(MERCHANT).await;
    let menu = app.post_as(&merchant, "/api/user/menu", json!(null)).await;
    assert_eq!(menu.code(), 20000);
    let merchant_names = names(menu.data());
    assert!(merchant_names.contains(&"Workplace".to_string()));
    assert!(merchant_names.contains(&"OrderList".to_string()));
    assert!(!merchant_names.contains(&"Monitor".to_string()));
    let admin = app.login(ADMIN).await;
    let admin_names = names(app.post_as(&admin, "/api/user/menu", json!(null)).await.data());
    assert!(admin_names.contains(&"Monitor".to_string()));
    assert_eq!(app.post("/api/user/menu", json!(null)).await.code(), 50008);
}
