//! The key file at start: never a key that cannot open what the database holds sealed.

use crate::helpers::{Backend, MERCHANT, spawn_app};
use crate::on_both_backends;
use crate::two_factor::enable_two_factor;
use backoffice::app::startup::Application;

on_both_backends!(a_missing_or_wrong_key_file_stops_the_start);

async fn a_missing_or_wrong_key_file_stops_the_start(backend: Backend) {
    let app = spawn_app(backend).await;
    // Nothing sealed yet (the demo's API key and any webhook signing secret are removed
    // for this): a fresh key is fine (the first start made one).
    for table in ["api_keys", "webhook_secrets"] {
        sqlx::query(sqlx::AssertSqlSafe(format!("DELETE FROM {table}"))).execute(&app.state.db.pool).await.unwrap();
    }
    let elsewhere = tempfile::tempdir().unwrap();
    let mut config = app.config.clone();
    config.listen = "127.0.0.1:0".to_string();
    config.secret_key_path = Some(elsewhere.path().join("fresh.key"));
    assert!(Application::build(config.clone()).await.is_ok());
    std::fs::remove_file(elsewhere.path().join("fresh.key")).unwrap();

    enable_two_factor(&app, MERCHANT).await;
    // The key file lost: no new key over sealed data.
    config.secret_key_path = Some(elsewhere.path().join("missing.key"));
    let error = Application::build(config.clone()).await.err().expect("refused").to_string();
    assert!(error.contains("is missing"), "{error}");
    assert!(!elsewhere.path().join("missing.key").exists(), "no key was created");
    // Another key: refused too.
    std::fs::write(elsewhere.path().join("other.key"), "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=").unwrap();
    config.secret_key_path = Some(elsewhere.path().join("other.key"));
    let error = Application::build(config.clone()).await.err().expect("refused").to_string();
    assert!(error.contains("does not open"), "{error}");
    // The right key still starts.
    config.secret_key_path = app.config.secret_key_path.clone();
    assert!(Application::build(config).await.is_ok());
}

on_both_backends!(the_binary_exits_with_the_message_when_the_key_does_not_open_the_database);

/// `backoffice serve` as an operator runs it: a wrong key ends the process with a
/// non-zero status and the message; a database with nothing sealed starts on a new key.
async fn the_binary_exits_with_the_message_when_the_key_does_not_open_the_database(backend: Backend) {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let elsewhere = tempfile::tempdir().unwrap();
    let serve = |database: &str, key: &std::path::Path| {
        Command::new(crate::helpers::server_binary())
            .args(["serve", "--listen", "127.0.0.1:0", "--no-worker", "--database", database, "--secret-key-file"])
            .arg(key)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    // An empty database and a new key: it starts (and says where it listens).
    let empty = crate::helpers::database_url(backend, &elsewhere).await;
    let mut child = serve(&empty, &elsewhere.path().join("new.key"));
    let listening = BufReader::new(child.stderr.take().unwrap())
        .lines()
        .map_while(Result::ok)
        .any(|line| line.contains("listening"));
    assert!(listening, "the server did not start on an empty database");
    // It started; how it stops is serve_stops_gracefully_on_sigterm's business.
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(elsewhere.path().join("new.key").exists());

    let app = spawn_app(backend).await;
    enable_two_factor(&app, MERCHANT).await;
    std::fs::write(elsewhere.path().join("other.key"), "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=").unwrap();
    let output = serve(&app.config.database_url, &elsewhere.path().join("other.key")).wait_with_output().unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("does not open the secrets sealed in this database"), "{stderr}");
}

on_both_backends!(rotate_key_reseals_everything_and_the_old_key_is_refused);

