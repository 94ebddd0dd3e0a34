//! `POST /adminapi/order/card/export`: the card numbers and secrets of many card-secret
//! orders at once, as an xlsx that opens only with a password the merchant gives
//! (`office_crypt`). The password arrives in the body only and is used once: never
//! stored, logged or audited. Like the one-order reveal, only the owning merchant's users
//! may; a user with two-factor on confirms with a code; each export is audited and told to
//! the merchant's other users, in the transaction that spends the code.

use super::query::OrderFilter;
use crate::domain::beijing_time;
use crate::http::error::AppError;
use crate::http::export::{Format, excel_safe, file_response};
use crate::http::extract::{ClientAddress, JsonBody};
use crate::i18n::files::CARD_EXPORT_COLUMNS;
use crate::i18n::notices::Notice;
use crate::i18n::{Locale, Message, TradeMessage};
use crate::identity::session::{CurrentUser, Role};
use crate::identity::two_factor::store;
use crate::identity::two_factor::verification::{CodeCheck, CodeTarget};
use crate::identity::user_centre::inbox::{MessageKind, Notification, notify};
use crate::platform::audit;
use crate::platform::db::now_millis;
use crate::platform::sql::{Bind, bind_all};
use crate::platform::state::AppState;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use serde::Deserialize;
use serde_json::Value;
use sqlx::Row;
use utoipa::ToSchema;

/// Orders one export holds at most.
pub const MAX_CARD_EXPORT: usize = 10_000;

#[derive(Debug, Deserialize, ToSchema)]
pub struct CardExportRequest {
    /// The chosen orders (ids from the card-order list), at most 10,000. Omit to export by
    /// `filter`. An id that is not one of the caller's merchant's orders refuses the call.
    #[schema(max_items = 10000)]
    pub order_ids: Option<Vec<i64>>,
    /// Without `order_ids`: the card-order list's filters (`kind` is always `card`); every
    /// matching order with a delivered card, at most 10,000.
    pub filter: Option<OrderFilter>,
    /// Opens the file: 8 to 64 characters with letters and digits. Never stored.
    #[schema(value_type = String, required = true, min_length = 8, max_length = 64, pattern = r"^[^\x00-\x1f\x7f-\x9f]*$")]
    pub password: Option<String>,
    /// The two-factor code (authenticator or backup), required when two-factor is on.
    #[serde(default)]
    #[schema(value_type = Option<String>, example = "123456")]
    pub code: Option<Value>,
}

/// Which orders, as the audit trail tells it.
enum Chosen {
    Orders(Vec<i64>),
    Filter(Box<OrderFilter>),
}

/// One exported order.
struct CardRow {
    order_no: String,
    merchant_order_id: String,
    product_name: String,
    face_value_fen: i64,
    account: String,
    card_no: String,
    card_secret: String,
    delivered_at: Option<i64>,
}

/// The file's password: 8 to 64 characters with at least one letter and one digit.
pub fn password_is_strong(password: &str) -> bool {
    password_fits(password) && password_mixes(password)
}

/// What the document's schema states: the length, and no control characters.
fn password_fits(password: &str) -> bool {
    (8..=64).contains(&password.chars().count()) && !password.chars().any(char::is_control)
}

/// What it cannot: letters and digits both.
fn password_mixes(password: &str) -> bool {
    password.chars().any(char::is_alphabetic) && password.chars().any(|c| c.is_ascii_digit())
}

/// Export the card numbers and secrets of the chosen card-secret orders (or of every order
/// matching the card list's filter) as an xlsx encrypted with `password` (ECMA-376 Agile:
/// AES-256, SHA-512); Excel and WPS ask for the password when opening it. Only the owning
/// merchant's users; orders without a delivered card are left out.
#[utoipa::path(post, path = "/adminapi/order/card/export", tag = "order", request_body = CardExportRequest,
    responses((status = 200, description = "the encrypted xlsx (an OLE compound file)", content(("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"))),
        (status = 400, description = "40000: a password of the wrong length (`order.card_export.password_weak`), more than 10,000 orders, or a filter is invalid"),
        (status = 401, description = "40110: two-factor is on and the code is missing, wrong or used"),
        (status = 403, description = "40300: an administrator, or an order of another merchant"),
        (status = 409, description = "40900: none of the chosen orders has a delivered card (`order.card_export.nothing`)"),
        (status = 422, description = "40000: a password without both letters and digits (`order.card_export.password_weak`), or no orders chosen (`order.card_export.none_chosen`)"),
        (status = 429, description = "42900: too many wrong codes; `data.retry_after_seconds`")),
    security(("token" = [])))]
