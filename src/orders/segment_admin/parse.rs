//! Reading an uploaded number-segment table: CSV (the shipped layout, or any with a title
//! row naming 号段/省份/城市/运营商, or four plain columns), gzip-compressed or not, in
//! UTF-8 or GBK; or the widely used `phone.dat` (`phone_dat.rs`). Every segment is checked:
//! a file is taken whole or refused naming its bad lines, never in part. The file's size, its
//! decompressed size and its row count are bounded, so a reading costs at most a few hundred
//! megabytes and a few seconds.

use super::fields::{MAX_PROBLEMS, carrier_of, city_of, province_of};
pub use super::fields::{Names, Refusal};
use super::phone_dat;
use crate::domain::segments::{SegmentRow, parse_prefix};
use crate::i18n::{CatalogueMessage, SegmentAt, SegmentProblem};
use std::collections::HashMap;
use std::io::Read;

/// The largest upload (the shipped table is 3 MB gzipped, 15 MB as CSV; phone.dat 4.5 MB).
pub const MAX_FILE_BYTES: usize = 32 * 1024 * 1024;
/// What a gzip upload may expand to.
const MAX_TEXT_BYTES: u64 = 96 * 1024 * 1024;
/// Segments a table may hold (the 7-digit prefixes of 1xx number ranges are 1.6 million at
/// most; real tables hold 330,000 to 500,000).
pub const MAX_ROWS: usize = 1_000_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Csv,
    PhoneDat,
}

impl Format {
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::PhoneDat => "phone_dat",
        }
    }
}

#[derive(Debug)]
pub struct Parsed {
    pub format: Format,
    pub rows: Vec<SegmentRow>,
}

/// Reads an upload: gzip is undone first, then phone.dat or CSV by the content.
pub fn parse(bytes: &[u8], names: &Names) -> Result<Parsed, Refusal> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(Refusal::File(CatalogueMessage::SegmentFileTooLarge { max_mb: MAX_FILE_BYTES >> 20 }));
    }
    let inflated;
    let bytes = if bytes.starts_with(&[0x1f, 0x8b]) {
        inflated = gunzip(bytes)?;
        inflated.as_slice()
    } else {
        bytes
    };
    let parsed = if phone_dat::looks_like(bytes) {
        Parsed { format: Format::PhoneDat, rows: phone_dat::parse(bytes, names)? }
    } else {
        Parsed { format: Format::Csv, rows: parse_csv(bytes, names)? }
    };
    if parsed.rows.is_empty() || parsed.rows.len() > MAX_ROWS {
        return Err(Refusal::File(CatalogueMessage::SegmentFileRows { max: MAX_ROWS }));
    }
    Ok(parsed)
}

fn gunzip(bytes: &[u8]) -> Result<Vec<u8>, Refusal> {
    let mut out = Vec::new();
    let mut reader = flate2::read::MultiGzDecoder::new(bytes).take(MAX_TEXT_BYTES + 1);
    reader.read_to_end(&mut out).map_err(|_| Refusal::File(CatalogueMessage::SegmentFileUnreadable))?;
    if out.len() as u64 > MAX_TEXT_BYTES {
        return Err(Refusal::File(CatalogueMessage::SegmentFileTooLarge { max_mb: MAX_FILE_BYTES >> 20 }));
    }
    Ok(out)
}

/// Which cell holds what, by the title row or by position.
struct Columns {
    prefix: usize,
    code: Option<usize>,
    province: usize,
    city: usize,
    carrier: Option<usize>,
    english: Option<(usize, usize)>,
}

impl Columns {
    /// The shipped layout: prefix,province_code,province,city,carrier,province_en,city_en.
    const SHIPPED: Columns =
        Columns { prefix: 0, code: Some(1), province: 2, city: 3, carrier: Some(4), english: Some((5, 6)) };
    /// Four plain columns: 号段,省份,城市,运营商.
    const PLAIN: Columns = Columns { prefix: 0, code: None, province: 1, city: 2, carrier: Some(3), english: None };

