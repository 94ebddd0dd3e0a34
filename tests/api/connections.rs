//! The listener's bounds (src/platform/connections/): a client cannot hold connections with
//! half-sent requests, idle sockets or bodies it never finishes, nor more than its share
//! of connections from one address. Each test waits for the server to close the socket
//! (a read that returns nothing or fails), never for a time.

use crate::helpers::{Backend, TestApp, spawn_app_with};
use crate::on_both_backends;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

on_both_backends!(
    a_stalled_request_head_is_closed_while_the_server_keeps_answering,
    an_idle_connection_is_closed_after_its_answer,
    a_body_never_completed_is_cut,
    connections_over_the_per_address_cap_are_closed_and_other_addresses_served
);

/// A guard against a test hanging for ever when the server never closes: far longer than
/// any bound the tests set, and not a measure of anything.
const HANG_GUARD: Duration = Duration::from_secs(60);

fn server(app: &TestApp) -> SocketAddr {
    app.address.trim_start_matches("http://").parse().unwrap()
}

async fn connect_from(from: [u8; 4], app: &TestApp) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::from((from, 0))).unwrap();
    socket.connect(server(app)).await.unwrap()
}

/// Reads until the server closes the connection; returns what it sent before.
async fn until_closed(stream: &mut TcpStream) -> String {
    let mut received = Vec::new();
    let read = tokio::time::timeout(HANG_GUARD, async {
        let mut buffer = [0u8; 4096];
        loop {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => return,
                Ok(count) => received.extend_from_slice(&buffer[..count]),
            }
        }
    })
    .await;
    assert!(read.is_ok(), "the server kept the connection open");
    String::from_utf8_lossy(&received).into_owned()
}

/// A whole GET /healthz on a fresh connection from `from`: whether it was answered 200.
async fn healthz_from(from: [u8; 4], app: &TestApp) -> bool {
    let mut stream = connect_from(from, app).await;
    let request = b"GET /healthz HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n";
    if stream.write_all(request).await.is_err() {
        return false;
    }
    until_closed(&mut stream).await.starts_with("HTTP/1.1 200")
}

async fn a_stalled_request_head_is_closed_while_the_server_keeps_answering(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.connections.header_read_timeout = Duration::from_secs(1)).await;
    // Slowloris: a request line and one header, then nothing.
    let mut stalled = connect_from([127, 0, 0, 1], &app).await;
    stalled.write_all(b"GET /healthz HTTP/1.1\r\nHost: test\r\n").await.unwrap();
    // And one that connects and sends nothing at all.
    let mut silent = connect_from([127, 0, 0, 1], &app).await;
    assert!(healthz_from([127, 0, 0, 1], &app).await, "the server answers others meanwhile");
    assert_eq!(until_closed(&mut stalled).await, "", "closed without an answer");
    assert_eq!(until_closed(&mut silent).await, "");
    assert!(healthz_from([127, 0, 0, 1], &app).await);
}

async fn an_idle_connection_is_closed_after_its_answer(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.connections.idle_timeout = Duration::from_secs(1)).await;
    let mut stream = connect_from([127, 0, 0, 1], &app).await;
    stream.write_all(b"GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n").await.unwrap();
    // The answer comes, then the kept-alive connection waits in vain and is closed.
    let received = until_closed(&mut stream).await;
    assert!(received.starts_with("HTTP/1.1 200"), "{received}");
}

async fn a_body_never_completed_is_cut(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.connections.body_read_timeout = Duration::from_secs(1)).await;
    let mut stream = connect_from([127, 0, 0, 1], &app).await;
    let head = "POST /adminapi/login/login HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n\
                Content-Length: 100\r\n\r\n{\"username\":";
    stream.write_all(head.as_bytes()).await.unwrap();
    // 88 bytes never come: the connection is closed (with or without an answer first).
    until_closed(&mut stream).await;
    assert!(healthz_from([127, 0, 0, 1], &app).await);
}

async fn connections_over_the_per_address_cap_are_closed_and_other_addresses_served(backend: Backend) {
    let app = spawn_app_with(backend, |config| {
        config.connections.max_connections_per_address = 3;
        config.connections.header_read_timeout = Duration::from_secs(600);
    })
    .await;
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(connect_from([127, 0, 0, 1], &app).await);
    }
    // The fourth from the same address is closed at once, unanswered.
    let mut over = connect_from([127, 0, 0, 1], &app).await;
    let _ = over.write_all(b"GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n").await;
    assert_eq!(until_closed(&mut over).await, "");
    // Another address is served meanwhile.
    assert!(healthz_from([127, 0, 0, 2], &app).await);
    // A held connection closed gives its place back.
    drop(held.pop());
    crate::helpers::wait_until("127.0.0.1 is served again", 30, || healthz_from([127, 0, 0, 1], &app)).await;
}
