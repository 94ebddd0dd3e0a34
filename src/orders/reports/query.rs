//! The reports' one query, over the report roll-up (migration 0043) or the smallest of its
//! cubes (0045) that holds what is asked, never over orders: the day rows of a range, summed
//! by period (day, or month folded from days at query time) and the dimensions asked for,
//! with the names of what they refer to.

use crate::domain::{beijing_date, beijing_day_start};
use crate::orders::report_rollup::CUBES;
use crate::platform::sql::{Bind, bind_all};
use serde::Serialize;
use sqlx::{AnyPool, Row};
use std::collections::HashMap;
use utoipa::ToSchema;

/// Rows a report answers at most (a breakdown by every dimension over a year can be
/// large); `truncated` says when there were more.
pub const MAX_ROWS: usize = 10_000;

/// What a report may be broken down by, besides its period: the roll-up's key columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Dimension {
    Merchant,
    Channel,
    Carrier,
    Province,
    Product,
}

impl Dimension {
    pub const ALL: [Dimension; 5] =
        [Dimension::Merchant, Dimension::Channel, Dimension::Carrier, Dimension::Province, Dimension::Product];
    pub const NAMES: &'static str = "merchant, channel, carrier, province, product";

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|dimension| dimension.name() == text)
    }

    pub fn name(self) -> &'static str {
        match self {
            Dimension::Merchant => "merchant",
            Dimension::Channel => "channel",
            Dimension::Carrier => "carrier",
            Dimension::Province => "province",
            Dimension::Product => "product",
        }
    }

    fn column(self) -> &'static str {
        match self {
            Dimension::Merchant => "merchant_id",
            Dimension::Channel => "channel_id",
            Dimension::Carrier => "carrier",
            Dimension::Province => "province",
            Dimension::Product => "product_id",
        }
    }
}

/// Days or months.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grain {
    Day,
    Month,
}

/// What to read: Beijing days `first..=last`, the grain, the breakdown and the filters.
#[derive(Debug, Clone, Default)]
pub struct ReportQuery {
    pub first_day: i64,
    pub last_day: i64,
    pub month: bool,
    /// Sorted, without repeats.
    pub group_by: Vec<Dimension>,
    pub merchant_id: Option<i64>,
    pub channel_id: Option<i64>,
    pub carrier: Option<i64>,
    /// The province as stored on orders (its Chinese name).
    pub province: Option<String>,
    pub product_id: Option<i64>,
}

/// One row of a report: its period and dimensions (null when not broken down by), and
/// the sums. Face value, sales and cost are of the successful orders only.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct ReportRow {
    /// The day `YYYY-MM-DD`, or the month `YYYY-MM`; "" in the totals.
    pub period: String,
    pub merchant_id: Option<i64>,
    pub merchant_name: Option<String>,
    /// 0: no channel fulfilled these orders (in flight, failed, or a person marked them).
    pub channel_id: Option<i64>,
    pub channel_name: Option<String>,
    /// 1 China Mobile, 2 China Unicom, 3 China Telecom.
    pub carrier: Option<i64>,
    /// GB/T 2260 code; null when not broken down by province or the number's was unknown.
    pub province_code: Option<u32>,
    /// The province's name (广东) and its English name; "" for numbers of no known province.
    pub province: Option<String>,
    pub province_en: Option<String>,
    pub product_id: Option<i64>,
    pub product_key: Option<String>,
    pub product_name: Option<String>,
    /// Every order placed.
    pub orders: i64,
    pub successes: i64,
    pub failures: i64,
    /// Successes reversed afterwards (冲正).
    pub reversals: i64,
    /// Orders not finished yet: pending, processing or in manual review.
    pub in_flight: i64,
    /// successes / (successes + failures + reversals); null when none finished.
    pub success_ratio: Option<f64>,
    pub face_value_fen: i64,
    /// What the merchants paid (their price) for the successful orders.
    pub sales_fen: i64,
    /// What the channels charged for them.
    pub cost_fen: i64,
    /// sales_fen − cost_fen.
    pub profit_fen: i64,
}

impl ReportRow {
    fn add(&mut self, other: &ReportRow) {
        self.orders += other.orders;
        self.successes += other.successes;
        self.failures += other.failures;
        self.reversals += other.reversals;
        self.face_value_fen += other.face_value_fen;
        self.sales_fen += other.sales_fen;
        self.cost_fen += other.cost_fen;
        self.finish();
    }

