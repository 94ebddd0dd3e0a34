//! Run-time settings of the server, with safe defaults. The command line (`app/cli.rs`)
//! fills them from flags and environment variables; tests build them directly.

use std::path::PathBuf;
use std::time::Duration;

#[derive(Debug, Clone)]
pub struct Config {
    /// Address to listen on, e.g. `127.0.0.1:8080`; port 0 picks a free port.
    pub listen: String,
    /// `sqlite://PATH` or `postgres://...`.
    pub database_url: String,
    /// Seed the demo accounts, catalogue and data if absent.
    pub seed_demo: bool,
    /// Serve the template and demo pages' calls and menu section (`--template-pages`,
    /// implied by `--demo`); off, they do not exist.
    pub template_pages: bool,
    /// Fill an empty segment table with the shipped default (330,000 rows) at start.
    pub default_segments: bool,
    /// Orders generated for the demo merchant when it has none (with `seed_demo`).
    pub demo_orders: usize,
    /// A merchant's users get a notice when an order takes the balance below this.
    pub low_balance_alert_fen: i64,
    /// The least margin a merchant's price should keep over the cheapest channel's cost,
    /// in basis points of the face value (50 = 0.5 %): a bulk rule setting prices under
    /// it is applied only when the administrator acknowledges them.
    pub min_margin_bp: i64,
    /// Take the client address from `X-Forwarded-For` when the TCP peer is one of
    /// `trusted_proxies`: the right-most entry not added by one of them. Only behind a
    /// proxy that sets it; refused at start without `trusted_proxies`.
    pub trust_forwarded_for: bool,
    /// The proxies in front of the server, by address or network; none by default.
    pub trusted_proxies: crate::platform::forwarded::TrustedProxies,
    /// File with the key that encrypts secrets at rest (created on first start).
    /// `None`: beside the SQLite file, or `data/secret.key` for PostgreSQL.
    pub secret_key_path: Option<PathBuf>,
    pub session: SessionPolicy,
    pub throttle: ThrottlePolicy,
    pub two_factor: TwoFactorPolicy,
    pub channel: ChannelConfig,
    pub worker: WorkerConfig,
    /// A bearer token that may read `/metrics` (scrapers); None: administrators only.
    pub metrics_token: Option<String>,
    /// Re-read the live monitor's figures from the database this often (several servers
    /// on one database); None: only at start.
    pub monitor_rebuild: Option<Duration>,
    /// Where the live monitor raises the review-queue and notification alerts.
    pub monitor_alerts: crate::platform::alert_lines::AlertLines,
    pub notify: NotifyConfig,
    pub open_api: OpenApiConfig,
    /// What one client may hold of the server's connections (timeouts, per-address cap).
    pub connections: crate::platform::connections::ConnectionLimits,
}

/// The merchant open API (`/openapi/v1`).
#[derive(Debug, Clone)]
pub struct OpenApiConfig {
    /// Calls per merchant per minute (a token bucket: this many at once, refilled
    /// evenly); 0 turns the limit off.
    pub rate_limit_per_minute: u32,
}

impl Default for OpenApiConfig {
    fn default() -> Self {
        Self { rate_limit_per_minute: 6_000 }
    }
}

/// The channel orders are handed to, and how long an order may wait for its answer.
#[derive(Debug, Clone)]
pub struct ChannelConfig {
    /// The sandbox answers this long after an order was submitted.
    pub sandbox_delay: Duration,
    /// Share of sandbox orders that succeed, 0.0 to 1.0.
    pub sandbox_success_ratio: f64,
    /// Share of the sandbox's successes it reverses (冲正) afterwards, 0.0 to 1.0: drawn at
    /// submission, reported `sandbox_reversal_delay` after the result was ready.
    pub sandbox_reversal_ratio: f64,
    pub sandbox_reversal_delay: Duration,
    /// An order of a fast product without an answer this long after it was placed goes to
    /// manual review (never to an automatic refund: the top-up may still have happened).
    pub deadline: Duration,
    /// The same for a slow product (慢充), whose supplier may take days.
    pub slow_deadline: Duration,
    /// Let channel base URLs point at loopback and private addresses (tests, simulators,
    /// suppliers inside the own network); refused by default, as for notify URLs.
    pub allow_private: bool,
    /// Our address as suppliers reach it, for result callbacks
    /// (`{base}/channel/callback/{code}`); unset: `http://127.0.0.1:{port}`.
    pub callback_base_url: Option<String>,
    /// Health: the last this many resolved attempts of a channel are judged ...
    pub health_window: i64,
    /// ... and a success ratio below this (with a full window) pauses it.
    pub health_min_success_ratio: f64,
    /// This many unknown answers in a row pause a channel too.
    pub health_unknown_streak: i64,
    /// How long a paused channel rests before its single probe order.
    pub pause_cooldown: Duration,
    /// How often balances are read from channels whose protocol tells them.
    pub balance_interval: Duration,
    /// `serve --demo`: run two simulated suppliers in-process and route to them.
    pub demo_simulators: bool,
}

