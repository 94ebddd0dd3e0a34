//! What an uploaded table changes against the table in memory, for the preview: counts of
//! segments added, changed (place or carrier) and removed, the first changes in prefix
//! order, and the segments each province holds before and after. Also the candidate's rows
//! as they wait to be applied: gzip of the shipped CSV layout.

use crate::domain::Carrier;
use crate::domain::segments::{Place, SegmentRow, SegmentTable, parse_row};
use std::collections::BTreeMap;
use std::io::{Read, Write};

/// Changes listed in a preview (the counts cover them all).
pub const SAMPLES: usize = 100;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeKind {
    Added,
    Changed,
    Removed,
}

pub struct Change<'a> {
    pub prefix: u32,
    pub kind: ChangeKind,
    pub before: Option<(&'a Place, Option<Carrier>)>,
    pub after: Option<(&'a Place, Option<Carrier>)>,
}

#[derive(Default)]
pub struct Diff<'a> {
    pub added: i64,
    pub changed: i64,
    pub removed: i64,
    pub unchanged: i64,
    pub samples: Vec<Change<'a>>,
    /// Province code → (segments before, segments after).
    pub provinces: BTreeMap<String, (i64, i64)>,
}

impl<'a> Diff<'a> {
    fn note(&mut self, change: Change<'a>) {
        match change.kind {
            ChangeKind::Added => self.added += 1,
            ChangeKind::Changed => self.changed += 1,
            ChangeKind::Removed => self.removed += 1,
        }
        if self.samples.len() < SAMPLES {
            self.samples.push(change);
        }
    }
}

/// `new` (sorted by prefix, each prefix once) against `current`: one walk over both.
pub fn diff<'a>(current: &'a SegmentTable, new: &'a [SegmentRow]) -> Diff<'a> {
    let mut diff = Diff::default();
    let mut old = current.rows().peekable();
    let mut new = new.iter().peekable();
    loop {
        let take_old = match (old.peek(), new.peek()) {
            (None, None) => break,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (Some((old_prefix, ..)), Some(row)) => *old_prefix <= row.prefix,
        };
        let same_prefix = matches!((old.peek(), new.peek()), (Some((a, ..)), Some(row)) if *a == row.prefix);
        if same_prefix {
            let (prefix, place, carrier) = old.next().expect("peeked");
            let row = new.next().expect("peeked");
            count(&mut diff, Some(place), Some(&row.place));
            if place == &row.place && carrier == row.carrier {
                diff.unchanged += 1;
            } else {
                let kind = ChangeKind::Changed;
                diff.note(Change {
                    prefix,
                    kind,
                    before: Some((place, carrier)),
                    after: Some((&row.place, row.carrier)),
                });
            }
        } else if take_old {
            let (prefix, place, carrier) = old.next().expect("peeked");
            count(&mut diff, Some(place), None);
            diff.note(Change { prefix, kind: ChangeKind::Removed, before: Some((place, carrier)), after: None });
        } else {
            let row = new.next().expect("peeked");
            count(&mut diff, None, Some(&row.place));
            let after = Some((&row.place, row.carrier));
            diff.note(Change { prefix: row.prefix, kind: ChangeKind::Added, before: None, after });
        }
    }
    diff
}

fn count(diff: &mut Diff, before: Option<&Place>, after: Option<&Place>) {
    if let Some(place) = before {
        diff.provinces.entry(place.province_code.clone()).or_default().0 += 1;
    }
    if let Some(place) = after {
        diff.provinces.entry(place.province_code.clone()).or_default().1 += 1;
    }
}

/// What applying a table writes: every row after clearing the table, or only the prefixes
/// removed and the rows added or changed.
pub enum Writes {
    Whole(Vec<SegmentRow>),
    Changes { removed: Vec<u32>, upserted: Vec<SegmentRow> },
}

/// Upserted rows take the new place and carrier.
const UPSERT: &str = "ON CONFLICT (prefix) DO UPDATE SET province_code = excluded.province_code, \
    province = excluded.province, city = excluded.city, carrier = excluded.carrier, \
    province_en = excluded.province_en, city_en = excluded.city_en";

impl Writes {
    pub fn whole(rows: Vec<SegmentRow>) -> Self {
        Writes::Whole(rows)
    }

    /// The changes from `current` to `rows` (sorted by prefix, each once).
    pub fn between(current: &SegmentTable, rows: Vec<SegmentRow>) -> Self {
        let mut removed = Vec::new();
        let mut upserted = Vec::new();
        let mut new = rows.into_iter().peekable();
        for (prefix, place, carrier) in current.rows() {
            while new.peek().is_some_and(|row| row.prefix < prefix) {
                upserted.extend(new.next());
            }
            match new.peek() {
                Some(row) if row.prefix == prefix => {
                    let row = new.next().expect("peeked");
                    if &row.place != place || row.carrier != carrier {
                        upserted.push(row);
                    }
                }
                _ => removed.push(prefix),
            }
        }
        upserted.extend(new);
        Writes::Changes { removed, upserted }
    }

