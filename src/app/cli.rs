//! The command line: `backoffice serve`, `create-user`, `generate-orders` and `rotate-key`.

use crate::app::startup::{Application, shutdown_signal};
use crate::identity::session::Role;
use crate::identity::users::repository::{NewUser, create_user};
use crate::platform::config::{ChannelConfig, Config, NotifyConfig, SessionPolicy, ThrottlePolicy, WorkerConfig};
use crate::platform::db::Database;
use crate::platform::password::{NewPassword, PasswordHasher};
use anyhow::Context;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::io::BufRead;
use std::time::Duration;

#[derive(Debug, Parser)]
#[command(name = "backoffice", version, about = "Merchant and administrator console of a phone-credit top-up platform")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Log format.
    #[arg(long, global = true, value_enum, default_value_t = LogFormat::Text, env = "BACKOFFICE_LOG_FORMAT")]
    pub log_format: LogFormat,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the API and the console (under /web/). Boxed: its flags are many, and every
    /// other command would carry their size.
    Serve(Box<ServeArgs>),
    /// Create a user; the password is read from standard input (first line).
    CreateUser(CreateUserArgs),
    /// Generate order history for a merchant (benchmarks): seeds the demo accounts and
    /// catalogue first, funds the merchant, writes many orders per statement.
    GenerateOrders(GenerateOrdersArgs),
    /// Copy a SQLite database to FILE while the server runs (a consistent copy). For
    /// PostgreSQL it explains how to use pg_dump and exits with an error.
    Backup(BackupArgs),
    /// Re-seal every secret sealed at rest (two-factor, card secrets, certification
    /// numbers) under a new key in one transaction, then replace the key file. Stop the
    /// servers first. Backup codes and security answers (keyed hashes) are cleared.
    RotateKey(RotateKeyArgs),
    /// Print the OpenAPI document (the one served at /api-docs/openapi.json).
    Openapi,
    /// Run a simulated supplier speaking the http-json channel protocol (docs/channels.md).
    SupplierSim(SupplierSimArgs),
}

#[derive(Debug, Args)]
pub struct SupplierSimArgs {
    /// Address to listen on, e.g. 127.0.0.1:9100.
    #[arg(long)]
    pub listen: String,
    /// The shared signing secret (the channel's secret on our side).
    #[arg(long, env = "SUPPLIER_SIM_SECRET")]
    pub secret: String,
    /// Share of orders that succeed (the others fail definitely), 0.0 to 1.0.
    #[arg(long, default_value_t = 0.9)]
    pub success_ratio: f64,
    /// Share of answers lost (HTTP 502) although the request took effect, 0.0 to 1.0.
    #[arg(long, default_value_t = 0.0)]
    pub unknown_ratio: f64,
    /// Milliseconds from acceptance to the result.
    #[arg(long, default_value_t = 0)]
    pub delay_ms: u64,
    /// Milliseconds from the result to its callback.
    #[arg(long, default_value_t = 0)]
    pub callback_delay_ms: u64,
    /// Send every callback twice.
    #[arg(long)]
    pub duplicate_callbacks: bool,
    /// Share of card orders reported successful without their card, 0.0 to 1.0.
    #[arg(long, default_value_t = 0.0)]
    pub cardless_ratio: f64,
    /// Share of successes reversed afterwards (冲正), 0.0 to 1.0.
    #[arg(long, default_value_t = 0.0)]
    pub reversal_ratio: f64,
    /// Milliseconds from a reversed success to its reversal.
    #[arg(long, default_value_t = 5_000)]
    pub reversal_delay_ms: u64,
    /// The balance we start with at this supplier, fen.
    #[arg(long, default_value_t = 100_000_000)]
    pub balance_fen: i64,
    /// What the supplier charges, per mille of the face value.
    #[arg(long, default_value_t = 980)]
    pub price_permille: i64,
    /// A number this supplier answers as ported to another carrier (code 13, 携号转网);
    /// repeat for several.
    #[arg(long = "ported")]
    pub ported_accounts: Vec<String>,
}

