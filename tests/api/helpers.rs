//! Test harness: a real server on port 0 with a fresh database, SQLite or PostgreSQL.
//!
//! PostgreSQL tests need `TEST_POSTGRES_URL` (an account allowed to create databases);
//! `make test` starts a throwaway cluster and sets it. Each test gets its own database.

use backoffice::app::startup::Application;
use backoffice::platform::config::Config;
use backoffice::platform::db::DatabaseKind;
use backoffice::platform::state::AppState;
use reqwest::StatusCode;
use serde_json::{Value, json};
use sqlx::Connection;

pub const ADMIN: (&str, &str) = ("admin", "Admin123");
pub const MERCHANT: (&str, &str) = ("merchant", "Merchant123");

#[derive(Debug, Clone, Copy)]
pub enum Backend {
    Sqlite,
    Postgres,
}

pub struct TestApp {
    pub address: String,
    pub client: reqwest::Client,
    pub state: AppState,
    pub config: Config,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    server: Option<tokio::task::JoinHandle<anyhow::Result<()>>>,
    _directory: Option<tempfile::TempDir>,
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
    }
}

/// Generates one test per backend for an `async fn(Backend)` of the same name.
#[macro_export]
macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {
        $(
            mod $name {
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn sqlite() {
                    super::$name($crate::helpers::Backend::Sqlite).await
                }
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn postgres() {
                    super::$name($crate::helpers::Backend::Postgres).await
                }
            }
        )*
    };
}

/// The server binary, for the tests that run it as a process (a crash, the command line).
/// These tests are a package of their own, so Cargo does not hand them its path
/// (`CARGO_BIN_EXE_*` is for a package's own binaries): it is `backoffice` in the profile
/// folder whose `deps/` holds this test executable. `cargo test --workspace` builds it;
/// testing this package alone may leave it older than the library, which fails here
/// rather than testing yesterday's server.
pub fn server_binary() -> std::path::PathBuf {
    let test = std::env::current_exe().expect("the test executable's path");
    let profile = test.parent().and_then(std::path::Path::parent).expect("target/<profile>/deps/<test>");
    let binary = profile.join("backoffice");
    let built = |path: &std::path::Path| std::fs::metadata(path).and_then(|meta| meta.modified()).ok();
    let (Some(binary_time), library_time) = (built(&binary), built(&profile.join("libbackoffice.rlib"))) else {
        panic!("{} is missing: run `cargo test --release --workspace`", binary.display());
    };
    assert!(
        library_time.is_none_or(|library| binary_time >= library),
        "{} is older than the library it is built from: run `cargo test --release --workspace`",
        binary.display()
    );
    binary
}

/// The port a `serve --log-format json --listen 127.0.0.1:0` child logs, read from its log
/// lines (those after it stay to be read).
pub fn logged_port(lines: &mut impl Iterator<Item = std::io::Result<String>>) -> u16 {
    let port = lines
        .map_while(Result::ok)
        .find_map(|line| serde_json::from_str::<Value>(&line).ok()?["fields"]["port"].as_u64())
        .expect("the server logs its port");
    u16::try_from(port).expect("a port")
}

pub async fn database_url(backend: Backend, directory: &tempfile::TempDir) -> String {
    match backend {
        Backend::Sqlite => format!("sqlite://{}/test.db", directory.path().display()),
        Backend::Postgres => {
            let admin_url = std::env::var("TEST_POSTGRES_URL").expect(
                "TEST_POSTGRES_URL is not set: run the tests with `make test`, which starts a throwaway \
                 PostgreSQL, or point it at a server where this account may create databases",
            );
            sqlx::any::install_default_drivers();
            let name = format!("backoffice_test_{}", uuid::Uuid::new_v4().simple());
            let mut connection = sqlx::AnyConnection::connect(&admin_url).await.expect("connect to TEST_POSTGRES_URL");
            // The name is ours (a UUID), never input.
            sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
                .execute(&mut connection)
                .await
                .expect("create test database");
            connection.close().await.ok();
            replace_database_name(&admin_url, &name)
        }
    }
}

fn replace_database_name(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((base, query)) => (base, format!("?{query}")),
        None => (url, String::new()),
    };
    let scheme_end = base.find("://").map_or(0, |index| index + 3);
    let path_start = base[scheme_end..].find('/').map(|index| index + scheme_end);
    let host_part = match path_start {
        Some(index) => &base[..index],
        None => base,
    };
    format!("{host_part}/{name}{query}")
}