pub async fn export_cards(
    State(state): State<AppState>,
    caller: CurrentUser,
    headers: HeaderMap,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<CardExportRequest>,
) -> Result<Response, AppError> {
    let merchant_id = match (caller.role, caller.merchant_id) {
        (Role::User, Some(merchant_id)) => merchant_id,
        _ => return Err(AppError::PermissionDenied),
    };
    let password = request.password.unwrap_or_default();
    if !password_fits(&password) {
        return Err(AppError::field("password", TradeMessage::CardExportPasswordWeak));
    }
    if !password_mixes(&password) {
        return Err(AppError::unprocessable("password", TradeMessage::CardExportPasswordWeak));
    }
    let chosen = match (request.order_ids, request.filter) {
        (Some(ids), _) if !ids.is_empty() => {
            let mut ids = ids;
            ids.sort_unstable();
            ids.dedup();
            Chosen::Orders(ids)
        }
        (None, Some(filter)) => Chosen::Filter(Box::new(filter)),
        _ => return Err(AppError::unprocessable("order_ids", TradeMessage::CardExportNoneChosen)),
    };
    let rows = match &chosen {
        Chosen::Orders(ids) => rows_of_ids(&state, merchant_id, ids).await?,
        Chosen::Filter(filter) => rows_of_filter(&state, &caller, filter).await?,
    };
    if rows.is_empty() {
        return Err(AppError::Conflict(TradeMessage::CardExportNothing.into()));
    }

    // The code is checked before the work and spent with the audit record after it.
    let address = address.to_string();
    let check = CodeCheck {
        state: &state,
        user_id: caller.user_id,
        client_address: &address,
        purpose: "card_export",
        wrong: Message::TwoFactorCodeWrong,
        sign_in_agent: None,
    };
    let accepted = match store::find_enabled(&state.db.pool, &state.secrets, caller.user_id).await? {
        Some(enabled) => Some(check.accept(&CodeTarget::from(&enabled), request.code.as_ref()).await?),
        None => None,
    };

    let locale = Locale::from_headers(&headers);
    let count = rows.len();
    let file = tokio::task::spawn_blocking(move || -> anyhow::Result<Vec<u8>> {
        crate::http::office_crypt::encrypt_package(&workbook(&rows, locale)?, &password)
    })
    .await
    .map_err(anyhow::Error::from)??;

    let mut transaction = state.db.pool.begin().await?;
    if let Some(accepted) = accepted {
        transaction = check.spend(transaction, accepted).await?;
    }
    let detail = crate::i18n::audit::AuditDetail::CardSecretsExported {
        count: i64::try_from(count).unwrap_or(i64::MAX),
        filter: match &chosen {
            Chosen::Orders(_) => None,
            Chosen::Filter(filter) => Some(filter_text(filter)),
        },
    };
    let target = audit::target::merchant(merchant_id);
    let action = audit::action::CARD_SECRETS_EXPORTED;
    audit::record_detail(&mut *transaction, Some(caller.user_id), action, &target, &detail, &address).await?;
    tell_the_merchant(&mut transaction, &caller, merchant_id, count, &address).await?;
    transaction.commit().await?;
    if accepted.is_some() {
        check.succeeded().await?;
    }
    let day = crate::domain::beijing_date(crate::domain::beijing_day(now_millis())).replace('-', "");
    Ok(file_response(file, Format::Xlsx, &format!("card-secrets-{day}")))
}

/// The filter as the audit trail shows it: the fields given, as JSON.
fn filter_text(filter: &OrderFilter) -> String {
    match serde_json::to_value(filter) {
        Ok(Value::Object(fields)) => {
            let given: serde_json::Map<String, Value> =
                fields.into_iter().filter(|(key, value)| !value.is_null() && key != "kind").collect();
            Value::Object(given).to_string()
        }
        _ => String::new(),
    }
}