    pub async fn write(self, transaction: &mut sqlx::Transaction<'static, sqlx::Any>) -> Result<(), sqlx::Error> {
        match self {
            Writes::Whole(rows) => {
                sqlx::query("DELETE FROM number_segments WHERE $1 = $1")
                    .bind(0_i64)
                    .execute(&mut **transaction)
                    .await?;
                crate::platform::segments::insert_all(transaction, rows, "").await
            }
            Writes::Changes { removed, upserted } => {
                for chunk in removed.chunks(500) {
                    let list = chunk.iter().map(|prefix| format!("'{prefix:07}'")).collect::<Vec<_>>().join(",");
                    // Prefixes are numbers formatted here, never text from a request.
                    let sql = format!("DELETE FROM number_segments WHERE prefix IN ({list})");
                    sqlx::query(sqlx::AssertSqlSafe(sql)).execute(&mut **transaction).await?;
                }
                crate::platform::segments::insert_all(transaction, upserted, UPSERT).await
            }
        }
    }
}

/// A row in the shipped CSV layout (no name has a comma: the readers refuse none, but a
/// comma would split a cell, so it is dropped).
pub fn csv_line(prefix: u32, place: &Place, carrier: Option<Carrier>) -> String {
    let clean = |text: &str| text.replace([',', '\n', '\r'], " ");
    format!(
        "{prefix:07},{},{},{},{},{},{}",
        place.province_code,
        clean(&place.province),
        clean(&place.city),
        carrier.map_or("", Carrier::as_str),
        clean(&place.province_en),
        clean(&place.city_en)
    )
}

pub const CSV_TITLE: &str = "prefix,province_code,province,city,carrier,province_en,city_en";

/// The candidate's rows as stored until applied.
pub fn encode(rows: &[SegmentRow]) -> std::io::Result<Vec<u8>> {
    let mut out = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    writeln!(out, "{CSV_TITLE}")?;
    for row in rows {
        writeln!(out, "{}", csv_line(row.prefix, &row.place, row.carrier))?;
    }
    out.finish()
}

/// The rows of a stored candidate (written by `encode`, so every line reads).
pub fn decode(data: &[u8]) -> anyhow::Result<Vec<SegmentRow>> {
    let mut text = String::new();
    flate2::read::GzDecoder::new(data).read_to_string(&mut text)?;
    let lines = text.lines().skip(1);
    lines
        .map(|line| parse_row(line).ok_or_else(|| anyhow::anyhow!("a stored segment row does not read: {line}")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(line: &str) -> SegmentRow {
        parse_row(line).expect("a row")
    }

    #[test]
    fn added_changed_removed_and_unchanged_are_counted_by_province() {
        let current = SegmentTable::new([
            row("1380013,110000,北京,北京,mobile,Beijing,Beijing"),
            row("1380014,110000,北京,北京,mobile,Beijing,Beijing"),
            row("1380015,440000,广东,深圳,mobile,Guangdong,Shenzhen"),
        ]);
        let new = vec![
            row("1380013,110000,北京,北京,mobile,Beijing,Beijing"),
            row("1380015,440000,广东,广州,mobile,Guangdong,Guangzhou"),
            row("1380016,440000,广东,深圳,mobile,Guangdong,Shenzhen"),
        ];
        let diff = diff(&current, &new);
        assert_eq!((diff.added, diff.changed, diff.removed, diff.unchanged), (1, 1, 1, 1));
        let kinds: Vec<_> = diff.samples.iter().map(|change| (change.prefix, change.kind)).collect();
        assert_eq!(
            kinds,
            [(1_380_014, ChangeKind::Removed), (1_380_015, ChangeKind::Changed), (1_380_016, ChangeKind::Added)]
        );
        assert_eq!(diff.provinces["110000"], (2, 1));
        assert_eq!(diff.provinces["440000"], (1, 2));
    }

    #[test]
    fn only_what_changes_is_written() {
        let current = SegmentTable::new([
            row("1380013,110000,北京,北京,mobile,Beijing,Beijing"),
            row("1380014,110000,北京,北京,mobile,Beijing,Beijing"),
            row("1380016,440000,广东,深圳,mobile,Guangdong,Shenzhen"),
        ]);
        let new = vec![
            row("1380012,110000,北京,北京,mobile,Beijing,Beijing"),
            row("1380013,110000,北京,北京,mobile,Beijing,Beijing"),
            row("1380016,440000,广东,广州,mobile,Guangdong,Guangzhou"),
            row("1380017,440000,广东,深圳,mobile,Guangdong,Shenzhen"),
        ];
        let Writes::Changes { removed, upserted } = Writes::between(&current, new) else { panic!("changes") };
        assert_eq!(removed, [1_380_014]);
        assert_eq!(upserted.iter().map(|row| row.prefix).collect::<Vec<_>>(), [1_380_012, 1_380_016, 1_380_017]);
    }

    #[test]
    fn a_candidate_reads_back_as_it_was_written() {
        let rows = vec![
            row("1380013,110000,北京,北京,mobile,Beijing,Beijing"),
            row("1700000,440000,广东,深圳,,Guangdong,Shenzhen"),
        ];
        assert_eq!(decode(&encode(&rows).expect("encode")).expect("decode"), rows);
    }
}
