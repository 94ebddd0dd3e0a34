//! Saved views of the list pages (issue 52): kept on the server per user and page, a
//! default per page, shared read-only within a merchant or among administrators, never
//! across the two.

use crate::helpers::{ADMIN, Backend, MERCHANT, TestApp, spawn_app};
use crate::on_both_backends;
use backoffice::identity::session::Role;
use backoffice::identity::users::repository::{NewUser, create_user};
use backoffice::platform::password::NewPassword;
use serde_json::{Value, json};

on_both_backends!(
    views_are_saved_listed_changed_and_deleted_with_a_default,
    shared_views_stay_within_a_merchant_or_among_administrators_and_are_read_only,
    views_are_validated_and_bounded,
);

const LIST: &str = "/adminapi/views/list";
const CREATE: &str = "/adminapi/views/create";
const UPDATE: &str = "/adminapi/views/update";
const DELETE: &str = "/adminapi/views/delete";
const DEFAULT: &str = "/adminapi/views/default";
const PAGE: &str = "orders-ordinary";

/// Another user of merchant `mid` (None: another administrator); returns the token.
async fn user_of(app: &TestApp, username: &str, mid: Option<i64>) -> String {
    let password = NewPassword::parse("Second123").unwrap();
    let role = if mid.is_some() { Role::User } else { Role::Admin };
    let user = NewUser {
        username,
        password: &password,
        role,
        merchant_name: mid.map(|_| username),
        merchant_id: None,
        display_name: username,
        recorded_as: None,
    };
    let (user_id, _) = create_user(&app.state.db, &app.state.hasher, user).await.expect("user created");
    // A merchant user is created with a merchant of its own: moved to `mid` (as card_export.rs does).
    if let Some(mid) = mid {
        sqlx::query("UPDATE users SET merchant_id = $1 WHERE id = $2")
            .bind(mid)
            .bind(user_id)
            .execute(&app.state.db.pool)
            .await
            .unwrap();
    }
    app.login((username, "Second123")).await
}

async fn merchant_of(app: &TestApp, username: &str) -> i64 {
    sqlx::query_scalar("SELECT merchant_id FROM users WHERE username = $1")
        .bind(username)
        .fetch_one(&app.state.db.pool)
        .await
        .expect("a merchant user")
}

async fn create(app: &TestApp, token: &str, name: &str, shared: bool) -> i64 {
    let state = json!({ "filters": { "status": "3" }, "columns": { "order": ["order_no"], "hidden": [] }, "density": "small", "sort": "asc" });
    let answer =
        app.post_as(token, CREATE, json!({ "page": PAGE, "name": name, "state": state, "shared": shared })).await;
    assert_eq!(answer.code(), 20000, "{:?}", answer.body);
    answer.data()["id"].as_i64().unwrap()
}

async fn names(app: &TestApp, token: &str) -> Vec<String> {
    let answer = app.post_as(token, LIST, json!({ "page": PAGE })).await;
    assert_eq!(answer.code(), 20000, "{:?}", answer.body);
    answer.data()["views"].as_array().unwrap().iter().map(|view| view["name"].as_str().unwrap().to_string()).collect()
}

