//! A channel's coverage as a file: the export (product key, provinces, cost in yuan,
//! priority, weight; safe in Excel) and its import (CSV in UTF-8 or GBK, or xlsx, read
//! under the batch readers' budgets): every line good and all applied in one transaction,
//! or nothing changed and each bad line named. Products the file does not name stay.

use super::admin_supplies::{self, MAX_COST_FEN, MAX_PRIORITY, MAX_WEIGHT};
use super::setup::Supply;
use crate::domain::Scope;
use crate::http::error::{ApiOk, ApiResult, AppError, FieldError};
use crate::http::export::{Cell, ExportParams, PageFetcher, respond, titles};
use crate::http::extract::{ClientAddress, QueryParams};
use crate::i18n::provinces::{province_code_in_any_language, province_name};
use crate::i18n::{CatalogueMessage, ChannelMessage, Locale, Message, TradeMessage, files};
use crate::identity::session::AdminUser;
use crate::orders::batch::file::{RawLine, parse_file_with};
use crate::platform::channel::model;
use crate::platform::state::AppState;
use axum::extract::multipart::MultipartRejection;
use axum::extract::{DefaultBodyLimit, Multipart, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::{Router, routing::post};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use utoipa::{IntoParams, ToSchema};

/// A coverage file is a line per product (a few hundred); at most this large.
pub const MAX_IMPORT_BYTES: usize = 1024 * 1024;
/// Bad lines named in one answer.
const MAX_NAMED_LINES: usize = 200;

pub fn upload_router() -> Router<AppState> {
    Router::new()
        .route("/adminapi/admin/channel/coverage/import", post(import))
        .layer(DefaultBodyLimit::max(MAX_IMPORT_BYTES + 64 * 1024))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CoverageChannel {
    /// The channel.
    #[param(minimum = 1)]
    pub id: i64,
}

/// The multipart form of an import.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct CoverageUpload {
    /// CSV (UTF-8 or GBK) or xlsx in the export's columns, at most 1 MiB.
    #[schema(value_type = String, format = Binary)]
    file: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CoverageImported {
    /// Products set (added or changed).
    pub lines: i64,
}

/// The coverage cell: 全国/National for national, else the provinces' names (in `locale`)
/// joined by `;` (names of either language and codes import back).
fn provinces_cell(scope: &Scope, locale: Locale) -> String {
    if scope.is_national() {
        return files::NATIONAL.get(locale)[0].to_string();
    }
    let names: Vec<&str> = scope.provinces().iter().filter_map(|code| province_name(*code, locale)).collect();
    names.join(";")
}

/// Reads a coverage cell: empty or 全国/National is national; otherwise provinces by name
/// (either language) or GB/T 2260 code, separated by `;`, `、`, `,`, `|`, `/` or spaces.
fn parse_provinces(cell: &str) -> Option<Scope> {
    let cell = cell.trim();
    if cell.is_empty() || files::NATIONAL.pairs().iter().any(|(zh, en)| cell == *zh || cell.eq_ignore_ascii_case(en)) {
        return Some(Scope::national());
    }
    let one = |token: &str| token.parse::<u32>().ok().or_else(|| province_code_in_any_language(token));
    let mut codes = Vec::new();
    for token in cell.split([';', '；', '、', ',', '，', '|', '/']).map(str::trim).filter(|token| !token.is_empty())
    {
        match one(token) {
            Some(code) => codes.push(code),
            // "广东 浙江": names separated by spaces (English names may hold one: tried whole first).
            None => {
                for word in token.split_whitespace() {
                    codes.push(one(word)?);
                }
            }
        }
    }
    Scope::of(codes)
}

/// A title row: its first cell is no product key (letters, digits, `-`, `_` only).
fn is_title(cells: &[String]) -> bool {
    cells.first().is_some_and(|cell| {
        let cell = cell.trim().trim_start_matches('\u{feff}');
        !cell.is_empty() && !cell.bytes().all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_')
    })
}

/// A cell as typed: the quote the export puts before a formula character taken off.
fn cell(raw: &RawLine, index: usize) -> &str {
    let text = raw.cells.get(index).map_or("", |cell| cell.trim());
    text.strip_prefix('\'').unwrap_or(text).trim()
}

struct CoverageLine {
    product_key: String,
    cost_fen: i64,
    priority: i64,
    weight: i64,
    provinces: Scope,
}

fn parse_line(raw: &RawLine) -> Result<CoverageLine, ChannelMessage> {
    let line = raw.line_no;
    let (key, cost) = (cell(raw, 0), cell(raw, 2));
    if key.is_empty() || cost.is_empty() {
        return Err(ChannelMessage::CoverageIncomplete { line });
    }
    let provinces = parse_provinces(cell(raw, 1)).ok_or(ChannelMessage::CoverageProvinces { line })?;
    let cost_fen = crate::orders::quotes::import::parse_yuan(cost)
        .filter(|fen| *fen <= MAX_COST_FEN)
        .ok_or(ChannelMessage::CoverageCost { line })?;
    let number = |text: &str, default: i64| if text.is_empty() { Some(default) } else { text.parse::<i64>().ok() };
    let priority = number(cell(raw, 3), 0).filter(|value| value.abs() <= MAX_PRIORITY);
    let weight = number(cell(raw, 4), 1).filter(|value| (0..=MAX_WEIGHT).contains(value));
    let (Some(priority), Some(weight)) = (priority, weight) else {
        return Err(ChannelMessage::CoverageNumbers { line });
    };
    Ok(CoverageLine { product_key: crate::domain::product_key_input(key), cost_fen, priority, weight, provinces })
}

/// Import a channel's coverage: multipart `file` (the export's columns: product key,
/// provinces, cost in yuan, priority, weight). All lines good, or nothing changed and every
/// bad line named (`data.fields`, keyed `line:<n>`). Products not named stay as they are;
/// a new one is enabled.
#[utoipa::path(post, path = "/adminapi/admin/channel/coverage/import", tag = "channels", params(CoverageChannel),
    request_body(content = CoverageUpload, content_type = "multipart/form-data"),
    responses((status = 200, description = "`data` is CoverageImported", body = CoverageImported),
        (status = 400, description = "40000: not a multipart form, or no `file`"),
        (status = 403, description = "40300: administrators only"),
        (status = 404, description = "40400: no such channel"),
        (status = 422, description = "40000: the file unreadable, empty or over its budget, or bad lines (each named)")),
    security(("token" = [])))]
