//! The template pages' calls exist only with `--template-pages`, answer in
//! the mock envelope, and the menu and system info say whether they are on.

use crate::helpers::{Backend, MERCHANT, spawn_app, spawn_app_with};
use crate::on_both_backends;
use serde_json::{Value, json};

on_both_backends!(
    without_the_flag_the_calls_do_not_exist_and_the_menu_has_no_template_section,
    with_the_flag_the_calls_answer_in_the_mock_envelope,
    the_channel_form_names_each_out_of_range_field
);

const CALLS: [&str; 12] = [
    "/api/template/content-data",
    "/api/template/popular/list?type=video",
    "/api/template/chat/list",
    "/api/template/quality-inspection/list",
    "/api/template/the-service/list",
    "/api/template/rules-preset/list",
    "/api/template/policy/list",
    "/api/template/user/my-project/list",
    "/api/template/user/latest-activity",
    "/api/template/user/visits",
    "/api/template/user/project-and-team/list",
    "/api/template/user/my-team/list",
];

fn names(entries: &Value) -> Vec<String> {
    entries
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|entry| std::iter::once(entry["name"].as_str().unwrap().to_string()).chain(names(&entry["children"])))
        .collect()
}

async fn without_the_flag_the_calls_do_not_exist_and_the_menu_has_no_template_section(backend: Backend) {
    let app = spawn_app(backend).await;
    let token = app.login(MERCHANT).await;
    for call in CALLS {
        let answer = app.get_as(&token, call).await;
        assert_eq!((answer.status.as_u16(), answer.code()), (404, 40400), "{call}");
    }
    let submit = app.post_as(&token, "/api/template/channel-form/submit", json!({})).await;
    assert_eq!(submit.status.as_u16(), 404);
    let menu = app.post_as(&token, "/api/user/menu", json!({})).await;
    let all = names(menu.data());
    assert!(all.contains(&"Workplace".to_string()));
    assert!(!all.iter().any(|name| ["PolicyList", "ChannelForm", "Faq", "ContentDashboard"].contains(&name.as_str())));
    assert_eq!(menu.data()[0]["path"], "/dashboard");
    assert_eq!(menu.data()[0]["meta"]["order"], 1);
    let info = app.get_as(&token, "/api/system/info").await;
    assert_eq!(info.code(), 20000);
    assert_eq!(info.data()["features"]["templatePages"], false);
    assert_eq!(info.data()["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(info.data()["timeZone"], "Asia/Shanghai");
}

async fn with_the_flag_the_calls_answer_in_the_mock_envelope(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.template_pages = true).await;
    // Signed-in callers only, like every page of the console.
    assert_eq!(app.send(app.client.get(app.url(CALLS[0]))).await.code(), 50008);
    let token = app.login(MERCHANT).await;
    for call in CALLS {
        let answer = app.get_as(&token, call).await;
        assert_eq!((answer.status.as_u16(), answer.code()), (200, 20000), "{call}");
        assert_eq!(answer.body["status"], "ok", "{call}");
        assert!(answer.body.get("msg").is_some() && !answer.data().is_null(), "{call}");
    }
    let series = app.get_as(&token, CALLS[0]).await;
    assert_eq!(series.data().as_array().unwrap().len(), 8);
    let first = app.get_as(&token, "/api/template/policy/list").await;
    assert_eq!(first.data()["total"], 55);
    assert_eq!(first.data()["list"].as_array().unwrap().len(), 10);
    let last = app.get_as(&token, "/api/template/policy/list?current=6&pageSize=10").await;
    assert_eq!(last.data()["list"].as_array().unwrap().len(), 5);
    let online = app.get_as(&token, "/api/template/policy/list?status=online&pageSize=100").await;
    let rows = online.data()["list"].as_array().unwrap();
    assert_eq!(online.data()["total"].as_u64().unwrap() as usize, rows.len());
    assert!(rows.iter().all(|row| row["status"] == "online"));
    let wrong = app.get_as(&token, "/api/template/policy/list?pageSize=abc").await;
    assert_eq!((wrong.status.as_u16(), wrong.code(), wrong.body["status"].as_str()), (400, 50000, Some("fail")));
    assert!(wrong.data()["fields"]["pageSize"].is_string());
    let unknown = app.get_as(&token, "/api/template/popular/list?type=audio").await;
    assert_eq!(unknown.code(), 50000);
    let menu = app.post_as(&token, "/api/user/menu", json!({})).await;
    let all = names(menu.data());
    for name in ["ContentDashboard", "ServerDashboard", "DataVisualization", "PolicyList", "ChannelForm", "Faq"] {
        assert!(all.contains(&name.to_string()), "{name}");
    }
    assert_eq!(app.get_as(&token, "/api/system/info").await.data()["features"]["templatePages"], true);
}

fn good_form() -> Value {
    json!({
        "activityName": "Spring launch",
        "channelType": "app",
        "promoteLink": "http://example.com",
        "videoMode": "custom",
        "videoAcquisitionResolution": "1920x1080",
        "videoAcquisitionFrameRate": 30,
        "videoEncodingResolution": "1280x720",
        "videoEncodingRateMin": 150,
        "videoEncodingRateMax": 1800,
        "videoEncodingRateDefault": 800,
        "videoEncodingFrameRate": 1,
        "videoEncodingProfile": "main",
        "audioMode": "auto",
        "audioAcquisitionChannels": 2,
        "audioEncodingRate": 128,
        "audioEncodingChannels": 1,
        "audioEncodingProfile": "HE-AAC",
        "description": ""
    })
}

async fn the_channel_form_names_each_out_of_range_field(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.template_pages = true).await;
    let token = app.login(MERCHANT).await;
    let good = app.post_as(&token, "/api/template/channel-form/submit", good_form()).await;
    assert_eq!(good.code(), 20000);
    assert_eq!(good.data()["form"]["videoEncodingRateMax"], 1800);
    assert!(good.data()["id"].as_str().unwrap().starts_with("CF"));
    let mut bad = good_form();
    bad["videoEncodingRateMax"] = json!(1801);
    bad["videoEncodingFrameRate"] = json!(0);
    bad["description"] = json!("x".repeat(201));
    let request = app
        .client
        .post(app.url("/api/template/channel-form/submit"))
        .bearer_auth(&token)
        .header("token", &token)
        .header("Accept-Language", "zh-CN")
        .json(&bad);
    let refused = app.send(request).await;
    assert_eq!((refused.status.as_u16(), refused.code()), (400, 50000));
    assert_eq!(refused.msg(), "表单提交失败，请重试");
    let fields = &refused.data()["fields"];
    assert_eq!(fields["videoEncodingRateMax"], "请输入 150 到 1800 之间的整数");
    assert_eq!(fields["videoEncodingFrameRate"], "请输入 1 到 30 之间的整数");
    assert!(fields["description"].is_string());
    let english = app.post_as(&token, "/api/template/channel-form/submit", bad).await;
    assert_eq!(english.msg(), "Form submission failed, please retry");
    // Not JSON at all: the product's envelope, nothing accepted.
    let broken = app
        .send(
            app.client
                .post(app.url("/api/template/channel-form/submit"))
                .bearer_auth(&token)
                .header("token", &token)
                .header("content-type", "application/json")
                .body("{"),
        )
        .await;
    assert_eq!(broken.status.as_u16(), 400);
}
