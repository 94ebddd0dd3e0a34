//! Reports benchmark (issue 52 §3): a million orders' worth of report roll-up rows, then
//! the 30-day reports as the endpoints read them (`orders::reports::query::report`), timed.
//! Target: under 200 ms on both engines.
//!
//! The roll-up and its cubes are seeded as the server writes them (`ReportChanges`, a day of
//! orders per transaction; placing a million orders through the server takes an hour
//! here): 1,000,000 orders over 60 days, 50 merchants, 5 channels, 20 products (their
//! carrier follows the product), 31 provinces, drawn with realistic skew (a few merchants,
//! provinces and channels carry most orders), 85 % successes, 12 % failures, 1 % reversed,
//! the rest in flight; failed and in-flight orders have no channel (0), as in the server.
//!
//! usage: cargo run --release --example reports_bench [DATABASE_URL] [ORDERS]
//! (default a new SQLite file; a postgres:// URL names a server whose `bench_reports`
//! database is made afresh: `scripts/with-postgres.sh sh -c 'cargo run --release --example
//! reports_bench "$TEST_POSTGRES_URL"'`)

use backoffice::domain::beijing_day;
use backoffice::orders::report_rollup::{Amounts, CUBES, Cube, ReportChanges, ReportKey};
use backoffice::orders::reports::query::{Dimension, ReportQuery, report};
use backoffice::platform::db::{Database, now_millis};
use backoffice::platform::sql::StatementBatch;
use std::time::Instant;

const DAYS: i64 = 60;
const PROVINCES: [&str; 31] = [
    "广东",
    "江苏",
    "山东",
    "浙江",
    "河南",
    "四川",
    "湖北",
    "福建",
    "湖南",
    "上海",
    "安徽",
    "河北",
    "北京",
    "陕西",
    "江西",
    "重庆",
    "辽宁",
    "云南",
    "广西",
    "山西",
    "内蒙古",
    "贵州",
    "新疆",
    "天津",
    "黑龙江",
    "吉林",
    "甘肃",
    "海南",
    "宁夏",
    "青海",
    "西藏",
];

/// xorshift: the same data on every run.
struct Random(u64);

impl Random {
    fn unit(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }

    /// 0..n, the low ones far likelier (u^skew).
    fn skewed(&mut self, n: usize, skew: f64) -> usize {
        ((self.unit().powf(skew) * n as f64) as usize).min(n - 1)
    }
}

async fn database(url: Option<String>) -> anyhow::Result<(Database, String)> {
    let url = match url {
        Some(url) if url.starts_with("postgres") => {
            // Straight to the server: `Database::connect` would migrate the database named.
            sqlx::any::install_default_drivers();
            let admin = sqlx::AnyPool::connect(&url).await?;
            sqlx::query("DROP DATABASE IF EXISTS bench_reports").execute(&admin).await?;
            sqlx::query("CREATE DATABASE bench_reports").execute(&admin).await?;
            admin.close().await;
            let mut parsed = reqwest::Url::parse(&url)?;
            parsed.set_path("/bench_reports");
            parsed.to_string()
        }
        Some(url) => url,
        None => format!("sqlite://{}/bench-reports-{}.db", std::env::temp_dir().display(), std::process::id()),
    };
    Ok((Database::connect(&url).await?, url))
}

