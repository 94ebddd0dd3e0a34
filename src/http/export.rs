//! File exports of lists: CSV streamed page by page (constant memory, any size) and
//! Excel (xlsx, written in rust_xlsxwriter's constant-memory mode, capped in rows).

use crate::http::error::AppError;
use crate::i18n::TradeMessage;
use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use futures_util::future::BoxFuture;
use serde::Deserialize;
use utoipa::IntoParams;

/// Rows an Excel export holds at most; CSV has no limit.
pub const MAX_XLSX_ROWS: usize = 200_000;
/// Rows fetched per page while exporting.
pub const EXPORT_PAGE_SIZE: i64 = 2_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Csv,
    Xlsx,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ExportParams {
    /// `csv` (default, streamed, UTF-8 with BOM) or `xlsx` (at most 200,000 rows).
    #[param(pattern = r"^\s*(csv|xlsx)?\s*$")]
    pub format: Option<String>,
    /// `desc` (default) or `asc` by time.
    #[param(pattern = r"^\s*(desc|asc)?\s*$")]
    pub sort: Option<String>,
}

impl ExportParams {
    /// The format asked for; `sort` is checked here too, so every download refuses a
    /// wrong one alike (those without an order ignore it).
    pub fn format(&self) -> Result<Format, AppError> {
        if !matches!(self.sort.as_deref().map(str::trim).unwrap_or(""), "" | "desc" | "asc") {
            return Err(AppError::field("sort", TradeMessage::InvalidChoice { allowed: "desc, asc" }));
        }
        match self.format.as_deref().map(str::trim).unwrap_or("csv") {
            "" | "csv" => Ok(Format::Csv),
            "xlsx" => Ok(Format::Xlsx),
            _ => Err(AppError::field("format", TradeMessage::InvalidChoice { allowed: "csv, xlsx" })),
        }
    }
}

/// A value of an exported file, typed so that each format writes it right: Excel must
/// neither run a merchant's text as a formula (OWASP's CSV injection) nor turn a 24-digit
/// order number into 2.02611E+23, and money must stay a number that SUM adds up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cell {
    /// Free text (names, statuses, reasons, times): neutralised by [`excel_safe`].
    Text(String),
    /// A long identifier (order numbers, serials, merchant order ids, phone numbers): kept
    /// exactly as stored, for scripts that match it. CSV: quoted, nothing added (a trailing
    /// tab kept Excel from showing 24 digits as 2.02611E+23, but broke every exact match;
    /// xlsx is the format that keeps them as text in Excel); xlsx: a text cell. Neutralised too.
    Id(String),
    /// Money in fen: yuan with two decimals; in xlsx a number with a yuan format.
    Money(i64),
    /// A whole number (line numbers, merchant ids).
    Int(i64),
    /// A duration in milliseconds, written as seconds with one decimal.
    Seconds(i64),
    /// A moment (Unix milliseconds) in Beijing time, as the console shows it: CSV
    /// `YYYY-MM-DD HH:MM:SS` text, xlsx a date cell that Excel sorts and filters as one.
    Time(i64),
    Empty,
}

impl Cell {
    pub fn text(text: impl Into<String>) -> Cell {
        Cell::Text(text.into())
    }

    pub fn id(id: impl Into<String>) -> Cell {
        Cell::Id(id.into())
    }

    /// A moment, or an empty text cell when absent (CSV `""`, as the order export's SQL writes).
    pub fn optional_time(millis: Option<i64>) -> Cell {
        millis.map_or(Cell::Text(String::new()), Cell::Time)
    }

    /// Text, or nothing when absent.
    pub fn optional_text(text: Option<impl Into<String>>) -> Cell {
        text.map_or(Cell::Empty, |text| Cell::Text(text.into()))
    }