/// How long an order may wait for its answer, by its product's speed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deadlines {
    pub fast: Duration,
    pub slow: Duration,
}

impl Deadlines {
    pub fn of(self, speed: crate::domain::Speed) -> Duration {
        match speed {
            crate::domain::Speed::Fast => self.fast,
            crate::domain::Speed::Slow => self.slow,
        }
    }

    /// In milliseconds, as orders store times.
    pub fn millis_of(self, speed: crate::domain::Speed) -> i64 {
        millis(self.of(speed))
    }
}

impl ChannelConfig {
    pub fn deadlines(&self) -> Deadlines {
        Deadlines { fast: self.deadline, slow: self.slow_deadline }
    }
}

impl Default for ChannelConfig {
    fn default() -> Self {
        Self {
            sandbox_delay: Duration::from_secs(2),
            sandbox_success_ratio: 0.9,
            sandbox_reversal_ratio: 0.0,
            sandbox_reversal_delay: Duration::from_secs(60),
            deadline: Duration::from_secs(1_800),
            slow_deadline: Duration::from_secs(72 * 3_600),
            allow_private: false,
            callback_base_url: None,
            health_window: 20,
            health_min_success_ratio: 0.2,
            health_unknown_streak: 5,
            pause_cooldown: Duration::from_secs(60),
            balance_interval: Duration::from_secs(60),
            demo_simulators: false,
        }
    }
}

/// The background worker that moves in-flight orders through the channel.
#[derive(Debug, Clone)]
pub struct WorkerConfig {
    /// Off: orders stay pending (tests that drive the life cycle themselves).
    pub enabled: bool,
    /// How often the worker looks for due orders, and how soon it asks again about an
    /// order the channel has not finished.
    pub poll_interval: Duration,
    /// How long a claim on an order lasts. A worker that dies leaves its orders claimed
    /// this long; then any worker re-drives them (asking the channel, never resubmitting).
    pub lease: Duration,
    /// Orders claimed at once.
    pub batch_size: i64,
}

impl Default for WorkerConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            poll_interval: Duration::from_millis(500),
            lease: Duration::from_secs(60),
            batch_size: 200,
        }
    }
}

/// The sender of order notifications (src/notify/).
#[derive(Debug, Clone)]
pub struct NotifyConfig {
    /// Off: notifications are written to the outbox but not sent by this process.
    pub enabled: bool,
    /// Delays between attempts: after attempt n fails, attempt n+1 waits `schedule[n-1]`
    /// (plus a little jitter); when the schedule runs out the notification is exhausted.
    pub schedule: Vec<Duration>,
    /// Send to loopback, private and other internal addresses too (tests, on-premises).
    pub allow_private: bool,
    /// How often the sender looks for due notifications.
    pub poll_interval: Duration,
    /// How long a claim lasts; longer than an attempt can take (`timeout`).
    pub lease: Duration,
    /// Notifications claimed at once, and sent at the same time.
    pub batch_size: i64,
    /// One attempt's time limit.
    pub timeout: Duration,
}

/// `15,15,30,180,...`: 24 h 4 min in all, the schedule Chinese payment platforms use.
pub const DEFAULT_NOTIFY_SCHEDULE: &str = "15,15,30,180,600,1200,1800,1800,1800,3600,10800,10800,10800,21600,21600";

/// Parses a comma-separated list of delays in seconds (`0` allowed, at most 50 entries).
pub fn parse_notify_schedule(text: &str) -> Result<Vec<Duration>, String> {
    let delays = text
        .split(',')
        .map(|part| part.trim().parse::<u64>().map(Duration::from_secs))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|_| format!("{text:?} is not a comma-separated list of seconds"))?;
    if delays.is_empty() || delays.len() > 50 {
        return Err("the schedule takes 1 to 50 delays".into());
    }
    Ok(delays)
}