/// One day's changes, upserted in one transaction.
async fn write(db: &Database, changes: ReportChanges) -> anyhow::Result<()> {
    let mut batch = StatementBatch::default();
    changes.add_to(&mut batch);
    let mut transaction = db.writer().begin().await?;
    batch.execute(&mut transaction).await?;
    transaction.commit().await?;
    Ok(())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let url = std::env::args().nth(1);
    let orders: usize = std::env::args().nth(2).map(|n| n.parse()).transpose()?.unwrap_or(1_000_000);
    let (db, url) = database(url).await?;
    let engine = if url.starts_with("postgres") { "postgresql" } else { "sqlite" };
    let today = beijing_day(now_millis());
    let mut random = Random(0x9e37_79b9_7f4a_7c15);
    // Written as the server writes them (`ReportChanges`: the full roll-up and its cubes,
    // upserted), one transaction per day of orders.
    let started = Instant::now();
    let mut day_changes = ReportChanges::default();
    let mut current_day = None;
    for index in 0..orders {
        let day = today - DAYS + 1 + (index as i64 * DAYS / orders as i64);
        if current_day.is_some_and(|current| current != day) {
            write(&db, std::mem::take(&mut day_changes)).await?;
        }
        current_day = Some(day);
        let merchant = 10_001 + random.skewed(50, 2.5) as i64;
        let product = 1 + random.skewed(20, 1.5) as i64;
        let carrier = 1 + product % 3;
        let province = PROVINCES[random.skewed(31, 1.8)];
        let roll = random.unit();
        let (status, channel) = if roll < 0.85 {
            (2, 1 + random.skewed(5, 2.0) as i64)
        } else if roll < 0.97 {
            (3, 0)
        } else if roll < 0.98 {
            (5, 1 + random.skewed(5, 2.0) as i64)
        } else {
            (1, 0)
        };
        let face = [1_000, 2_000, 3_000, 5_000, 10_000][(product % 5) as usize];
        let amounts = Amounts { face_value_fen: face, price_fen: face * 99 / 100, cost_fen: face * 98 / 100 };
        let key = ReportKey {
            day,
            merchant_id: merchant,
            channel_id: channel,
            carrier,
            province: province.to_string(),
            product_id: product,
        };
        day_changes.add(key, amounts, status, 1);
    }
    write(&db, day_changes).await?;
    let analyze = if engine == "sqlite" { "ANALYZE" } else { "ANALYZE report_rollups, report_cubes" };
    sqlx::query(analyze).execute(db.writer()).await?;
    let writer = db.writer();
    let rollup_rows: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM report_rollups").fetch_one(writer).await?;
    let cube_rows: Vec<(i64, i64)> =
        sqlx::query_as("SELECT cube, COUNT(*) FROM report_cubes GROUP BY cube ORDER BY cube").fetch_all(writer).await?;
    let cube_rows: Vec<String> = cube_rows.iter().map(|(cube, rows)| format!("{cube}: {rows}")).collect();
    println!(
        "{engine}: {orders} orders over {DAYS} days as {rollup_rows} roll-up rows and cube rows {}, written in {:.1} s",
        cube_rows.join(", "),
        started.elapsed().as_secs_f64()
    );

    let last_30 = ReportQuery { first_day: today - 29, last_day: today, ..ReportQuery::default() };
    let cases: Vec<(&str, ReportQuery)> = vec![
        ("admin, by day", last_30.clone()),
        ("admin, by month", ReportQuery { month: true, ..last_30.clone() }),
        ("admin, by day × merchant", ReportQuery { group_by: vec![Dimension::Merchant], ..last_30.clone() }),
        ("admin, by day × channel", ReportQuery { group_by: vec![Dimension::Channel], ..last_30.clone() }),
        ("admin, by day × province", ReportQuery { group_by: vec![Dimension::Province], ..last_30.clone() }),
        (
            "admin, by month × product",
            ReportQuery { month: true, group_by: vec![Dimension::Product], ..last_30.clone() },
        ),
        (
            "admin, by day × channel × product",
            ReportQuery { group_by: vec![Dimension::Channel, Dimension::Product], ..last_30.clone() },
        ),
        (
            "admin, by day × merchant × channel",
            ReportQuery { group_by: vec![Dimension::Merchant, Dimension::Channel], ..last_30.clone() },
        ),
        (
            "admin, by day × channel × province",
            ReportQuery { group_by: vec![Dimension::Channel, Dimension::Province], ..last_30.clone() },
        ),
        (
            "admin, by day × province × product",
            ReportQuery { group_by: vec![Dimension::Province, Dimension::Product], ..last_30.clone() },
        ),
        (
            "admin, by day × merchant × province",
            ReportQuery { group_by: vec![Dimension::Merchant, Dimension::Province], ..last_30.clone() },
        ),
        (
            "admin, by month × merchant × province",
            ReportQuery { month: true, group_by: vec![Dimension::Merchant, Dimension::Province], ..last_30.clone() },
        ),
        ("admin, by day × every dimension", ReportQuery { group_by: Dimension::ALL.to_vec(), ..last_30.clone() }),
        (
            "biggest merchant, by day × product",
            ReportQuery { merchant_id: Some(10_001), group_by: vec![Dimension::Product], ..last_30.clone() },
        ),
        ("biggest merchant, by day", ReportQuery { merchant_id: Some(10_001), ..last_30.clone() }),
        (
            "small merchant, by day × product",
            ReportQuery { merchant_id: Some(10_040), group_by: vec![Dimension::Product], ..last_30.clone() },
        ),
    ];
    println!("{:<38} {:>9} {:>9} {:>9} {:>8}", "30-day report", "median", "p90", "max", "rows");
    for (name, query) in cases {
        // Once to warm the cache and the prepared statement, then timed.
        let answer = report(&db.pool, &query).await?;
        let mut times = Vec::new();
        for _ in 0..9 {
            let started = Instant::now();
            std::hint::black_box(report(&db.pool, &query).await?);
            times.push(started.elapsed().as_secs_f64() * 1000.0);
        }
        times.sort_by(f64::total_cmp);
        println!(
            "{name:<38} {:>7.1}ms {:>7.1}ms {:>7.1}ms {:>8}{}",
            times[4],
            times[7],
            times[8],
            answer.rows.len(),
            if answer.truncated { " (capped)" } else { "" }
        );
    }
    single_order_writes(&db, today).await?;
    Ok(())
}

