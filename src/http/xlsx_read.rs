//! Reading the first sheet of an xlsx file under a budget.
//!
//! An xlsx file is a zip of XML parts, and everything it declares about itself can lie:
//! the sheet's dimension (`A1:XFD1048576` in a 2 KB file), the entries' sizes, their
//! compression ratio. So nothing declared is used to size anything: the zip entries are
//! streamed through a meter that counts the bytes actually unpacked, the XML is walked
//! event by event with its nesting, rows and cells counted as they come, only the first
//! few columns are kept, a cell keeps at most one character more than the caller accepts,
//! and the wall clock is checked as bytes arrive. Whatever runs out first ends the read
//! with its own error; the caller answers it. Run it on the blocking pool: it is CPU work.

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};
use std::cell::Cell;
use std::io::{BufReader, Read};
use std::time::{Duration, Instant};

/// What a read may use at most.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// Bytes unpacked from the zip, all parts together.
    pub unpacked_bytes: u64,
    /// `<row>` elements, empty ones included (they cost time even when they hold nothing).
    pub rows: usize,
    /// `<c>` elements and shared strings.
    pub cells: usize,
    /// XML elements open at once.
    pub depth: usize,
    /// Columns kept (A, B, C, ...); cells further right are read past.
    pub columns: usize,
    /// Characters a cell may hold; one more is kept so the caller can tell it was longer.
    pub cell_chars: usize,
    /// Entries in the zip (a real workbook has a dozen).
    pub entries: usize,
    pub time: Duration,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadError {
    /// Not a zip, not a workbook, broken XML, a cell that refers to nothing.
    Unreadable,
    UnpackedTooLarge,
    TooManyRows,
    TooManyCells,
    TooDeep,
    TooSlow,
}

/// Rows of the first sheet that hold something: (1-based row number, cells as text).
pub type Rows = Vec<(i64, Vec<String>)>;

/// Excel's last row: a row number beyond it is not a workbook's.
const LAST_ROW: i64 = 1_048_576;

/// Counts what is unpacked and the time spent, for every part of one file.
struct Meter {
    left: Cell<u64>,
    deadline: Instant,
    tripped: Cell<Option<ReadError>>,
}

impl Meter {
    fn check_time(&self) -> Result<(), ReadError> {
        if Instant::now() > self.deadline {
            self.tripped.set(Some(ReadError::TooSlow));
            return Err(ReadError::TooSlow);
        }
        Ok(())
    }

    /// The error that stopped a read: the meter's if it tripped, else `fallback`.
    fn cause(&self, fallback: ReadError) -> ReadError {
        self.tripped.get().unwrap_or(fallback)
    }
}

/// A zip entry's bytes as they are unpacked, refused past the meter's budget.
struct Metered<'a, R> {
    inner: R,
    meter: &'a Meter,
}

impl<R: Read> Read for Metered<'_, R> {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        self.meter.check_time().map_err(|_| std::io::Error::other("read took too long"))?;
        let left = self.meter.left.get();
        // One byte more than is left, to tell "exactly used up" from "more to come".
        let room = buffer.len().min(usize::try_from(left.saturating_add(1)).unwrap_or(usize::MAX));
        let read = self.inner.read(&mut buffer[..room])?;
        if read as u64 > left {
            self.meter.tripped.set(Some(ReadError::UnpackedTooLarge));
            return Err(std::io::Error::other("unpacked size over budget"));
        }
        self.meter.left.set(left - read as u64);
        Ok(read)
    }
}

type Archive<'a> = zip::ZipArchive<std::io::Cursor<&'a [u8]>>;

/// Reads the first sheet of the workbook in `bytes`.
pub fn read_first_sheet(bytes: &[u8], budget: &Budget) -> Result<Rows, ReadError> {
    let meter = Meter {
        left: Cell::new(budget.unpacked_bytes),
        deadline: Instant::now() + budget.time,
        tripped: Cell::new(None),
    };
    if declared_entries(bytes).is_none_or(|entries| entries > budget.entries) {
        return Err(ReadError::Unreadable);
    }
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(|_| ReadError::Unreadable)?;
    let sheet = sheet_path(&mut archive, &meter, budget)?;
    let shared = match entry_name(&archive, "xl/sharedStrings.xml") {
        Some(name) => shared_strings(&mut archive, &name, &meter, budget)?,
        None => Vec::new(),
    };
    let name = entry_name(&archive, &sheet).ok_or(ReadError::Unreadable)?;
    let entry = archive.by_name(&name).map_err(|_| ReadError::Unreadable)?;
    sheet_rows(Metered { inner: entry, meter: &meter }, &shared, &meter, budget)
}