async fn views_are_saved_listed_changed_and_deleted_with_a_default(backend: Backend) {
    let app = spawn_app(backend).await;
    let token = app.login(MERCHANT).await;
    assert_eq!(names(&app, &token).await, Vec::<String>::new());
    let id = create(&app, &token, "  失败订单 ", false).await;
    // Another session (another browser, another machine) sees the same views.
    let elsewhere = app.login(MERCHANT).await;
    let listed = app.post_as(&elsewhere, LIST, json!({ "page": PAGE })).await;
    let view = &listed.data()["views"][0];
    assert_eq!((view["id"].as_i64(), view["name"].as_str()), (Some(id), Some("失败订单")));
    assert_eq!(view["state"]["filters"]["status"], "3");
    assert_eq!((view["mine"].as_bool(), view["shared"].as_bool()), (Some(true), Some(false)));
    assert_eq!(view["owner"], "merchant");
    assert_eq!(listed.data()["default_id"], Value::Null);
    // Another page keeps its own views.
    assert_eq!(app.post_as(&token, LIST, json!({ "page": "quotes" })).await.data()["views"], json!([]));

    // The default of the page, replaced, then cleared.
    let second = create(&app, &token, "今日", false).await;
    let set = app.post_as(&token, DEFAULT, json!({ "page": PAGE, "id": id })).await;
    assert_eq!(set.data()["default_id"], id, "{:?}", set.body);
    let replaced = app.post_as(&token, DEFAULT, json!({ "page": PAGE, "id": second })).await;
    assert_eq!(replaced.data()["default_id"], second);
    assert_eq!(app.post_as(&elsewhere, LIST, json!({ "page": PAGE })).await.data()["default_id"], second);
    let cleared = app.post_as(&token, DEFAULT, json!({ "page": PAGE, "id": null })).await;
    assert_eq!(cleared.data()["default_id"], Value::Null);
    // A view of another page cannot be this page's default.
    let other_page =
        app.post_as(&token, CREATE, json!({ "page": "quotes", "name": "x", "state": {} })).await.data()["id"]
            .as_i64()
            .unwrap();
    let wrong = app.post_as(&token, DEFAULT, json!({ "page": PAGE, "id": other_page })).await;
    assert_eq!((wrong.status.as_u16(), wrong.code()), (404, 40400), "{:?}", wrong.body);

    // Renamed, its state replaced; an absent field is kept.
    let renamed = app.post_as(&token, UPDATE, json!({ "id": id, "name": "失败" })).await;
    assert_eq!(
        (renamed.data()["name"].as_str(), renamed.data()["state"]["sort"].as_str()),
        (Some("失败"), Some("asc"))
    );
    let restated = app.post_as(&token, UPDATE, json!({ "id": id, "state": { "sort": "desc" } })).await;
    assert_eq!(
        (restated.data()["name"].as_str(), restated.data()["state"]["sort"].as_str()),
        (Some("失败"), Some("desc"))
    );
    // Renamed onto another of one's names: 409 on the name.
    let taken = app.post_as(&token, UPDATE, json!({ "id": id, "name": "今日" })).await;
    assert_eq!((taken.status.as_u16(), taken.data()["keys"]["name"].as_str()), (409, Some("view.name.taken")));

    // Deleted, and the default naming it goes with it.
    assert_eq!(app.post_as(&token, DEFAULT, json!({ "page": PAGE, "id": second })).await.code(), 20000);
    assert_eq!(app.post_as(&token, DELETE, json!({ "id": second })).await.data()["id"], second);
    let after = app.post_as(&token, LIST, json!({ "page": PAGE })).await;
    assert_eq!((after.data()["views"].as_array().unwrap().len(), &after.data()["default_id"]), (1, &Value::Null));
    let again = app.post_as(&token, DELETE, json!({ "id": second })).await;
    assert_eq!((again.status.as_u16(), again.data()["keys"]["id"].as_str()), (404, Some("view.not_found")));
    // Without a session: refused.
    assert_eq!(app.post(LIST, json!({ "page": PAGE })).await.code(), 50008);
}

async fn shared_views_stay_within_a_merchant_or_among_administrators_and_are_read_only(backend: Backend) {
    let app = spawn_app(backend).await;
    let owner = app.login(MERCHANT).await;
    let mid = merchant_of(&app, MERCHANT.0).await;
    let colleague = user_of(&app, "colleague", Some(mid)).await;
    let (_, stranger) = app.merchant("stranger").await;
    let admin = app.login(ADMIN).await;
    let other_admin = user_of(&app, "admin2", None).await;

    let shared = create(&app, &owner, "共享", true).await;
    let private = create(&app, &owner, "自己的", false).await;
    let admins = create(&app, &admin, "admins", true).await;
    let _admin_private = create(&app, &admin, "admin only", false).await;

    // Own views first, then those shared with the caller, and nothing else.
    assert_eq!(names(&app, &owner).await, ["共享", "自己的"]);
    assert_eq!(names(&app, &colleague).await, ["共享"]);
    assert_eq!(names(&app, &stranger).await, Vec::<String>::new());
    assert_eq!(names(&app, &other_admin).await, ["admins"]);
    assert_eq!(names(&app, &admin).await, ["admin only", "admins"]);
    let seen = app.post_as(&colleague, LIST, json!({ "page": PAGE })).await;
    assert_eq!(
        (seen.data()["views"][0]["mine"].as_bool(), seen.data()["views"][0]["owner"].as_str()),
        (Some(false), Some("merchant"))
    );

    // Read-only to the others who see it: 403 on the id; unseen: 404, never told apart.
    for (token, id, status, key) in [
        (&colleague, shared, 403, "view.not_yours"),
        (&other_admin, admins, 403, "view.not_yours"),
        (&colleague, private, 404, "view.not_found"),
        (&stranger, shared, 404, "view.not_found"),
        (&admin, shared, 404, "view.not_found"),
        (&owner, admins, 404, "view.not_found"),
    ] {
        for (path, body) in [(UPDATE, json!({ "id": id, "name": "mine now" })), (DELETE, json!({ "id": id }))] {
            let answer = app.post_as(token, path, body).await;
            assert_eq!(
                (answer.status.as_u16(), answer.data()["keys"]["id"].as_str()),
                (status, Some(key)),
                "{path} {id}"
            );
        }
    }
    // ... but a colleague may make it a default, and a stranger may not.
    let default = app.post_as(&colleague, DEFAULT, json!({ "page": PAGE, "id": shared })).await;
    assert_eq!(default.data()["default_id"], shared, "{:?}", default.body);
    assert_eq!(app.post_as(&stranger, DEFAULT, json!({ "page": PAGE, "id": shared })).await.status.as_u16(), 404);
    assert_eq!(app.post_as(&admin, DEFAULT, json!({ "page": PAGE, "id": shared })).await.status.as_u16(), 404);

    // Unshared: gone from the colleague's list and no longer its default.
    let unshared = app.post_as(&owner, UPDATE, json!({ "id": shared, "shared": false })).await;
    assert_eq!(unshared.data()["shared"], false);
    let after = app.post_as(&colleague, LIST, json!({ "page": PAGE })).await;
    assert_eq!((after.data()["views"].clone(), after.data()["default_id"].clone()), (json!([]), Value::Null));
    // Shared again: seen again, but no longer the colleague's default.
    assert_eq!(app.post_as(&owner, UPDATE, json!({ "id": shared, "shared": true })).await.data()["shared"], true);
    let again = app.post_as(&colleague, LIST, json!({ "page": PAGE })).await;
    assert_eq!((again.data()["views"][0]["id"].as_i64(), &again.data()["default_id"]), (Some(shared), &Value::Null));
    // Nothing changed on the views the others tried.
    assert_eq!(names(&app, &owner).await, ["共享", "自己的"]);
    assert_eq!(names(&app, &other_admin).await, ["admins"]);
}