pub async fn supplier_sim_command(args: SupplierSimArgs) -> anyhow::Result<()> {
    let config = crate::supply::simulator::SimConfig {
        secret: args.secret.into_bytes(),
        success_ratio: args.success_ratio.clamp(0.0, 1.0),
        unknown_ratio: args.unknown_ratio.clamp(0.0, 1.0),
        delay: Duration::from_millis(args.delay_ms),
        callback_delay: Duration::from_millis(args.callback_delay_ms),
        duplicate_callbacks: args.duplicate_callbacks,
        cardless_ratio: args.cardless_ratio.clamp(0.0, 1.0),
        reversal_ratio: args.reversal_ratio.clamp(0.0, 1.0),
        reversal_delay: Duration::from_millis(args.reversal_delay_ms),
        balance_fen: args.balance_fen,
        ported_accounts: args.ported_accounts,
        price_permille: args.price_permille.clamp(0, 10_000),
    };
    let listener = tokio::net::TcpListener::bind(&args.listen)
        .await
        .with_context(|| format!("cannot listen on {}", args.listen))?;
    tracing::info!(address = %listener.local_addr()?, "supplier simulator listening");
    let simulator = crate::supply::simulator::Simulator::new(config);
    axum::serve(listener, simulator.router()).with_graceful_shutdown(shutdown_signal()).await?;
    Ok(())
}

#[derive(Debug, Args)]
pub struct BackupArgs {
    /// The file to write; must not exist.
    #[arg(long)]
    pub to: std::path::PathBuf,
    #[command(flatten)]
    pub database: DatabaseArgs,
}

pub async fn backup_command(args: BackupArgs) -> anyhow::Result<()> {
    let report = crate::platform::backup::backup(&args.database.database_url, &args.to).await?;
    println!(
        "backed up to {} ({} bytes, {} orders); keep the key file safe as well, apart from the backups",
        args.to.display(),
        report.bytes,
        report.orders
    );
    Ok(())
}

#[derive(Debug, Args)]
pub struct RotateKeyArgs {
    #[command(flatten)]
    pub database: DatabaseArgs,
    /// The current key file (default as for serve); it holds the new key afterwards.
    #[arg(long, env = "BACKOFFICE_SECRET_KEY_FILE")]
    pub secret_key_file: Option<std::path::PathBuf>,
    /// Take the new key from this file (base64 of 32 bytes) instead of generating one.
    #[arg(long)]
    pub new_key_file: Option<std::path::PathBuf>,
}

