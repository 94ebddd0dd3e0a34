//! File exports of lists: CSV streamed page by page (constant memory, any size) and
//! Excel (xlsx, written in rust_xlsxwriter's constant-memory mode, capped in rows).

use crate::error::AppError;
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
    pub format: Option<String>,
    /// `desc` (default) or `asc` by time.
    pub sort: Option<String>,
}

impl ExportParams {
    pub fn format(&self) -> Result<Format, AppError> {
        match self.format.as_deref().map(str::trim).unwrap_or("csv") {
            "" | "csv" => Ok(Format::Csv),
            "xlsx" => Ok(Format::Xlsx),
            _ => Err(AppError::field("format", TradeMessage::InvalidChoice { allowed: "csv, xlsx" })),
        }
    }
}

/// One page of rows and the cursor of the next page (None after the last).
pub type Page = (Vec<Vec<String>>, Option<String>);
/// Fetches the page after a cursor (None: the first page).
pub type PageFetcher = Box<dyn FnMut(Option<String>) -> BoxFuture<'static, anyhow::Result<Page>> + Send>;
/// Fetches the page after a cursor as CSV lines already (each ending in a newline).
pub type CsvFetcher =
    Box<dyn FnMut(Option<String>) -> BoxFuture<'static, anyhow::Result<(Vec<u8>, Option<String>)>> + Send>;

pub async fn respond(
    format: Format,
    name: &str,
    header_row: Vec<String>,
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

pub fn csv_bytes(rows: &[Vec<String>]) -> anyhow::Result<Vec<u8>> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    for row in rows {
        writer.write_record(row)?;
    }
    writer.into_inner().map_err(|error| anyhow::anyhow!("{error}"))
}

enum Step {
    Header(Vec<String>),
    Next(Option<String>),
    Done,
}

/// A CSV body produced one page at a time: memory stays at a few pages however many
/// rows. The next page is fetched while the previous one is being sent. A storage error
/// mid-way aborts the response, so a client never takes a truncated file for a complete one.
pub fn csv_stream(name: &str, header_row: Vec<String>, fetch: CsvFetcher) -> Response {
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

fn csv_pages(header_row: Vec<String>, fetch: CsvFetcher) -> impl futures_util::Stream<Item = std::io::Result<Bytes>> {
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

async fn xlsx_file(name: &str, header_row: Vec<String>, mut fetch: PageFetcher) -> Result<Response, AppError> {
    let mut workbook = rust_xlsxwriter::Workbook::new();
    let sheet = workbook.add_worksheet_with_constant_memory().map_err(anyhow::Error::from)?;
    let mut write_row = |index: usize, row: &[String]| -> anyhow::Result<()> {
        for (column, value) in row.iter().enumerate() {
            sheet.write_string(index as u32, column as u16, value)?;
        }
        Ok(())
    };
    write_row(0, &header_row)?;
    let mut written = 0usize;
    let mut cursor = None;
    loop {
        let (rows, next) = fetch(cursor).await?;
        for row in rows.iter().take(MAX_XLSX_ROWS - written) {
            written += 1;
            write_row(written, row)?;
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

/// Reads the rows of the first sheet of an xlsx file as text.
pub fn xlsx_rows(bytes: &[u8]) -> anyhow::Result<Vec<Vec<String>>> {
    use calamine::{Reader, Xlsx};
    let mut workbook: Xlsx<_> = calamine::open_workbook_from_rs(std::io::Cursor::new(bytes))?;
    let range = workbook.worksheet_range_at(0).ok_or_else(|| anyhow::anyhow!("the workbook has no sheet"))??;
    Ok(range
        .rows()
        .map(|row| {
            row.iter()
                .map(|cell| match cell {
                    // Numbers typed into Excel (phone numbers) arrive as floats.
                    calamine::Data::Float(value) if value.fract() == 0.0 => format!("{value:.0}"),
                    calamine::Data::Int(value) => value.to_string(),
                    other => other.to_string(),
                })
                .collect()
        })
        .collect())
}

/// An xlsx file of a few rows (templates).
pub fn small_xlsx(rows: &[Vec<String>]) -> anyhow::Result<Vec<u8>> {
    let mut workbook = rust_xlsxwriter::Workbook::new();
    let sheet = workbook.add_worksheet();
    for (index, row) in rows.iter().enumerate() {
        for (column, value) in row.iter().enumerate() {
            sheet.write_string(index as u32, column as u16, value)?;
        }
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