impl Default for NotifyConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            schedule: parse_notify_schedule(DEFAULT_NOTIFY_SCHEDULE).expect("the default schedule parses"),
            allow_private: false,
            poll_interval: Duration::from_millis(200),
            lease: Duration::from_secs(60),
            batch_size: 200,
            timeout: Duration::from_secs(10),
        }
    }
}

/// A duration in milliseconds, as times are stored.
pub fn millis(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

#[derive(Debug, Clone)]
pub struct SessionPolicy {
    /// A session unused for this long has expired (code 50014).
    pub idle_timeout: Duration,
    /// A session older than this has expired however active it is.
    pub absolute_lifetime: Duration,
    /// Signing in once more than this revokes the oldest session (code 50012).
    pub max_sessions_per_user: u32,
}

impl Default for SessionPolicy {
    fn default() -> Self {
        Self {
            idle_timeout: Duration::from_secs(2 * 60 * 60),
            absolute_lifetime: Duration::from_secs(12 * 60 * 60),
            max_sessions_per_user: 10,
        }
    }
}

#[derive(Debug, Clone)]
pub struct ThrottlePolicy {
    /// Failed sign-ins for one account within `window` before it is locked.
    pub account_max_failures: u32,
    /// Failed sign-ins from one client address within `window` before it is locked.
    pub address_max_failures: u32,
    pub window: Duration,
    /// How long a locked account or address must wait.
    pub lockout: Duration,
    /// Wrong two-factor codes (authenticator and backup codes together) for one user
    /// within `window` before that user's codes are locked for `lockout`.
    pub two_factor_max_failures: u32,
    /// Wrong two-factor codes forgiven before the user must wait between attempts (a
    /// mistyped code or two is common); the wait doubles with each later failure, until
    /// `two_factor_max_failures` locks.
    pub two_factor_free_failures: u32,
    pub two_factor_backoff: Duration,
}

impl Default for ThrottlePolicy {
    fn default() -> Self {
        Self {
            account_max_failures: 5,
            address_max_failures: 30,
            window: Duration::from_secs(15 * 60),
            lockout: Duration::from_secs(15 * 60),
            two_factor_max_failures: 5,
            two_factor_free_failures: 2,
            two_factor_backoff: Duration::from_secs(5),
        }
    }
}

#[derive(Debug, Clone)]
pub struct TwoFactorPolicy {
    /// How long a `temp_key` from setup2FA may be used to enable two-factor.
    pub setup_lifetime: Duration,
    /// How long a `pending_token` from a sign-in may be used to give the code.
    pub pending_login_lifetime: Duration,
    /// How long an administrator's step-up (a fresh code for money actions) lasts for
    /// the session that gave it.
    pub step_up_lifetime: Duration,
}

impl Default for TwoFactorPolicy {
    fn default() -> Self {
        Self {
            setup_lifetime: Duration::from_secs(10 * 60),
            pending_login_lifetime: Duration::from_secs(5 * 60),
            step_up_lifetime: Duration::from_secs(5 * 60),
        }
    }
}

/// 0.5 % of the face value: the sandbox's 98 % cost under the default 98.5 % quotes.
pub const DEFAULT_MIN_MARGIN_BP: i64 = 50;

/// Demo orders generated by `--demo` by default (when the demo merchant has none).
pub const DEMO_ORDERS: usize = 3_000;

impl Config {
    pub fn new(listen: impl Into<String>, database_url: impl Into<String>) -> Self {
        Self {
            listen: listen.into(),
            database_url: database_url.into(),
            seed_demo: false,
            template_pages: false,
            default_segments: true,
            demo_orders: DEMO_ORDERS,
            low_balance_alert_fen: 100_000,
            min_margin_bp: DEFAULT_MIN_MARGIN_BP,
            trust_forwarded_for: false,
            trusted_proxies: crate::platform::forwarded::TrustedProxies::default(),
            secret_key_path: None,
            session: SessionPolicy::default(),
            throttle: ThrottlePolicy::default(),
            two_factor: TwoFactorPolicy::default(),
            channel: ChannelConfig::default(),
            worker: WorkerConfig::default(),
            open_api: OpenApiConfig::default(),
            notify: NotifyConfig::default(),
            metrics_token: None,
            monitor_rebuild: None,
            monitor_alerts: crate::platform::alert_lines::AlertLines::default(),
            connections: crate::platform::connections::ConnectionLimits::default(),
        }
    }
}

impl Config {
    /// Refuses settings that contradict each other or would open a hole, before anything
    /// starts.
    pub fn validate(&self) -> anyhow::Result<()> {
        if self.trust_forwarded_for && self.trusted_proxies.is_empty() {
            anyhow::bail!(
                "--trust-forwarded-for needs --trusted-proxies: the addresses or networks of the proxies in \
                 front of the server (e.g. --trusted-proxies 10.0.0.0/8,192.0.2.7). X-Forwarded-For is read only \
                 from them; otherwise any client could name its own address."
            );
        }
        Ok(())
    }

    /// Where the secret key lives: as configured, else next to the SQLite file, else (for
    /// PostgreSQL) `$XDG_DATA_HOME/backoffice/` or `~/.local/share/backoffice/`, named
    /// after the database: an absolute path, so a start from another working directory
    /// finds the same key.
    pub fn resolved_secret_key_path(&self) -> anyhow::Result<PathBuf> {
        if let Some(path) = &self.secret_key_path {
            return Ok(path.clone());
        }
        let sqlite_path = self
            .database_url
            .strip_prefix("sqlite://")
            .or_else(|| self.database_url.strip_prefix("sqlite:"))
            .map(|rest| rest.split('?').next().unwrap_or(rest));
        match sqlite_path.map(std::path::Path::new) {
            Some(path) => Ok(match path.parent() {
                Some(parent) if !parent.as_os_str().is_empty() => parent.join("secret.key"),
                _ => PathBuf::from("secret.key"),
            }),
            None => {
                let data_home = std::env::var_os("XDG_DATA_HOME")
                    .filter(|value| !value.is_empty())
                    .map(PathBuf::from)
                    .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".local/share")))
                    .filter(|path| path.is_absolute())
                    .ok_or_else(|| {
                        anyhow::anyhow!("no HOME to keep the secret key in: give --secret-key-file (an absolute path)")
                    })?;
                Ok(data_home.join("backoffice").join(format!("{}.key", key_file_stem(&self.database_url))))
            }
        }
    }
}