/// A security notice to the merchant's other users; a merchant with one user tells that
/// user (a record of the export in their own inbox, like a password change).
async fn tell_the_merchant(
    transaction: &mut sqlx::Transaction<'static, sqlx::Any>,
    caller: &CurrentUser,
    merchant_id: i64,
    count: usize,
    address: &str,
) -> Result<(), AppError> {
    let mut users: Vec<i64> = sqlx::query_scalar("SELECT id FROM users WHERE merchant_id = $1 AND id <> $2")
        .bind(merchant_id)
        .bind(caller.user_id)
        .fetch_all(&mut **transaction)
        .await?;
    if users.is_empty() {
        users.push(caller.user_id);
    }
    let title = Notice::CardSecretsExported.stored();
    let sub_title = Notice::AccountSecurity.stored();
    let content = Notice::CardSecretsExportedDetail {
        count,
        by: caller.username.clone(),
        time: beijing_time(now_millis()),
        address: address.to_string(),
    }
    .stored();
    let notification = Notification {
        kind: MessageKind::Notice,
        title: &title,
        sub_title: &sub_title,
        content: &content,
        message_type: 2,
    };
    for user_id in users {
        notify(&mut **transaction, user_id, notification).await?;
    }
    Ok(())
}

const CARD_COLUMNS: &str = "id, order_no, merchant_order_id, product_name, face_value_fen, account, \
    system_order_id, card_no_enc, card_secret_enc, finished_at";

/// The chosen orders with a delivered card; an id that is not the merchant's is refused.
async fn rows_of_ids(state: &AppState, merchant_id: i64, ids: &[i64]) -> Result<Vec<CardRow>, AppError> {
    if ids.len() > MAX_CARD_EXPORT {
        return Err(AppError::field("order_ids", TradeMessage::CardExportTooMany { max: MAX_CARD_EXPORT }));
    }
    let placeholders: Vec<String> = (0..ids.len()).map(|index| format!("${}", index + 2)).collect();
    let mut binds = vec![Bind::Int(merchant_id)];
    binds.extend(ids.iter().map(|id| Bind::Int(*id)));
    let owned_sql =
        format!("SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND id IN ({})", placeholders.join(", "));
    let owned: i64 = bind_all(sqlx::query(sqlx::AssertSqlSafe(owned_sql)), binds.clone())
        .fetch_one(&state.db.pool)
        .await?
        .try_get(0)?;
    if usize::try_from(owned).unwrap_or_default() != ids.len() {
        return Err(AppError::PermissionDenied);
    }
    let sql = format!(
        "SELECT {CARD_COLUMNS} FROM orders WHERE merchant_id = $1 AND id IN ({}) \
         AND card_no_enc IS NOT NULL AND card_secret_enc IS NOT NULL ORDER BY created_at DESC, id DESC",
        placeholders.join(", ")
    );
    let rows = bind_all(sqlx::query(sqlx::AssertSqlSafe(sql)), binds).fetch_all(&state.db.pool).await?;
    rows.iter().map(|row| open_row(state, row)).collect()
}

/// Every card order matching the list's filter that has a delivered card, at most
/// [`MAX_CARD_EXPORT`] (one more is read to tell that there are more).
async fn rows_of_filter(
    state: &AppState,
    caller: &CurrentUser,
    filter: &OrderFilter,
) -> Result<Vec<CardRow>, AppError> {
    let filter = OrderFilter { kind: Some("card".to_string()), ..filter.clone() };
    let query = filter.resolve(caller, now_millis())?;
    let mut conditions = query.row_conditions(query.from, query.to);
    conditions.push("card_no_enc IS NOT NULL AND card_secret_enc IS NOT NULL", vec![]);
    let sql = format!(
        "SELECT {CARD_COLUMNS} FROM orders{} ORDER BY created_at DESC, id DESC LIMIT {}",
        conditions.where_clause(),
        MAX_CARD_EXPORT + 1
    );
    let rows = bind_all(sqlx::query(sqlx::AssertSqlSafe(sql)), conditions.binds).fetch_all(&state.db.pool).await?;
    if rows.len() > MAX_CARD_EXPORT {
        return Err(AppError::field("filter", TradeMessage::CardExportTooMany { max: MAX_CARD_EXPORT }));
    }
    rows.iter().map(|row| open_row(state, row)).collect()
}

/// Reads a row and opens its sealed card, as the one-order reveal does.
fn open_row(state: &AppState, row: &sqlx::any::AnyRow) -> Result<CardRow, AppError> {
    let context: String = row.try_get("system_order_id")?;
    let open = |column: &str, purpose: &str| -> Result<String, AppError> {
        let sealed: String = row.try_get(column)?;
        let plain = state.secrets.decrypt(&sealed, &format!("{purpose}:{context}"))?;
        Ok(String::from_utf8(plain).map_err(anyhow::Error::from)?)
    };
    Ok(CardRow {
        order_no: row.try_get("order_no")?,
        merchant_order_id: row.try_get("merchant_order_id")?,
        product_name: row.try_get("product_name")?,
        face_value_fen: row.try_get("face_value_fen")?,
        account: row.try_get("account")?,
        card_no: open("card_no_enc", "card_no")?,
        card_secret: open("card_secret_enc", "card_secret")?,
        delivered_at: row.try_get("finished_at")?,
    })
}