    fn from_title(cells: &[&str]) -> Option<Columns> {
        let find = |names: &[&str]| cells.iter().position(|cell| names.contains(&cell.to_lowercase().as_str()));
        Some(Columns {
            prefix: find(&["prefix", "segment", "号段", "号码段", "前缀", "phone"])?,
            code: find(&["province_code", "省份代码", "区划代码"]),
            province: find(&["province", "省份", "省"])?,
            city: find(&["city", "城市", "市"])?,
            carrier: find(&["carrier", "isp", "运营商", "卡类型"]),
            english: find(&["province_en"]).zip(find(&["city_en"])),
        })
    }

    fn width(&self) -> usize {
        let english = self.english.map_or(0, |(a, b)| a.max(b));
        [self.prefix, self.code.unwrap_or(0), self.province, self.city, self.carrier.unwrap_or(0), english]
            .into_iter()
            .max()
            .unwrap_or(0)
            + 1
    }
}

fn parse_csv(bytes: &[u8], names: &Names) -> Result<Vec<SegmentRow>, Refusal> {
    let text = crate::orders::batch::file::decode_text(bytes)
        .map_err(|_| Refusal::File(CatalogueMessage::SegmentFileUnreadable))?;
    let mut lines = text.lines().enumerate().filter(|(_, line)| !line.trim().is_empty()).peekable();
    let columns = match lines.peek() {
        None => return Err(Refusal::File(CatalogueMessage::SegmentFileRows { max: MAX_ROWS })),
        Some((_, first)) => {
            let cells = cells_of(first);
            if parse_prefix(cells[0]).is_some() {
                if cells.len() >= 7 { Columns::SHIPPED } else { Columns::PLAIN }
            } else {
                lines.next();
                Columns::from_title(&cells).ok_or(Refusal::File(CatalogueMessage::SegmentFileUnreadable))?
            }
        }
    };
    let (mut rows, mut problems) = (Vec::new(), Vec::new());
    let mut first_line: HashMap<u32, i64> = HashMap::new();
    for (index, line) in lines {
        let at = (index + 1) as i64;
        if rows.len() + problems.len() > MAX_ROWS {
            return Err(Refusal::File(CatalogueMessage::SegmentFileRows { max: MAX_ROWS }));
        }
        match row_of(&cells_of(line), &columns, names) {
            Ok(row) => match first_line.insert(row.prefix, at) {
                Some(first) => problems.push((SegmentAt::Line(at), SegmentProblem::Repeated { first })),
                None => rows.push(row),
            },
            Err(problem) => problems.push((SegmentAt::Line(at), problem)),
        }
        if problems.len() >= MAX_PROBLEMS {
            break;
        }
    }
    if problems.is_empty() { Ok(rows) } else { Err(Refusal::Entries(problems)) }
}

/// A line's cells: split on commas or tabs, each trimmed of spaces, a BOM and quotes (no
/// place name has a comma).
fn cells_of(line: &str) -> Vec<&str> {
    line.split([',', '\t'])
        .map(|cell| cell.trim_matches(|c: char| c.is_whitespace() || c == '"' || c == '\u{feff}'))
        .collect()
}

