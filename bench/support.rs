//! What the benchmarks share (each includes it with `#[path = "support.rs"] mod support;`).

use serde_json::Value;

/// POSTs `body` (with a bearer token if given) and answers the JSON envelope.
pub async fn post(http: &reqwest::Client, url: &str, token: Option<&str>, body: &Value) -> Value {
    let request = http.post(url).json(body);
    let request = match token {
        Some(token) => request.bearer_auth(token),
        None => request,
    };
    request.send().await.expect("request").json().await.expect("a JSON answer")
}

/// Signs in through the console's login call and answers the session token.
pub async fn login(http: &reqwest::Client, base: &str, username: &str, password: &str) -> String {
    let url = format!("{base}/adminapi/login/login");
    let answer = post(http, &url, None, &serde_json::json!({"username": username, "password": password})).await;
    answer["data"]["token"].as_str().unwrap_or_else(|| panic!("no token for {username}: {answer}")).to_string()
}