#[derive(Debug, Args)]
pub struct GenerateOrdersArgs {
    /// The merchant (mid) the orders belong to; must exist (10001, the demo merchant, always does).
    #[arg(long, default_value_t = crate::app::demo::DEMO_MERCHANT_ID)]
    pub merchant: i64,
    /// How many orders.
    #[arg(long, default_value_t = 1_000_000)]
    pub count: usize,
    /// Spread over this many days up to now.
    #[arg(long, default_value_t = 30)]
    pub days: i64,
    /// Also write the timeline events (two per order; slower).
    #[arg(long)]
    pub events: bool,
    #[command(flatten)]
    pub database: DatabaseArgs,
    /// The key file that encrypts card secrets (default as for serve).
    #[arg(long, env = "BACKOFFICE_SECRET_KEY_FILE")]
    pub secret_key_file: Option<std::path::PathBuf>,
    /// Write into a database that holds more than demo data (other users, money moved by
    /// a person); refused without it.
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Args)]
pub struct DatabaseArgs {
    /// Database URL: sqlite://PATH or postgres://USER@HOST:PORT/NAME.
    #[arg(long = "database", env = "DATABASE_URL", default_value = "sqlite://data/backoffice.db")]
    pub database_url: String,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "BACKOFFICE_LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: String,
    /// Async worker threads. Default: one per core, less one for PostgreSQL on this machine
    /// (a loopback address or a Unix socket); see src/platform/runtime.rs.
    #[arg(long, env = "BACKOFFICE_WORKER_THREADS", value_parser = clap::value_parser!(u16).range(1..))]
    pub worker_threads: Option<u16>,
    #[command(flatten)]
    pub database: DatabaseArgs,
    /// Seed the demo accounts (admin/Admin123, merchant/Merchant123) if they are absent.
    #[arg(long)]
    pub demo: bool,
    /// Serve the template and demo pages (mock material) and their menu section;
    /// implied by --demo.
    #[arg(long, env = "BACKOFFICE_TEMPLATE_PAGES")]
    pub template_pages: bool,
    /// Minutes of inactivity after which a session expires.
    #[arg(long, env = "BACKOFFICE_SESSION_IDLE_MINUTES", default_value_t = 120, value_parser = clap::value_parser!(u64).range(1..))]
    pub session_idle_minutes: u64,
    /// Hours after sign-in at which a session expires however active it is.
    #[arg(long, env = "BACKOFFICE_SESSION_LIFETIME_HOURS", default_value_t = 12, value_parser = clap::value_parser!(u64).range(1..))]
    pub session_lifetime_hours: u64,
    /// Sessions one user may hold; signing in once more ends the oldest.
    #[arg(long, env = "BACKOFFICE_MAX_SESSIONS_PER_USER", default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_sessions_per_user: u32,
    /// Take the client address from X-Forwarded-For when the connection comes from one of
    /// --trusted-proxies: the right-most entry not added by one of them (never the
    /// client-written first one). Only behind a proxy that sets it; needs --trusted-proxies.
    #[arg(long, env = "BACKOFFICE_TRUST_FORWARDED_FOR")]
    pub trust_forwarded_for: bool,
    /// The proxies in front of the server, by address or CIDR, comma-separated
    /// (e.g. 10.0.0.0/8,192.0.2.7); X-Forwarded-For is read only from them.
    #[arg(long, env = "BACKOFFICE_TRUSTED_PROXIES")]
    pub trusted_proxies: Option<crate::platform::forwarded::TrustedProxies>,
    /// File with the key that encrypts secrets at rest; created (mode 0600) if missing.
    /// Default: secret.key beside the SQLite file; for PostgreSQL an absolute path that
    /// does not depend on the working directory:
    /// $XDG_DATA_HOME (or ~/.local/share)/backoffice/secret-<host>_<port>_<database>.key.
    #[arg(long, env = "BACKOFFICE_SECRET_KEY_FILE")]
    pub secret_key_file: Option<std::path::PathBuf>,
    /// A merchant's users get a message-center notice when an order takes the balance
    /// below this many yuan.
    #[arg(long, env = "BACKOFFICE_LOW_BALANCE_ALERT_YUAN", default_value_t = 1_000, value_parser = clap::value_parser!(u32))]
    pub low_balance_alert_yuan: u32,
    /// The least margin a merchant's price should keep over the cheapest channel's cost,
    /// in basis points of the face value (50 = 0.5 %); bulk repricing under it needs an
    /// explicit acknowledgement.
    #[arg(long, env = "BACKOFFICE_MIN_MARGIN_BP", default_value_t = 50, value_parser = clap::value_parser!(u16).range(0..=10_000))]
    pub min_margin_bp: u16,
    /// Orders generated for the demo merchant by --demo when it has none.
    #[arg(long, env = "BACKOFFICE_DEMO_ORDERS", default_value_t = crate::platform::config::DEMO_ORDERS)]
    pub demo_orders: usize,
    /// With --demo: do not start the two simulated suppliers; orders go to the sandbox
    /// channel alone (tests that need a channel that never answers).
    #[arg(long, env = "BACKOFFICE_NO_DEMO_SIMULATORS")]
    pub no_demo_simulators: bool,
    /// Sandbox channel: milliseconds until it answers an order.
    #[arg(long, env = "BACKOFFICE_SANDBOX_DELAY_MS", default_value_t = 2_000)]
    pub sandbox_delay_ms: u64,
    /// Sandbox channel: share of orders that succeed (0.0 to 1.0).
    #[arg(long, env = "BACKOFFICE_SANDBOX_SUCCESS_RATIO", default_value_t = 0.9)]
    pub sandbox_success_ratio: f64,
    /// Sandbox channel: share of successes it reverses (冲正) afterwards (0.0 to 1.0; the
    /// merchant gets `order.reversed`). Default 0, or 0.02 with --demo.
    #[arg(long, env = "BACKOFFICE_SANDBOX_REVERSAL_RATIO")]
    pub sandbox_reversal_ratio: Option<f64>,
    /// Sandbox channel: milliseconds from a reversed success to its reversal.
    #[arg(long, env = "BACKOFFICE_SANDBOX_REVERSAL_DELAY_MS", default_value_t = 60_000)]
    pub sandbox_reversal_delay_ms: u64,
    /// Seconds an order of a fast product (快充) may wait for the channel's answer before it
    /// goes to manual review.
    #[arg(long, env = "BACKOFFICE_ORDER_DEADLINE_SECONDS", default_value_t = 1_800, value_parser = clap::value_parser!(u64).range(1..))]
    pub order_deadline_seconds: u64,
    /// The same for a slow product (慢充).
    #[arg(long, env = "BACKOFFICE_SLOW_ORDER_DEADLINE_SECONDS", default_value_t = 259_200, value_parser = clap::value_parser!(u64).range(1..))]
    pub slow_order_deadline_seconds: u64,
    /// Let channel base URLs point at loopback and private addresses (simulators,
    /// suppliers inside the own network); refused by default.
    #[arg(long, env = "BACKOFFICE_ALLOW_PRIVATE_CHANNELS")]
    pub allow_private_channels: bool,
    /// Our base URL as suppliers reach it, for their result callbacks
    /// (default http://127.0.0.1:PORT).
    #[arg(long, env = "BACKOFFICE_CHANNEL_CALLBACK_BASE_URL")]
    pub channel_callback_base_url: Option<String>,
    /// Do not run the order worker in this process (orders then wait for another one).
    #[arg(long, env = "BACKOFFICE_NO_WORKER")]
    pub no_worker: bool,
    /// Milliseconds between the worker's looks for due orders.
    #[arg(long, env = "BACKOFFICE_WORKER_POLL_MS", default_value_t = 500, value_parser = clap::value_parser!(u64).range(1..))]
    pub worker_poll_ms: u64,
    /// Seconds a worker's claim on an order lasts (after a crash, orders wait this long).
    #[arg(long, env = "BACKOFFICE_WORKER_LEASE_SECONDS", default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..))]
    pub worker_lease_seconds: u64,
    /// Open-API calls per merchant per minute (bursts up to this many); 0: no limit.
    #[arg(long, env = "BACKOFFICE_API_RATE_LIMIT_PER_MINUTE", default_value_t = 6_000)]
    pub api_rate_limit_per_minute: u32,
    /// Seconds between notification attempts, comma-separated (then the notification is
    /// exhausted and the merchant told in the message center).
    #[arg(long, env = "BACKOFFICE_NOTIFY_SCHEDULE", default_value = crate::platform::config::DEFAULT_NOTIFY_SCHEDULE,
        value_parser = |text: &str| crate::platform::config::parse_notify_schedule(text).map(|_| text.to_string()))]
    pub notify_schedule: String,
    /// Let notify URLs point at loopback, private, link-local and other internal
    /// addresses (tests and on-premises set-ups); refused by default.
    #[arg(long, env = "BACKOFFICE_ALLOW_PRIVATE_NOTIFY")]
    pub allow_private_notify: bool,
    /// Seconds a sender's claim on a notification lasts: after a crash, its attempts in
    /// flight are made again (same webhook-id) once this has passed. Longer than an
    /// attempt's 10 s time limit, so a slow attempt is never sent twice while it runs.
    #[arg(long, env = "BACKOFFICE_NOTIFY_LEASE_SECONDS", default_value_t = 60, value_parser = clap::value_parser!(u64).range(11..=86_400))]
    pub notify_lease_seconds: u64,
    /// Do not send notifications from this process (they wait in the outbox for another).
    #[arg(long, env = "BACKOFFICE_NO_NOTIFY")]
    pub no_notify: bool,
    /// A bearer token that may read /metrics (for a scraper); administrators always may.
    /// At least 16 characters.
    #[arg(long, env = "BACKOFFICE_METRICS_TOKEN", value_parser = parse_metrics_token)]
    pub metrics_token: Option<String>,
    /// Seconds a client has to send a request head, from its first byte (for a new
    /// connection: from the connection); slower heads close the connection.
    #[arg(long, env = "BACKOFFICE_HEADER_READ_TIMEOUT_SECONDS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    pub header_read_timeout_seconds: u64,
    /// Seconds a request body may take to arrive whole, from the end of its head; a body
    /// still incomplete then is cut with its connection.
    #[arg(long, env = "BACKOFFICE_BODY_READ_TIMEOUT_SECONDS", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..))]
    pub body_read_timeout_seconds: u64,
    /// Seconds a kept-alive connection may wait for its next request before it is closed.
    #[arg(long, env = "BACKOFFICE_IDLE_TIMEOUT_SECONDS", default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..))]
    pub idle_timeout_seconds: u64,
    /// Connections one client address (IPv4, or an IPv6 /64) may hold at once; more are
    /// closed as they come. Behind a proxy every connection comes from the proxy: raise it
    /// there, or 0 for no cap.
    #[arg(long, env = "BACKOFFICE_MAX_CONNECTIONS_PER_ADDRESS", default_value_t = 256)]
    pub max_connections_per_address: usize,
    /// Re-read the live monitor's figures from the database every this many seconds. Servers
    /// on one PostgreSQL database share their figures as they change; this only catches up
    /// on events lost with a server that died. 0: only at start and when the listener reconnects.
    #[arg(long, env = "BACKOFFICE_MONITOR_REBUILD_SECONDS", default_value_t = 0)]
    pub monitor_rebuild_seconds: u64,
    /// The live monitor alerts when an order has waited in manual review this many
    /// minutes (since placed; 0: any order in review)...
    #[arg(long, env = "BACKOFFICE_REVIEW_ALERT_MINUTES", default_value_t = 60)]
    pub review_alert_minutes: u64,
    /// ...or when this many orders wait there.
    #[arg(long, env = "BACKOFFICE_REVIEW_ALERT_ORDERS", default_value_t = 20)]
    pub review_alert_orders: i64,
    /// The live monitor alerts when this many merchant notifications wait to be delivered.
    #[arg(long, env = "BACKOFFICE_NOTIFY_BACKLOG_ALERT", default_value_t = 100)]
    pub notify_backlog_alert: i64,
}