async fn rotate_key_reseals_everything_and_the_old_key_is_refused(backend: Backend) {
    use backoffice::platform::crypto::{Secrets, read_master_key};
    use backoffice::platform::key_check::SEALED_COLUMNS;
    use serde_json::json;
    let mut app = spawn_app(backend).await;
    // Something sealed in every kind of column: a card order, two-factor, a certification.
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 100_000, 0).await;
    let placed = app.add_order(&token, json!({"product_key": "MOBILE-CARD-50"})).await;
    let order_id = placed.data()["order"]["id"].as_i64().unwrap();
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND status <> 2", mid, 10).await;
    let reveal = json!({"order_id": order_id});
    let card = app.post_as(&token, "/adminapi/order/card/reveal", reveal.clone()).await.data().clone();
    assert!(card["card_no"].is_string(), "{card}");
    let submitted = app.post_as(&token, "/adminapi/certification/submit", crate::certification::submission()).await;
    assert_eq!(submitted.code(), 20000, "{:?}", submitted.body);
    let enabled = enable_two_factor(&app, MERCHANT).await;
    assert!(!enabled.backup_codes.is_empty());
    let key_path = app.config.secret_key_path.clone().unwrap();
    let old_master = read_master_key(&key_path).unwrap();
    let old_key = std::fs::read_to_string(&key_path).unwrap();
    app.stop().await;

    let rotated = std::process::Command::new(crate::helpers::server_binary())
        .args(["rotate-key", "--database", &app.config.database_url, "--secret-key-file"])
        .arg(&key_path)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&rotated.stdout);
    assert!(rotated.status.success(), "{}", String::from_utf8_lossy(&rotated.stderr));
    // Two card columns, the two-factor secret, two certification numbers, the demo API key.
    assert!(stdout.contains("re-sealed 6 values"), "{stdout}");
    assert!(stdout.contains("cleared 10 backup codes"), "{stdout}");
    let directory = key_path.parent().unwrap();
    let names: Vec<String> = std::fs::read_dir(directory)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into())
        .collect();
    assert!(!names.iter().any(|name| name.ends_with(".new") || name.ends_with(".old")), "{names:?}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&key_path).unwrap().permissions().mode() & 0o777, 0o600);
    }

    // Every sealed value opens under the new key and none under the old one.
    let db = backoffice::platform::db::Database::connect(&app.config.database_url).await.unwrap();
    let new = Secrets::from_master_key(&read_master_key(&key_path).unwrap());
    let old = Secrets::from_master_key(&old_master);
    let mut checked = 0;
    for sealed in SEALED_COLUMNS {
        let sql = format!(
            "SELECT {}, {} FROM {} WHERE {} IS NOT NULL AND {} <> ''",
            sealed.column, sealed.context, sealed.table, sealed.column, sealed.column
        );
        let rows: Vec<(String, String)> = sqlx::query_as(sqlx::AssertSqlSafe(sql)).fetch_all(&db.pool).await.unwrap();
        for (value, context) in rows {
            assert!(new.decrypt(&value, &context).is_ok(), "{}.{}", sealed.table, sealed.column);
            assert!(old.decrypt(&value, &context).is_err(), "{}.{}", sealed.table, sealed.column);
            checked += 1;
        }
    }
    assert_eq!(checked, 6);

    // The old key is refused at start; the rotated one serves the same secrets.
    let elsewhere = tempfile::tempdir().unwrap();
    std::fs::write(elsewhere.path().join("old.key"), old_key).unwrap();
    let mut config = app.config.clone();
    config.listen = "127.0.0.1:0".to_string();
    config.secret_key_path = Some(elsewhere.path().join("old.key"));
    let error = Application::build(config).await.err().expect("refused").to_string();
    assert!(error.contains("does not open"), "{error}");
    let restarted = app.restart_with(|_| {}).await;
    let token = restarted.login(("buyer", "Merchant123")).await;
    let again = restarted.post_as(&token, "/adminapi/order/card/reveal", reveal).await;
    assert_eq!(again.data()["card_no"], card["card_no"]);
    assert_eq!(again.data()["card_secret"], card["card_secret"]);
    let records = restarted.post_as(&token, "/adminapi/certification/list", json!({})).await;
    assert_eq!(records.code(), 20000, "{:?}", records.body);

    // A crash between the commit and the rename: the start names the file to move.
    let new_key = std::fs::read_to_string(&key_path).unwrap();
    std::fs::write(backoffice::platform::key_check::sibling(&key_path, "new"), new_key).unwrap();
    std::fs::write(&key_path, std::fs::read_to_string(elsewhere.path().join("old.key")).unwrap()).unwrap();
    let mut config = app.config.clone();
    config.listen = "127.0.0.1:0".to_string();
    let error = Application::build(config).await.err().expect("refused").to_string();
    assert!(error.contains("interrupted rotate-key") && error.contains("secret.key.new"), "{error}");
}
