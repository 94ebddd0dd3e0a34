use crate::helpers::{Backend, database_url};
use crate::on_both_backends;
use std::io::Write;
use std::process::{Command, Stdio};

on_both_backends!(create_user_reads_the_password_from_standard_input);

fn create_user(database: &str, username: &str, role: &str, password: &str) -> std::process::Output {
    let mut child = Command::new(crate::helpers::server_binary())
        .args(["create-user", "--username", username, "--role", role, "--database", database])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    child.stdin.take().unwrap().write_all(password.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

async fn create_user_reads_the_password_from_standard_input(backend: Backend) {
    let directory = tempfile::tempdir().unwrap();
    let database = database_url(backend, &directory).await;
    let created = create_user(&database, "alice", "user", "Alice123\n");
    assert!(created.status.success(), "{}", String::from_utf8_lossy(&created.stderr));
    assert!(String::from_utf8_lossy(&created.stdout).contains("for merchant 10001"));

    let weak = create_user(&database, "bob", "admin", "bob\n");
    assert!(!weak.status.success());
    assert!(String::from_utf8_lossy(&weak.stderr).contains("at least 6 characters"));
    let duplicate = create_user(&database, "ALICE", "admin", "Alice123\n");
    assert!(!duplicate.status.success());
    assert!(String::from_utf8_lossy(&duplicate.stderr).contains("already exists"));

    let db = backoffice::platform::db::Database::connect(&database).await.unwrap();
    let stored = backoffice::identity::users::repository::find_credentials(&db.pool, "alice").await.unwrap().unwrap();
    assert!(stored.password_hash.starts_with("$argon2id$"));
    assert_eq!(stored.account.merchant_id, Some(10001));
    let audit: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM audit_events WHERE action = 'user_created'")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(audit, 1);
}

#[test]
fn help_documents_every_command_and_flag() {
    let help = Command::new(crate::helpers::server_binary()).args(["serve", "--help"]).output().unwrap();
    let text = String::from_utf8_lossy(&help.stdout);
    for flag in ["--listen", "--database", "--demo", "--session-idle-minutes", "BACKOFFICE_LISTEN", "DATABASE_URL"] {
        assert!(text.contains(flag), "{flag} missing from serve --help");
    }
    let top = Command::new(crate::helpers::server_binary()).arg("--help").output().unwrap();
    let text = String::from_utf8_lossy(&top.stdout);
    assert!(text.contains("serve") && text.contains("create-user"));
}

/// X-Forwarded-For trusted with no proxy named would believe any client: refused at
/// start, saying what to give; and a hop count is no longer a way to name them.
#[test]
fn forwarded_for_without_named_proxies_is_refused_at_start() {
    let directory = tempfile::tempdir().unwrap();
    let database = format!("sqlite://{}/refused.db", directory.path().display());
    let serve = |extra: &[&str]| {
        Command::new(crate::helpers::server_binary())
            .args(["serve", "--listen", "127.0.0.1:0", "--trust-forwarded-for", "--database", &database])
            .args(extra)
            .env_remove("BACKOFFICE_TRUSTED_PROXIES")
            .output()
            .unwrap()
    };
    for refused in [serve(&[]), serve(&["--trusted-proxies", "1"])] {
        assert!(!refused.status.success());
        let error = String::from_utf8_lossy(&refused.stderr);
        assert!(error.contains("--trusted-proxies") || error.contains("addresses or networks"), "{error}");
    }
    assert!(!directory.path().join("refused.db").exists(), "refused before anything was created");
}

#[test]
fn serve_stops_gracefully_on_sigterm() {
    use std::io::{BufRead, BufReader};
    let directory = tempfile::tempdir().unwrap();
    let mut child = Command::new(crate::helpers::server_binary())
        .args(["--log-format", "json", "serve", "--listen", "127.0.0.1:0", "--demo", "--database"])
        .arg(format!("sqlite://{}/serve.db", directory.path().display()))
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let port = crate::helpers::logged_port(&mut lines);
    let answer = Command::new("curl")
        .args([
            "-s",
            "-H",
            "token: SecretTokenValue",
            &format!("http://127.0.0.1:{port}/adminapi/nothing?secret=QueryValue"),
        ])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&answer.stdout).contains("40400"));
    assert!(Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap().success());
    let remaining: Vec<String> = lines.map_while(Result::ok).collect();
    let status = child.wait().unwrap();
    assert!(status.success(), "exit status {status:?}");
    assert!(remaining.iter().any(|line| line.contains("shutdown requested")));
    // The request is logged with its id and path, never with its query string or headers.
    let request_line =
        remaining.iter().find(|line| line.contains("/adminapi/nothing")).expect("the request was logged");
    let logged: serde_json::Value = serde_json::from_str(request_line).unwrap();
    assert!(logged["span"]["id"].as_str().is_some_and(|id| id.len() == 36), "{request_line}");
    assert!(remaining.iter().all(|line| !line.contains("SecretTokenValue") && !line.contains("QueryValue")));
}

