//! The `phone.dat` layout many top-up and CRM systems ship (xluohome/phonedata and its
//! ports): a 4-byte version (ASCII, e.g. `1707`), the offset of the index (u32, little
//! endian), then records `省份|城市|邮编|区号\0`, then 9-byte index entries: the 7-digit
//! prefix (u32 LE), its record's offset (u32 LE) and a card type (1 移动, 2 联通, 3 电信,
//! 4 电信虚拟, 5 联通虚拟, 6 移动虚拟, 7 广电, 8 广电虚拟). Every offset is checked against
//! the file's bounds: a damaged file is refused, never read past its end.

use super::fields::{MAX_PROBLEMS, Names, Refusal, city_of, province_of};
use crate::domain::Carrier;
use crate::domain::segments::SegmentRow;
use crate::i18n::{CatalogueMessage, SegmentAt, SegmentProblem};
use std::collections::HashMap;

const HEAD: usize = 8;
const ENTRY: usize = 9;

/// Whether `bytes` are laid out as phone.dat: a version of four digits and an index that
/// starts inside the file and fills it to the end in whole entries.
pub fn looks_like(bytes: &[u8]) -> bool {
    if bytes.len() < HEAD || !bytes[..4].iter().all(u8::is_ascii_digit) {
        return false;
    }
    let index = u32_at(bytes, 4) as usize;
    index >= HEAD && index <= bytes.len() && (bytes.len() - index).is_multiple_of(ENTRY)
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

fn carrier_of_card(card: u8) -> Option<Carrier> {
    match card {
        1 | 6 => Some(Carrier::Mobile),
        2 | 5 => Some(Carrier::Unicom),
        3 | 4 => Some(Carrier::Telecom),
        7 | 8 => Some(Carrier::Broadnet),
        _ => None,
    }
}

/// The rows of a file `looks_like` accepted; each entry's problem named by its number.
pub fn parse(bytes: &[u8], names: &Names) -> Result<Vec<SegmentRow>, Refusal> {
    let index = u32_at(bytes, 4) as usize;
    let unreadable = || Refusal::File(CatalogueMessage::SegmentFileUnreadable);
    // Records are shared by many prefixes: each is read once.
    let mut places: HashMap<usize, Result<(String, u32, String), SegmentProblem>> = HashMap::new();
    let (mut rows, mut problems) = (Vec::new(), Vec::new());
    let mut seen: HashMap<u32, i64> = HashMap::new();
    for (number, entry) in bytes[index..].chunks_exact(ENTRY).enumerate() {
        let at = SegmentAt::Record(number as i64 + 1);
        let prefix = u32_at(entry, 0);
        let record = u32_at(entry, 4) as usize;
        if !(HEAD..index).contains(&record) {
            return Err(unreadable());
        }
        let place = places.entry(record).or_insert_with(|| read_record(&bytes[record..index])).clone();
        let outcome = crate::domain::segments::parse_prefix(&prefix.to_string())
            .ok_or(SegmentProblem::Prefix)
            .and_then(|prefix| {
                let carrier =
                    carrier_of_card(entry[8]).ok_or_else(|| SegmentProblem::Carrier(format!("{}", entry[8])))?;
                let (province, code, city) = place?;
                Ok(SegmentRow { prefix, place: names.place(code, &province, &city, None), carrier: Some(carrier) })
            });
        match outcome {
            Ok(row) => match seen.insert(row.prefix, number as i64 + 1) {
                Some(first) => problems.push((at, SegmentProblem::Repeated { first })),
                None => rows.push(row),
            },
            Err(problem) => problems.push((at, problem)),
        }
        if problems.len() >= MAX_PROBLEMS {
            break;
        }
    }
    if problems.is_empty() { Ok(rows) } else { Err(Refusal::Entries(problems)) }
}

/// A record `省份|城市|邮编|区号` up to its NUL: the province (short name and code) and city.
fn read_record(from: &[u8]) -> Result<(String, u32, String), SegmentProblem> {
    let end = from.iter().position(|byte| *byte == 0).ok_or(SegmentProblem::Columns)?;
    let text = std::str::from_utf8(&from[..end]).map_err(|_| SegmentProblem::Columns)?;
    let mut fields = text.split('|');
    let (Some(province), Some(city)) = (fields.next(), fields.next()) else { return Err(SegmentProblem::Columns) };
    let (province, code) = province_of(province, None)?;
    let city = city_of(city, &province).ok_or(SegmentProblem::City)?;
    Ok((province, code, city))
}

#[cfg(test)]
pub mod tests {
    use super::*;

    /// A phone.dat of `records` (province|city|zip|area) and `entries` (prefix, record
    /// number, card type), laid out as the format says.
    pub fn build(records: &[&str], entries: &[(u32, usize, u8)]) -> Vec<u8> {
        let mut body = Vec::new();
        let mut offsets = Vec::new();
        for record in records {
            offsets.push(HEAD + body.len());
            body.extend_from_slice(record.as_bytes());
            body.push(0);
        }
        let index = HEAD + body.len();
        let mut file = b"2611".to_vec();
        file.extend_from_slice(&(index as u32).to_le_bytes());
        file.extend_from_slice(&body);
        for (prefix, record, card) in entries {
            file.extend_from_slice(&prefix.to_le_bytes());
            file.extend_from_slice(&(offsets[*record] as u32).to_le_bytes());
            file.push(*card);
        }
        file
    }

    fn names() -> Names {
        Names::of(&crate::domain::segments::SegmentTable::default())
    }

    #[test]
    fn entries_read_with_their_records_and_card_types() {
        let file = build(
            &["广东|深圳|518000|0755", "北京|北京|100000|010"],
            &[(1_380_013, 1, 1), (1_700_000, 0, 5), (1_920_000, 0, 7)],
        );
        assert!(looks_like(&file));
        let rows = parse(&file, &names()).expect("read");
        let found: Vec<_> =
            rows.iter().map(|row| (row.prefix, row.place.province_code.as_str(), row.carrier)).collect();
        assert_eq!(
            found,
            [
                (1_380_013, "110000", Some(Carrier::Mobile)),
                (1_700_000, "440000", Some(Carrier::Unicom)),
                (1_920_000, "440000", Some(Carrier::Broadnet)),
            ]
        );
    }

    #[test]
    fn bad_entries_are_named_and_a_damaged_file_is_refused() {
        let file =
            build(&["火星|深圳|0|0", "广东|深圳|0|0"], &[(1_380_013, 0, 1), (1_380_014, 1, 9), (1_380_014, 1, 1)]);
        let Err(Refusal::Entries(problems)) = parse(&file, &names()) else { panic!("refused by entry") };
        assert_eq!(
            problems,
            [
                (SegmentAt::Record(1), SegmentProblem::Province("火星".into())),
                (SegmentAt::Record(2), SegmentProblem::Carrier("9".into())),
            ]
        );
        // A record offset beyond the records: refused whole, nothing read past the end.
        let mut damaged = build(&["广东|深圳|0|0"], &[(1_380_013, 0, 1)]);
        let at = damaged.len() - 5;
        damaged[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(parse(&damaged, &names()).unwrap_err(), Refusal::File(CatalogueMessage::SegmentFileUnreadable));
        assert!(!looks_like(b"prefix,province\n1380013,1"));
    }
}