async fn views_are_validated_and_bounded(backend: Backend) {
    let app = spawn_app(backend).await;
    let token = app.login(MERCHANT).await;
    let view = |page: &str, name: &str, state: Value| json!({ "page": page, "name": name, "state": state });
    let cases = [
        (view("orders", "x", json!({})), 422, "page", "view.page.unknown"),
        (view("", "x", json!({})), 422, "page", "view.page.unknown"),
        (view(PAGE, "", json!({})), 400, "name", "view.name.required"),
        (view(PAGE, "   ", json!({})), 422, "name", "view.name.required"),
        (view(PAGE, &"长".repeat(41), json!({})), 400, "name", "view.name.too_long"),
        (view(PAGE, "x", json!([1])), 400, "state", "view.state.invalid"),
        (view(PAGE, "x", json!("{}")), 400, "state", "view.state.invalid"),
        (view(PAGE, "x", json!({ "a": "x".repeat(8 * 1024) })), 422, "state", "view.state.too_large"),
    ];
    for (body, status, field, key) in cases {
        let answer = app.post_as(&token, CREATE, body.clone()).await;
        assert_eq!((answer.status.as_u16(), answer.code()), (status, 40000), "{body}");
        assert_eq!(answer.data()["keys"][field], key, "{body}");
    }
    assert_eq!(app.post_as(&token, LIST, json!({ "page": "nope" })).await.status.as_u16(), 422);
    assert_eq!(app.post_as(&token, CREATE, json!({ "page": PAGE, "name": "x" })).await.code(), 40000);
    // Forty characters fit; the same name twice on a page does not, on another page it does.
    create(&app, &token, &"长".repeat(40), false).await;
    let twice = app.post_as(&token, CREATE, view(PAGE, &"长".repeat(40), json!({}))).await;
    assert_eq!((twice.status.as_u16(), twice.data()["keys"]["name"].as_str()), (409, Some("view.name.taken")));
    assert_eq!(app.post_as(&token, CREATE, view("quotes", &"长".repeat(40), json!({}))).await.code(), 20000);
    // The message follows the caller's language.
    let chinese = app
        .send(app.client.post(app.url(CREATE)).bearer_auth(&token).header("accept-language", "zh-CN").json(&view(
            PAGE,
            &"长".repeat(40),
            json!({}),
        )))
        .await;
    assert_eq!(chinese.data()["fields"]["name"], "该页面已有同名视图");
    // Fifty views per page and user, then a clear refusal; another user is not counted.
    for index in 1..50 {
        create(&app, &token, &format!("v{index}"), false).await;
    }
    let full = app.post_as(&token, CREATE, view(PAGE, "one more", json!({}))).await;
    assert_eq!((full.status.as_u16(), full.code()), (409, 40900), "{:?}", full.body);
    assert!(full.msg().contains("50"), "{}", full.msg());
    let (_, other) = app.merchant("other").await;
    assert_eq!(app.post_as(&other, CREATE, view(PAGE, "one more", json!({}))).await.code(), 20000);
}
