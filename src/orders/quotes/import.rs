//! Importing a merchant's price list: the export's own file (CSV or xlsx, columns as
//! exported) or short lines `product key, supply price in yuan[, status]`. The file is
//! read under the batch readers' budgets (bytes unpacked, rows, cells, time); every bad
//! line is named in the answer and nothing is changed unless every line is good; a good
//! file is applied in one transaction, each price change in the history.

use super::history::{self, PriceChange, Source};
use crate::domain::MAX_AMOUNT_FEN;
use crate::http::error::{ApiOk, ApiResult, AppError, FieldError};
use crate::http::extract::ClientAddress;
use crate::i18n::files::QUOTE_STATUS;
use crate::i18n::{CatalogueMessage, Message};
use crate::identity::session::AdminUser;
use crate::orders::batch::file::RawLine;
use crate::orders::batch::upload::read_upload_with;
use crate::platform::audit;
use crate::platform::state::AppState;
use axum::Router;
use axum::extract::{Request, State};
use axum::routing::post;
use serde::Serialize;
use std::collections::HashMap;
use utoipa::ToSchema;

/// A price list is a few hundred lines; a file is at most this large.
pub const MAX_IMPORT_BYTES: usize = 4 * 1024 * 1024;
/// Bad lines named in one answer (a file of nothing but bad lines would make a huge one).
const MAX_NAMED_LINES: usize = 200;

pub fn upload_router() -> Router<AppState> {
    Router::new().route("/adminapi/admin/quote/import", post(import))
}

/// `98`, `98.5`, `98.50` yuan in fen; anything else (signs, three decimals, exponents) is refused.
pub fn parse_yuan(text: &str) -> Option<i64> {
    let text = text.trim();
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |part: &str| part.bytes().all(|byte| byte.is_ascii_digit());
    if whole.is_empty() || whole.len() > 12 || fraction.len() > 2 || !digits(whole) || !digits(fraction) {
        return None;
    }
    let fraction_fen: i64 = format!("{fraction:0<2}").parse().ok()?;
    let fen = whole.parse::<i64>().ok()? * 100 + fraction_fen;
    (1..=MAX_AMOUNT_FEN).contains(&fen).then_some(fen)
}

/// A price list's title row: its first cell is neither a merchant id nor a product key
/// (digits, or capitals, digits, `-`, `_`), e.g. 商户编号 or "product key".
fn is_title(cells: &[String]) -> bool {
    cells.first().is_some_and(|cell| {
        let cell = cell.trim().trim_start_matches('\u{feff}');
        !cell.is_empty()
            && !cell
                .bytes()
                .all(|byte| byte.is_ascii_uppercase() || byte.is_ascii_digit() || byte == b'-' || byte == b'_')
    })
}

fn parse_status(text: &str) -> Result<Option<i64>, ()> {
    let word = text.trim();
    // The export's own words (either language), so an exported price list imports as it is.
    let is = |index: usize| {
        let (zh, en) = QUOTE_STATUS.pairs()[index];
        word == zh || word.eq_ignore_ascii_case(en)
    };
    match word {
        "" => Ok(None),
        "1" => Ok(Some(1)),
        "0" => Ok(Some(0)),
        _ if is(0) => Ok(Some(1)),
        _ if is(1) => Ok(Some(0)),
        _ => Err(()),
    }
}

/// One good line: which product, at what price and status.
struct ImportLine {
    line_no: i64,
    product_key: String,
    price_fen: i64,
    status: Option<i64>,
}