/// What the cubes add to writing: the report rows of single orders, each in its own
/// transaction (the worst case; placing batches a merchant's orders), placed (pending, no
/// channel) then settled (a success at its channel), written once as the server writes them
/// (`ReportChanges`: the full roll-up and every cube) and once with no cube (the full
/// roll-up alone, the same way), alternated in blocks, on the loaded tables.
async fn single_order_writes(db: &Database, today: i64) -> anyhow::Result<()> {
    const BLOCK: i64 = 500;
    const ROUNDS: i64 = 4;
    let amounts = Amounts { face_value_fen: 5_000, price_fen: 4_950, cost_fen: 4_900 };
    let key = |index: i64, channel_id: i64| ReportKey {
        day: today,
        merchant_id: 10_001 + index % 50,
        channel_id,
        carrier: 1 + index % 3,
        province: PROVINCES[(index % 31) as usize].to_string(),
        product_id: 1 + index % 20,
    };
    // Every cube, one cube (what a statement costs beside its rows), none.
    let arms: [&[Cube]; 3] = [&CUBES, &CUBES[..1], &[]];
    let mut micros = [0.0; 3];
    for round in 0..ROUNDS {
        for (arm, cubes) in arms.iter().enumerate() {
            let started = Instant::now();
            for index in round * BLOCK..(round + 1) * BLOCK {
                let channel = 1 + index % 5;
                for step in [vec![(key(index, 0), 0, 1)], vec![(key(index, 0), 0, -1), (key(index, channel), 2, 1)]] {
                    let mut transaction = db.writer().begin().await?;
                    let mut changes = ReportChanges::default();
                    for (key, status, delta) in step {
                        changes.add(key, amounts, status, delta);
                    }
                    let mut batch = StatementBatch::default();
                    changes.add_to_with(&mut batch, cubes);
                    batch.execute(&mut transaction).await?;
                    transaction.commit().await?;
                }
            }
            micros[arm] += started.elapsed().as_secs_f64() * 1e6 / (BLOCK * ROUNDS) as f64;
        }
    }
    let [all, one, none] = micros;
    println!(
        "single orders' report writes (placed + settled: 2 transactions), per order: every cube {all:.0} µs, one \
         cube {one:.0} µs, the full roll-up alone {none:.0} µs (every cube / none {:.2}; {} orders each)",
        all / none,
        BLOCK * ROUNDS
    );
    Ok(())
}
