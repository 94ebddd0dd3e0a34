//! `serve --demo`: two simulated suppliers in-process, so a newcomer sees routing,
//! failover and margins at once: a cheap flaky one (tried first) and a dearer reliable
//! one (where the cheap one's definite failures go). The built-in sandbox stays, last.
//! A third, cheapest and tried before both, covers only Guangdong and Zhejiang, so the
//! routing preview (and the orders) show province routing at once. Each answers the
//! numbers of [`DEMO_PORTED_NUMBERS`] as ported (携号转网, code 13), so an order for one
//! shows the portability refusal and the administrators' ported-number page.

use super::{SimConfig, Simulator};
use crate::domain::Scope;
use crate::platform::crypto::Secrets;
use crate::platform::db::Database;
use crate::supply::setup::{ChannelSpec, supply_catalogue_in, upsert};
use std::time::Duration;

/// Beijing China Mobile numbers every demo supplier answers as moved to another carrier.
pub const DEMO_PORTED_NUMBERS: [&str; 6] =
    ["13910010001", "13910010002", "13910010003", "13910010004", "13910010005", "13910010006"];

struct DemoSupplier {
    code: &'static str,
    name: &'static str,
    permille: i64,
    priority: i64,
    /// The provinces it covers; None: national.
    provinces: Option<Scope>,
    config: SimConfig,
}

/// Starts the simulators on 127.0.0.1 and points the demo channels at them (new
/// addresses and secrets at every start).
pub async fn start(db: &Database, secrets: &Secrets) -> anyhow::Result<Vec<tokio::task::JoinHandle<()>>> {
    let suppliers = [
        DemoSupplier {
            code: "sim-south",
            name: "模拟渠道C（广东浙江省网）",
            permille: 950,
            priority: 20,
            provinces: Scope::of([440_000, 330_000]),
            config: SimConfig {
                success_ratio: 0.95,
                delay: Duration::from_millis(600),
                price_permille: 950,
                ..SimConfig::default()
            },
        },
        DemoSupplier {
            code: "sim-cheap",
            name: "模拟渠道A（便宜不稳）",
            permille: 960,
            priority: 10,
            provinces: None,
            config: SimConfig {
                success_ratio: 0.7,
                unknown_ratio: 0.05,
                delay: Duration::from_millis(1_500),
                callback_delay: Duration::from_millis(300),
                duplicate_callbacks: true,
                // Now and then a success is reversed (冲正) a minute later.
                reversal_ratio: 0.02,
                reversal_delay: Duration::from_secs(60),
                price_permille: 960,
                ..SimConfig::default()
            },
        },
        DemoSupplier {
            code: "sim-reliable",
            name: "模拟渠道B（稳定较贵）",
            permille: 985,
            priority: 5,
            provinces: None,
            config: SimConfig {
                success_ratio: 0.98,
                delay: Duration::from_millis(800),
                price_permille: 985,
                ..SimConfig::default()
            },
        },
    ];
    let mut tasks = Vec::new();
    for supplier in suppliers {
        let secret = uuid::Uuid::new_v4().simple().to_string();
        let config = SimConfig {
            secret: secret.clone().into_bytes(),
            ported_accounts: DEMO_PORTED_NUMBERS.iter().map(ToString::to_string).collect(),
            ..supplier.config
        };
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let base_url = format!("http://{}", listener.local_addr()?);
        let simulator = Simulator::new(config);
        tasks.push(super::spawn(&simulator, listener));
        let spec = ChannelSpec {
            code: supplier.code,
            name: supplier.name,
            adapter: "http-json",
            base_url: &base_url,
            secret: Some(&secret),
            timeout_ms: 3_000,
            enabled: true,
            low_balance_fen: 0,
        };
        let id = upsert(&db.pool, secrets, &spec).await?;
        // National rows say so too: a restart sets the coverage as written here.
        let scope = supplier.provinces.unwrap_or_default();
        supply_catalogue_in(db, id, (supplier.permille, supplier.priority, 1), Some(&scope)).await?;
        tracing::info!(code = supplier.code, %base_url, "demo supplier simulator started");
    }
    Ok(tasks)
}
