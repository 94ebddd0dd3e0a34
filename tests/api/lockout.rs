//! Sign-in throttling that attackers cannot turn against the owner, parallel bursts, and
//! client addresses behind proxies (`--trust-forwarded-for`, `--trusted-proxies`).

use crate::helpers::{ADMIN, Answer, Backend, MERCHANT, TestApp, spawn_app_with};
use crate::on_both_backends;
use serde_json::json;

on_both_backends!(
    failures_from_elsewhere_do_not_lock_out_a_known_address,
    a_parallel_burst_is_evaluated_at_most_the_limit,
    forwarded_for_takes_the_entry_the_proxy_added,
    a_direct_client_is_known_by_its_own_address_whatever_it_forwards,
    ipv6_clients_are_throttled_per_64
);

/// The tests' requests come from 127.0.0.1, the one proxy named.
fn behind_the_proxy_at_127_0_0_1(config: &mut backoffice::platform::config::Config) {
    config.trust_forwarded_for = true;
    config.trusted_proxies = "127.0.0.1".parse().unwrap();
}

impl TestApp {
    async fn login_from(&self, forwarded_for: &str, username: &str, password: &str) -> Answer {
        self.send(
            self.client
                .post(self.url("/adminapi/login/login"))
                .header("X-Forwarded-For", forwarded_for)
                .json(&json!({"username": username, "password": password})),
        )
        .await
    }

    async fn count(&self, sql: &str) -> i64 {
        sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_string())).fetch_one(&self.state.db.pool).await.expect(sql)
    }
}

async fn behind_one_proxy(backend: Backend) -> TestApp {
    spawn_app_with(backend, behind_the_proxy_at_127_0_0_1).await
}

async fn failures_from_elsewhere_do_not_lock_out_a_known_address(backend: Backend) {
    let app = behind_one_proxy(backend).await;
    let max = app.state.config.throttle.account_max_failures;
    let home = "198.51.100.7";
    assert_eq!(app.login_from(home, ADMIN.0, ADMIN.1).await.code(), 20000);
    // An attacker from several addresses locks the account...
    for index in 0..max {
        let answer = app.login_from(&format!("203.0.113.{index}"), ADMIN.0, "Wrong123").await;
        assert!([40100, 42900].contains(&answer.code()), "{:?}", answer.body);
    }
    assert_eq!(app.login_from("203.0.113.77", ADMIN.0, ADMIN.1).await.code(), 42900);
    // ...but not for the address the owner signed in from.
    assert_eq!(app.login_from(home, ADMIN.0, ADMIN.1).await.code(), 20000);
    // Refusals during the lock are counted, and written to the audit trail once.
    for _ in 0..20 {
        assert_eq!(app.login_from("203.0.113.78", ADMIN.0, "Wrong123").await.code(), 42900);
    }
    assert_eq!(app.count("SELECT COUNT(*) FROM audit_events WHERE action = 'login_throttled'").await, 1);
    assert_eq!(app.count("SELECT refused FROM login_throttle WHERE throttle_key = 'account:admin'").await, 21);
    // The known address's own failures still lock it.
    for _ in 0..max {
        app.login_from(home, ADMIN.0, "Wrong123").await;
    }
    assert_eq!(app.login_from(home, ADMIN.0, ADMIN.1).await.code(), 42900);
    // An address known only from long ago is like any other.
    sqlx::query("DELETE FROM login_throttle WHERE throttle_key LIKE 'account:admin@%'")
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(app.login_from(home, ADMIN.0, ADMIN.1).await.code(), 20000);
    let long_ago = backoffice::platform::db::now_millis() - 31 * 24 * 3600 * 1000;
    sqlx::query("UPDATE login_known_addresses SET last_success_at = $1")
        .bind(long_ago)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(app.login_from(home, ADMIN.0, ADMIN.1).await.code(), 42900);
}

async fn a_parallel_burst_is_evaluated_at_most_the_limit(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.throttle.address_max_failures = 1_000).await;
    let max = i64::from(app.state.config.throttle.account_max_failures);
    let attempts = (0..100).map(|_| app.login_answer(MERCHANT.0, "Wrong123"));
    let answers = futures_util::future::join_all(attempts).await;
    for answer in &answers {
        assert!([40100, 42900].contains(&answer.code()), "{:?}", answer.body);
    }
    // Each evaluated password writes one failure row; the rest were refused unchecked.
    let evaluated = app.count("SELECT COUNT(*) FROM audit_events WHERE action = 'login_failed'").await;
    assert!(evaluated <= max, "{evaluated} passwords checked, at most {max} allowed");
    assert_eq!(answers.iter().filter(|answer| answer.code() == 40100).count() as i64, max - 1);
    assert!(app.count("SELECT COUNT(*) FROM audit_events WHERE action = 'login_throttled'").await <= 1);
}

