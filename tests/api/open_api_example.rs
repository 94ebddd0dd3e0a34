//! docs/examples/merchant_api.py runs against a real server, so the documented example
//! cannot drift from what the server does.

use crate::helpers::{Backend, spawn_app_with};
use crate::on_both_backends;
use serde_json::json;

on_both_backends!(the_python_example_places_and_reads_an_order);

async fn the_python_example_places_and_reads_an_order(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("pyexample").await;
    app.fund(mid, 100_000, 0).await;
    app.post_as(&token, "/adminapi/merchant/changeIntegration", json!({"ip_whitelist": "127.0.0.1,::1"})).await;
    let created = app.post_as(&token, "/adminapi/apikey/create", json!({"password": "Merchant123"})).await;
    let (key_id, secret) = (
        created.data()["key_id"].as_str().unwrap().to_string(),
        created.data()["secret"].as_str().unwrap().to_string(),
    );
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/examples/merchant_api.py");
    let output = tokio::process::Command::new("python3")
        .args([script, "--base", &app.address, "--key-id", &key_id, "--secret", &secret, "--order-id", "PY-1"])
        .output()
        .await
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("order_no"), "{stdout}");
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, 1);
}