fn parse_metrics_token(text: &str) -> Result<String, String> {
    let token = text.trim();
    if token.chars().count() < 16 {
        return Err("the metrics token must have at least 16 characters".into());
    }
    Ok(token.to_string())
}

#[derive(Debug, Args)]
pub struct CreateUserArgs {
    #[arg(long)]
    pub username: String,
    #[arg(long, value_enum)]
    pub role: RoleArg,
    /// For role user: the merchant's name (defaults to the username).
    #[arg(long)]
    pub merchant_name: Option<String>,
    #[command(flatten)]
    pub database: DatabaseArgs,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum RoleArg {
    Admin,
    User,
}

/// The share of the sandbox's successes `--demo` reverses unless told otherwise.
pub const DEMO_SANDBOX_REVERSAL_RATIO: f64 = 0.02;

impl ServeArgs {
    pub fn into_config(self) -> Config {
        let mut config = Config::new(self.listen, self.database.database_url);
        config.seed_demo = self.demo;
        config.template_pages = self.template_pages || self.demo;
        config.trust_forwarded_for = self.trust_forwarded_for;
        config.trusted_proxies = self.trusted_proxies.unwrap_or_default();
        config.secret_key_path = self.secret_key_file;
        config.session = SessionPolicy {
            idle_timeout: Duration::from_secs(self.session_idle_minutes * 60),
            absolute_lifetime: Duration::from_secs(self.session_lifetime_hours * 3600),
            max_sessions_per_user: self.max_sessions_per_user,
        };
        config.throttle = ThrottlePolicy::default();
        config.demo_orders = self.demo_orders;
        config.low_balance_alert_fen = i64::from(self.low_balance_alert_yuan) * 100;
        config.min_margin_bp = i64::from(self.min_margin_bp);
        config.channel = ChannelConfig {
            sandbox_delay: Duration::from_millis(self.sandbox_delay_ms),
            sandbox_success_ratio: self.sandbox_success_ratio.clamp(0.0, 1.0),
            // The demo shows a reversal now and then, as its simulated suppliers do.
            sandbox_reversal_ratio: self
                .sandbox_reversal_ratio
                .unwrap_or(if self.demo { DEMO_SANDBOX_REVERSAL_RATIO } else { 0.0 })
                .clamp(0.0, 1.0),
            sandbox_reversal_delay: Duration::from_millis(self.sandbox_reversal_delay_ms),
            deadline: Duration::from_secs(self.order_deadline_seconds),
            slow_deadline: Duration::from_secs(self.slow_order_deadline_seconds),
            // The demo's simulated suppliers listen on 127.0.0.1.
            allow_private: self.allow_private_channels || self.demo,
            demo_simulators: self.demo && !self.no_demo_simulators,
            callback_base_url: self.channel_callback_base_url,
            ..ChannelConfig::default()
        };
        config.worker = WorkerConfig {
            enabled: !self.no_worker,
            poll_interval: Duration::from_millis(self.worker_poll_ms),
            lease: Duration::from_secs(self.worker_lease_seconds),
            ..WorkerConfig::default()
        };
        config.open_api.rate_limit_per_minute = self.api_rate_limit_per_minute;
        config.notify = NotifyConfig {
            enabled: !self.no_notify,
            // Checked by clap's value parser already.
            schedule: crate::platform::config::parse_notify_schedule(&self.notify_schedule).unwrap_or_default(),
            allow_private: self.allow_private_notify,
            lease: Duration::from_secs(self.notify_lease_seconds),
            ..NotifyConfig::default()
        };
        config.connections = crate::platform::connections::ConnectionLimits {
            header_read_timeout: Duration::from_secs(self.header_read_timeout_seconds),
            body_read_timeout: Duration::from_secs(self.body_read_timeout_seconds),
            idle_timeout: Duration::from_secs(self.idle_timeout_seconds),
            max_connections_per_address: self.max_connections_per_address,
        };
        config.metrics_token = self.metrics_token;
        config.monitor_rebuild =
            (self.monitor_rebuild_seconds > 0).then(|| Duration::from_secs(self.monitor_rebuild_seconds));
        config.monitor_alerts = crate::platform::alert_lines::AlertLines {
            review_oldest: Duration::from_secs(self.review_alert_minutes.saturating_mul(60)),
            review_count: self.review_alert_orders,
            notification_backlog: self.notify_backlog_alert,
            ..crate::platform::alert_lines::AlertLines::default()
        };
        config
    }
}

/// `--demo`: the open-API key the demo seed made on this start, on standard output only
/// (never the log), so a newcomer can sign calls at once (README, "Calling the open API").
/// A key made on an earlier start is not shown again, nor any key the merchant made.
fn print_demo_api_key(application: &Application) {
    let Some(key) = application.demo_key() else {
        println!("demo open-API key: made on an earlier start and not shown again (make a new one in the console)");
        return;
    };
    let whitelist = if key.whitelist.is_empty() { "none saved: every call refused" } else { key.whitelist.as_str() };
    println!(
        "demo open-API key (merchant {}, whitelist {whitelist}): X-Key-Id {}  secret {}\n  try: python3 docs/examples/merchant_api.py --base http://127.0.0.1:{} --key-id {} --secret {}",
        crate::app::demo::DEMO_MERCHANT_ID,
        key.key_id,
        key.secret,
        application.port(),
        key.key_id,
        key.secret,
    );
}

pub async fn serve(args: ServeArgs) -> anyhow::Result<()> {
    let config = args.into_config();
    let database_kind = crate::platform::db::DatabaseKind::from_url(&config.database_url)?;
    let application = Application::build(config).await?;
    let shutdown = shutdown_signal();
    if application.state().config.seed_demo {
        print_demo_api_key(&application);
    }
    let workers = tokio::runtime::Handle::current().metrics().num_workers();
    tracing::info!(port = application.port(), database = database_kind.name(), workers, "listening; console at /web/");
    application.run_until_stopped(shutdown).await
}

pub async fn create_user_command(args: CreateUserArgs) -> anyhow::Result<()> {
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line).context("cannot read the password from standard input")?;
    let password_text = line.trim_end_matches(['\r', '\n']);
    let password = NewPassword::parse(password_text)
        .map_err(|message| anyhow::anyhow!("{}", message.text(crate::i18n::Locale::EnUs)))?;
    let database = Database::connect(&args.database.database_url).await?;
    let role = match args.role {
        RoleArg::Admin => Role::Admin,
        RoleArg::User => Role::User,
    };
    let hasher = PasswordHasher::default();
    let (user_id, merchant_id) = create_user(
        &database,
        &hasher,
        NewUser {
            username: &args.username,
            password: &password,
            role,
            merchant_name: args.merchant_name.as_deref(),
            merchant_id: None,
            display_name: &args.username,
            recorded_as: Some(crate::i18n::audit::AuditDetail::CommandLine),
        },
    )
    .await?;
    match merchant_id {
        Some(mid) => println!("created user {} (id {user_id}) for merchant {mid}", args.username.trim()),
        None => println!("created administrator {} (id {user_id})", args.username.trim()),
    }
    Ok(())
}