/// The export's layout (merchant id, business, product name, key, price, face, status,
/// created) when the line starts with a number and has its columns; short lines otherwise.
fn parse_line(raw: &RawLine, merchant_id: i64) -> Result<ImportLine, CatalogueMessage> {
    let line = raw.line_no;
    let cells = &raw.cells;
    let exported = cells.len() >= 5 && cells[0].bytes().all(|byte| byte.is_ascii_digit()) && !cells[0].is_empty();
    let (key, price, status) = if exported {
        if cells[0].parse::<i64>().ok() != Some(merchant_id) {
            return Err(CatalogueMessage::ImportLineMerchant { line });
        }
        (cells[3].as_str(), cells[4].as_str(), cells.get(6).map_or("", String::as_str))
    } else {
        let cell = |index: usize| cells.get(index).map_or("", String::as_str);
        (cell(0), cell(1), cell(2))
    };
    if key.trim().is_empty() || price.trim().is_empty() {
        return Err(CatalogueMessage::ImportLineIncomplete { line });
    }
    let price_fen = parse_yuan(price).ok_or(CatalogueMessage::ImportLinePrice { line })?;
    let status = parse_status(status).map_err(|()| CatalogueMessage::ImportLineStatus { line })?;
    Ok(ImportLine { line_no: line, product_key: crate::domain::product_key_input(key), price_fen, status })
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ImportOutcome {
    /// Lines read.
    pub lines: i64,
    /// Quotes whose price changed (new quotes included).
    pub changed: i64,
}

/// The JSON form of an import: the price list's lines pasted (`read_upload_with` reads it).
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct QuoteImportText {
    pub merchant_id: i64,
    /// One quote a line: `product key, supply price in yuan[, status]`, or the export's columns.
    pub text: String,
    /// Shown in the audit trail (default "pasted").
    #[schema(max_length = 100)]
    pub file_name: Option<String>,
}

/// The multipart form of an import: the exported file, edited.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct QuoteImportUpload {
    pub merchant_id: i64,
    /// CSV or xlsx, at most 4 MiB.
    #[schema(value_type = String, format = Binary)]
    pub file: Vec<u8>,
}

/// Import a merchant's price list: multipart `merchant_id` and `file` (CSV or xlsx), or
/// JSON `{merchant_id, text}`. All lines good, or nothing changed and every bad line named
/// (`data.fields`, keyed `line:<n>`).
#[utoipa::path(post, path = "/adminapi/admin/quote/import", tag = "admin",
    request_body(content((QuoteImportText = "application/json"), (QuoteImportUpload = "multipart/form-data"))),
    responses((status = 200, description = "`data` is an ImportOutcome", body = ImportOutcome),
        (status = 400, description = "40000: not JSON or a multipart form, or `merchant_id` missing"),
        (status = 404, description = "40400: no such merchant"),
        (status = 422, description = "40000: the file or text unreadable, empty or over its budget, or bad lines (each named)")),
    security(("token" = [])))]