/// Waits until `condition` holds (checked every 20 ms), for at most `seconds`; fails naming
/// `what` if it never does.
pub async fn wait_until<F: std::future::Future<Output = bool>>(
    what: &str,
    seconds: u64,
    mut condition: impl FnMut() -> F,
) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
    while !condition().await {
        assert!(std::time::Instant::now() < deadline, "timed out waiting until {what}");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

pub async fn spawn_app(backend: Backend) -> TestApp {
    spawn_app_with(backend, |_| {}).await
}

pub async fn spawn_app_with(backend: Backend, configure: impl FnOnce(&mut Config)) -> TestApp {
    let directory = tempfile::tempdir().expect("temporary directory");
    let mut config = Config::new("127.0.0.1:0", database_url(backend, &directory).await);
    config.seed_demo = true;
    // Tests make the orders they need; a fast, certain sandbox unless a test says otherwise.
    config.demo_orders = 0;
    config.secret_key_path = Some(directory.path().join("secret.key"));
    config.channel.sandbox_delay = std::time::Duration::from_millis(30);
    config.channel.sandbox_success_ratio = 1.0;
    config.worker.poll_interval = std::time::Duration::from_millis(20);
    // The shipped segment table is 330,000 rows: only the tests of segments load it.
    config.default_segments = false;
    configure(&mut config);
    start(config, Some(directory)).await
}

async fn start(config: Config, directory: Option<tempfile::TempDir>) -> TestApp {
    let application = Application::build(config.clone()).await.expect("application starts");
    let address = format!("http://127.0.0.1:{}", application.port());
    let state = application.state().clone();
    let (shutdown, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(application.run_until_stopped(async {
        let _ = stopped.await;
    }));
    TestApp {
        address,
        client: reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap(),
        state,
        config,
        shutdown: Some(shutdown),
        server: Some(server),
        _directory: directory,
    }
}

/// An answer: HTTP status and the parsed envelope.
#[derive(Debug)]
pub struct Answer {
    pub status: StatusCode,
    pub body: Value,
}

impl Answer {
    pub fn code(&self) -> i64 {
        self.body["code"].as_i64().unwrap_or_else(|| panic!("no envelope code in {:?}", self.body))
    }
    pub fn msg(&self) -> &str {
        self.body["msg"].as_str().unwrap_or_default()
    }
    pub fn data(&self) -> &Value {
        &self.body["data"]
    }
}

impl TestApp {
    /// Stops serving and the worker, and waits until both have.
    pub async fn stop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(server) = self.server.take() {
            server.await.expect("server task").expect("server stopped cleanly");
        }
    }

    /// A second application on the same database and key (keep `self` alive: it owns
    /// the temporary folder).
    pub async fn restart_with(&self, configure: impl FnOnce(&mut Config)) -> TestApp {
        let mut config = self.config.clone();
        config.listen = "127.0.0.1:0".to_string();
        configure(&mut config);
        start(config, None).await
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.address, path)
    }

    pub async fn send(&self, request: reqwest::RequestBuilder) -> Answer {
        let response = request.send().await.expect("request sent");
        let status = response.status();
        let text = response.text().await.expect("response body");
        let body = serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON ({status}): {text}"));
        Answer { status, body }
    }

    pub async fn post(&self, path: &str, body: Value) -> Answer {
        self.send(self.client.post(self.url(path)).json(&body)).await
    }

    pub async fn post_as(&self, token: &str, path: &str, body: Value) -> Answer {
        self.send(self.client.post(self.url(path)).bearer_auth(token).header("token", token).json(&body)).await
    }

    pub async fn get_as(&self, token: &str, path: &str) -> Answer {
        self.send(self.client.get(self.url(path)).bearer_auth(token).header("token", token)).await
    }

    pub async fn login_answer(&self, username: &str, password: &str) -> Answer {
        self.post("/adminapi/login/login", json!({ "username": username, "password": password })).await
    }

    /// Signs in and returns the token, failing the test if sign-in fails.
    pub async fn login(&self, (username, password): (&str, &str)) -> String {
        let answer = self.login_answer(username, password).await;
        assert_eq!(answer.code(), 20000, "sign-in of {username} failed: {:?}", answer.body);
        answer.data()["token"].as_str().expect("token").to_string()
    }

    pub async fn create_merchant(&self, username: &str, password: &str) -> i64 {
        let password = backoffice::platform::password::NewPassword::parse(password).expect("valid password");
        let (_, merchant_id) = backoffice::identity::users::repository::create_user(
            &self.state.db,
            &self.state.hasher,
            backoffice::identity::users::repository::NewUser {
                username,
                password: &password,
                role: backoffice::identity::session::Role::User,
                merchant_name: None,
                merchant_id: None,
                display_name: username,
                recorded_as: None,
            },
        )
        .await
        .expect("merchant created");
        merchant_id.expect("a merchant id")
    }
}

