//! The number's province on orders: order lists filter by it (their total then counted from
//! the rows, as the counters know no province), exports carry it in the reader's language,
//! and the open API answers the place in both languages.

use crate::files::download;
use crate::helpers::{Backend, TestApp, spawn_app_with};
use crate::on_both_backends;
use crate::open_api::{Call, merchant_with_key, send};
use crate::product_scope::{BEIJING, GUANGDONG, UNKNOWN, add_test_segments};
use serde_json::{Value, json};

on_both_backends!(
    orders_are_filtered_and_exported_by_province,
    the_open_api_names_the_place_in_both_languages,
    statements_count_successes_by_province,
);

async fn regions_app(backend: Backend) -> TestApp {
    let app = spawn_app_with(backend, crate::open_api::config).await;
    add_test_segments(&app).await;
    app
}

fn ids(answer: &crate::helpers::Answer) -> Vec<String> {
    let list = answer.data()["list"].as_array().cloned().unwrap_or_default();
    list.iter().map(|order| order["merchant_order_id"].as_str().unwrap_or_default().to_string()).collect()
}

/// A CSV download's lines, in `language`.
async fn export_lines(app: &TestApp, token: &str, language: &str, path: &str) -> Vec<String> {
    let response =
        app.client.get(app.url(path)).bearer_auth(token).header("accept-language", language).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let text = response.text().await.unwrap();
    text.trim_start_matches('\u{feff}').lines().map(str::to_string).collect()
}

async fn orders_are_filtered_and_exported_by_province(backend: Backend) {
    let app = regions_app(backend).await;
    let (mid, token) = app.merchant("regions").await;
    app.fund(mid, 100_000, 0).await;
    for (account, id) in [(BEIJING, "R-BJ"), (GUANGDONG, "R-GD"), (UNKNOWN, "R-UN")] {
        let body = json!({"account": account, "product_key": "MOBILE-DIRECT-10", "merchant_order_id": id});
        assert_eq!(app.add_order(&token, body).await.code(), 20000);
    }
    let list = |filter: Value| app.post_as(&token, "/adminapi/order/list", filter);
    let guangdong = list(json!({"province": 440000})).await;
    assert_eq!((ids(&guangdong), guangdong.data()["total"].clone()), (vec!["R-GD".to_string()], json!(1)));
    assert_eq!(guangdong.data()["list"][0]["province_en"], "Guangdong", "{:?}", guangdong.body);
    assert_eq!(ids(&list(json!({"province": 110000, "order_type": "today"})).await), ["R-BJ"]);
    let none = list(json!({"province": 330000})).await;
    assert_eq!((ids(&none).len(), none.data()["total"].clone()), (0, json!(0)));
    assert_eq!(list(json!({})).await.data()["total"], 3, "no filter: every order");

    // A code that is no province's is named, in the reader's language.
    for wrong in [json!(440100), json!(0)] {
        let refused = list(json!({"province": wrong})).await;
        assert_eq!(refused.code(), 40000, "{:?}", refused.body);
        assert_eq!(refused.data()["keys"]["province"], "request.province_invalid", "{:?}", refused.body);
    }

    // Exports: the province and the city in the reader's language.
    let zh = export_lines(&app, &token, "zh-CN", "/adminapi/order/export?kind=all&sort=asc").await;
    assert!(zh[0].ends_with(",\"归属省份\",\"归属城市\""), "{}", zh[0]);
    let row = |lines: &[String], id: &str| lines.iter().find(|line| line.contains(id)).cloned().unwrap();
    assert!(row(&zh, "R-GD").ends_with(",\"广东\",\"深圳\""), "{zh:?}");
    assert!(row(&zh, "R-UN").ends_with(",\"\",\"\""), "an unknown segment: empty cells; {zh:?}");
    let en = export_lines(&app, &token, "en-US", "/adminapi/order/export?province=440000").await;
    assert!(en[0].ends_with(",\"Province\",\"City\""), "{}", en[0]);
    assert_eq!(en.len(), 2, "the filter holds in the export: {en:?}");
    assert!(en[1].contains("R-GD") && en[1].ends_with(",\"Guangdong\",\"Shenzhen\""), "{en:?}");
    let xlsx = download(&app, &token, "/adminapi/order/export?format=xlsx&province=110000").await;
    let rows = sheet_rows(xlsx);
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert_eq!(rows[1][rows[1].len() - 2..], ["Beijing".to_string(), "Beijing".to_string()], "{rows:?}");
}