pub async fn import(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ClientAddress(address): ClientAddress,
    request: Request,
) -> ApiResult<ImportOutcome> {
    let upload = read_upload_with(&state, request, is_title).await?;
    let merchant_id = upload.merchant_id.ok_or_else(|| AppError::field("merchant_id", Message::MerchantIdInvalid))?;
    if !crate::money::finance::merchant_exists(&state.db.pool, merchant_id).await? {
        return Err(AppError::NotFound);
    }
    let mut transaction = state.db.begin_write().await?;
    let products: HashMap<String, i64> = sqlx::query_as::<_, (String, i64)>("SELECT product_key, id FROM products")
        .fetch_all(&mut *transaction)
        .await?
        .into_iter()
        .collect();
    let prices: HashMap<i64, i64> =
        sqlx::query_as::<_, (i64, i64)>("SELECT product_id, price_fen FROM quotes WHERE merchant_id = $1")
            .bind(merchant_id)
            .fetch_all(&mut *transaction)
            .await?
            .into_iter()
            .collect();
    let mut errors = Vec::new();
    let mut seen: HashMap<i64, i64> = HashMap::new();
    let mut changes = Vec::with_capacity(upload.lines.len());
    for raw in &upload.lines {
        let checked = parse_line(raw, merchant_id).and_then(|line| {
            let product_id =
                *products.get(&line.product_key).ok_or(CatalogueMessage::ImportLineProduct { line: line.line_no })?;
            if let Some(first) = seen.insert(product_id, line.line_no) {
                return Err(CatalogueMessage::ImportLineDuplicate { line: line.line_no, first });
            }
            Ok(PriceChange {
                merchant_id,
                product_id,
                old_price_fen: prices.get(&product_id).copied(),
                new_price_fen: line.price_fen,
                status: line.status,
            })
        });
        match checked {
            Ok(change) => changes.push(change),
            Err(message) => {
                if errors.len() < MAX_NAMED_LINES {
                    errors.push(FieldError::new(format!("line:{}", raw.line_no), message.into()));
                }
            }
        }
    }
    if !errors.is_empty() {
        // Nothing was written: the transaction ends unused. What the lines hold is beyond
        // the document's schema: 422.
        return Err(AppError::Unprocessable(errors));
    }
    let changed = changes.iter().filter(|change| change.old_price_fen != Some(change.new_price_fen)).count() as i64;
    history::apply_changes(&mut transaction, &changes, Source::Import, admin.user_id).await?;
    let detail = crate::i18n::audit::AuditDetail::QuotesImported {
        file_name: upload.file_name.to_string(),
        lines: i64::try_from(upload.lines.len()).unwrap_or(i64::MAX),
        changed,
    };
    audit::record_detail(
        &mut *transaction,
        Some(admin.user_id),
        audit::action::QUOTES_IMPORTED,
        &audit::target::merchant(merchant_id),
        &detail,
        &address.to_string(),
    )
    .await?;
    transaction.commit().await?;
    Ok(ApiOk(ImportOutcome { lines: upload.lines.len() as i64, changed }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yuan_amounts_are_read_exactly() {
        assert_eq!(parse_yuan("98.5"), Some(9_850));
        assert_eq!(parse_yuan("98.50"), Some(9_850));
        assert_eq!(parse_yuan("0.01"), Some(1));
        assert_eq!(parse_yuan(" 100 "), Some(10_000));
        for bad in ["", "0", "0.00", "-1", "1.234", "1e3", "1,5", ".5", "abc", "100000000.01"] {
            assert_eq!(parse_yuan(bad), None, "{bad}");
        }
    }

    #[test]
    fn only_a_real_title_row_is_skipped() {
        let cells = |cells: &[&str]| cells.iter().map(|cell| cell.to_string()).collect::<Vec<_>>();
        assert!(is_title(&cells(&["\u{feff}商户编号", "业务名称"])));
        assert!(is_title(&cells(&["product key", "price"])));
        // A first line that is a price already is read, not skipped.
        assert!(!is_title(&cells(&["MOBILE-DIRECT-10", "9.6"])));
        assert!(!is_title(&cells(&["10001", "话费直充"])));
    }

    #[test]
    fn lines_in_either_layout_are_read_and_bad_ones_named() {
        let raw =
            |line_no, cells: &[&str]| RawLine { line_no, cells: cells.iter().map(|cell| cell.to_string()).collect() };
        let exported = raw(2, &["10001", "话费直充", "name", "MOBILE-DIRECT-10", "9.85", "10.00", "下架", "x"]);
        let line = parse_line(&exported, 10001).unwrap();
        assert_eq!((line.product_key.as_str(), line.price_fen, line.status), ("MOBILE-DIRECT-10", 985, Some(0)));
        assert_eq!(parse_line(&exported, 10002).err(), Some(CatalogueMessage::ImportLineMerchant { line: 2 }));
        let short = parse_line(&raw(3, &["MOBILE-DIRECT-10", "9.9"]), 10001).unwrap();
        assert_eq!((short.price_fen, short.status), (990, None));
        assert_eq!(
            parse_line(&raw(4, &["MOBILE-DIRECT-10", "9.999"]), 1).err(),
            Some(CatalogueMessage::ImportLinePrice { line: 4 })
        );
        assert_eq!(
            parse_line(&raw(5, &["MOBILE-DIRECT-10"]), 1).err(),
            Some(CatalogueMessage::ImportLineIncomplete { line: 5 })
        );
        assert_eq!(
            parse_line(&raw(6, &["MOBILE-DIRECT-10", "9", "maybe"]), 1).err(),
            Some(CatalogueMessage::ImportLineStatus { line: 6 })
        );
    }
}