    /// The figures derived from the sums.
    fn finish(&mut self) {
        let finished = self.successes + self.failures + self.reversals;
        self.in_flight = self.orders - finished;
        self.profit_fen = self.sales_fen - self.cost_fen;
        // Four decimals: a ratio for people, not money.
        self.success_ratio =
            (finished > 0).then(|| (self.successes as f64 * 10_000.0 / finished as f64).round() / 10_000.0);
    }
}

/// A report's rows (by period, then the dimensions in order) and their totals.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Report {
    pub rows: Vec<ReportRow>,
    /// The sums over every row of the range (also those past `MAX_ROWS`).
    pub totals: ReportRow,
    /// More rows matched than the report holds (10,000): narrow the range or breakdown.
    pub truncated: bool,
}

/// The first day of each month that starts after `first` up to `last`: the CASE that
/// folds days into months, written from integers the server computed.
fn month_starts(first: i64, last: i64) -> Vec<i64> {
    let mut starts = Vec::new();
    let mut day = first;
    while day <= last {
        let date = beijing_date(day);
        let (year, month) = (date[..4].parse::<i32>().unwrap_or(1970), date[5..7].parse::<u8>().unwrap_or(1));
        let (year, month) = if month == 12 { (year + 1, 1) } else { (year, month + 1) };
        let next = time::Month::try_from(month)
            .ok()
            .and_then(|month| time::Date::from_calendar_date(year, month, 1).ok())
            .map_or(last + 1, |date| i64::from(date.to_julian_day()) - 2_440_588);
        if next <= last {
            starts.push(next);
        }
        day = next;
    }
    starts
}

fn period_sql(query: &ReportQuery) -> String {
    if !query.month {
        return "day".to_string();
    }
    let starts = month_starts(query.first_day, query.last_day);
    if starts.is_empty() {
        return format!("CAST({} AS BIGINT)", query.first_day);
    }
    // Cast: PostgreSQL reads the literals as int4.
    let mut sql = String::from("CAST(CASE");
    let mut current = query.first_day;
    for start in starts {
        sql.push_str(&format!(" WHEN day < {start} THEN {current}"));
        current = start;
    }
    sql.push_str(&format!(" ELSE {current} END AS BIGINT)"));
    sql
}

/// Where a report reads its rows: the smallest cube holding every dimension the query
/// breaks down or filters by (its number inlined, which the merchant cubes' partial indexes
/// need), else the full roll-up.
fn source(query: &ReportQuery, group_by: &[Dimension]) -> String {
    let uses = |dimension: Dimension, filtered: bool| filtered || group_by.contains(&dimension);
    let merchant = uses(Dimension::Merchant, query.merchant_id.is_some());
    let channel = uses(Dimension::Channel, query.channel_id.is_some());
    let province = uses(Dimension::Province, query.province.is_some());
    let carrier = uses(Dimension::Carrier, query.carrier.is_some());
    let product = uses(Dimension::Product, query.product_id.is_some());
    CUBES
        .iter()
        .find(|cube| {
            (!merchant || cube.merchant)
                && (!channel || cube.channel)
                && (!carrier || cube.carrier)
                && (!province || cube.province)
                && (!product || cube.product)
        })
        .map_or("report_rollups WHERE".to_string(), |cube| format!("report_cubes WHERE cube = {} AND", cube.id))
}

/// The sums of the query's rows grouped by its period and `group_by`, in key order, at most
/// `limit` when given: grouped in the primary key's order, a breakdown by every dimension stops
/// reading at the limit instead of summing every group of the range first.
fn grouped_sql(query: &ReportQuery, group_by: &[Dimension], limit: Option<usize>) -> (String, Vec<Bind>) {
    let mut conditions = vec!["day >= $1".to_string(), "day <= $2".to_string()];
    let mut binds = vec![Bind::Int(query.first_day), Bind::Int(query.last_day)];
    let filters = [
        ("merchant_id", query.merchant_id.map(Bind::Int)),
        ("channel_id", query.channel_id.map(Bind::Int)),
        ("carrier", query.carrier.map(Bind::Int)),
        ("province", query.province.clone().map(Bind::Text)),
        ("product_id", query.product_id.map(Bind::Int)),
    ];
    for (column, value) in filters {
        if let Some(value) = value {
            binds.push(value);
            conditions.push(format!("{column} = ${}", binds.len()));
        }
    }
    let select_dimensions: String = group_by.iter().map(|dimension| format!(", {}", dimension.column())).collect();
    let positions: Vec<String> = (1..=1 + group_by.len()).map(|n| n.to_string()).collect();
    let sql = format!(
        "SELECT {} AS period{select_dimensions}, CAST(SUM(orders) AS BIGINT), CAST(SUM(successes) AS BIGINT),
         CAST(SUM(failures) AS BIGINT), CAST(SUM(reversals) AS BIGINT), CAST(SUM(face_value_fen) AS BIGINT),
         CAST(SUM(sales_fen) AS BIGINT), CAST(SUM(cost_fen) AS BIGINT)
         FROM {} {} GROUP BY {} ORDER BY {}{}",
        period_sql(query),
        source(query, group_by),
        conditions.join(" AND "),
        positions.join(", "),
        positions.join(", "),
        limit.map_or(String::new(), |limit| format!(" LIMIT {limit}")),
    );
    (sql, binds)
}