    /// The cell as one CSV field: text and ids quoted, numbers bare.
    pub fn csv_field(&self) -> String {
        let quoted = |text: &str| format!("\"{}\"", text.replace('"', "\"\""));
        match self {
            Cell::Text(text) => quoted(&excel_safe(text)),
            Cell::Id(id) if id.is_empty() => String::new(),
            Cell::Id(id) => quoted(&excel_safe(id)),
            Cell::Money(fen) => crate::domain::yuan(*fen),
            Cell::Int(value) => value.to_string(),
            Cell::Seconds(millis) => crate::domain::seconds(*millis),
            Cell::Time(millis) => quoted(&crate::domain::beijing_time(*millis)),
            Cell::Empty => String::new(),
        }
    }
}

/// Characters that make a spreadsheet read a cell as a formula (OWASP: `=`, `+`, `-`,
/// `@`, tab, carriage return). The order export builds its CSV in SQL from the same list.
pub const FORMULA_TRIGGERS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// Text that a spreadsheet shows as text: a leading formula character gets a single
/// quote before it. The one rule for every file the server writes.
pub fn excel_safe(text: &str) -> std::borrow::Cow<'_, str> {
    if text.starts_with(FORMULA_TRIGGERS) { format!("'{text}").into() } else { text.into() }
}

/// Header cells from titles.
pub fn titles(titles: &[&str]) -> Vec<Cell> {
    titles.iter().map(|title| Cell::text(*title)).collect()
}

/// One page of rows and the cursor of the next page (None after the last).
pub type Page = (Vec<Vec<Cell>>, Option<String>);
/// Fetches the page after a cursor (None: the first page).
pub type PageFetcher = Box<dyn FnMut(Option<String>) -> BoxFuture<'static, anyhow::Result<Page>> + Send>;
/// Fetches the page after a cursor as CSV lines already (each ending in a newline).
pub type CsvFetcher =
    Box<dyn FnMut(Option<String>) -> BoxFuture<'static, anyhow::Result<(Vec<u8>, Option<String>)>> + Send>;

pub async fn respond(
    format: Format,
    name: &str,
    header_row: Vec<Cell>,
    fetch: PageFetcher,
) -> Result<Response, AppError> {
    match format {
        Format::Csv => Ok(csv_stream(name, header_row, rows_as_csv(fetch))),
        Format::Xlsx => xlsx_file(name, header_row, fetch).await,
    }
}

/// A row fetcher whose pages are written as CSV.
pub fn rows_as_csv(mut fetch: PageFetcher) -> CsvFetcher {
    Box::new(move |cursor| {
        let page = fetch(cursor);
        Box::pin(async move {
            let (rows, next) = page.await?;
            Ok((csv_bytes(&rows)?, next))
        })
    })
}

fn attachment(body: Body, content_type: &'static str, file_name: String) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    if let Ok(value) = HeaderValue::from_str(&format!("attachment; filename=\"{file_name}\"")) {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// Rows as CSV lines (CRLF-free: `\n` ends a line; quoted fields keep line breaks).
pub fn csv_bytes(rows: &[Vec<Cell>]) -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    for row in rows {
        let fields: Vec<String> = row.iter().map(Cell::csv_field).collect();
        bytes.extend_from_slice(fields.join(",").as_bytes());
        bytes.push(b'\n');
    }
    Ok(bytes)
}

enum Step {
    Header(Vec<Cell>),
    Next(Option<String>),
    Done,
}

/// A CSV body produced one page at a time: memory stays at a few pages however many
/// rows. The next page is fetched while the previous one is being sent. A storage error
/// mid-way aborts the response, so a client never takes a truncated file for a complete one.
pub fn csv_stream(name: &str, header_row: Vec<Cell>, fetch: CsvFetcher) -> Response {
    let (sender, receiver) = tokio::sync::mpsc::channel::<std::io::Result<Bytes>>(2);
    tokio::spawn(async move {
        let mut pages = std::pin::pin!(csv_pages(header_row, fetch));
        while let Some(page) = futures_util::StreamExt::next(&mut pages).await {
            let failed = page.is_err();
            // The client went away: stop fetching.
            if sender.send(page).await.is_err() || failed {
                break;
            }
        }
    });
    let stream = futures_util::stream::unfold(receiver, |mut receiver| async move {
        receiver.recv().await.map(|page| (page, receiver))
    });
    attachment(Body::from_stream(stream), "text/csv; charset=utf-8", format!("{name}.csv"))
}

