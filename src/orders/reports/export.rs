//! The reports as files (CSV or xlsx, `http::export`): the rows the report call answers,
//! with the column titles in the caller's language.

use super::*;

fn ratio_cell(ratio: Option<f64>) -> Cell {
    ratio.map_or(Cell::Empty, |ratio| Cell::text(format!("{:.2}%", ratio * 100.0)))
}

/// The file of the rows as they were read; the totals are the JSON call's.
fn file(rows: Vec<Vec<Cell>>) -> PageFetcher {
    let mut rows = Some(rows);
    Box::new(move |_cursor| {
        let page = rows.take().unwrap_or_default();
        Box::pin(async move { Ok((page, None)) })
    })
}

/// Download the profit report as CSV or xlsx: the same choices as the JSON call, one line
/// per row, only the columns of the dimensions asked.
#[utoipa::path(get, path = "/adminapi/admin/report/profit/export", tag = "reports", params(ProfitRequest, ExportParams),
    responses((status = 200, description = "the file (text/csv or xlsx)", content(("text/csv"), ("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"))),
        (status = 400, description = "40000: a field, the format or sort is not of the documented form"),
        (status = 403, description = "40300: not an administrator"),
        (status = 422, description = "40000: no such day, `end` before `start`, or more than 366 days")),
    security(("token" = [])))]
pub async fn profit_export(
    State(state): State<AppState>,
    _admin: AdminUser,
    headers: HeaderMap,
    QueryParams(request): QueryParams<ProfitRequest>,
    QueryParams(params): QueryParams<ExportParams>,
) -> Result<Response, AppError> {
    let locale = Locale::from_headers(&headers);
    let query = request.parse()?;
    let format = params.format()?;
    let report = query::report(&state.db.pool, &query).await?;
    let labels = crate::i18n::files::PROFIT_REPORT_COLUMNS.get(locale);
    // The columns: the period, those of the dimensions asked, then the figures.
    let has = |dimension| query.group_by.contains(&dimension);
    let shown: Vec<usize> = (0..labels.len())
        .filter(|index| match index {
            1 | 2 => has(Dimension::Merchant),
            3 => has(Dimension::Channel),
            4 => has(Dimension::Carrier),
            5 => has(Dimension::Province),
            6 | 7 => has(Dimension::Product),
            _ => true,
        })
        .collect();
    let rows = report
        .rows
        .iter()
        .map(|row| {
            let cells = profit_cells(row, locale);
            shown.iter().map(|index| cells[*index].clone()).collect()
        })
        .collect();
    let header: Vec<&str> = shown.iter().map(|index| labels[*index]).collect();
    let name = format!("profit-{}-{}", request.start.trim(), request.end.trim());
    respond(format, &name, titles(&header), file(rows)).await
}

fn profit_cells(row: &ReportRow, locale: Locale) -> [Cell; 16] {
    let carrier =
        row.carrier.and_then(Carrier::from_code).map(|carrier| crate::i18n::files::carrier_name(carrier, locale));
    let unknown = crate::i18n::files::PROVINCE_UNKNOWN.get(locale)[0];
    let province = match locale {
        Locale::ZhCn => row.province.as_deref(),
        Locale::EnUs => row.province_en.as_deref(),
    }
    .map(|name| if name.is_empty() { unknown } else { name });
    [
        Cell::text(&row.period),
        row.merchant_id.map_or(Cell::Empty, Cell::Int),
        Cell::optional_text(row.merchant_name.clone()),
        Cell::optional_text(row.channel_name.clone()),
        Cell::optional_text(carrier),
        Cell::optional_text(province),
        row.product_key.clone().map_or(Cell::Empty, Cell::id),
        Cell::optional_text(row.product_name.clone()),
        Cell::Int(row.orders),
        Cell::Int(row.successes),
        ratio_cell(row.success_ratio),
        Cell::Money(row.face_value_fen),
        Cell::Money(row.sales_fen),
        Cell::Money(row.cost_fen),
        Cell::Money(row.profit_fen),
        Cell::Int(row.failures),
    ]
}

/// Download the sales report as CSV or xlsx: the same choices as the JSON call.
#[utoipa::path(get, path = "/adminapi/report/sales/export", tag = "reports", params(SalesRequest, ExportParams),
    responses((status = 200, description = "the file (text/csv or xlsx)", content(("text/csv"), ("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"))),
        (status = 400, description = "40000: a field, the format or sort is not of the documented form"),
        (status = 403, description = "40300: another merchant's mid, or a role without report exports"),
        (status = 422, description = "40000: no such day, `end` before `start`, or more than 366 days")),
    security(("token" = [])))]
pub async fn sales_export(
    State(state): State<AppState>,
    caller: CurrentUser,
    headers: HeaderMap,
    QueryParams(request): QueryParams<SalesRequest>,
    QueryParams(params): QueryParams<ExportParams>,
) -> Result<Response, AppError> {
    let locale = Locale::from_headers(&headers);
    let query = request.parse(&caller)?;
    let format = params.format()?;
    let report: SalesReport = query::report(&state.db.pool, &query).await?.into();
    let by_product = query.group_by.contains(&Dimension::Product);
    let labels = crate::i18n::files::SALES_REPORT_COLUMNS.get(locale);
    let shown: Vec<usize> = (0..labels.len()).filter(|index| by_product || !matches!(index, 1 | 2)).collect();
    let rows = report
        .rows
        .iter()
        .map(|row| {
            let cells = [
                Cell::text(&row.period),
                row.product_key.clone().map_or(Cell::Empty, Cell::id),
                Cell::optional_text(row.product_name.clone()),
                Cell::Int(row.orders),
                Cell::Int(row.successes),
                Cell::Int(row.failures),
                Cell::Int(row.reversals),
                Cell::Int(row.in_flight),
                ratio_cell(row.success_ratio),
                Cell::Money(row.face_value_fen),
                Cell::Money(row.spend_fen),
            ];
            shown.iter().map(|index| cells[*index].clone()).collect()
        })
        .collect();
    let header: Vec<&str> = shown.iter().map(|index| labels[*index]).collect();
    let name = format!("sales-{}-{}", request.start.trim(), request.end.trim());
    respond(format, &name, titles(&header), file(rows)).await
}