pub async fn import(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ClientAddress(address): ClientAddress,
    QueryParams(channel): QueryParams<CoverageChannel>,
    multipart: Result<Multipart, MultipartRejection>,
) -> ApiResult<CoverageImported> {
    model::by_id(&state.db.pool, channel.id).await?.ok_or(AppError::NotFound)?;
    let bytes = read_file(multipart).await?;
    // Reading a file is CPU work: off the async workers; a panic there is an unreadable file.
    let lines = tokio::task::spawn_blocking(move || parse_file_with(&bytes, is_title))
        .await
        .unwrap_or(Err(TradeMessage::BatchFileUnreadable))
        .map_err(|message| AppError::unprocessable("file", message))?;
    let products: HashMap<String, i64> =
        sqlx::query_as("SELECT product_key, id FROM products").fetch_all(&state.db.pool).await?.into_iter().collect();
    let enabled: HashMap<i64, i64> =
        sqlx::query_as("SELECT product_id, enabled FROM channel_products WHERE channel_id = $1")
            .bind(channel.id)
            .fetch_all(&state.db.pool)
            .await?
            .into_iter()
            .collect();
    let (mut errors, mut supplies) = (Vec::new(), Vec::with_capacity(lines.len()));
    let mut seen: HashMap<i64, i64> = HashMap::new();
    for raw in &lines {
        let line_no = raw.line_no;
        let checked = parse_line(raw).map_err(Message::from).and_then(|line| {
            let product_id = *products
                .get(&line.product_key)
                .ok_or_else(|| Message::from(CatalogueMessage::ImportLineProduct { line: line_no }))?;
            if let Some(first) = seen.insert(product_id, line_no) {
                return Err(CatalogueMessage::ImportLineDuplicate { line: line_no, first }.into());
            }
            Ok(Supply {
                product_id,
                cost_fen: line.cost_fen,
                priority: line.priority,
                weight: line.weight,
                enabled: enabled.get(&product_id).is_none_or(|enabled| *enabled != 0),
                provinces: Some(line.provinces.stored()),
            })
        });
        match checked {
            Ok(supply) => supplies.push(supply),
            Err(message) if errors.len() < MAX_NAMED_LINES => {
                errors.push(FieldError::new(format!("line:{line_no}"), message))
            }
            Err(_) => {}
        }
    }
    if !errors.is_empty() {
        return Err(AppError::Unprocessable(errors));
    }
    admin_supplies::write_audited(&state, admin.user_id, &address.to_string(), channel.id, &supplies).await?;
    Ok(ApiOk(CoverageImported { lines: supplies.len() as i64 }))
}

/// The form's `file` part, read in chunks and refused once over the limit.
async fn read_file(multipart: Result<Multipart, MultipartRejection>) -> Result<Vec<u8>, AppError> {
    let mut multipart = multipart.map_err(|_| AppError::malformed_form())?;
    let mut found = None;
    while let Some(mut field) = multipart.next_field().await.map_err(|_| AppError::malformed_form())? {
        if field.name() != Some("file") || found.is_some() {
            continue;
        }
        let bytes = crate::http::extract::bounded_part(&mut field, MAX_IMPORT_BYTES)
            .await
            .ok_or_else(|| AppError::unprocessable("file", TradeMessage::BatchFileUnreadable))?;
        found = Some(bytes);
    }
    found.ok_or_else(|| AppError::field("file", TradeMessage::BatchEmpty))
}