/// Reads the report.
pub async fn report(pool: &AnyPool, query: &ReportQuery) -> Result<Report, sqlx::Error> {
    let (sql, binds) = grouped_sql(query, &query.group_by, Some(MAX_ROWS + 1));
    let rows = bind_all(sqlx::query(sqlx::AssertSqlSafe(sql)), binds).fetch_all(pool).await?;
    let names = Names::load(pool, &query.group_by).await?;
    let keys = 1 + query.group_by.len();
    let mut totals = ReportRow::default();
    let mut out = Vec::with_capacity(rows.len().min(MAX_ROWS));
    for row in rows.iter().take(MAX_ROWS) {
        let period: i64 = row.try_get(0)?;
        let mut report_row = ReportRow {
            period: if query.month { beijing_date(period)[..7].to_string() } else { beijing_date(period) },
            ..ReportRow::default()
        };
        for (index, dimension) in query.group_by.iter().enumerate() {
            names.fill(&mut report_row, *dimension, row, index + 1)?;
        }
        sums_into(&mut report_row, row, keys)?;
        totals.add(&report_row);
        out.push(report_row);
    }
    let truncated = rows.len() > MAX_ROWS;
    if truncated {
        // The rows past the limit were not read: the totals from the periods alone, which
        // the smallest cube for the filters answers.
        let (sql, binds) = grouped_sql(query, &[], None);
        totals = ReportRow::default();
        for row in bind_all(sqlx::query(sqlx::AssertSqlSafe(sql)), binds).fetch_all(pool).await? {
            let mut period_row = ReportRow::default();
            sums_into(&mut period_row, &row, 1)?;
            totals.add(&period_row);
        }
    }
    Ok(Report { truncated, rows: out, totals })
}

/// The seven sums of a grouped row, which follow its `keys` key columns.
fn sums_into(out: &mut ReportRow, row: &sqlx::any::AnyRow, keys: usize) -> Result<(), sqlx::Error> {
    let sums: Vec<i64> = (keys..keys + 7).map(|index| row.try_get(index)).collect::<Result<_, _>>()?;
    out.orders = sums[0];
    out.successes = sums[1];
    out.failures = sums[2];
    out.reversals = sums[3];
    out.face_value_fen = sums[4];
    out.sales_fen = sums[5];
    out.cost_fen = sums[6];
    out.finish();
    Ok(())
}

/// The names of the merchants, channels and products a report refers to: small tables,
/// read whole and only for the dimensions asked.
#[derive(Default)]
struct Names {
    merchants: HashMap<i64, String>,
    channels: HashMap<i64, String>,
    products: HashMap<i64, (String, String)>,
}

impl Names {
    async fn load(pool: &AnyPool, dimensions: &[Dimension]) -> Result<Self, sqlx::Error> {
        let mut names = Names::default();
        if dimensions.contains(&Dimension::Merchant) {
            names.merchants =
                sqlx::query_as("SELECT id, name FROM merchants").fetch_all(pool).await?.into_iter().collect();
        }
        if dimensions.contains(&Dimension::Channel) {
            names.channels =
                sqlx::query_as("SELECT id, name FROM channels").fetch_all(pool).await?.into_iter().collect();
        }
        if dimensions.contains(&Dimension::Product) {
            let rows: Vec<(i64, String, String)> =
                sqlx::query_as("SELECT id, product_key, name FROM products").fetch_all(pool).await?;
            names.products = rows.into_iter().map(|(id, key, name)| (id, (key, name))).collect();
        }
        Ok(names)
    }