on_both_backends!(generate_orders_refuses_a_database_holding_real_data_unless_forced);

fn generate_orders(database: &str, key: &std::path::Path, force: bool) -> std::process::Output {
    let mut command = Command::new(crate::helpers::server_binary());
    command.args(["generate-orders", "--count", "20", "--database", database, "--secret-key-file"]).arg(key);
    if force {
        command.arg("--force");
    }
    command.output().unwrap()
}

async fn generate_orders_refuses_a_database_holding_real_data_unless_forced(backend: Backend) {
    let directory = tempfile::tempdir().unwrap();
    let database = database_url(backend, &directory).await;
    let key = directory.path().join("generate.key");
    // Demo data only (none yet, then the generator's own): generated again and again.
    for _ in 0..2 {
        let generated = generate_orders(&database, &key, false);
        assert!(generated.status.success(), "{}", String::from_utf8_lossy(&generated.stderr));
        assert!(String::from_utf8_lossy(&generated.stdout).contains("generated 20 orders"));
    }
    // A real user: refused, nothing written, until --force.
    assert!(create_user(&database, "alice", "user", "Alice123\n").status.success());
    let refused = generate_orders(&database, &key, false);
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("--force"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
    let db = backoffice::platform::db::Database::connect(&database).await.unwrap();
    let count =
        || async { sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM orders").fetch_one(&db.pool).await.unwrap() };
    assert_eq!(count().await, 40);
    let forced = generate_orders(&database, &key, true);
    assert!(forced.status.success(), "{}", String::from_utf8_lossy(&forced.stderr));
    assert_eq!(count().await, 60);
}

on_both_backends!(money_moved_by_a_person_is_not_demo_data);

async fn money_moved_by_a_person_is_not_demo_data(backend: Backend) {
    let app = crate::helpers::spawn_app(backend).await;
    assert!(!backoffice::app::demo::holds_non_demo_data(&app.state.db).await.unwrap());
    app.fund(backoffice::app::demo::DEMO_MERCHANT_ID, 100, 0).await;
    assert!(backoffice::app::demo::holds_non_demo_data(&app.state.db).await.unwrap());
}

#[test]
fn openapi_prints_the_served_document() {
    let printed = Command::new(crate::helpers::server_binary()).arg("openapi").output().unwrap();
    assert!(printed.status.success());
    let document: serde_json::Value = serde_json::from_slice(&printed.stdout).expect("JSON");
    assert!(document["paths"]["/adminapi/login/login"]["post"].is_object());
    let help = Command::new(crate::helpers::server_binary()).arg("--help").output().unwrap();
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(text.contains("rotate-key") && text.contains("openapi"), "{text}");
}

on_both_backends!(
    serve_demo_prints_a_working_key_and_whitelists_the_loopback,
    the_demo_seed_returns_only_the_key_it_made_with_the_stored_whitelist
);

/// A `serve --demo` child on `database`; its standard output and log are piped.
fn serve_demo(database: &str, key: &std::path::Path) -> std::process::Child {
    Command::new(crate::helpers::server_binary())
        .args(["--log-format", "json", "serve", "--listen", "127.0.0.1:0", "--demo", "--demo-orders", "0"])
        .args(["--no-demo-simulators", "--database", database, "--secret-key-file"])
        .arg(key)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Stops a `serve` child with SIGTERM and returns what it wrote after `port` was read:
/// (the rest of standard output, the rest of the log).
fn stop_and_collect(
    mut child: std::process::Child,
    output: impl Iterator<Item = std::io::Result<String>>,
    log: impl Iterator<Item = std::io::Result<String>>,
) -> (Vec<String>, Vec<String>) {
    assert!(Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap().success());
    let log: Vec<String> = log.map_while(Result::ok).collect();
    let output: Vec<String> = output.map_while(Result::ok).collect();
    let status = child.wait().unwrap();
    assert!(status.success(), "exit status {status:?}; log: {log:?}");
    (output, log)
}

/// `serve --demo`: the demo merchant's key id and secret are printed on standard output
/// (not in the log), its whitelist is the loopback addresses, and the printed key signs a
/// call the open API accepts at once.
async fn serve_demo_prints_a_working_key_and_whitelists_the_loopback(backend: Backend) {
    use backoffice::merchant_api::signature;
    use std::io::{BufRead, BufReader};
    let directory = tempfile::tempdir().unwrap();
    let database = database_url(backend, &directory).await;
    let key_file = directory.path().join("demo.key");
    let mut child = serve_demo(&database, &key_file);
    // Both pipes stay open until the server has stopped (it logs each request).
    let mut log = BufReader::new(child.stderr.take().unwrap()).lines();
    let port = crate::helpers::logged_port(&mut log);
    // Printed before the server listens, so it is there by now.
    let mut output = BufReader::new(child.stdout.take().unwrap()).lines();
    let printed = output
        .by_ref()
        .map_while(Result::ok)
        .find(|line| line.starts_with("demo open-API key"))
        .expect("the demo key line");
    let words: Vec<&str> = printed.split_whitespace().collect();
    let after = |label: &str| words.iter().position(|word| *word == label).map(|index| words[index + 1].to_string());
    let (key_id, secret) = (after("X-Key-Id").expect("a key id"), after("secret").expect("a secret"));
    assert!(printed.contains("whitelist 127.0.0.1,::1"), "{printed}");

    let db = backoffice::platform::db::Database::connect(&database).await.unwrap();
    let whitelist: String =
        sqlx::query_scalar("SELECT ip_whitelist FROM users WHERE merchant_id = $1 ORDER BY id LIMIT 1")
            .bind(backoffice::app::demo::DEMO_MERCHANT_ID)
            .fetch_one(&db.pool)
            .await
            .unwrap();
    assert_eq!(whitelist, "127.0.0.1,::1");
    let stored: String = sqlx::query_scalar("SELECT secret_enc FROM api_keys WHERE key_id = $1")
        .bind(&key_id)
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert!(!stored.contains(&secret), "sealed at rest");

    // The printed key works from the loopback address.
    let (timestamp, nonce) =
        ((backoffice::platform::db::now_millis() / 1000).to_string(), "demo-key-check-0001".to_string());
    let path = "/openapi/v1/balance";
    let signed = signature::sign(&secret, &signature::request_string("GET", path, &timestamp, &nonce, b""));
    let answer: serde_json::Value = reqwest::Client::new()
        .get(format!("http://127.0.0.1:{port}{path}"))
        .header("x-key-id", &key_id)
        .header("x-timestamp", &timestamp)
        .header("x-nonce", &nonce)
        .header("x-signature", signed)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(answer["code"], 20000, "{answer}");
    assert!(answer["data"]["balance_fen"].as_i64().unwrap() > 0, "{answer}");
    let (_, first_log) = stop_and_collect(child, output, log);
    assert!(first_log.iter().all(|line| !line.contains(&secret)), "the secret stays out of the log");

    // The merchant makes a key of its own in the console; it was shown there, once.
    let secrets = backoffice::platform::key_check::open_key(&db, &key_file).await.unwrap();
    let (own_id, own_secret) = backoffice::identity::api_keys::store::generate();
    let sealed = backoffice::identity::api_keys::store::seal(&secrets, &own_id, &own_secret).unwrap();
    let mut transaction = db.begin_write().await.unwrap();
    backoffice::identity::api_keys::store::insert(
        &mut transaction,
        &own_id,
        backoffice::app::demo::DEMO_MERCHANT_ID,
        &sealed,
        None,
    )
    .await
    .unwrap();
    transaction.commit().await.unwrap();
    db.close().await;

    // A restart shows neither key: one line says the demo key was made before.
    let mut child = serve_demo(&database, &key_file);
    let mut log = BufReader::new(child.stderr.take().unwrap()).lines();
    crate::helpers::logged_port(&mut log);
    let output = BufReader::new(child.stdout.take().unwrap()).lines();
    let (printed, second_log) = stop_and_collect(child, output, log);
    let everything = printed.iter().chain(&second_log).cloned().collect::<Vec<_>>().join("\n");
    assert!(printed.iter().any(|line| line.contains("made on an earlier start and not shown again")), "{printed:?}");
    for shown in [&secret, &own_secret] {
        assert!(!everything.contains(shown.as_str()), "a secret printed on restart: {everything}");
    }
}

/// The seed returns the key it made on this start, with the whitelist as stored (a saved
/// one is kept, not claimed to be the loopback), and nothing on a later start.
async fn the_demo_seed_returns_only_the_key_it_made_with_the_stored_whitelist(backend: Backend) {
    let app = crate::helpers::spawn_app_with(backend, |config| config.seed_demo = false).await;
    let state = &app.state;
    backoffice::app::demo::seed_accounts(&state.db, &state.hasher).await.unwrap();
    sqlx::query("UPDATE users SET ip_whitelist = '198.51.100.7' WHERE merchant_id = $1")
        .bind(backoffice::app::demo::DEMO_MERCHANT_ID)
        .execute(&state.db.pool)
        .await
        .unwrap();
    let made = backoffice::app::demo::seed(&state.db, &state.hasher, &state.secrets, 0).await.unwrap().expect("a key");
    assert_eq!(made.whitelist, "198.51.100.7");
    assert!(!format!("{made:?}").contains(&made.secret), "the secret stays out of Debug");
    let newest = backoffice::app::demo::demo_api_key(&state.db, &state.secrets).await.unwrap().unwrap();
    assert_eq!(newest, (made.key_id.clone(), made.secret.clone()));
    let again = backoffice::app::demo::seed(&state.db, &state.hasher, &state.secrets, 0).await.unwrap();
    assert!(again.is_none(), "{again:?}");
}