/// The entry count the end-of-central-directory record declares, read before the zip
/// library builds its table of entries (sized by that count). None: no such record.
fn declared_entries(bytes: &[u8]) -> Option<usize> {
    const RECORD: usize = 22;
    let tail_start = bytes.len().saturating_sub(RECORD + u16::MAX as usize);
    let tail = &bytes[tail_start..];
    let at = tail.windows(4).rposition(|window| window == b"PK\x05\x06")?;
    let record = tail.get(at..at + RECORD)?;
    Some(u16::from_le_bytes([record[10], record[11]]) as usize)
}

/// The zip entry called `wanted`, compared without case (writers differ) and without a
/// leading slash.
fn entry_name(archive: &Archive<'_>, wanted: &str) -> Option<String> {
    let wanted = wanted.trim_start_matches('/');
    archive.file_names().flatten().find(|name| name.eq_ignore_ascii_case(wanted)).map(|name| name.into_owned())
}

fn xml_reader<'a, R: Read>(entry: Metered<'a, R>) -> Reader<BufReader<Metered<'a, R>>> {
    Reader::from_reader(BufReader::with_capacity(64 * 1024, entry))
}

fn attribute(element: &BytesStart<'_>, wanted: &str) -> Option<String> {
    element.attributes().with_checks(false).flatten().find_map(|attribute| {
        let key = attribute.key.as_ref();
        // `r:id` of a sheet is namespaced; compare local names.
        let local = key.rsplit(':').next().unwrap_or(key);
        (local == wanted).then(|| attribute.value.into_owned())
    })
}