fn csv_pages(header_row: Vec<Cell>, fetch: CsvFetcher) -> impl futures_util::Stream<Item = std::io::Result<Bytes>> {
    futures_util::stream::unfold((Step::Header(header_row), fetch), |(step, mut fetch)| async move {
        match step {
            Step::Header(header_row) => {
                // The byte-order mark makes Excel read UTF-8 (Chinese text) correctly.
                let mut bytes = "\u{feff}".as_bytes().to_vec();
                match csv_bytes(&[header_row]) {
                    Ok(header) => bytes.extend(header),
                    Err(error) => return Some((Err(std::io::Error::other(error)), (Step::Done, fetch))),
                }
                Some((Ok(Bytes::from(bytes)), (Step::Next(None), fetch)))
            }
            Step::Next(cursor) => match fetch(cursor).await {
                Ok((bytes, Some(next))) => Some((Ok(Bytes::from(bytes)), (Step::Next(Some(next)), fetch))),
                Ok((bytes, None)) => Some((Ok(Bytes::from(bytes)), (Step::Done, fetch))),
                Err(error) => {
                    tracing::error!(error = %format!("{error:#}"), "export failed mid-way");
                    Some((Err(std::io::Error::other(error)), (Step::Done, fetch)))
                }
            },
            Step::Done => None,
        }
    })
}

/// Writes typed cells into an xlsx sheet: text and ids as text cells, money as numbers
/// in a yuan format, durations in seconds with one decimal, moments as dates.
struct SheetWriter {
    yuan: rust_xlsxwriter::Format,
    seconds: rust_xlsxwriter::Format,
    time: rust_xlsxwriter::Format,
}

/// Beijing is UTC+8 all year: an Excel date holds no zone, so it is written as the page shows it.
const BEIJING_OFFSET_SECONDS: i64 = 8 * 3_600;

/// The width of a column in Excel's units (about one per Latin character, two per Chinese
/// one) that shows `cell` whole, within bounds so a long remark does not push the rest away.
fn width_of(cell: &Cell) -> f64 {
    let chars = |text: &str| text.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum::<usize>();
    let width = match cell {
        Cell::Text(text) | Cell::Id(text) => chars(text),
        Cell::Money(_) => 14,
        Cell::Int(_) | Cell::Seconds(_) => 10,
        Cell::Time(_) => 20,
        Cell::Empty => 0,
    };
    (width + 2).clamp(8, 50) as f64
}

impl SheetWriter {
    fn new() -> Self {
        Self {
            yuan: rust_xlsxwriter::Format::new().set_num_format("¥#,##0.00"),
            seconds: rust_xlsxwriter::Format::new().set_num_format("0.0"),
            time: rust_xlsxwriter::Format::new().set_num_format("yyyy-mm-dd hh:mm:ss"),
        }
    }

    /// Column widths fitting the header and the first rows, and the header row frozen so it
    /// stays in view while scrolling. Set before any row: in constant-memory mode rows are
    /// flushed as they are written.
    fn layout(
        sheet: &mut rust_xlsxwriter::Worksheet,
        header_row: &[Cell],
        first_rows: &[Vec<Cell>],
    ) -> anyhow::Result<()> {
        for (column, title) in header_row.iter().enumerate() {
            let widest =
                first_rows.iter().filter_map(|row| row.get(column)).map(width_of).fold(width_of(title), f64::max);
            sheet.set_column_width(u16::try_from(column)?, widest)?;
        }
        sheet.set_freeze_panes(1, 0)?;
        Ok(())
    }

