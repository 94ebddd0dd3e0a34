//! A bounded fuzz run of the batch readers inside `cargo test`: a few thousand generated
//! and mutated inputs (CSV, pasted text, xlsx built from random XML fragments, damaged
//! workbooks). Whatever comes in, a reader answers lines or a reason: no panic, no line
//! over the limits, and within the reader's time budget. Seeded, so a failure repeats.

use super::*;
use crate::xlsx_read::tests::workbook;

/// xorshift64*: enough randomness for fuzzing, no dependency.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }
    fn pick<'a>(&mut self, choices: &[&'a str]) -> &'a str {
        choices[self.below(choices.len())]
    }
}

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

#[test]
fn batch_readers_answer_every_input() {
    let mut random = Random(0x05EE_D0FB_A7C4);
    let template = {
        let rows = "<row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>13800138000</t></is></c><c r=\"B1\" t=\"inlineStr\"><is><t>MOBILE-DIRECT-10</t></is></c></row>";
        workbook("", rows.as_bytes())
    };
    for case in 0..3_000 {
        match case % 5 {
            0 => {
                let bytes: Vec<u8> = (0..random.below(300)).map(|_| random.next() as u8).collect();
                check(parse_file(&bytes));
            }
            1 => {
                let text: String = (0..random.below(60)).map(|_| random.pick(TEXT_PIECES)).collect();
                check(parse_text(&text));
                check(parse_file(text.as_bytes()));
            }
            2 => {
                let xml: String = (0..random.below(40)).map(|_| random.pick(XML_PIECES)).collect();
                check(parse_file(&workbook("", xml.as_bytes())));
            }
            3 => {
                // A damaged workbook: a few bytes changed, or cut short.
                let mut bytes = template.clone();
                for _ in 0..1 + random.below(4) {
                    let at = random.below(bytes.len());
                    bytes[at] = random.next() as u8;
                }
                if random.below(3) == 0 {
                    bytes.truncate(random.below(bytes.len()));
                }
                check(parse_file(&bytes));
            }
            _ => {
                let rows = random.below(50);
                let text: String = (0..rows)
                    .map(|row| format!("1380013{:04},{},{}\n", row, random.pick(TEXT_PIECES), random.pick(TEXT_PIECES)))
                    .collect();
                check(parse_file(text.as_bytes()));
            }
        }
    }
}