pub async fn generate_orders_command(args: GenerateOrdersArgs) -> anyhow::Result<()> {
    let database = Database::connect(&args.database.database_url).await?;
    if !args.force && crate::app::demo::holds_non_demo_data(&database).await? {
        anyhow::bail!(
            "this database holds more than demo data (other users, or money moved by a person): \
             generate-orders would mix invented orders into it. Use a separate database, or pass --force."
        );
    }
    let mut config = Config::new("", args.database.database_url.clone());
    config.secret_key_path = args.secret_key_file;
    let secrets = crate::platform::key_check::open_key(&database, &config.resolved_secret_key_path()?).await?;
    let hasher = PasswordHasher::default();
    crate::app::demo::seed_accounts(&database, &hasher).await?;
    crate::app::demo::seed_catalogue(&database.pool).await?;
    crate::app::demo::seed_merchant(&database, args.merchant).await?;
    let started = std::time::Instant::now();
    let options = crate::orders::generate::GenerateOptions {
        merchant_id: args.merchant,
        count: args.count,
        days: args.days,
        in_flight_share: 0.0,
        events: args.events,
    };
    let written = crate::orders::generate::generate(&database, &secrets, &options).await?;
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "generated {written} orders for merchant {} in {seconds:.1} s ({:.0} orders/s)",
        args.merchant,
        written as f64 / seconds
    );
    database.close().await;
    Ok(())
}

pub async fn rotate_key_command(args: RotateKeyArgs) -> anyhow::Result<()> {
    let database = Database::connect(&args.database.database_url).await?;
    let mut config = Config::new("", args.database.database_url.clone());
    config.secret_key_path = args.secret_key_file;
    let key_path = config.resolved_secret_key_path()?;
    let rotation = crate::platform::key_rotation::rotate(&database, &key_path, args.new_key_file.as_deref()).await?;
    println!("re-sealed {} values under a new key; {} now holds it", rotation.resealed, key_path.display());
    let resealed = i64::try_from(rotation.resealed).unwrap_or(i64::MAX);
    let detail = crate::i18n::audit::AuditDetail::ServerKeyRotated { resealed };
    crate::platform::audit::record_detail(
        &database.pool,
        None,
        crate::platform::audit::action::SERVER_KEY_ROTATED,
        crate::platform::audit::target::SERVER,
        &detail,
        "",
    )
    .await?;
    for (what, rows) in rotation.cleared {
        println!("cleared {rows} {what} (keyed with the old key; users set them again)");
    }
    database.close().await;
    Ok(())
}