/// A channel's coverage as a file, in the import's columns.
#[utoipa::path(get, path = "/adminapi/admin/channel/coverage/export", tag = "channels", params(CoverageChannel, ExportParams),
    responses((status = 200, description = "the file (text/csv or xlsx)", content(("text/csv"), ("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"))),
        (status = 400, description = "40000: the format is not of the documented form"),
        (status = 403, description = "40300: administrators only"),
        (status = 404, description = "40400: no such channel")),
    security(("token" = [])))]
pub async fn export(
    State(state): State<AppState>,
    _admin: AdminUser,
    headers: HeaderMap,
    QueryParams(channel): QueryParams<CoverageChannel>,
    QueryParams(params): QueryParams<ExportParams>,
) -> Result<Response, AppError> {
    let locale = Locale::from_headers(&headers);
    let format = params.format()?;
    let row = model::by_id(&state.db.pool, channel.id).await?.ok_or(AppError::NotFound)?;
    let rows: Vec<Vec<Cell>> = admin_supplies::rows(&state.db.pool, channel.id)
        .await?
        .into_iter()
        .map(|supply| {
            vec![
                Cell::Id(supply.product_key),
                Cell::Text(provinces_cell(&supply.provinces, locale)),
                Cell::Money(supply.cost_fen),
                // Text, so a negative priority is no cell starting with `-` (excel_safe).
                Cell::Text(supply.priority.to_string()),
                Cell::Int(supply.weight),
            ]
        })
        .collect();
    let mut rows = Some(rows);
    let fetcher: PageFetcher = Box::new(move |_cursor| {
        let page = rows.take().unwrap_or_default();
        Box::pin(async move { Ok((page, None)) })
    });
    respond(format, &format!("coverage-{}", row.code), titles(&files::COVERAGE_COLUMNS.get(locale)), fetcher).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(line_no: i64, cells: &[&str]) -> RawLine {
        RawLine { line_no, cells: cells.iter().map(|cell| cell.to_string()).collect() }
    }

    #[test]
    fn provinces_read_by_name_code_or_national() {
        let gd_zj = Scope::of([440000, 330000]).unwrap();
        assert_eq!(parse_provinces("广东;浙江"), Some(gd_zj.clone()));
        assert_eq!(parse_provinces("440000 330000"), Some(gd_zj.clone()));
        assert_eq!(parse_provinces("Zhejiang、guangdong"), Some(gd_zj.clone()));
        assert_eq!(parse_provinces("Inner Mongolia;Hong Kong").map(|scope| scope.provinces().len()), Some(2));
        assert_eq!(parse_provinces("全国"), Some(Scope::national()));
        assert_eq!(parse_provinces(" national "), Some(Scope::national()));
        assert_eq!(parse_provinces(""), Some(Scope::national()));
        assert_eq!(parse_provinces("广州"), None, "a city is no province");
        assert_eq!(parse_provinces("440100"), None);
        for locale in [Locale::ZhCn, Locale::EnUs] {
            assert_eq!(parse_provinces(&provinces_cell(&gd_zj, locale)), Some(gd_zj.clone()), "round trip");
            assert_eq!(parse_provinces(&provinces_cell(&Scope::national(), locale)), Some(Scope::national()));
        }
    }

    #[test]
    fn lines_are_read_and_bad_ones_named() {
        let line = parse_line(&raw(2, &["mobile-direct-10", "广东", "9.5", "'-3", ""])).unwrap();
        assert_eq!(
            (line.product_key.as_str(), line.cost_fen, line.priority, line.weight),
            ("MOBILE-DIRECT-10", 950, -3, 1)
        );
        assert_eq!(parse_line(&raw(3, &["K", "", ""])).err(), Some(ChannelMessage::CoverageIncomplete { line: 3 }));
        assert_eq!(parse_line(&raw(4, &["K", "火星", "1"])).err(), Some(ChannelMessage::CoverageProvinces { line: 4 }));
        assert_eq!(parse_line(&raw(5, &["K", "", "1.234"])).err(), Some(ChannelMessage::CoverageCost { line: 5 }));
        assert_eq!(parse_line(&raw(6, &["K", "", "1", "x"])).err(), Some(ChannelMessage::CoverageNumbers { line: 6 }));
        assert_eq!(
            parse_line(&raw(7, &["K", "", "1", "0", "10001"])).err(),
            Some(ChannelMessage::CoverageNumbers { line: 7 })
        );
        assert!(is_title(&[String::from("\u{feff}商品编码")]) && is_title(&[String::from("Product key")]));
        assert!(!is_title(&[String::from("MOBILE-DIRECT-10")]));
    }
}