async fn forwarded_for_takes_the_entry_the_proxy_added(backend: Backend) {
    let app = spawn_app_with(backend, |config| {
        behind_the_proxy_at_127_0_0_1(config);
        config.throttle.address_max_failures = 3;
        config.throttle.account_max_failures = 100;
    })
    .await;
    // Rotating the client-written first entry does not dodge the per-address limit.
    for index in 0..3 {
        app.login_from(&format!("10.9.9.{index}, 203.0.113.5"), &format!("guess{index}"), "Wrong123").await;
    }
    assert_eq!(app.login_from("10.9.9.200, 203.0.113.5", MERCHANT.0, MERCHANT.1).await.code(), 42900);
    // Nor can a forged first entry lock someone else's address.
    assert_eq!(app.login_from("203.0.113.5, 198.51.100.9", MERCHANT.0, MERCHANT.1).await.code(), 20000);
    let stored = app.count("SELECT COUNT(*) FROM sessions WHERE client_address = '198.51.100.9'").await;
    assert_eq!(stored, 1);

    // Several proxies named: the right-most entry none of them is.
    let listed = app.restart_with(|config| config.trusted_proxies = "127.0.0.1, 10.0.0.0/8".parse().unwrap()).await;
    assert_eq!(listed.login_from("1.2.3.4, 192.0.2.44, 10.0.0.3", ADMIN.0, ADMIN.1).await.code(), 20000);
    let stored = listed.count("SELECT COUNT(*) FROM sessions WHERE client_address = '192.0.2.44'").await;
    assert_eq!(stored, 1);
}

/// A client connecting directly from 127.0.0.2, next to the one named proxy (127.0.0.1),
/// writes X-Forwarded-For itself: it is throttled, and checked against an open-API
/// whitelist, by its own address, whatever it claims.
async fn a_direct_client_is_known_by_its_own_address_whatever_it_forwards(backend: Backend) {
    let app = spawn_app_with(backend, |config| {
        crate::open_api::config(config);
        config.throttle.address_max_failures = 3;
        config.throttle.account_max_failures = 100;
    })
    .await;
    let direct = reqwest::Client::builder().local_address(std::net::IpAddr::from([127, 0, 0, 2])).build().unwrap();
    let login_directly = |forwarded_for: String, username: String, password: &'static str| {
        let request = direct
            .post(app.url("/adminapi/login/login"))
            .header("X-Forwarded-For", forwarded_for)
            .json(&json!({"username": username, "password": password}));
        app.send(request)
    };
    // Each failure claims another address: all are counted against 127.0.0.2.
    for index in 0..3 {
        login_directly(format!("203.0.113.{index}"), format!("guess{index}"), "Wrong123").await;
    }
    assert_eq!(app.count("SELECT COUNT(*) FROM login_throttle WHERE throttle_key = 'address:127.0.0.2'").await, 1);
    let claimed = login_directly("127.0.0.1".into(), MERCHANT.0.into(), MERCHANT.1).await;
    assert_eq!(claimed.code(), 42900, "{:?}", claimed.body);
    // The proxy's own clients, named by it, are not locked by that.
    assert_eq!(app.login_from("198.51.100.9", MERCHANT.0, MERCHANT.1).await.code(), 20000);

    // The merchant whitelists the proxy's address; the direct client claiming it is refused.
    let (_, _, key) = crate::open_api::merchant_with_key(&app, "direct").await;
    let path = "/openapi/v1/balance";
    let call = |client: &reqwest::Client| {
        let (timestamp, nonce) = (crate::open_api::now_seconds().to_string(), crate::open_api::nonce());
        let text = backoffice::merchant_api::signature::request_string("GET", path, &timestamp, &nonce, b"");
        let signed = backoffice::merchant_api::signature::sign(&key.secret, &text);
        let request = client
            .get(app.url(path))
            .header("x-forwarded-for", "127.0.0.1")
            .header("x-key-id", &key.id)
            .header("x-timestamp", timestamp)
            .header("x-nonce", nonce)
            .header("x-signature", signed);
        app.send(request)
    };
    let refused = call(&direct).await;
    assert_eq!((refused.status.as_u16(), refused.code()), (403, 40331), "{:?}", refused.body);
    assert!(refused.msg().contains("127.0.0.2"), "{}", refused.msg());
    assert_eq!(call(&app.client).await.code(), 20000);
}

async fn ipv6_clients_are_throttled_per_64(backend: Backend) {
    let app = spawn_app_with(backend, |config| {
        behind_the_proxy_at_127_0_0_1(config);
        config.throttle.address_max_failures = 3;
        config.throttle.account_max_failures = 100;
    })
    .await;
    for index in 1..=3 {
        app.login_from(&format!("2001:db8:5:6::{index:x}"), &format!("guess{index}"), "Wrong123").await;
    }
    // Another address of the same /64 is locked too; another /64 is not.
    assert_eq!(app.login_from("2001:db8:5:6:ffff::1", MERCHANT.0, MERCHANT.1).await.code(), 42900);
    assert_eq!(app.login_from("2001:db8:5:7::1", MERCHANT.0, MERCHANT.1).await.code(), 20000);
}

on_both_backends!(a_page_whose_offset_overflows_is_a_validation_error);

async fn a_page_whose_offset_overflows_is_a_validation_error(backend: Backend) {
    let app = crate::helpers::spawn_app(backend).await;
    let token = app.login(MERCHANT).await;
    for path in ["/adminapi/order/list", "/adminapi/finance/account/list", "/adminapi/quote/list"] {
        let answer = app.post_as(&token, path, json!({"page": i64::MAX / 10, "page_size": 20})).await;
        assert_eq!((answer.status.as_u16(), answer.code()), (400, 40000), "{path}: {:?}", answer.body);
        assert!(answer.data()["keys"]["page"].is_string(), "{path}: {:?}", answer.body);
    }
}
