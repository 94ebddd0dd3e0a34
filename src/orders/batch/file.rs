//! Reading batch files: CSV (UTF-8, with or without BOM), Excel (xlsx) or pasted text,
//! into numbered lines of cells. Columns by position: recharge account, product key,
//! merchant order id (optional). A first line that is not an order (a title row) is skipped.
//!
//! Files are read under a budget (bytes unpacked, rows, cells, nesting, line length, time):
//! a hostile file ends in its own error, never in memory the file merely claims. See
//! `crate::http::xlsx_read`. Call these on the blocking pool: they are CPU work.

use crate::http::xlsx_read::{Budget, ReadError, read_first_sheet};
use crate::i18n::TradeMessage;
use crate::orders::upload_kind::{self, Content};
use std::time::Duration;

/// Order lines one batch may hold.
pub const MAX_LINES: usize = 200_000;
const MAX_CELL_CHARS: usize = 128;
/// A line of a CSV file or of pasted text: three cells of 128 characters and separators
/// fit many times over; a longer line is not an order line.
pub const MAX_LINE_CHARS: usize = 4_096;

/// What reading one xlsx file may use. A 200,000-line sheet unpacks to about 40 MB.
pub const XLSX_BUDGET: Budget = Budget {
    unpacked_bytes: 96 * 1024 * 1024,
    rows: 2 * MAX_LINES,
    cells: 8 * MAX_LINES,
    depth: 32,
    columns: 8,
    cell_chars: MAX_CELL_CHARS,
    entries: 1_000,
    time: Duration::from_secs(10),
};

fn read_error(error: ReadError) -> TradeMessage {
    let budget = XLSX_BUDGET;
    match error {
        ReadError::Unreadable => TradeMessage::BatchFileUnreadable,
        ReadError::UnpackedTooLarge => TradeMessage::BatchFileUnpackedTooLarge { max_mb: budget.unpacked_bytes >> 20 },
        ReadError::TooManyRows => TradeMessage::BatchFileTooManyRows { max: budget.rows },
        ReadError::TooManyCells => TradeMessage::BatchFileTooManyCells { max: budget.cells },
        ReadError::TooDeep => TradeMessage::BatchFileTooDeep { max: budget.depth },
        ReadError::TooSlow => TradeMessage::BatchFileTooSlow { seconds: budget.time.as_secs() },
    }
}

/// Refuses a line longer than `MAX_LINE_CHARS` (bytes are counted first: cheap, and a
/// line of fewer bytes cannot have more characters).
fn check_line_length(index: usize, line: &str) -> Result<(), TradeMessage> {
    if line.len() > MAX_LINE_CHARS && line.chars().count() > MAX_LINE_CHARS {
        return Err(TradeMessage::BatchLineTooLong { line: index as i64 + 1, max: MAX_LINE_CHARS });
    }
    Ok(())
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawLine {
    /// 1-based line (row) number in the file, as the merchant sees it.
    pub line_no: i64,
    pub cells: Vec<String>,
}

/// Which first line is a title row, to be skipped (each kind of file has its own).
pub type TitleRule = fn(&[String]) -> bool;

/// A title row of an order file: its first cell has letters or CJK text rather than a number.
pub fn is_title(cells: &[String]) -> bool {
    cells.first().is_some_and(|cell| {
        let cell = cell.trim().trim_start_matches('\u{feff}');
        !cell.is_empty() && cell.chars().any(|c| c.is_alphabetic())
    })
}

fn finish(rows: Vec<(i64, Vec<String>)>, is_title: TitleRule) -> Result<Vec<RawLine>, TradeMessage> {
    let mut lines = Vec::with_capacity(rows.len());
    for (index, (line_no, cells)) in rows.into_iter().enumerate() {
        // U+0000 is no part of any order field, and PostgreSQL could not store the line's
        // cells in the preview: the file is refused naming the line.
        if cells.iter().any(|cell| cell.contains('\0')) {
            return Err(TradeMessage::BatchLineNul { line: line_no });
        }
        let cells: Vec<String> =
            cells.iter().map(|cell| cell.trim().trim_start_matches('\u{feff}').trim().to_string()).collect();
        if cells.iter().all(String::is_empty) || (index == 0 && is_title(&cells)) {
            continue;
        }
        if cells.iter().any(|cell| cell.chars().count() > MAX_CELL_CHARS) {
            return Err(TradeMessage::BatchCellTooLong);
        }
        lines.push(RawLine { line_no, cells });
        if lines.len() > MAX_LINES {
            return Err(TradeMessage::BatchTooLarge { max: MAX_LINES });
        }
    }
    if lines.is_empty() {
        return Err(TradeMessage::BatchEmpty);
    }
    Ok(lines)
}

/// The text of a CSV file: UTF-8 (a BOM is left for the cells' trimming), else GB18030,
/// a superset of GBK, which is what Excel's plain "CSV" is on Chinese Windows. UTF-8 is
/// tried first: Chinese text in GBK is almost never valid UTF-8, while the reverse read
/// would turn a UTF-8 file into other characters without an error. Bytes that are neither
/// are refused naming the first line that is not text. Every reader of uploaded CSV
/// (orders, price lists) goes through here.
pub fn decode_text(bytes: &[u8]) -> Result<std::borrow::Cow<'_, str>, TradeMessage> {
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Ok(text.into());
    }
    let mut decoder = encoding_rs::GB18030.new_decoder_without_bom_handling();
    let capacity =
        decoder.max_utf8_buffer_length_without_replacement(bytes.len()).ok_or(TradeMessage::BatchFileUnreadable)?;
    let mut text = String::with_capacity(capacity);
    match decoder.decode_to_string_without_replacement(bytes, &mut text, true) {
        (encoding_rs::DecoderResult::InputEmpty, _) => Ok(text.into()),
        (encoding_rs::DecoderResult::Malformed(bad, after), read) => {
            let start = read.saturating_sub(usize::from(bad) + usize::from(after));
            let line = bytes[..start].iter().filter(|byte| **byte == b'\n').count() as i64 + 1;
            Err(TradeMessage::BatchFileNotUtf8 { line })
        }
        // The buffer holds the worst case, so the decoder never runs out of room.
        (encoding_rs::DecoderResult::OutputFull, _) => Err(TradeMessage::BatchFileUnreadable),
    }
}

