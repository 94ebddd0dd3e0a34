//! Property tests (proptest) of the batch readers inside `cargo test`, a bounded run: bytes
//! at random, pasted text and CSV built from awkward pieces, xlsx built from random XML
//! fragments, and damaged workbooks. Whatever comes in, a reader answers lines or a reason:
//! no panic, no line over the limits, and within the reader's time budget. The seed is
//! fixed, so a failure repeats, and proptest shrinks it to a small input before reporting.
//! `PROPTEST_CASES` raises the number of cases for a longer run.

use super::*;
use crate::http::xlsx_read::tests::workbook;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::{Config, RngSeed};

const TEXT_PIECES: &[&str] = &[
    "13800138000",
    "MOBILE-DIRECT-10",
    "A-1",
    ",",
    ",",
    "\t",
    ";",
    "，",
    " ",
    "\n",
    "\r\n",
    "\"",
    "\"\"",
    "=1+2",
    "中文",
    "\u{feff}",
    "x",
    "",
    "0",
    "-",
    "1.5E10",
    "\u{0}",
    "ü",
    "😀",
];
const XML_PIECES: &[&str] = &[
    "<row>",
    "</row>",
    "<row r=\"2\">",
    "<row r=\"0\">",
    "<row r=\"x\">",
    "<row/>",
    "<c>",
    "</c>",
    "<c r=\"B1\" t=\"s\">",
    "<c t=\"inlineStr\">",
    "<c r=\"ZZZZ9\">",
    "<v>",
    "</v>",
    "<v>0</v>",
    "<v>13800138000</v>",
    "<is><t>",
    "</t></is>",
    "&amp;",
    "&#0;",
    "&#x1F600;",
    "&bogus;",
    "<![CDATA[x]]>",
    "<x>",
    "</x>",
    "text",
    "<t/>",
    "<",
    ">",
    "\"",
    "<c/>",
];

fn check(result: Result<Vec<RawLine>, TradeMessage>) {
    if let Ok(lines) = result {
        assert!(!lines.is_empty() && lines.len() <= MAX_LINES);
        for line in &lines {
            assert!(line.line_no >= 1);
            assert!(line.cells.iter().all(|cell| cell.chars().count() <= MAX_CELL_CHARS && cell.trim() == cell));
            assert!(line.cells.iter().any(|cell| !cell.is_empty()));
        }
    }
}

fn config() -> Config {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|cases| cases.parse().ok()).unwrap_or(600);
    // Fixed seed, no regression files written into the source tree.
    Config { cases, rng_seed: RngSeed::Fixed(0x05EE_D0FB_A7C4), failure_persistence: None, ..Config::default() }
}

fn template() -> Vec<u8> {
    let rows = "<row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>13800138000</t></is></c><c r=\"B1\" t=\"inlineStr\"><is><t>MOBILE-DIRECT-10</t></is></c></row>";
    workbook("", rows.as_bytes())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn any_bytes_get_lines_or_a_reason(bytes in vec(any::<u8>(), 0..300)) {
        check(parse_file(&bytes));
    }

    #[test]
    fn awkward_text_gets_lines_or_a_reason(pieces in vec(select(TEXT_PIECES), 0..60)) {
        let text: String = pieces.concat();
        check(parse_text(&text));
        check(parse_file(text.as_bytes()));
    }

    #[test]
    fn random_sheet_xml_gets_lines_or_a_reason(pieces in vec(select(XML_PIECES), 0..40)) {
        check(parse_file(&workbook("", pieces.concat().as_bytes())));
    }

    #[test]
    fn a_damaged_workbook_gets_lines_or_a_reason(
        changes in vec((any::<prop::sample::Index>(), any::<u8>()), 1..5),
        cut in proptest::option::of(any::<prop::sample::Index>()),
    ) {
        let mut bytes = template();
        for (at, byte) in changes {
            let at = at.index(bytes.len());
            bytes[at] = byte;
        }
        if let Some(cut) = cut {
            let length = cut.index(bytes.len());
            bytes.truncate(length);
        }
        check(parse_file(&bytes));
    }

    #[test]
    fn csv_rows_of_awkward_cells_get_lines_or_a_reason(
        rows in vec((select(TEXT_PIECES), select(TEXT_PIECES)), 0..50),
    ) {
        let text: String = rows
            .iter()
            .enumerate()
            .map(|(row, (product, id))| format!("1380013{row:04},{product},{id}\n"))
            .collect();
        check(parse_file(text.as_bytes()));
    }
}