/// `host_port_database` of a PostgreSQL URL, reduced to safe file-name characters.
fn key_file_stem(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let rest = rest.split('?').next().unwrap_or(rest);
    let rest = rest.rsplit_once('@').map_or(rest, |(_, host)| host);
    let stem: String = rest
        .chars()
        .map(|character| if character.is_ascii_alphanumeric() || character == '.' { character } else { '_' })
        .collect();
    format!("secret-{stem}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_secret_key_sits_beside_the_database_by_default() {
        let sqlite = Config::new("x", "sqlite://data/backoffice.db");
        assert_eq!(sqlite.resolved_secret_key_path().unwrap(), PathBuf::from("data/secret.key"));
        let absolute = Config::new("x", "sqlite:///var/lib/bo/main.db?mode=rwc");
        assert_eq!(absolute.resolved_secret_key_path().unwrap(), PathBuf::from("/var/lib/bo/secret.key"));
        let mut configured = Config::new("x", "postgres://u@h/db");
        configured.secret_key_path = Some(PathBuf::from("/etc/bo/key"));
        assert_eq!(configured.resolved_secret_key_path().unwrap(), PathBuf::from("/etc/bo/key"));
    }

    #[test]
    fn forwarded_for_is_trusted_only_with_named_proxies() {
        let mut config = Config::new("x", "sqlite://x.db");
        assert!(config.validate().is_ok());
        config.trust_forwarded_for = true;
        let error = config.validate().unwrap_err().to_string();
        assert!(error.contains("--trusted-proxies"), "{error}");
        config.trusted_proxies = "10.0.0.0/8".parse().unwrap();
        assert!(config.validate().is_ok());
    }

    #[test]
    fn the_postgres_key_path_does_not_depend_on_the_working_directory() {
        let postgres = Config::new("x", "postgres://user:pw@db.example:5432/shop?sslmode=disable");
        if let Ok(path) = postgres.resolved_secret_key_path() {
            assert!(path.is_absolute(), "{}", path.display());
            assert!(path.ends_with("backoffice/secret-db.example_5432_shop.key"), "{}", path.display());
        }
        assert_eq!(key_file_stem("postgres://u@h/db"), "secret-h_db");
    }
}