/// Walks a small part (workbook, relationships) and collects `(element, attribute)`
/// values; the part is bounded by the same meter and nesting limit as the sheet.
fn small_part(
    archive: &mut Archive<'_>,
    name: &str,
    meter: &Meter,
    budget: &Budget,
    mut visit: impl FnMut(&BytesStart<'_>),
) -> Result<(), ReadError> {
    let Some(name) = entry_name(archive, name) else { return Ok(()) };
    let entry = archive.by_name(&name).map_err(|_| ReadError::Unreadable)?;
    let mut xml = xml_reader(Metered { inner: entry, meter });
    let (mut buffer, mut depth) = (Vec::new(), 0usize);
    loop {
        buffer.clear();
        match xml.read_event_into(&mut buffer).map_err(|_| meter.cause(ReadError::Unreadable))? {
            Event::Start(element) => {
                depth += 1;
                if depth > budget.depth {
                    return Err(ReadError::TooDeep);
                }
                visit(&element);
            }
            Event::Empty(element) => visit(&element),
            Event::End(_) => depth = depth.saturating_sub(1),
            Event::Eof => return Ok(()),
            _ => {}
        }
    }
}

/// The path of the first sheet: the workbook's first `<sheet>` through its relationship,
/// or the usual name when the workbook does not say.
fn sheet_path(archive: &mut Archive<'_>, meter: &Meter, budget: &Budget) -> Result<String, ReadError> {
    let mut first_id = None;
    small_part(archive, "xl/workbook.xml", meter, budget, |element| {
        if first_id.is_none() && element.local_name().as_ref() == "sheet" {
            first_id = attribute(element, "id");
        }
    })?;
    let mut target = None;
    if let Some(id) = first_id {
        small_part(archive, "xl/_rels/workbook.xml.rels", meter, budget, |element| {
            if target.is_none() && attribute(element, "Id").as_deref() == Some(id.as_str()) {
                target = attribute(element, "Target");
            }
        })?;
    }
    Ok(match target {
        Some(target) if target.starts_with('/') => target,
        Some(target) => format!("xl/{target}"),
        None => "xl/worksheets/sheet1.xml".to_string(),
    })
}

/// Appends text to a cell, keeping at most `limit` characters.
fn push_limited(value: &mut String, text: &str, limit: usize) {
    let have = value.chars().count();
    value.extend(text.chars().take(limit.saturating_sub(have)));
}

fn push_entity(value: &mut String, entity: &quick_xml::events::BytesRef<'_>, limit: usize) -> Result<(), ReadError> {
    let text = match entity.as_ref() {
        "amp" => "&".to_string(),
        "lt" => "<".to_string(),
        "gt" => ">".to_string(),
        "quot" => "\"".to_string(),
        "apos" => "'".to_string(),
        _ => entity.resolve_char_ref().ok().flatten().ok_or(ReadError::Unreadable)?.to_string(),
    };
    push_limited(value, &text, limit);
    Ok(())
}

fn shared_strings(
    archive: &mut Archive<'_>,
    name: &str,
    meter: &Meter,
    budget: &Budget,
) -> Result<Vec<String>, ReadError> {
    let entry = archive.by_name(name).map_err(|_| ReadError::Unreadable)?;
    let mut xml = xml_reader(Metered { inner: entry, meter });
    let limit = budget.cell_chars + 1;
    let (mut strings, mut buffer, mut depth) = (Vec::new(), Vec::new(), 0usize);
    // Inside <si>, inside a <t> of it, inside a phonetic run (<rPh>, not part of the text).
    let (mut current, mut in_text, mut phonetic) = (None::<String>, false, false);
    loop {
        buffer.clear();
        match xml.read_event_into(&mut buffer).map_err(|_| meter.cause(ReadError::Unreadable))? {
            Event::Start(element) => {
                depth += 1;
                if depth > budget.depth {
                    return Err(ReadError::TooDeep);
                }
                match element.local_name().as_ref() {
                    "si" => current = Some(String::new()),
                    "t" => in_text = true,
                    "rPh" => phonetic = true,
                    _ => {}
                }
            }
            Event::Empty(element) if element.local_name().as_ref() == "si" => strings.push(String::new()),
            Event::End(element) => {
                depth = depth.saturating_sub(1);
                match element.local_name().as_ref() {
                    "si" => strings.push(current.take().unwrap_or_default()),
                    "t" => in_text = false,
                    "rPh" => phonetic = false,
                    _ => {}
                }
            }
            Event::Text(text) if in_text && !phonetic => {
                if let Some(value) = current.as_mut() {
                    push_limited(value, &text.xml10_content(), limit);
                }
            }
            Event::CData(text) if in_text && !phonetic => {
                if let Some(value) = current.as_mut() {
                    push_limited(value, &text.xml10_content(), limit);
                }
            }
            Event::GeneralRef(entity) if in_text && !phonetic => {
                if let Some(value) = current.as_mut() {
                    push_entity(value, &entity, limit)?;
                }
            }
            Event::Eof => return Ok(strings),
            _ => {}
        }
        if strings.len() > budget.cells {
            return Err(ReadError::TooManyCells);
        }
    }
}

/// The 0-based column of a cell reference such as `AB12`; None past `limit`.
fn column_of(reference: &str) -> Option<usize> {
    let mut column = 0usize;
    let mut letters = 0;
    for byte in reference.bytes().take_while(u8::is_ascii_alphabetic) {
        letters += 1;
        if letters > 3 {
            return None;
        }
        column = column * 26 + (byte.to_ascii_uppercase() - b'A' + 1) as usize;
    }
    column.checked_sub(1)
}

/// A number cell as the merchant typed it: phone numbers arrive as `13800138000` or
/// `1.3800138E10`; whole numbers are written without a decimal point.
fn number_text(raw: &str) -> String {
    match raw.trim().parse::<f64>() {
        Ok(value) if value.is_finite() && value.fract() == 0.0 && value.abs() < 1e15 => format!("{value:.0}"),
        _ => raw.trim().to_string(),
    }
}

struct OpenCell {
    column: Option<usize>,
    kind: String,
    value: String,
    capturing: bool,
}

fn sheet_rows<R: Read>(
    entry: Metered<'_, R>,
    shared: &[String],
    meter: &Meter,
    budget: &Budget,
) -> Result<Rows, ReadError> {
    let mut xml = xml_reader(entry);
    let limit = budget.cell_chars + 1;
    let (mut rows, mut buffer, mut depth) = (Rows::new(), Vec::new(), 0usize);
    let (mut row_elements, mut cell_elements, mut events) = (0usize, 0usize, 0u32);
    let mut row: Option<(i64, Vec<String>)> = None;
    let (mut last_row, mut next_column) = (0i64, 0usize);
    let mut cell: Option<OpenCell> = None;
    loop {
        buffer.clear();
        let event = xml.read_event_into(&mut buffer).map_err(|_| meter.cause(ReadError::Unreadable))?;
        events = events.wrapping_add(1);
        if events % 4096 == 0 {
            meter.check_time()?;
        }
        let empty = matches!(event, Event::Empty(_));
        match event {
            Event::Start(ref element) | Event::Empty(ref element) => {
                if !empty {
                    depth += 1;
                    if depth > budget.depth {
                        return Err(ReadError::TooDeep);
                    }
                }
                match element.local_name().as_ref() {
                    "row" => {
                        row_elements += 1;
                        if row_elements > budget.rows {
                            return Err(ReadError::TooManyRows);
                        }
                        let number = match attribute(element, "r") {
                            Some(text) => text.trim().parse::<i64>().map_err(|_| ReadError::Unreadable)?,
                            None => last_row + 1,
                        };
                        if !(1..=LAST_ROW).contains(&number) {
                            return Err(ReadError::Unreadable);
                        }
                        last_row = number;
                        next_column = 0;
                        row = (!empty).then(|| (number, Vec::new()));
                    }
                    "c" => {
                        cell_elements += 1;
                        if cell_elements > budget.cells {
                            return Err(ReadError::TooManyCells);
                        }
                        let column = match attribute(element, "r") {
                            Some(reference) => column_of(&reference),
                            None => Some(next_column),
                        };
                        next_column = column.map_or(usize::MAX, |column| column.saturating_add(1));
                        let column = column.filter(|column| *column < budget.columns);
                        let kind = attribute(element, "t").unwrap_or_default();
                        if !empty && row.is_some() {
                            cell = Some(OpenCell { column, kind, value: String::new(), capturing: false });
                        }
                    }
                    // The cached value, or the text of an inline string.
                    "v" | "t" => {
                        if let Some(open) = cell.as_mut().filter(|open| open.column.is_some()) {
                            open.capturing = !empty;
                        }
                    }
                    _ => {}
                }
            }
            Event::End(ref element) => {
                depth = depth.saturating_sub(1);
                match element.local_name().as_ref() {
                    "v" | "t" => {
                        if let Some(open) = cell.as_mut() {
                            open.capturing = false;
                        }
                    }
                    "c" => {
                        if let (Some(open), Some((_, cells))) = (cell.take(), row.as_mut())
                            && let Some(column) = open.column
                        {
                            let text = cell_text(open, shared)?;
                            if cells.len() <= column {
                                cells.resize(column + 1, String::new());
                            }
                            cells[column] = text;
                        }
                    }
                    "row" => {
                        if let Some((number, cells)) = row.take()
                            && cells.iter().any(|cell| !cell.trim().is_empty())
                        {
                            rows.push((number, cells));
                        }
                    }
                    _ => {}
                }
            }
            Event::Text(ref text) => {
                if let Some(open) = cell.as_mut().filter(|open| open.capturing) {
                    push_limited(&mut open.value, &text.xml10_content(), limit);
                }
            }
            Event::CData(ref text) => {
                if let Some(open) = cell.as_mut().filter(|open| open.capturing) {
                    push_limited(&mut open.value, &text.xml10_content(), limit);
                }
            }
            Event::GeneralRef(ref entity) => {
                if let Some(open) = cell.as_mut().filter(|open| open.capturing) {
                    push_entity(&mut open.value, entity, limit)?;
                }
            }
            Event::Eof => return Ok(rows),
            _ => {}
        }
    }
}

fn cell_text(cell: OpenCell, shared: &[String]) -> Result<String, ReadError> {
    Ok(match cell.kind.as_str() {
        "s" => {
            let index: usize = cell.value.trim().parse().map_err(|_| ReadError::Unreadable)?;
            shared.get(index).cloned().ok_or(ReadError::Unreadable)?
        }
        "b" => (if cell.value.trim() == "1" { "TRUE" } else { "FALSE" }).to_string(),
        "" | "n" => number_text(&cell.value),
        _ => cell.value,
    })
}

#[cfg(test)]
#[path = "xlsx_read_tests.rs"]
pub(crate) mod tests;