/// Trade helpers: merchants with quotes, funding, orders, and the books.
impl TestApp {
    /// A new merchant with a quote for every product, which may have several orders in
    /// flight for one number (most scenarios place several for 13800138000 and leave them
    /// unfinished); returns (mid, token). risk.rs tests the default, one in flight per
    /// number, with [`TestApp::merchant_as_new`].
    pub async fn merchant(&self, username: &str) -> (i64, String) {
        let (mid, token) = self.merchant_as_new(username).await;
        self.single_flight(mid, false).await;
        (mid, token)
    }

    /// A new merchant with a quote for every product and the settings every new merchant
    /// has (one order in flight per number); returns (mid, token).
    pub async fn merchant_as_new(&self, username: &str) -> (i64, String) {
        let mid = self.create_merchant(username, "Merchant123").await;
        backoffice::app::demo::seed_quotes(&self.state.db.pool, mid).await.expect("quotes");
        (mid, self.login((username, "Merchant123")).await)
    }

    /// Switches a merchant's one order in flight per number on or off in the table, and
    /// reloads this server's copy (another server on the database sees it within a second).
    /// Not through the administrators' call: scenarios that count audit rows stay as they were.
    pub async fn single_flight(&self, mid: i64, on: bool) {
        sqlx::query(
            "INSERT INTO merchant_risk (merchant_id, single_flight, number_daily_orders, number_daily_fen,
                 daily_cap_fen, revision, updated_at)
             VALUES ($1, $2, 0, 0, 0, (SELECT COALESCE(MAX(revision), 0) + 1 FROM merchant_risk), 0)
             ON CONFLICT (merchant_id) DO UPDATE SET single_flight = excluded.single_flight, revision = excluded.revision",
        )
        .bind(mid)
        .bind(i64::from(on))
        .execute(&self.state.db.pool)
        .await
        .expect("risk settings written");
        self.state.risk.reload(&self.state.db).await.expect("risk settings reloaded");
    }

    pub async fn fund(&self, mid: i64, balance_fen: i64, credit_limit_fen: i64) {
        let admin = self.login(ADMIN).await;
        if balance_fen > 0 {
            let answer = self
                .post_as(
                    &admin,
                    "/adminapi/admin/merchant/topup",
                    json!({"merchant_id": mid, "amount_fen": balance_fen}),
                )
                .await;
            assert_eq!(answer.code(), 20000, "{:?}", answer.body);
        }
        if credit_limit_fen > 0 {
            let answer = self
                .post_as(
                    &admin,
                    "/adminapi/admin/merchant/credit",
                    json!({"merchant_id": mid, "credit_limit_fen": credit_limit_fen}),
                )
                .await;
            assert_eq!(answer.code(), 20000, "{:?}", answer.body);
        }
    }

    pub async fn add_order(&self, token: &str, body: Value) -> Answer {
        self.post_as(token, "/adminapi/order/add", body).await
    }

    /// A batch's valid lines as the preview stored them, a range at a time (JSON, migration
    /// 0025): (line, account, product key, merchant order id, price at preview), in line order.
    pub async fn batch_lines(&self, batch_id: i64) -> Vec<(i64, String, String, String, i64)> {
        let ranges: Vec<String> =
            sqlx::query_scalar("SELECT lines FROM order_batch_ranges WHERE batch_id = $1 ORDER BY first_line")
                .bind(batch_id)
                .fetch_all(&self.state.db.pool)
                .await
                .expect("a batch's ranges");
        let mut lines: Vec<(i64, String, String, String, i64)> =
            ranges.iter().flat_map(|text| serde_json::from_str::<Vec<_>>(text).expect("a range's lines")).collect();
        lines.sort_by_key(|line| line.0);
        lines
    }

    /// One number read through the server's pool. A pooled connection a test cut (failover.rs)
    /// is found dead only when used: the read goes again on another, at most once per
    /// connection the pool may hold.
    pub async fn scalar(&self, sql: &str, mid: i64) -> i64 {
        let pool = &self.state.db.pool;
        let mut tries = pool.options().get_max_connections() + 1;
        loop {
            let read =
                sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(sql.to_string())).bind(mid).fetch_one(pool).await;
            match read {
                Err(error) if tries > 1 && backoffice::http::unavailable::is_unavailable(&error) => tries -= 1,
                read => return read.expect(sql),
            }
        }
    }

    /// (balance, credit limit, credit used) as stored.
    pub async fn figures(&self, mid: i64) -> (i64, i64, i64) {
        (
            self.scalar("SELECT balance_fen FROM merchant_accounts WHERE merchant_id = $1", mid).await,
            self.scalar("SELECT credit_limit_fen FROM merchant_accounts WHERE merchant_id = $1", mid).await,
            self.scalar("SELECT credit_used_fen FROM merchant_accounts WHERE merchant_id = $1", mid).await,
        )
    }

    /// The account log sums to the figures, and no record shows a negative balance or credit.
    pub async fn assert_books_balance(&self, mid: i64) {
        let (balance, limit, used) = self.figures(mid).await;
        let logged_balance = self
            .scalar("SELECT CAST(COALESCE(SUM(amount_fen), 0) AS BIGINT) FROM account_log WHERE merchant_id = $1 AND account_type = 1", mid)
            .await;
        let logged_credit = self
            .scalar("SELECT CAST(COALESCE(SUM(amount_fen), 0) AS BIGINT) FROM account_log WHERE merchant_id = $1 AND account_type = 2", mid)
            .await;
        assert_eq!(logged_balance, balance, "the balance log sums to the balance");
        assert_eq!(logged_credit, limit - used, "the credit log sums to the available credit");
        let negative = self
            .scalar("SELECT COUNT(*) FROM account_log WHERE merchant_id = $1 AND (balance_after_fen < 0 OR credit_after_fen < 0)", mid)
            .await;
        assert_eq!(negative, 0);
        assert!(balance >= 0 && used >= 0 && used <= limit);
    }

    /// A trigger that fails the insert of the order with this merchant order id (on either
    /// engine), as a statement failing for a reason no check foresaw; `allow_every_order`
    /// removes it.
    pub async fn refuse_order_inserts(&self, merchant_order_id: &str) {
        let statements = match self.state.db.kind {
            DatabaseKind::Sqlite => vec![format!(
                "CREATE TRIGGER refuse_one BEFORE INSERT ON orders WHEN NEW.merchant_order_id = '{merchant_order_id}'
                 BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
            )],
            DatabaseKind::Postgres => vec![
                format!(
                    "CREATE FUNCTION refuse_one() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
                     IF NEW.merchant_order_id = '{merchant_order_id}' THEN RAISE EXCEPTION 'refused by the test'; END IF;
                     RETURN NEW; END $$"
                ),
                "CREATE TRIGGER refuse_one BEFORE INSERT ON orders FOR EACH ROW EXECUTE FUNCTION refuse_one()".into(),
            ],
        };
        self.run_statements(statements).await;
    }

    pub async fn allow_every_order(&self) {
        let statements = match self.state.db.kind {
            DatabaseKind::Sqlite => vec!["DROP TRIGGER refuse_one".to_string()],
            DatabaseKind::Postgres => {
                vec!["DROP TRIGGER refuse_one ON orders".into(), "DROP FUNCTION refuse_one()".into()]
            }
        };
        self.run_statements(statements).await;
    }

    async fn run_statements(&self, statements: Vec<String>) {
        for sql in statements {
            sqlx::query(sqlx::AssertSqlSafe(sql)).execute(&self.state.db.pool).await.unwrap();
        }
    }

    /// Waits until `sql` (with $1 = mid) returns 0, for at most `seconds`.
    pub async fn wait_for_zero(&self, sql: &str, mid: i64, seconds: u64) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
        loop {
            let left = self.scalar(sql, mid).await;
            if left == 0 {
                return;
            }
            assert!(std::time::Instant::now() < deadline, "still {left} after {seconds} s: {sql}");
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }
}

#[test]
fn database_names_are_replaced_in_urls() {
    assert_eq!(replace_database_name("postgres://u@h:5/postgres", "x"), "postgres://u@h:5/x");
    assert_eq!(replace_database_name("postgres://u@h:5", "x"), "postgres://u@h:5/x");
    assert_eq!(replace_database_name("postgres://u@h:5/db?sslmode=disable", "x"), "postgres://u@h:5/x?sslmode=disable");
}
