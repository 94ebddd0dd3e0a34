//! What an uploaded order file really holds, told by its bytes and never by its name: a
//! browser sends whatever name the merchant's file has, and a PDF or a photo renamed to
//! `.xlsx` must be refused for what it is rather than read as broken CSV.

use crate::i18n::FileKind;
use std::io::Cursor;

/// How to read an upload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Content {
    /// A ZIP holding a workbook's parts (or one too broken to list: its reader says so).
    Workbook,
    /// Anything that may be text: read as CSV (UTF-8 or GBK), whose reader names a line that is neither.
    Text,
    /// A known other kind, or binary data: refused naming it.
    Other(FileKind),
}

/// Bytes looked at to tell text from binary data: a file's first 64 KB tell enough.
const SAMPLE_BYTES: usize = 64 * 1024;

/// Signatures of kinds merchants upload by mistake (their files' first bytes).
const SIGNATURES: [(&[u8], FileKind); 8] = [
    (b"%PDF-", FileKind::Pdf),
    (b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", FileKind::OldExcel),
    (b"\x89PNG\r\n\x1a\n", FileKind::Png),
    (b"\xFF\xD8\xFF", FileKind::Jpeg),
    (b"GIF8", FileKind::Gif),
    (b"\x1F\x8B", FileKind::Gzip),
    (b"Rar!\x1A\x07", FileKind::Rar),
    (b"7z\xBC\xAF\x27\x1C", FileKind::SevenZip),
];

pub fn sniff(bytes: &[u8]) -> Content {
    if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
        return zip_content(bytes);
    }
    if let Some((_, kind)) = SIGNATURES.iter().find(|(signature, _)| bytes.starts_with(signature)) {
        return Content::Other(*kind);
    }
    // Excel's "Unicode text" is UTF-16 with a byte-order mark: text, whose reader then
    // asks for "CSV UTF-8" (it reads UTF-8 and GBK only).
    if bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF") {
        return Content::Text;
    }
    if is_binary(&bytes[..bytes.len().min(SAMPLE_BYTES)]) {
        return Content::Other(FileKind::Binary);
    }
    Content::Text
}

/// Text has almost no control characters besides tab and line ends; random or compressed
/// bytes have one in ten. A few stray ones (a NUL pasted into a cell) keep a file text,
/// so that its reader can name the line.
fn is_binary(sample: &[u8]) -> bool {
    let controls = sample.iter().filter(|byte| matches!(byte, 0x00..=0x08 | 0x0B | 0x0C | 0x0E..=0x1F | 0x7F)).count();
    controls >= 4 && controls * 32 > sample.len()
}

/// A workbook has `[Content_Types].xml` and `xl/workbook.xml`; a Word document
/// `word/document.xml`; any other ZIP is an archive.
fn zip_content(bytes: &[u8]) -> Content {
    let Ok(archive) = zip::ZipArchive::new(Cursor::new(bytes)) else { return Content::Workbook };
    let has = |wanted: &str| archive.file_names().flatten().any(|name| name.eq_ignore_ascii_case(wanted));
    if has("[Content_Types].xml") && has("xl/workbook.xml") {
        Content::Workbook
    } else if has("word/document.xml") {
        Content::Other(FileKind::Word)
    } else {
        Content::Other(FileKind::Zip)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn zip_of(names: &[&str]) -> Vec<u8> {
        let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
        for name in names {
            writer.start_file(*name, zip::write::SimpleFileOptions::default()).unwrap();
            writer.write_all(b"<x/>").unwrap();
        }
        writer.finish().unwrap().into_inner()
    }

    /// Bytes that look random (a fixed LCG, so the test is the same each run).
    fn noise(length: usize) -> Vec<u8> {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        (0..length)
            .map(|_| {
                state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                (state >> 56) as u8
            })
            .collect()
    }

    #[test]
    fn kinds_are_told_by_their_bytes() {
        let cases: [(&[u8], Content); 9] = [
            (b"%PDF-1.7\n%\xE2\xE3\xCF\xD3\n1 0 obj", Content::Other(FileKind::Pdf)),
            (b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1\0\0\0\0", Content::Other(FileKind::OldExcel)),
            (b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", Content::Other(FileKind::Png)),
            (b"\xFF\xD8\xFF\xE0\0\x10JFIF", Content::Other(FileKind::Jpeg)),
            (b"GIF89a\x01\0\x01\0", Content::Other(FileKind::Gif)),
            (b"\x1F\x8B\x08\0\0\0\0\0", Content::Other(FileKind::Gzip)),
            (b"Rar!\x1A\x07\x01\0", Content::Other(FileKind::Rar)),
            (b"7z\xBC\xAF\x27\x1C\0\x04", Content::Other(FileKind::SevenZip)),
            (b"\xFF\xFEa\0,\0b\0", Content::Text),
        ];
        for (bytes, expected) in cases {
            assert_eq!(sniff(bytes), expected, "{bytes:?}");
        }
        assert_eq!(sniff(&noise(5 * 1024 * 1024)), Content::Other(FileKind::Binary));
    }

    #[test]
    fn text_stays_text_with_a_stray_control_character() {
        assert_eq!(sniff("13800138000,MOBILE-DIRECT-10,A1\r\n话费,\t".as_bytes()), Content::Text);
        assert_eq!(sniff(b"13800138000,MOBILE-DIRECT-10,A\x001\n"), Content::Text);
        // GBK text (Excel's CSV on Chinese Windows) is text, which its reader decodes.
        assert_eq!(sniff(b"\xB3\xE4\xD6\xB5\xD5\xCB\xBA\xC5,13800138000\n"), Content::Text);
        assert_eq!(sniff(b""), Content::Text);
    }

    #[test]
    fn zips_are_workbooks_only_with_a_workbooks_parts() {
        assert_eq!(sniff(&zip_of(&["[Content_Types].xml", "xl/workbook.xml"])), Content::Workbook);
        assert_eq!(sniff(&zip_of(&["[Content_Types].xml", "word/document.xml"])), Content::Other(FileKind::Word));
        assert_eq!(sniff(&zip_of(&["notes.txt"])), Content::Other(FileKind::Zip));
        // A ZIP too broken to list is left to the workbook reader, which calls it unreadable.
        assert_eq!(sniff(b"PK\x03\x04broken"), Content::Workbook);
    }
}