/// An uploaded file: xlsx or CSV by its content, whatever its name (order files' title
/// rule; uploads go through `parse_file_with`).
#[cfg(test)]
pub fn parse_file(bytes: &[u8]) -> Result<Vec<RawLine>, TradeMessage> {
    parse_file_with(bytes, is_title)
}

/// An uploaded file whose title row is told by `is_title`.
pub fn parse_file_with(bytes: &[u8], is_title: TitleRule) -> Result<Vec<RawLine>, TradeMessage> {
    match upload_kind::sniff(bytes) {
        Content::Workbook => return finish(read_first_sheet(bytes, &XLSX_BUDGET).map_err(read_error)?, is_title),
        Content::Other(kind) => return Err(TradeMessage::BatchFileKind { kind }),
        Content::Text => {}
    }
    let text = decode_text(bytes)?;
    // Line by line, so that line numbers are the file's (a quoted cell cannot span lines).
    let mut rows = Vec::new();
    for (index, line) in text.lines().enumerate() {
        check_line_length(index, line)?;
        // A line without quotes is its cells split at commas; only quoted lines need a
        // CSV reader (building one costs more than reading a plain line).
        let cells = if !line.contains('"') {
            line.split(',').map(str::to_string).collect()
        } else {
            let mut reader = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(line.as_bytes());
            match reader.records().next() {
                Some(record) => {
                    record.map_err(|_| TradeMessage::BatchFileUnreadable)?.iter().map(str::to_string).collect()
                }
                None => Vec::new(),
            }
        };
        rows.push((index as i64 + 1, cells));
        if rows.len() > MAX_LINES * 2 {
            return Err(TradeMessage::BatchTooLarge { max: MAX_LINES });
        }
    }
    finish(rows, is_title)
}

/// Pasted lines: cells separated by commas, tabs or semicolons; by spaces only in a
/// line that has none of those (so a stray space inside a cell is kept and checked).
#[cfg(test)]
pub fn parse_text(text: &str) -> Result<Vec<RawLine>, TradeMessage> {
    parse_text_with(text, is_title)
}

/// Pasted lines whose title row is told by `is_title`.
pub fn parse_text_with(text: &str, is_title: TitleRule) -> Result<Vec<RawLine>, TradeMessage> {
    let separator = |c: char| matches!(c, ',' | '\t' | ';' | '，');
    let mut rows = Vec::new();
    for (index, line) in text.lines().enumerate() {
        check_line_length(index, line)?;
        let cells: Vec<String> = if line.contains(separator) {
            line.split(separator).map(|cell| cell.trim().to_string()).collect()
        } else {
            line.split_whitespace().map(str::to_string).collect()
        };
        rows.push((index as i64 + 1, cells));
        if rows.len() > MAX_LINES * 2 {
            return Err(TradeMessage::BatchTooLarge { max: MAX_LINES });
        }
    }
    finish(rows, is_title)
}

