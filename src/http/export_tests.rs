//! The export cells' CSV and xlsx forms.

use super::*;

#[test]
fn formulas_are_neutralised_and_numbers_stay_numbers() {
    for hostile in ["=HYPERLINK(\"http://x\")", "+1+2", "-2+3", "@SUM(A1)", "\tx", "\rx"] {
        assert_eq!(excel_safe(hostile), format!("'{hostile}"));
        assert!(Cell::text(hostile).csv_field().starts_with("\"'"), "{hostile}");
    }
    assert_eq!(excel_safe("中国移动"), "中国移动");
    assert_eq!(Cell::Money(-985).csv_field(), "-9.85");
    assert_eq!(Cell::Int(-3).csv_field(), "-3");
    assert_eq!(Cell::Seconds(12_345).csv_field(), "12.3");
    assert_eq!(Cell::Seconds(1_250).csv_field(), "1.3", "half up, as the databases round");
    assert_eq!(Cell::id("202611230000000000000001").csv_field(), "\"202611230000000000000001\"");
    assert_eq!(Cell::id("-1").csv_field(), "\"'-1\"");
    assert_eq!(Cell::id("").csv_field(), "");
    assert_eq!(Cell::text("a \"b\", c").csv_field(), "\"a \"\"b\"\", c\"");
    assert_eq!(Cell::Time(1_000).csv_field(), "\"1970-01-01 08:00:01\"", "Beijing time");
    assert_eq!(Cell::optional_time(None).csv_field(), "\"\"");
}

fn part(bytes: &[u8], name: &str) -> String {
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    let mut text = String::new();
    std::io::Read::read_to_string(&mut archive.by_name(name).unwrap(), &mut text).unwrap();
    text
}

#[test]
fn workbooks_have_dates_widths_and_a_frozen_header() {
    let rows = vec![
        titles(&["下单时间", "Order number"]),
        vec![Cell::Time(1_764_576_000_000), Cell::id("202612010000000000000001")],
    ];
    let bytes = small_xlsx(&rows).unwrap();
    let sheet = part(&bytes, "xl/worksheets/sheet1.xml");
    assert!(sheet.contains(r#"ySplit="1""#) && sheet.contains(r#"state="frozen""#), "{sheet}");
    // The order number's column fits its 24 digits (and 2 more).
    assert!(sheet.contains(r#"<col min="2" max="2" width="26."#), "{sheet}");
    assert!(part(&bytes, "xl/styles.xml").contains("yyyy-mm-dd hh:mm:ss"));
    // The time is a number of days in Beijing time (a date cell), not text.
    let start = sheet.find(r#"<c r="A2""#).unwrap();
    let cell = &sheet[start..start + sheet[start..].find("</c>").unwrap()];
    assert!(!cell.contains(" t=\""), "{cell}");
    let value = &cell[cell.find("<v>").unwrap() + 3..];
    let days: f64 = value[..value.find("</v>").unwrap()].parse().unwrap();
    let expected = (1_764_576_000 + BEIJING_OFFSET_SECONDS) as f64 / 86_400.0 + 25_569.0;
    assert!((days - expected).abs() < 1e-6, "{days} vs {expected}");
    assert_eq!(width_of(&Cell::text("话费".repeat(40))), 50.0, "long text is bounded");
}
