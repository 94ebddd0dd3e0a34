//! Administrators refresh the number-segment table by upload: a preview says what a file
//! adds, changes and removes; applying replaces the table whole (or not at all) and placing
//! sees it at once; a file with bad lines is refused naming each; a preview made against an
//! older table is refused; phone.dat reads as CSV does; the table exports as CSV that
//! previews back unchanged. Another server applying a file is seen here (PostgreSQL).

use crate::helpers::{ADMIN, Answer, Backend, TestApp, spawn_app_with};
use crate::on_both_backends;
use serde_json::json;

on_both_backends!(
    a_file_is_previewed_then_applied_whole,
    bad_files_are_refused_and_change_nothing,
    phone_dat_reads_and_the_export_reads_back,
);

async fn app(backend: Backend) -> TestApp {
    spawn_app_with(backend, |config| config.worker.enabled = false).await
}

async fn preview(app: &TestApp, token: &str, name: &str, bytes: Vec<u8>) -> Answer {
    let form = reqwest::multipart::Form::new()
        .part("file", reqwest::multipart::Part::bytes(bytes).file_name(name.to_string()));
    app.send(app.client.post(app.url("/adminapi/admin/segments/preview")).bearer_auth(token).multipart(form)).await
}

async fn lookup(app: &TestApp, token: &str, phone: &str) -> Answer {
    app.post_as(token, "/adminapi/segment/lookup", json!({"phone": phone})).await
}

async fn a_file_is_previewed_then_applied_whole(backend: Backend) {
    let app = app(backend).await;
    let admin = app.login(ADMIN).await;
    let (mid, merchant) = app.merchant("buyer").await;
    let summary = app.get_as(&admin, "/adminapi/admin/segments").await;
    assert_eq!((summary.data()["rows"].as_i64(), summary.data()["source"].as_str()), (Some(0), Some("default")));

    // Chinese titles and full names, GBK as Excel writes it.
    let first = "号段,省份,城市,运营商\r\n1380013,北京市,北京,中国移动\r\n1380014,广东省,深圳市,中国移动\r\n1300000,山东,济南,联通\r\n";
    let (gbk, _, _) = encoding_rs::GBK.encode(first);
    let shown = preview(&app, &admin, "segments.csv", gbk.into_owned()).await;
    assert_eq!(shown.code(), 20000, "{:?}", shown.body);
    let data = shown.data();
    assert_eq!((data["rows"].as_i64(), data["added"].as_i64(), data["removed"].as_i64()), (Some(3), Some(3), Some(0)));
    assert_eq!(
        (&data["format"], &data["samples"][0]["prefix"], &data["samples"][0]["change"]),
        (&json!("csv"), &json!("1300000"), &json!("added"))
    );
    // Nothing changes before it is applied.
    assert_eq!(lookup(&app, &merchant, "13800138000").await.status.as_u16(), 404);
    let applied = app.post_as(&admin, "/adminapi/admin/segments/apply", json!({"upload_id": data["upload_id"]})).await;
    assert_eq!((applied.code(), applied.data()["rows"].as_i64()), (20000, Some(3)), "{:?}", applied.body);
    let found = lookup(&app, &merchant, "13800148000").await;
    assert_eq!(
        (&found.data()["province"], &found.data()["city"], &found.data()["province_en"]),
        (&json!("广东"), &json!("深圳"), &json!("Guangdong"))
    );
    // Placing sees it at once: the order stores the new place.
    app.fund(mid, 100_000, 0).await;
    let order = app.add_order(&merchant, json!({"account": "13800148000", "product_key": "MOBILE-DIRECT-10"})).await;
    assert_eq!(order.code(), 20000, "{:?}", order.body);
    let province: String = sqlx::query_scalar("SELECT province FROM orders WHERE merchant_id = $1")
        .bind(mid)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(province, "广东");

    // A second file: one changed, one removed, one added, one kept.
    let second =
        "prefix,province,city,carrier\n1380013,北京,北京,mobile\n1380014,广东,广州,mobile\n1390000,浙江,杭州,mobile\n";
    let next = preview(&app, &admin, "next.csv", second.as_bytes().to_vec()).await;
    let counts = |answer: &Answer| {
        ["added", "changed", "removed", "unchanged"].map(|key| answer.data()[key].as_i64().unwrap_or(-1))
    };
    assert_eq!(counts(&next), [1, 1, 1, 1], "{:?}", next.body);
    let changed = next.data()["samples"]
        .as_array()
        .unwrap()
        .iter()
        .find(|change| change["change"] == "changed")
        .cloned()
        .unwrap();
    assert_eq!((&changed["before"]["city"], &changed["after"]["city"]), (&json!("深圳"), &json!("广州")));
    // Previewed against the same table as `next`: stale once `next` is applied.
    let rival = preview(&app, &admin, "rival.csv", second.as_bytes().to_vec()).await;
    let id = next.data()["upload_id"].clone();
    assert_eq!(app.post_as(&admin, "/adminapi/admin/segments/apply", json!({"upload_id": id})).await.code(), 20000);
    let stale =
        app.post_as(&admin, "/adminapi/admin/segments/apply", json!({"upload_id": rival.data()["upload_id"]})).await;
    assert_eq!(
        (stale.status.as_u16(), stale.data()["keys"]["upload_id"].as_str()),
        (409, Some("segment.upload.stale")),
        "{:?}",
        stale.body
    );
    let again = app.post_as(&admin, "/adminapi/admin/segments/apply", json!({"upload_id": id})).await;
    assert_eq!(again.status.as_u16(), 404, "{:?}", again.body);
    assert!(again.body["msg"].as_str().unwrap_or_default().contains("no longer exists"), "{:?}", again.body);
    assert_eq!(lookup(&app, &merchant, "13000001234").await.status.as_u16(), 404, "removed");
    assert_eq!(app.scalar("SELECT COUNT(*) FROM number_segments WHERE $1 = $1", 0).await, 3);
    let summary = app.get_as(&admin, "/adminapi/admin/segments").await;
    assert_eq!(
        (&summary.data()["source"], &summary.data()["file_name"], &summary.data()["applied_by"]),
        (&json!("upload"), &json!("next.csv"), &json!("admin"))
    );

    // Audited in words, in both languages.
    let audit = app.post_as(&admin, "/adminapi/admin/audit/list", json!({"action": "segments_applied"})).await;
    let detail = audit.data()["list"][0]["detail"].as_str().unwrap_or_default().to_string();
    assert!(detail.contains("next.csv") && detail.contains("1 added, 1 changed, 1 removed"), "{detail}");

    // Merchants may not look at or change the table.
    for (path, body) in [("/adminapi/admin/segments/apply", json!({"upload_id": 1}))] {
        assert_eq!(app.post_as(&merchant, path, body).await.status.as_u16(), 403);
    }
    assert_eq!(app.get_as(&merchant, "/adminapi/admin/segments").await.status.as_u16(), 403);
    assert_eq!(preview(&app, &merchant, "x.csv", second.as_bytes().to_vec()).await.status.as_u16(), 403);
}