#[cfg(test)]
#[path = "file_fuzz.rs"]
mod fuzz;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_with_title_and_bom() {
        let lines = parse_file(
            "\u{feff}充值账号,商品编号,商户订单号\n13800138000,MOBILE-DIRECT-10,A1\n\n13900139000,MOBILE-DIRECT-20\n"
                .as_bytes(),
        )
        .unwrap();
        assert_eq!(lines.len(), 2);
        assert_eq!(
            lines[0],
            RawLine { line_no: 2, cells: vec!["13800138000".into(), "MOBILE-DIRECT-10".into(), "A1".into()] }
        );
        assert_eq!(lines[1].line_no, 4);
        // Quoted cells (commas and quotes inside) are read as CSV.
        let quoted = parse_file("13800138000,\"MOBILE-DIRECT-10\",\"A,1 \"\"x\"\"\"\n".as_bytes()).unwrap();
        assert_eq!(quoted[0].cells, vec!["13800138000", "MOBILE-DIRECT-10", "A,1 \"x\""]);
    }

    #[test]
    fn pasted_lines_split_on_any_separator() {
        let lines = parse_text(
            "13800138000 MOBILE-DIRECT-10\n13900139000\tMOBILE-DIRECT-20\tB2\n18600000000，UNICOM-DIRECT-10",
        )
        .unwrap();
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[1].cells, vec!["13900139000", "MOBILE-DIRECT-20", "B2"]);
        assert_eq!(lines[2].cells.len(), 2);
        assert_eq!(parse_text("\n  \n"), Err(TradeMessage::BatchEmpty));
        assert_eq!(parse_file(&[0xff, 0xfe, 0x00]), Err(TradeMessage::BatchFileNotUtf8 { line: 1 }));
    }

    #[test]
    fn gbk_csv_reads_like_utf8() {
        let text =
            "充值账号,商品编号,商户订单号\n13800138000,MOBILE-DIRECT-10,备注一\n13900139000,MOBILE-DIRECT-20,话费\n";
        let (gbk, _, unmappable) = encoding_rs::GB18030.encode(text);
        assert!(!unmappable && std::str::from_utf8(&gbk).is_err(), "the sample is GBK, not UTF-8");
        let lines = parse_file(&gbk).unwrap();
        assert_eq!(lines, parse_file(text.as_bytes()).unwrap());
        assert_eq!(
            lines[0],
            RawLine { line_no: 2, cells: vec!["13800138000".into(), "MOBILE-DIRECT-10".into(), "备注一".into()] }
        );
        assert_eq!(lines[1].cells[2], "话费");
        // Bytes that are neither UTF-8 nor GBK are refused naming the first bad line.
        let mut broken = gbk.to_vec();
        broken.extend_from_slice(b"13700137000,MOBILE-DIRECT-10,\xFF\xFF\n");
        assert_eq!(parse_file(&broken), Err(TradeMessage::BatchFileNotUtf8 { line: 4 }));
    }

    #[test]
    fn gbk_lines_are_measured_in_characters_after_decoding() {
        // 3,000 characters are 6,000 bytes in GBK but under the 4,096-character line budget.
        let line = format!("13800138000,MOBILE-DIRECT-10,{}", "话".repeat(3_000));
        let (gbk, _, _) = encoding_rs::GB18030.encode(&line);
        assert!(gbk.len() > MAX_LINE_CHARS);
        assert_eq!(parse_file(&gbk), Err(TradeMessage::BatchCellTooLong));
        let long = format!("13800138000,MOBILE-DIRECT-10,{}", "话".repeat(MAX_LINE_CHARS));
        let (gbk, _, _) = encoding_rs::GB18030.encode(&long);
        assert_eq!(parse_file(&gbk), Err(TradeMessage::BatchLineTooLong { line: 1, max: MAX_LINE_CHARS }));
    }

    #[test]
    fn a_nul_in_a_cell_refuses_the_file_naming_its_line() {
        let text = "account,product_key\n13800138000,MOBILE-DIRECT-10\n13900139000,MOBILE\0-DIRECT-10\n";
        assert_eq!(parse_file(text.as_bytes()), Err(TradeMessage::BatchLineNul { line: 3 }));
        assert_eq!(parse_text("13800138000\0 MOBILE-DIRECT-10"), Err(TradeMessage::BatchLineNul { line: 1 }));
    }

    #[test]
    fn other_kinds_of_file_are_refused_for_what_they_are() {
        let refused = parse_file(b"%PDF-1.4\n1 0 obj\n<<>>\nendobj\n");
        assert_eq!(refused, Err(TradeMessage::BatchFileKind { kind: crate::i18n::FileKind::Pdf }));
    }

    #[test]
    fn xlsx_files_read_like_csv() {
        let rows = [
            vec!["account".to_string(), "product_key".to_string()],
            vec!["13800138000".to_string(), "MOBILE-DIRECT-10".to_string()],
        ];
        let cells: Vec<Vec<crate::http::export::Cell>> =
            rows.iter().map(|row| row.iter().map(crate::http::export::Cell::text).collect()).collect();
        let bytes = crate::http::export::small_xlsx(&cells).unwrap();
        let lines = parse_file(&bytes).unwrap();
        assert_eq!(lines, vec![RawLine { line_no: 2, cells: rows[1].clone() }]);
    }
}