    fn fill(
        &self,
        out: &mut ReportRow,
        dimension: Dimension,
        row: &sqlx::any::AnyRow,
        index: usize,
    ) -> Result<(), sqlx::Error> {
        use crate::i18n::{Locale, provinces};
        match dimension {
            Dimension::Merchant => {
                let id: i64 = row.try_get(index)?;
                out.merchant_name = Some(self.merchants.get(&id).cloned().unwrap_or_default());
                out.merchant_id = Some(id);
            }
            Dimension::Channel => {
                let id: i64 = row.try_get(index)?;
                out.channel_name = Some(self.channels.get(&id).cloned().unwrap_or_default());
                out.channel_id = Some(id);
            }
            Dimension::Carrier => out.carrier = Some(row.try_get(index)?),
            Dimension::Province => {
                let name: String = row.try_get(index)?;
                let code = provinces::province_code(&name);
                out.province_en = Some(
                    code.and_then(|code| provinces::province_name(code, Locale::EnUs)).unwrap_or_default().to_string(),
                );
                out.province_code = code;
                out.province = Some(name);
            }
            Dimension::Product => {
                let id: i64 = row.try_get(index)?;
                let (key, name) = self.products.get(&id).cloned().unwrap_or_default();
                (out.product_id, out.product_key, out.product_name) = (Some(id), Some(key), Some(name));
            }
        }
        Ok(())
    }
}

/// The first millisecond of the day after `last`: the range's end as a time.
pub fn end_of(last: i64) -> i64 {
    beijing_day_start(last + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(date: &str) -> i64 {
        let part = |range: std::ops::Range<usize>| date[range].parse::<u8>().unwrap();
        let month = time::Month::try_from(part(5..7)).unwrap();
        let date = time::Date::from_calendar_date(date[..4].parse().unwrap(), month, part(8..10)).unwrap();
        i64::from(date.to_julian_day()) - 2_440_588
    }

    #[test]
    fn months_are_folded_at_their_first_days() {
        let (first, last) = (day("2026-01-15"), day("2026-03-02"));
        assert_eq!(month_starts(first, last), [day("2026-02-01"), day("2026-03-01")]);
        let query = ReportQuery { first_day: first, last_day: last, month: true, ..ReportQuery::default() };
        assert_eq!(
            period_sql(&query),
            format!(
                "CAST(CASE WHEN day < {} THEN {first} WHEN day < {} THEN {} ELSE {} END AS BIGINT)",
                day("2026-02-01"),
                day("2026-03-01"),
                day("2026-02-01"),
                day("2026-03-01")
            )
        );
        assert_eq!(month_starts(day("2026-12-31"), day("2027-01-01")), [day("2027-01-01")]);
        assert!(month_starts(day("2026-05-01"), day("2026-05-31")).is_empty());
    }

    #[test]
    fn a_report_reads_the_smallest_cube_holding_what_it_uses() {
        use Dimension::*;
        let by = |group_by: &[Dimension], query: ReportQuery| source(&query, group_by);
        let cube = |id: i64| format!("report_cubes WHERE cube = {id} AND");
        let plain = ReportQuery::default();
        assert_eq!(by(&[], plain.clone()), cube(1));
        assert_eq!(by(&[Channel, Carrier, Product], plain.clone()), cube(1));
        assert_eq!(by(&[Channel, Province], plain.clone()), cube(2));
        assert_eq!(by(&[Province], plain.clone()), cube(2));
        assert_eq!(by(&[Province, Product], plain.clone()), cube(3));
        assert_eq!(by(&[Merchant, Channel, Carrier], plain.clone()), cube(4));
        assert_eq!(by(&[Merchant], plain.clone()), cube(4));
        let one_merchant = ReportQuery { merchant_id: Some(10_001), ..plain.clone() };
        assert_eq!(by(&[Product], one_merchant.clone()), cube(5));
        assert_eq!(by(&[Province], one_merchant.clone()), cube(6));
        // Merchant × province with the carrier, or three of merchant, channel, province and
        // product: only the full roll-up holds them.
        assert_eq!(by(&[Carrier, Province], one_merchant.clone()), "report_rollups WHERE");
        assert_eq!(by(&[Channel, Product], one_merchant), "report_rollups WHERE");
        let one_product = ReportQuery { product_id: Some(3), ..plain };
        assert_eq!(by(&[Channel, Province], one_product), "report_rollups WHERE");
        assert_eq!(by(&Dimension::ALL, ReportQuery::default()), "report_rollups WHERE");
    }

    #[test]
    fn derived_figures_follow_the_sums() {
        let mut row = ReportRow {
            orders: 10,
            successes: 6,
            failures: 1,
            reversals: 1,
            sales_fen: 900,
            cost_fen: 700,
            ..ReportRow::default()
        };
        row.finish();
        assert_eq!((row.in_flight, row.profit_fen, row.success_ratio), (2, 200, Some(0.75)));
        let mut none = ReportRow { orders: 3, ..ReportRow::default() };
        none.finish();
        assert_eq!(none.success_ratio, None);
    }
}