    fn row(&self, sheet: &mut rust_xlsxwriter::Worksheet, index: usize, row: &[Cell]) -> anyhow::Result<()> {
        let index = u32::try_from(index)?;
        for (column, cell) in row.iter().enumerate() {
            let column = u16::try_from(column)?;
            match cell {
                Cell::Text(text) | Cell::Id(text) => {
                    sheet.write_string(index, column, excel_safe(text))?;
                }
                // Fen to yuan is exact for every amount below 2^53 fen; xlsx stores numbers
                // as doubles whatever we do, and this is where money leaves our books.
                Cell::Money(fen) => {
                    sheet.write_number_with_format(index, column, *fen as f64 / 100.0, &self.yuan)?;
                }
                Cell::Int(value) => {
                    sheet.write_number(index, column, *value as f64)?;
                }
                Cell::Seconds(millis) => {
                    sheet.write_number_with_format(index, column, *millis as f64 / 1000.0, &self.seconds)?;
                }
                Cell::Time(millis) => {
                    match rust_xlsxwriter::ExcelDateTime::from_timestamp(
                        millis.div_euclid(1000) + BEIJING_OFFSET_SECONDS,
                    ) {
                        Ok(moment) => sheet.write_datetime_with_format(index, column, &moment, &self.time)?,
                        // Beyond Excel's years 1900-9999: the text, rather than no value.
                        Err(_) => sheet.write_string(index, column, crate::domain::beijing_time(*millis))?,
                    };
                }
                Cell::Empty => {}
            }
        }
        Ok(())
    }
}

async fn xlsx_file(name: &str, header_row: Vec<Cell>, mut fetch: PageFetcher) -> Result<Response, AppError> {
    let mut workbook = rust_xlsxwriter::Workbook::new();
    let sheet = workbook.add_worksheet_with_constant_memory().map_err(anyhow::Error::from)?;
    let writer = SheetWriter::new();
    let mut page = Some(fetch(None).await?);
    SheetWriter::layout(sheet, &header_row, page.as_ref().map_or(&[][..], |(rows, _)| &rows[..rows.len().min(100)]))?;
    writer.row(sheet, 0, &header_row)?;
    let mut written = 0usize;
    let mut cursor = None;
    loop {
        let (rows, next) = match page.take() {
            Some(first) => first,
            None => fetch(cursor).await?,
        };
        for row in rows.iter().take(MAX_XLSX_ROWS - written) {
            written += 1;
            writer.row(sheet, written, row)?;
        }
        match next {
            Some(next) if written < MAX_XLSX_ROWS => cursor = Some(next),
            _ => break,
        }
    }
    let bytes = tokio::task::spawn_blocking(move || workbook.save_to_buffer())
        .await
        .map_err(anyhow::Error::from)?
        .map_err(anyhow::Error::from)?;
    Ok(attachment(
        Body::from(bytes),
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        format!("{name}.xlsx"),
    ))
}

/// An xlsx file of a few rows (templates).
pub fn small_xlsx(rows: &[Vec<Cell>]) -> anyhow::Result<Vec<u8>> {
    let mut workbook = rust_xlsxwriter::Workbook::new();
    let sheet = workbook.add_worksheet();
    let writer = SheetWriter::new();
    if let Some((header_row, rest)) = rows.split_first() {
        SheetWriter::layout(sheet, header_row, rest)?;
    }
    for (index, row) in rows.iter().enumerate() {
        writer.row(sheet, index, row)?;
    }
    Ok(workbook.save_to_buffer()?)
}

pub fn file_response(bytes: Vec<u8>, format: Format, name: &str) -> Response {
    match format {
        Format::Csv => attachment(Body::from(bytes), "text/csv; charset=utf-8", format!("{name}.csv")),
        Format::Xlsx => attachment(
            Body::from(bytes),
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            format!("{name}.xlsx"),
        ),
    }
}

#[cfg(test)]
#[path = "export_tests.rs"]
mod tests;