async fn bad_files_are_refused_and_change_nothing(backend: Backend) {
    let app = app(backend).await;
    let admin = app.login(ADMIN).await;
    let bad = "号段,省份,城市,运营商\n1380013,北京,北京,移动\n138001,北京,北京,移动\n1380015,火星,北京,移动\n1380013,北京,北京,移动\n";
    let refused = preview(&app, &admin, "bad.csv", bad.as_bytes().to_vec()).await;
    assert_eq!(refused.status.as_u16(), 422, "{:?}", refused.body);
    let keys = &refused.data()["keys"];
    assert_eq!(
        (&keys["line:3"], &keys["line:4"], &keys["line:5"]),
        (&json!("segment.line.prefix"), &json!("segment.line.province"), &json!("segment.line.repeated"))
    );
    assert!(
        refused.body["msg"].as_str().unwrap_or_default().contains("Line 3: the segment must be 7 digits"),
        "{:?}",
        refused.body
    );
    for (name, bytes, key) in [
        ("empty.csv", b"\n\n".to_vec(), "segment.file.rows"),
        ("image.png", b"\x89PNG\r\n\x1a\n\0\0".to_vec(), "segment.file.unreadable"),
        ("broken.gz", vec![0x1f, 0x8b, 8, 0, 1, 2], "segment.file.unreadable"),
    ] {
        let answer = preview(&app, &admin, name, bytes).await;
        assert_eq!(
            (answer.status.as_u16(), answer.data()["keys"]["file"].as_str()),
            (422, Some(key)),
            "{name}: {:?}",
            answer.body
        );
    }
    let no_file = app
        .send(app.client.post(app.url("/adminapi/admin/segments/preview")).bearer_auth(&admin).json(&json!({})))
        .await;
    assert_eq!(no_file.status.as_u16(), 400, "{:?}", no_file.body);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM segment_uploads WHERE $1 = $1", 0).await, 0, "nothing kept");
    assert_eq!(app.scalar("SELECT COUNT(*) FROM number_segments WHERE $1 = $1", 0).await, 0);
    let unknown = app.post_as(&admin, "/adminapi/admin/segments/apply", json!({"upload_id": 999})).await;
    assert_eq!(unknown.status.as_u16(), 404);
}

