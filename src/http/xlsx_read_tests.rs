//! The bounded xlsx reader against files written by rust_xlsxwriter and against hostile
//! ones built here: each runs out of its own budget, quickly, without allocating what the
//! file claims.

use super::*;
use std::io::Write;

const BUDGET: Budget = Budget {
    unpacked_bytes: 8 * 1024 * 1024,
    rows: 10_000,
    cells: 40_000,
    depth: 32,
    columns: 4,
    cell_chars: 16,
    entries: 100,
    time: Duration::from_secs(10),
};

/// A workbook of the given parts (name, XML), compressed.
pub fn zip_of(parts: &[(&str, &[u8])]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated).large_file(false);
    for (name, content) in parts {
        writer.start_file(*name, options).unwrap();
        writer.write_all(content).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

const WORKBOOK: &[u8] = br#"<workbook xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="A" sheetId="1" r:id="rId7"/></sheets></workbook>"#;
const RELS: &[u8] =
    br#"<Relationships><Relationship Id="rId7" Type="worksheet" Target="worksheets/orders.xml"/></Relationships>"#;

/// A workbook whose first sheet is `sheet_data` inside `<worksheet>…<sheetData>`.
pub fn workbook(before: &str, sheet_data: &[u8]) -> Vec<u8> {
    let mut sheet = format!("<worksheet>{before}<sheetData>").into_bytes();
    sheet.extend_from_slice(sheet_data);
    sheet.extend_from_slice(b"</sheetData></worksheet>");
    zip_of(&[("xl/workbook.xml", WORKBOOK), ("xl/_rels/workbook.xml.rels", RELS), ("xl/worksheets/orders.xml", &sheet)])
}

#[test]
fn reads_what_excel_writers_write() {
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    sheet.write_string(0, 0, "账号 & <title>").unwrap();
    sheet.write_number(1, 0, 13800138000.0).unwrap();
    sheet.write_string(1, 1, "MOBILE-DIRECT-10").unwrap();
    sheet.write_string(3, 2, "x").unwrap();
    sheet.write_string(3, 9, "far right, not kept").unwrap();
    let rows = read_first_sheet(&book.save_to_buffer().unwrap(), &BUDGET).unwrap();
    assert_eq!(
        rows,
        vec![
            (1, vec!["账号 & <title>".to_string()]),
            (2, vec!["13800138000".to_string(), "MOBILE-DIRECT-10".to_string()]),
            (4, vec![String::new(), String::new(), "x".to_string()]),
        ]
    );
}

#[test]
fn inline_strings_entities_and_long_cells() {
    let data = br#"<row r="3"><c r="B3" t="inlineStr"><is><t>a&amp;b&#x4E2D;</t></is></c><c r="C3"><v>1.3800138E10</v></c><c r="D3" t="inlineStr"><is><t>0123456789abcdefXYZ</t></is></c></row>"#;
    let rows = read_first_sheet(&workbook("", data), &BUDGET).unwrap();
    // The long cell keeps one character more than allowed: the caller sees it was longer.
    assert_eq!(rows, vec![(3, vec![String::new(), "a&b中".into(), "13800138000".into(), "0123456789abcdefX".into()])]);
}

#[test]
fn a_declared_dimension_is_not_trusted() {
    // Claims the whole grid; holds two cells, one of them in the last column of the last row.
    let data = br#"<row r="1"><c r="A1" t="inlineStr"><is><t>13800138000</t></is></c></row><row r="1048576"><c r="XFD1048576"><v>1</v></c></row>"#;
    let rows = read_first_sheet(&workbook(r#"<dimension ref="A1:XFD1048576"/>"#, data), &BUDGET).unwrap();
    assert_eq!(rows, vec![(1, vec!["13800138000".to_string()])]);
}

#[test]
fn a_zip_bomb_stops_at_the_unpacked_budget() {
    // 64 MB of spaces inside a row: a few tens of kilobytes packed.
    let mut data = b"<row r=\"1\">".to_vec();
    data.resize(64 * 1024 * 1024, b' ');
    data.extend_from_slice(b"</row>");
    let file = workbook("", &data);
    assert!(file.len() < 200 * 1024, "{}", file.len());
    assert_eq!(read_first_sheet(&file, &BUDGET), Err(ReadError::UnpackedTooLarge));
}

#[test]
fn deep_nesting_and_endless_rows_are_refused() {
    let deep = format!("<row>{}", "<x>".repeat(10_000));
    assert_eq!(read_first_sheet(&workbook("", deep.as_bytes()), &BUDGET), Err(ReadError::TooDeep));
    let empty_rows: String = (1..=1_000_000).map(|row| format!("<row r=\"{row}\"/>")).collect();
    let file = workbook("", empty_rows.as_bytes());
    let budget = Budget { unpacked_bytes: 64 * 1024 * 1024, ..BUDGET };
    assert_eq!(read_first_sheet(&file, &budget), Err(ReadError::TooManyRows));
    let cells: String = (0..50_000).map(|_| "<c/>").collect();
    assert_eq!(
        read_first_sheet(&workbook("", format!("<row>{cells}</row>").as_bytes()), &BUDGET),
        Err(ReadError::TooManyCells)
    );
}

#[test]
fn broken_files_are_unreadable_not_panics() {
    assert_eq!(read_first_sheet(b"PK\x03\x04junk", &BUDGET), Err(ReadError::Unreadable));
    // A shared-string index that points nowhere, a row number past Excel's last.
    let dangling = br#"<row r="1"><c r="A1" t="s"><v>5</v></c></row>"#;
    assert_eq!(read_first_sheet(&workbook("", dangling), &BUDGET), Err(ReadError::Unreadable));
    let far = br#"<row r="99999999"><c r="A1"><v>1</v></c></row>"#;
    assert_eq!(read_first_sheet(&workbook("", far), &BUDGET), Err(ReadError::Unreadable));
    let unclosed = br#"<row r="1"><c r="A1"><v>1</c></row>"#;
    assert_eq!(read_first_sheet(&workbook("", unclosed), &BUDGET), Err(ReadError::Unreadable));
    // More entries than a workbook has.
    let names: Vec<String> = (0..200).map(|index| format!("part{index}.xml")).collect();
    let parts: Vec<(&str, &[u8])> = names.iter().map(|name| (name.as_str(), &b"<a/>"[..])).collect();
    assert_eq!(read_first_sheet(&zip_of(&parts), &BUDGET), Err(ReadError::Unreadable));
}

#[test]
fn the_clock_is_part_of_the_budget() {
    let rows: String = (1..=5_000).map(|row| format!("<row r=\"{row}\"><c><v>{row}</v></c></row>")).collect();
    let budget = Budget { time: Duration::ZERO, ..BUDGET };
    assert_eq!(read_first_sheet(&workbook("", rows.as_bytes()), &budget), Err(ReadError::TooSlow));
}