/// Days from Excel's 1900 epoch to 1970-01-01: a Unix time as an Excel date.
const EXCEL_UNIX_EPOCH: f64 = 25_569.0;

/// The plain workbook: a frozen title row in the reader's language, identifiers and
/// cards as text (never a number Excel rounds, never a formula), the face value in yuan
/// and the delivery as an Excel date in Beijing time.
fn workbook(rows: &[CardRow], locale: Locale) -> anyhow::Result<Vec<u8>> {
    use rust_xlsxwriter::{Format as CellFormat, Workbook};
    let mut workbook = Workbook::new();
    let sheet = workbook.add_worksheet();
    let bold = CellFormat::new().set_bold();
    let text = CellFormat::new().set_num_format("@");
    let yuan = CellFormat::new().set_num_format("¥#,##0.00");
    let date = CellFormat::new().set_num_format("yyyy-mm-dd hh:mm:ss");
    for (column, title) in CARD_EXPORT_COLUMNS.get(locale).iter().enumerate() {
        sheet.write_string_with_format(0, column as u16, *title, &bold)?;
    }
    for (column, width) in [26.0, 22.0, 20.0, 12.0, 16.0, 24.0, 30.0, 21.0].into_iter().enumerate() {
        sheet.set_column_width(column as u16, width)?;
    }
    sheet.set_freeze_panes(1, 0)?;
    for (index, row) in rows.iter().enumerate() {
        let line = u32::try_from(index + 1)?;
        let texts = [&row.order_no, &row.merchant_order_id, &row.product_name];
        for (column, value) in texts.into_iter().enumerate() {
            sheet.write_string_with_format(line, column as u16, excel_safe(value), &text)?;
        }
        // Exact for every amount below 2^53 fen; xlsx stores numbers as doubles.
        sheet.write_number_with_format(line, 3, row.face_value_fen as f64 / 100.0, &yuan)?;
        for (column, value) in [(4, &row.account), (5, &row.card_no), (6, &row.card_secret)] {
            if !value.is_empty() {
                sheet.write_string_with_format(line, column, excel_safe(value), &text)?;
            }
        }
        if let Some(millis) = row.delivered_at {
            let beijing = millis + 8 * 3_600_000;
            let days = beijing as f64 / crate::domain::DAY_MS as f64 + EXCEL_UNIX_EPOCH;
            sheet.write_number_with_format(line, 7, days, &date)?;
        }
    }
    Ok(workbook.save_to_buffer()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_password_needs_length_letters_and_digits() {
        for strong in ["abcdefg1", "卡密密码安全12", "Pass word 2026", &format!("a1{}", "x".repeat(62))] {
            assert!(password_is_strong(strong), "{strong}");
        }
        for weak in ["", "abc123", "abcdefgh", "12345678", "abcdefg1\n", &format!("a1{}", "x".repeat(63))] {
            assert!(!password_is_strong(weak), "{weak:?}");
        }
    }

    #[test]
    fn the_workbook_keeps_cards_as_text_and_neutralises_formulas() {
        let row = CardRow {
            order_no: "202611230000000000000001".into(),
            merchant_order_id: "=HYPERLINK(\"x\")".into(),
            product_name: "移动卡密 10 元".into(),
            face_value_fen: 1_000,
            account: String::new(),
            card_no: "0012345678901234567".into(),
            card_secret: "-PIN+1".into(),
            delivered_at: Some(0),
        };
        let bytes = workbook(&[row], Locale::ZhCn).unwrap();
        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
        let mut shared = String::new();
        std::io::Read::read_to_string(&mut archive.by_name("xl/sharedStrings.xml").unwrap(), &mut shared).unwrap();
        for expected in ["卡密", "0012345678901234567", "'-PIN+1", "'=HYPERLINK", "202611230000000000000001"] {
            assert!(shared.contains(expected), "{expected}: {shared}");
        }
        let mut sheet = String::new();
        std::io::Read::read_to_string(&mut archive.by_name("xl/worksheets/sheet1.xml").unwrap(), &mut sheet).unwrap();
        assert!(sheet.contains("state=\"frozen\""), "{sheet}");
        // 1970-01-01 08:00 Beijing time.
        assert!(sheet.contains("<v>25569.333333333332</v>") || sheet.contains("<v>25569.33333333333</v>"), "{sheet}");
    }
}