fn row_of(cells: &[&str], columns: &Columns, names: &Names) -> Result<SegmentRow, SegmentProblem> {
    if cells.len() < columns.width() {
        return Err(SegmentProblem::Columns);
    }
    let prefix = parse_prefix(cells[columns.prefix]).ok_or(SegmentProblem::Prefix)?;
    let given_code = columns.code.map(|at| cells[at]).filter(|code| !code.is_empty());
    let (province, code) = province_of(cells[columns.province], given_code)?;
    let city = city_of(cells[columns.city], &province).ok_or(SegmentProblem::City)?;
    let carrier = match columns.carrier {
        Some(at) => carrier_of(cells[at])?,
        None => None,
    };
    let english = columns.english.map(|(p, c)| (cells[p], cells[c]));
    Ok(SegmentRow { prefix, place: names.place(code, &province, &city, english), carrier })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Carrier;
    use crate::domain::segments::SegmentTable;

    fn names() -> Names {
        let table = SegmentTable::new([crate::domain::segments::parse_row(
            "1380013,440000,广东,深圳,mobile,Guangdong,Shenzhen",
        )
        .expect("a row")]);
        Names::of(&table)
    }

    fn rows(text: &str) -> Vec<SegmentRow> {
        parse(text.as_bytes(), &names()).expect("read").rows
    }

    #[test]
    fn the_shipped_layout_reads_as_written() {
        let rows = rows(
            "prefix,province_code,province,city,carrier,province_en,city_en\n1380013,110000,北京,北京,mobile,Beijing,Beijing\n",
        );
        assert_eq!(rows.len(), 1);
        assert_eq!((rows[0].prefix, rows[0].carrier), (1_380_013, Some(Carrier::Mobile)));
        assert_eq!(rows[0].place.city_en, "Beijing");
    }

    #[test]
    fn a_chinese_title_row_and_full_names_are_understood() {
        let rows = rows(
            "号段,省份,城市,运营商\n1380013,广东省,深圳市,中国移动\n1700000,广西壮族自治区,南宁市,联通虚拟运营商\n1920000,北京,,中国广电\n",
        );
        let found: Vec<_> =
            rows.iter().map(|row| (row.place.province_code.as_str(), row.place.city.as_str(), row.carrier)).collect();
        assert_eq!(
            found,
            [
                ("440000", "深圳", Some(Carrier::Mobile)),
                ("450000", "南宁", Some(Carrier::Unicom)),
                ("110000", "北京", Some(Carrier::Broadnet))
            ]
        );
        // English names: the province's own, the city's from the table, else the Chinese one.
        assert_eq!((rows[0].place.province_en.as_str(), rows[0].place.city_en.as_str()), ("Guangdong", "Shenzhen"));
        assert_eq!(rows[1].place.city_en, "南宁");
    }

    #[test]
    fn four_plain_columns_need_no_title() {
        let rows = rows("1380013\t广东\t深圳\tmobile\n1380014\tguangdong\t深圳\tmobile\n");
        assert_eq!(rows[0].place.province, "广东");
        assert_eq!(rows[1].place.province, "广东", "an English province name reads too");
    }

    #[test]
    fn every_bad_line_is_named_and_nothing_is_taken() {
        let text = "号段,省份,城市,运营商\n1380013,广东,深圳,移动\n138001,广东,深圳,移动\n1380014,火星,深圳,移动\n1380015,广东,,移动\n1380016,广东,深圳,卫星\n1380013,广东,深圳,移动\n1380017,广东\n";
        let Err(Refusal::Entries(problems)) = parse(text.as_bytes(), &names()) else { panic!("refused by line") };
        assert_eq!(
            problems,
            [
                (SegmentAt::Line(3), SegmentProblem::Prefix),
                (SegmentAt::Line(4), SegmentProblem::Province("火星".into())),
                (SegmentAt::Line(5), SegmentProblem::City),
                (SegmentAt::Line(6), SegmentProblem::Carrier("卫星".into())),
                (SegmentAt::Line(7), SegmentProblem::Repeated { first: 2 }),
                (SegmentAt::Line(8), SegmentProblem::Columns),
            ]
        );
    }

    #[test]
    fn gzip_and_gbk_are_read_and_other_bytes_are_refused() {
        let text = "号段,省份,城市,运营商\n1380013,广东,深圳,移动\n";
        let (gbk, _, _) = encoding_rs::GBK.encode(text);
        assert_eq!(parse(&gbk, &names()).expect("GBK").rows.len(), 1);
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut gz, text.as_bytes()).expect("write");
        assert_eq!(parse(&gz.finish().expect("gzip"), &names()).expect("gzip").rows.len(), 1);
        assert_eq!(
            parse(&[0x1f, 0x8b, 1, 2, 3], &names()).unwrap_err(),
            Refusal::File(CatalogueMessage::SegmentFileUnreadable)
        );
        assert_eq!(
            parse(b"hello,world\n", &names()).unwrap_err(),
            Refusal::File(CatalogueMessage::SegmentFileUnreadable)
        );
        assert!(matches!(parse(b"", &names()).unwrap_err(), Refusal::File(CatalogueMessage::SegmentFileRows { .. })));
    }
}
