//! PostgreSQL going away under a running server: the server still stops when told to.
//! sqlx keeps a floor of two connections and, while PostgreSQL refuses connections, keeps
//! trying to reopen one for up to five minutes; a stop must not wait that out.

use crate::helpers::{ADMIN, Backend, spawn_app_with, wait_until};
use reqwest::Url;
use serde_json::json;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::task::{JoinHandle, JoinSet};

/// A TCP relay to PostgreSQL that the test can cut.
struct Relay {
    port: u16,
    task: JoinHandle<()>,
}

impl Relay {
    async fn to(target: String) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let task = tokio::spawn(async move {
            let mut relayed = JoinSet::new();
            while let Ok((mut inbound, _)) = listener.accept().await {
                let target = target.clone();
                relayed.spawn(async move {
                    if let Ok(mut outbound) = TcpStream::connect(target).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
            }
        });
        Relay { port, task }
    }

    /// As a stopped PostgreSQL: the listener closes, so new connections are refused, and
    /// every relayed connection is dropped (the task's `JoinSet` aborts them).
    async fn cut(self) {
        self.task.abort();
        let _ = self.task.await;
    }
}

fn host_and_port(url: &Url) -> String {
    format!("{}:{}", url.host_str().expect("a host in TEST_POSTGRES_URL"), url.port().unwrap_or(5432))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_whose_postgresql_went_away_still_stops() {
    let admin_url = std::env::var("TEST_POSTGRES_URL").expect("TEST_POSTGRES_URL (run the tests with `make test`)");
    let relay = Relay::to(host_and_port(&Url::parse(&admin_url).unwrap())).await;
    let port = relay.port;
    let mut app = spawn_app_with(Backend::Postgres, |config| {
        let mut url = Url::parse(&config.database_url).unwrap();
        url.set_host(Some("127.0.0.1")).unwrap();
        url.set_port(Some(port)).unwrap();
        config.database_url = url.to_string();
    })
    .await;
    let admin = app.login(ADMIN).await;
    let list = || app.post_as(&admin, "/adminapi/order/list", json!({}));
    assert_eq!(list().await.code(), 20000);

    relay.cut().await;
    // A call that needs the database fails with an answer; the broken connection it used is
    // closed, and the pool starts reopening one against the refusing port.
    let refused = list().await;
    assert_eq!((refused.status.as_u16(), refused.code()), (503, 50300), "{:?}", refused.body);

    // The server's own tasks (worker, notification sender, monitor) use up the dead
    // connections; once fewer than two are left the pool tries to open one and keeps
    // trying: a place taken while none is idle.
    let pool = &app.state.db.pool;
    wait_until("the pool reopens a connection", 30, || async { pool.num_idle() == 0 && pool.size() > 0 }).await;
    // Without a bound on closing the pool this waits until the pool gives up (five minutes).
    tokio::time::timeout(Duration::from_secs(60), app.stop())
        .await
        .expect("the server stopped within a minute of being told to");
}
