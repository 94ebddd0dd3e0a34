//! The key file at start: never a key that cannot open what the database holds sealed.

use crate::helpers::{Backend, MERCHANT, spawn_app};
use crate::on_both_backends;
use crate::two_factor::enable_two_factor;
use backoffice::startup::Application;

on_both_backends!(a_missing_or_wrong_key_file_stops_the_start);

async fn a_missing_or_wrong_key_file_stops_the_start(backend: Backend) {
    let app = spawn_app(backend).await;
    // Nothing sealed yet: a fresh key is fine (the first start made one).
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