/// A phone.dat of records (省份|城市|邮编|区号) and entries (prefix, record, card type).
fn phone_dat(records: &[&str], entries: &[(u32, usize, u8)]) -> Vec<u8> {
    let mut body = Vec::new();
    let mut offsets = Vec::new();
    for record in records {
        offsets.push(8 + body.len());
        body.extend_from_slice(record.as_bytes());
        body.push(0);
    }
    let mut file = b"2611".to_vec();
    file.extend_from_slice(&((8 + body.len()) as u32).to_le_bytes());
    file.extend_from_slice(&body);
    for (prefix, record, card) in entries {
        file.extend_from_slice(&prefix.to_le_bytes());
        file.extend_from_slice(&(offsets[*record] as u32).to_le_bytes());
        file.push(*card);
    }
    file
}

async fn phone_dat_reads_and_the_export_reads_back(backend: Backend) {
    let app = app(backend).await;
    let admin = app.login(ADMIN).await;
    let (_, merchant) = app.merchant("buyer").await;
    let file = phone_dat(
        &["广东|深圳|518000|0755", "浙江|杭州|310000|0571"],
        &[(1_380_013, 0, 1), (1_700_000, 1, 5), (1_920_000, 1, 7)],
    );
    let shown = preview(&app, &admin, "phone.dat", file).await;
    assert_eq!(
        (shown.code(), &shown.data()["format"], shown.data()["rows"].as_i64()),
        (20000, &json!("phone_dat"), Some(3)),
        "{:?}",
        shown.body
    );
    let applied =
        app.post_as(&admin, "/adminapi/admin/segments/apply", json!({"upload_id": shown.data()["upload_id"]})).await;
    assert_eq!(applied.code(), 20000, "{:?}", applied.body);
    let found = lookup(&app, &merchant, "17000001234").await;
    assert_eq!((&found.data()["province"], &found.data()["carrier"]), (&json!("浙江"), &json!("unicom")));

    let export = app.client.get(app.url("/adminapi/admin/segments/export")).bearer_auth(&admin).send().await.unwrap();
    assert_eq!(export.status().as_u16(), 200);
    let text = export.text().await.unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "prefix,province_code,province,city,carrier,province_en,city_en");
    assert_eq!(lines[1], "1380013,440000,广东,深圳,mobile,Guangdong,深圳");
    assert_eq!(lines.len(), 4);
    // Previewed back, the export changes nothing.
    let back = preview(&app, &admin, "segments.csv", text.into_bytes()).await;
    assert_eq!(
        (back.data()["unchanged"].as_i64(), back.data()["added"].as_i64(), back.data()["changed"].as_i64()),
        (Some(3), Some(0), Some(0)),
        "{:?}",
        back.body
    );

    if matches!(backend, Backend::Postgres) {
        // Another server applies a table: written as it writes it, this server not told.
        let mut transaction = app.state.db.begin_write().await.unwrap();
        sqlx::query("INSERT INTO number_segments (prefix, province_code, province, city, carrier, province_en, city_en) VALUES ('1590000', '320000', '江苏', '南京', 'mobile', 'Jiangsu', 'Nanjing')")
            .execute(&mut *transaction)
            .await
            .unwrap();
        sqlx::query("UPDATE segment_state SET version = version + 1000 WHERE id = 1")
            .execute(&mut *transaction)
            .await
            .unwrap();
        transaction.commit().await.unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while lookup(&app, &merchant, "15900001234").await.code() != 20000 {
            assert!(std::time::Instant::now() < deadline, "the other server's table was not read within 30 s");
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        }
    }
}