fn sheet_rows(xlsx: Vec<u8>) -> Vec<Vec<String>> {
    use calamine::Reader;
    let mut book: calamine::Xlsx<_> = calamine::open_workbook_from_rs(std::io::Cursor::new(xlsx)).unwrap();
    let range = book.worksheet_range_at(0).unwrap().unwrap();
    range.rows().map(|row| row.iter().map(|cell| cell.to_string()).collect()).collect()
}

async fn the_open_api_names_the_place_in_both_languages(backend: Backend) {
    let app = regions_app(backend).await;
    let (_, _, key) = merchant_with_key(&app, "openregions").await;
    let body = json!({"merchant_order_id": "API-GD", "product_key": "MOBILE-DIRECT-10", "account": GUANGDONG});
    let (placed, _) = send(&app, &key, Call::post("/openapi/v1/orders", &body)).await;
    assert_eq!(placed.code(), 20000, "{:?}", placed.body);
    for answer in [placed, send(&app, &key, Call::get("/openapi/v1/orders/API-GD")).await.0] {
        let place = |field: &str| answer.data()[field].clone();
        assert_eq!(
            [place("province"), place("city"), place("province_en"), place("city_en")],
            [json!("广东"), json!("深圳"), json!("Guangdong"), json!("Shenzhen")],
            "{:?}",
            answer.body
        );
    }
}

async fn statements_count_successes_by_province(backend: Backend) {
    let app = regions_app(backend).await;
    let (mid, token) = app.merchant("provinces").await;
    app.fund(mid, 100_000, 0).await;
    for (account, id) in
        [(GUANGDONG, "S-GD1"), (GUANGDONG, "S-GD2"), (BEIJING, "S-BJ"), (UNKNOWN, "S-UN"), (BEIJING, "S-BJ-F")]
    {
        let body = json!({"account": account, "product_key": "MOBILE-DIRECT-10", "merchant_order_id": id});
        assert_eq!(app.add_order(&token, body).await.code(), 20000);
    }
    // The statement reads orders as they stand: four successes and a failure (the worker is off).
    sqlx::query(
        "UPDATE orders SET status = CASE WHEN merchant_order_id = 'S-BJ-F' THEN 3 ELSE 2 END WHERE merchant_id = $1",
    )
    .bind(mid)
    .execute(&app.state.db.pool)
    .await
    .unwrap();
    let today =
        backoffice::domain::beijing_date(backoffice::domain::beijing_day(backoffice::platform::db::now_millis()));
    let answer = app.post_as(&token, "/adminapi/finance/statement", json!({"date": today})).await;
    let groups = answer.data()[0]["succeeded_by_province"].clone();
    let price = answer.data()[0]["orders_succeeded"]["amount_fen"].as_i64().unwrap() / 4;
    assert_eq!(
        groups,
        json!([
            {"province_code": 440000, "province": "广东", "province_en": "Guangdong", "count": 2, "amount_fen": 2 * price},
            {"province_code": 110000, "province": "北京", "province_en": "Beijing", "count": 1, "amount_fen": price},
            {"province_code": null, "province": "", "province_en": "", "count": 1, "amount_fen": price},
        ]),
        "{:?}",
        answer.body
    );
    let lines = export_lines(&app, &token, "en-US", &format!("/adminapi/finance/statement/export?date={today}")).await;
    assert!(lines[0].ends_with(",\"Successes by province (orders/yuan)\""), "{lines:?}");
    let yuan = backoffice::domain::yuan(price);
    let expected =
        format!(",\"Guangdong 2/{}; Beijing 1/{yuan}; Unknown 1/{yuan}\"", backoffice::domain::yuan(2 * price));
    assert!(lines[1].ends_with(&expected), "{lines:?}");
}
