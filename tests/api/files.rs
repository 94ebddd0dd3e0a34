//! Files the server reads and writes. Reading: hostile uploads built here (a huge declared
//! sheet, a zip bomb, deep XML, a million empty rows, bytes neither UTF-8 nor GBK, one 30 MB
//! line) each get their own error, and the server goes on serving; GBK CSV is read.
//! Writing: every export and batch file neutralises formulas, keeps long identifiers as
//! text and money as numbers.

use crate::helpers::{ADMIN, Answer, Backend, TestApp, spawn_app_with};
use crate::on_both_backends;
use crate::product_scope::add_test_segments;
use backoffice::http::export::Cell;
use serde_json::json;
use std::io::Write;

on_both_backends!(
    exports_neutralise_formulas_and_keep_identifiers,
    batch_files_neutralise_formulas,
    uploads_are_told_by_their_content_not_their_name,
    gbk_csv_files_are_read_like_utf8,
);

fn zip_of(parts: &[(&str, &[u8])]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (name, content) in parts {
        writer.start_file(*name, options).unwrap();
        writer.write_all(content).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

/// A workbook with one sheet: `before` (say, a dimension) and then `sheet_data` rows.
fn workbook(before: &str, sheet_data: &[u8]) -> Vec<u8> {
    let mut sheet = format!("<worksheet>{before}<sheetData>").into_bytes();
    sheet.extend_from_slice(sheet_data);
    sheet.extend_from_slice(b"</sheetData></worksheet>");
    let book = br#"<workbook xmlns:r="r"><sheets><sheet name="A" sheetId="1" r:id="rId1"/></sheets></workbook>"#;
    let rels = br#"<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>"#;
    zip_of(&[
        ("[Content_Types].xml", b"<Types/>"),
        ("xl/workbook.xml", book),
        ("xl/_rels/workbook.xml.rels", rels),
        ("xl/worksheets/sheet1.xml", &sheet),
    ])
}

async fn upload(app: &TestApp, token: &str, name: &str, bytes: Vec<u8>) -> Answer {
    let form = reqwest::multipart::Form::new()
        .part("file", reqwest::multipart::Part::bytes(bytes).file_name(name.to_string()));
    app.send(app.client.post(app.url("/adminapi/order/batch/preview")).bearer_auth(token).multipart(form)).await
}

const ONE_LINE: &[u8] = br#"<row r="2"><c r="A2" t="inlineStr"><is><t>13800138000</t></is></c><c r="B2" t="inlineStr"><is><t>MOBILE-DIRECT-10</t></is></c></row>"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_uploads_get_their_error_and_the_server_keeps_serving() {
    let app = spawn_app_with(Backend::Sqlite, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 100_000, 0).await;
    // Claims every cell of the grid and spans it (its last cell is XFD1048576): 1 KB that
    // made the old reader allocate 512 GiB and abort the process. Answered by what it holds.
    let mut spanning = ONE_LINE.to_vec();
    spanning.extend_from_slice(br#"<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>"#);
    let huge = workbook(r#"<dimension ref="A1:XFD1048576"/>"#, &spanning);
    let answer = upload(&app, &token, "huge.xlsx", huge).await;
    assert_eq!((answer.code(), answer.data()["valid_rows"].as_i64()), (20000, Some(1)), "{:?}", answer.body);

    let mut bomb = b"<row r=\"1\">".to_vec();
    bomb.resize(200 * 1024 * 1024, b' ');
    bomb.extend_from_slice(b"</row>");
    let bomb = workbook("", &bomb);
    assert!(bomb.len() < 1024 * 1024, "a bomb: {} bytes packed", bomb.len());
    let deep = workbook("", format!("<row>{}", "<a>".repeat(100_000)).as_bytes());
    let empty_rows: String = (1..=1_000_000).map(|row| format!("<row r=\"{row}\"/>")).collect();
    let empty_rows = workbook("", empty_rows.as_bytes());
    let mut not_text = b"13800138000,MOBILE-DIRECT-10\n13900139000,".to_vec();
    not_text.extend_from_slice(&[0xFF, 0xFF, 0xB2, 0xE2]); // neither UTF-8 nor GBK
    let mut long_line = b"13800138000,MOBILE-DIRECT-10,".to_vec();
    long_line.resize(30 * 1024 * 1024, b'7');
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("bomb.xlsx", bomb, "batch.file_unpacked_too_large"),
        ("deep.xlsx", deep, "batch.file_too_deep"),
        ("empty-rows.xlsx", empty_rows, "batch.file_too_many_rows"),
        ("garbage.csv", not_text, "batch.file_not_utf8"),
        ("long.csv", long_line, "batch.line_too_long"),
    ];
    for (name, bytes, key) in cases {
        let started = std::time::Instant::now();
        let answer = upload(&app, &token, name, bytes).await;
        // Reported, not asserted: timing targets live in bench/.
        eprintln!("{name}: {key} in {:?}", started.elapsed());
        // What a file holds is beyond the OpenAPI document's schema: 422, still 40000.
        assert_eq!((answer.status.as_u16(), answer.code()), (422, 40000), "{name}: {:?}", answer.body);
        assert_eq!(answer.data()["keys"]["file"], key, "{name}: {:?}", answer.body);
        // Still serving: the next request is answered as usual.
        let next = upload(&app, &token, "next.xlsx", workbook("", ONE_LINE)).await;
        assert_eq!(next.code(), 20000, "after {name}: {:?}", next.body);
    }
    let garbage = upload(&app, &token, "garbage.csv", vec![b'1', b'\n', 0xB2, 0xE2, 0xFF]).await;
    assert!(garbage.msg().starts_with("Line 2"), "{}", garbage.msg());
    assert_eq!(app.figures(mid).await.0, 100_000, "nothing charged");
}

/// The raw fields of a CSV line (quotes kept), split at commas outside quotes.
fn raw_fields(line: &str) -> Vec<String> {
    let (mut fields, mut field, mut quoted) = (Vec::new(), String::new(), false);
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                field.push(c);
            }
            ',' if !quoted => fields.push(std::mem::take(&mut field)),
            _ => field.push(c),
        }
    }
    fields.push(field);
    fields
}

pub(crate) async fn download(app: &TestApp, token: &str, path: &str) -> Vec<u8> {
    let response = app.client.get(app.url(path)).bearer_auth(token).send().await.unwrap();
    assert_eq!(response.status(), 200, "{path}");
    response.bytes().await.unwrap().to_vec()
}

fn sheet(bytes: Vec<u8>) -> calamine::Range<calamine::Data> {
    use calamine::Reader;
    let mut book: calamine::Xlsx<_> = calamine::open_workbook_from_rs(std::io::Cursor::new(bytes)).unwrap();
    book.worksheet_range_at(0).unwrap().unwrap()
}

fn part_of(bytes: &[u8], name: &str) -> String {
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    let mut part = String::new();
    std::io::Read::read_to_string(&mut archive.by_name(name).unwrap(), &mut part).unwrap();
    part
}

fn styles_of(bytes: &[u8]) -> String {
    part_of(bytes, "xl/styles.xml")
}

/// The header row stays in view (a frozen pane below it) and the last column has a width
/// (the writer merges neighbours of one width into one `<col>`).
fn assert_laid_out(bytes: &[u8], columns: usize) {
    let sheet = part_of(bytes, "xl/worksheets/sheet1.xml");
    assert!(sheet.contains(r#"ySplit="1""#) && sheet.contains(r#"state="frozen""#), "{sheet}");
    assert!(sheet.contains(&format!(r#"max="{columns}""#)) && sheet.contains(r#"customWidth="1""#), "{sheet}");
}

/// A date cell as the moment it stands for (Excel's days since 1899-12-30, Beijing time).
fn moment_of(date: &calamine::ExcelDateTime) -> i64 {
    ((date.as_f64() - 25_569.0) * 86_400.0).round() as i64 * 1000 - 8 * 3_600_000
}

async fn exports_neutralise_formulas_and_keep_identifiers(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    add_test_segments(&app).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 100_000, 0).await;
    for (id, account) in [("-5", "13800138000"), ("A.1", "13822221111")] {
        let body = json!({"account": account, "product_key": "MOBILE-DIRECT-10", "merchant_order_id": id});
        assert_eq!(app.add_order(&token, body).await.code(), 20000);
    }
    // Orders: the CSV (built by the database) holds exactly what the xlsx path's cells
    // write as CSV, column by column.
    let csv = String::from_utf8(download(&app, &token, "/adminapi/order/export?format=csv&sort=asc").await).unwrap();
    let xlsx = download(&app, &token, "/adminapi/order/export?format=xlsx&sort=asc").await;
    assert!(styles_of(&xlsx).contains("¥#,##0.00"), "a yuan number format");
    assert!(styles_of(&xlsx).contains("yyyy-mm-dd hh:mm:ss"), "a date format");
    assert_laid_out(&xlsx, 19);
    let range = sheet(xlsx);
    let lines: Vec<&str> = csv.trim_start_matches('\u{feff}').lines().skip(1).collect();
    assert_eq!(lines.len(), 2);
    let (ids, money) = ([0usize, 1, 2, 6, 13], [7usize, 8]);
    for (index, line) in lines.iter().enumerate() {
        let fields = raw_fields(line);
        let row: Vec<&calamine::Data> =
            (0..fields.len()).map(|column| range.get((index + 1, column)).unwrap()).collect();
        for (column, field) in fields.iter().enumerate() {
            let cell = match row[column] {
                calamine::Data::String(text) if ids.contains(&column) => Cell::Id(text.clone()),
                calamine::Data::String(text) => Cell::Text(text.clone()),
                calamine::Data::Float(value) if money.contains(&column) => Cell::Money((value * 100.0).round() as i64),
                calamine::Data::Float(value) if column == 15 => Cell::Int(*value as i64),
                // Order and callback times are dates, the CSV's text the same moment.
                calamine::Data::DateTime(date) if column == 10 || column == 12 => Cell::Time(moment_of(date)),
                // An empty text cell reads back as no cell.
                calamine::Data::Empty if ids.contains(&column) => Cell::Id(String::new()),
                calamine::Data::Empty if column == 11 => Cell::Empty,
                calamine::Data::Empty => Cell::Text(String::new()),
                other => panic!("column {column}: unexpected {other:?}"),
            };
            assert_eq!(&cell.csv_field(), field, "line {index}, column {column}");
        }
        // 24-digit order numbers: text in both files, every digit kept.
        assert!(matches!(row[1], calamine::Data::String(number) if number.len() == 24), "{:?}", row[1]);
        // Exact in the CSV too: quoted, nothing added (scripts match them as they are).
        assert!(
            matches!(row[1], calamine::Data::String(number) if fields[1] == format!("\"{number}\"")),
            "{}",
            fields[1]
        );
        assert!(matches!(row[8], calamine::Data::Float(_)), "the price is a number: {:?}", row[8]);
    }
    assert_eq!(raw_fields(lines[0])[0], "\"'-5\"", "a leading '-' is neutralised");
    // The number's province and city in the reader's language (stored as 北京 北京).
    assert_eq!(raw_fields(lines[0])[17..], ["\"Beijing\"", "\"Beijing\""], "{}", lines[0]);
    assert_eq!(raw_fields(lines[1])[17..], ["\"Guangdong\"", "\"Shenzhen\""], "{}", lines[1]);
    let request = app.client.get(app.url("/adminapi/order/export?format=csv&sort=asc")).bearer_auth(&token);
    let chinese = request.header("accept-language", "zh-CN").send().await.unwrap().text().await.unwrap();
    let ends: Vec<bool> = chinese.lines().skip(1).map(|line| line.ends_with(",\"广东\",\"深圳\"")).collect();
    assert_eq!(ends, [false, true], "{chinese}");
    assert_eq!(range.get((1, 0)), Some(&calamine::Data::String("'-5".into())));

    // The account log: an administrator's remark that is a formula, amounts as numbers.
    let admin = app.login(ADMIN).await;
    let remark = "=HYPERLINK(\"http://evil\",\"x\")";
    let adjust = json!({"merchant_id": mid, "amount_fen": -100, "remark": remark});
    assert_eq!(app.post_as(&admin, "/adminapi/admin/merchant/adjust", adjust).await.code(), 20000);
    let path = format!("/adminapi/finance/account/export?merchant_id={mid}&format=");
    let csv = String::from_utf8(download(&app, &admin, &format!("{path}csv")).await).unwrap();
    assert!(csv.contains("\"'=HYPERLINK(\"\"http://evil\"\",\"\"x\"\")\""), "{csv}");
    assert!(csv.contains(",-1.00,"), "negative amounts stay numbers: {csv}");
    let xlsx = download(&app, &admin, &format!("{path}xlsx")).await;
    assert_laid_out(&xlsx, 13);
    let range = sheet(xlsx);
    let rows: Vec<&[calamine::Data]> = range.rows().collect();
    assert!(
        rows.iter().skip(1).all(|row| matches!(&row[12], calamine::Data::DateTime(date) if date.is_datetime())),
        "{rows:?}"
    );
    // The order numbers of the account log: exact text cells, 24 digits.
    assert!(rows.iter().any(|row| matches!(&row[9], calamine::Data::String(number) if number.len() == 24)), "{rows:?}");
    assert!(rows.iter().any(|row| row[11] == calamine::Data::String(format!("'{remark}")) && row[4] == calamine::Data::Float(-1.0)));
    assert!(rows.iter().skip(1).all(|row| matches!(row[4], calamine::Data::Float(_))), "every amount is a number");
    // Types in the reader's words, as the page shows them, never the stored codes.
    assert!(
        rows.iter().any(|row| row[2] == calamine::Data::String("Balance account".into())
            && row[3] == calamine::Data::String("Adjustment".into())),
        "{rows:?}"
    );
    let request = app.client.get(app.url(&format!("{path}csv"))).bearer_auth(&admin).header("accept-language", "zh-CN");
    let chinese = request.send().await.unwrap().text().await.unwrap();
    assert!(chinese.contains("\"余额账户\",\"调账\",") && chinese.contains("\"加款\","), "{chinese}");
    assert!(!chinese.contains("\"balance\"") && !chinese.contains("\"topup\""), "{chinese}");

    // Quotes: prices as numbers with the yuan format.
    let quotes = download(&app, &token, "/adminapi/quote/export?format=xlsx").await;
    assert!(styles_of(&quotes).contains("¥#,##0.00"));
    let range = sheet(quotes);
    assert!(
        range
            .rows()
            .skip(1)
            .all(|row| matches!(row[4], calamine::Data::Float(_)) && matches!(row[0], calamine::Data::Float(_)))
    );
    // The template: the example account is a text cell in xlsx, an exact quoted field in CSV.
    let template = download(&app, &token, "/adminapi/order/batch/template?format=xlsx").await;
    assert!(part_of(&template, "xl/worksheets/sheet1.xml").contains(r#"state="frozen""#));
    let template = sheet(template);
    assert_eq!(template.get((1, 0)), Some(&calamine::Data::String("13800138000".into())));
    let template =
        String::from_utf8(download(&app, &token, "/adminapi/order/batch/template?format=csv").await).unwrap();
    assert!(template.contains("\"13800138000\",\"MOBILE-DIRECT-100\""), "{template}");
}

async fn batch_files_neutralise_formulas(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 100_000, 0).await;
    let text = "13800138000;=HYPERLINK(\"http://evil\");X1\n13800138000;+1+2;X2\n@SUM(1);MOBILE-DIRECT-10;X3\n13800138000;MOBILE-DIRECT-10;-4";
    let preview = app.post_as(&token, "/adminapi/order/batch/preview", json!({"text": text})).await;
    assert_eq!(preview.data()["valid_rows"], 1, "{:?}", preview.body);
    let batch_id = preview.data()["batch_id"].as_i64().unwrap();
    let result = download(&app, &token, &format!("/adminapi/order/batch/result?batch_id={batch_id}")).await;
    let result = String::from_utf8(result).unwrap();
    for expected in ["\"'=HYPERLINK(\"\"http://evil\"\")\"", "\"'+1+2\"", "\"'@SUM(1)\"", "\"'-4\""] {
        assert!(result.contains(expected), "{expected} in {result}");
    }
    for line in result.lines().skip(1) {
        for field in raw_fields(line) {
            let inner = field.trim_matches('"');
            assert!(!inner.starts_with(['=', '+', '@', '\t', '\r']), "{field} in {line}");
            assert!(!inner.starts_with('-') || inner.parse::<f64>().is_ok(), "{field} in {line}");
        }
    }
}

/// Bytes that look random (a fixed LCG: the same file on every run).
fn noise(length: usize) -> Vec<u8> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    (0..length)
        .map(|_| {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (state >> 56) as u8
        })
        .collect()
}

async fn uploads_are_told_by_their_content_not_their_name(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 100_000, 0).await;
    let docx = zip_of(&[("[Content_Types].xml", b"<Types/>"), ("word/document.xml", b"<w:document/>")]);
    let pdf = b"%PDF-1.7\n%\xE2\xE3\xCF\xD3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n".to_vec();
    let xls = [b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1".as_slice(), &[0u8; 504]].concat();
    let refused = [
        ("orders.xlsx", pdf, "a PDF document"),
        ("orders.xlsx", noise(5 * 1024 * 1024), "binary data"),
        ("orders.xlsx", docx, "a Word document"),
        ("orders.xls", xls, "an old Excel 97-2003 workbook (.xls)"),
        ("orders.csv", zip_of(&[("notes.txt", b"13800138000")]), "a ZIP archive"),
    ];
    for (name, bytes, kind) in refused {
        let answer = upload(&app, &token, name, bytes).await;
        assert_eq!((answer.status.as_u16(), answer.code()), (422, 40000), "{kind}: {:?}", answer.body);
        assert_eq!(answer.data()["keys"]["file"], "batch.file_kind", "{kind}: {:?}", answer.body);
        assert!(answer.msg().contains(kind), "{kind}: {}", answer.msg());
    }
    assert_eq!(app.scalar("SELECT COUNT(*) FROM order_batches WHERE merchant_id = $1", mid).await, 0);
    // The message names the kind in Chinese too.
    let form = reqwest::multipart::Form::new()
        .part("file", reqwest::multipart::Part::bytes(b"%PDF-1.4\n".to_vec()).file_name("a.xlsx"));
    let request = app.client.post(app.url("/adminapi/order/batch/preview")).bearer_auth(&token);
    let chinese = app.send(request.header("accept-language", "zh-CN").multipart(form)).await;
    assert!(chinese.msg().contains("PDF 文档"), "{}", chinese.msg());
    // A real workbook named .csv is read as the workbook it is.
    let answer = upload(&app, &token, "orders.csv", workbook("", ONE_LINE)).await;
    assert_eq!((answer.code(), answer.data()["valid_rows"].as_i64()), (20000, Some(1)), "{:?}", answer.body);
}

/// Excel on Chinese Windows saves "CSV" in GBK: such a file previews exactly as the same
/// lines in UTF-8 do, its Chinese cells read as written.
async fn gbk_csv_files_are_read_like_utf8(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 100_000, 0).await;
    let text = "充值账号,商品编号,商户订单号\n13800138000,MOBILE-DIRECT-10,G-1\n13900139000,MOBILE-DIRECT-10,备注\n";
    let (gbk, _, _) = encoding_rs::GB18030.encode(text);
    assert!(std::str::from_utf8(&gbk).is_err(), "the file is GBK");
    for (name, bytes) in [("gbk.csv", gbk.to_vec()), ("utf8.csv", text.as_bytes().to_vec())] {
        let answer = upload(&app, &token, name, bytes).await;
        assert_eq!(answer.code(), 20000, "{name}: {:?}", answer.body);
        let data = answer.data();
        assert_eq!((data["total_rows"].as_i64(), data["valid_rows"].as_i64()), (Some(2), Some(1)), "{name}: {data}");
        // The Chinese cell is read as written (and refused as a merchant order id, line 3).
        let error = &data["errors"][0];
        assert_eq!((error["line_no"].as_i64(), error["merchant_order_id"].as_str()), (Some(3), Some("备注")), "{name}");
        assert_eq!(error["reason_key"], "order.merchant_order_id.invalid", "{name}");
    }
}
