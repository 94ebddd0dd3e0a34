use crate::helpers::{ADMIN, Backend, spawn_app};
use crate::on_both_backends;

on_both_backends!(unknown_paths_and_methods_get_envelopes);

async fn unknown_paths_and_methods_get_envelopes(backend: Backend) {
    let app = spawn_app(backend).await;
    let answer = app.send(app.client.post(app.url("/adminapi/nothing/here"))).await;
    assert_eq!((answer.status.as_u16(), answer.code()), (404, 40400));
    // A known path with a method it does not take: 405, and `Allow` names the method.
    let response = app.client.get(app.url("/adminapi/login/login")).send().await.unwrap();
    assert_eq!(response.headers()["allow"], "POST");
    let answer = app.send(app.client.get(app.url("/adminapi/login/login"))).await;
    assert_eq!((answer.status.as_u16(), answer.code()), (405, 40500));
}

#[tokio::test]
async fn the_root_redirects_to_the_console() {
    let app = spawn_app(Backend::Sqlite).await;
    for path in ["/", "/web"] {
        let response = app.client.get(app.url(path)).send().await.unwrap();
        assert!(response.status().is_redirection());
        assert_eq!(response.headers()["location"], "/web/");
    }
}

/// A browser asks for brotli and gzip on every call. Small answers go as they are
/// (compressing 400 bytes cost more than half the server's rate); a page of orders is
/// compressed.
#[tokio::test]
async fn small_answers_go_uncompressed_and_large_ones_compressed() {
    let app = spawn_app(Backend::Sqlite).await;
    let (mid, token) = app.merchant("compressed").await;
    app.fund(mid, 1_000_000, 0).await;
    let call = |path: &'static str, body: serde_json::Value| {
        app.client.post(app.url(path)).bearer_auth(&token).header("accept-encoding", "br, gzip").json(&body).send()
    };
    let small = call("/adminapi/merchant/userInfo", serde_json::json!({})).await.unwrap();
    assert_eq!(small.status(), 200);
    assert!(small.headers().get("content-encoding").is_none());
    let text = small.text().await.unwrap();
    assert!(text.len() < 1024 && text.contains("\"code\":20000"), "{text}");
    for index in 0..12 {
        let order = serde_json::json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10", "merchant_order_id": format!("Z-{index}")});
        assert_eq!(app.add_order(&token, order).await.code(), 20000);
    }
    let large = call("/adminapi/order/list", serde_json::json!({"page_size": 20})).await.unwrap();
    assert_eq!(large.headers()["content-encoding"], "br");
}

#[tokio::test]
async fn every_response_carries_the_security_headers() {
    let app = spawn_app(Backend::Sqlite).await;
    for path in ["/web/", "/adminapi/login/logout", "/nothing"] {
        let response = app.client.post(app.url(path)).send().await.unwrap();
        let headers = response.headers();
        let policy = headers["content-security-policy"].to_str().unwrap();
        assert!(policy.contains("script-src 'self';"), "{path}: {policy}");
        assert!(policy.contains("frame-ancestors 'none'"));
        assert_eq!(headers["x-content-type-options"], "nosniff");
        assert_eq!(headers["x-frame-options"], "DENY");
        assert_eq!(headers["referrer-policy"], "no-referrer");
        assert!(headers.contains_key("x-request-id"));
    }
}

/// Needs the console built into the binary (`make test` builds it first).
#[tokio::test]
async fn the_console_is_served_with_the_right_caching_and_compression() {
    let app = spawn_app(Backend::Sqlite).await;
    let response = app.client.get(app.url("/web/")).header("accept-encoding", "gzip").send().await.unwrap();
    assert_eq!(response.status(), 200, "the console is not embedded: build it with `npm run build` in web/ first");
    assert_eq!(response.headers()["cache-control"], "no-cache");
    assert_eq!(response.headers()["content-encoding"], "gzip");
    let etag = response.headers()["etag"].clone();
    let index = String::from_utf8(decompress(response.bytes().await.unwrap().to_vec())).unwrap();
    assert!(!index.contains("<script>"), "inline scripts would break the Content-Security-Policy");
    // A script tag's source, or (the login page) the first name in the list of its meta tag.
    let script = index
        .split(|c: char| c == '"' || c.is_whitespace())
        .find(|part| part.starts_with("/web/assets/index-") && part.ends_with(".js"))
        .expect("index.html references the console's hashed entry script");
    let asset = app.client.get(app.url(script)).header("accept-encoding", "gzip").send().await.unwrap();
    assert_eq!(asset.status(), 200);
    assert_eq!(asset.headers()["cache-control"], "public, max-age=31536000, immutable");
    assert!(asset.headers()["content-type"].to_str().unwrap().contains("javascript"));
    // Hashed bundles are served from their precompressed twins.
    let brotli = app.client.get(app.url(script)).header("accept-encoding", "gzip, br").send().await.unwrap();
    assert_eq!(brotli.headers()["content-encoding"], "br");
    let plain = app.client.get(app.url(script)).send().await.unwrap();
    assert!(plain.headers().get("content-encoding").is_none());
    let plain_length = plain.bytes().await.unwrap().len();
    assert!(brotli.bytes().await.unwrap().len() < plain_length / 2);
    let revalidated = app.client.get(app.url("/web/")).header("if-none-match", etag).send().await.unwrap();
    assert_eq!(revalidated.status(), 304);
    let missing = app.client.get(app.url("/web/assets/missing-file.js")).send().await.unwrap();
    assert_eq!(missing.status(), 404);
}

/// `/web/` sends the login form as HTML in the language of the hint cookie (Chinese by
/// default; dark for the dark theme), and the bare console to a browser holding a session.
/// Needs the console built in.
#[tokio::test]
async fn the_first_page_is_the_login_form_in_the_chosen_language_or_the_bare_console() {
    let app = spawn_app(Backend::Sqlite).await;
    let page = |cookie: Option<&'static str>| {
        let mut request = app.client.get(app.url("/web/"));
        if let Some(cookie) = cookie {
            request = request.header("cookie", cookie);
        }
        async move {
            let response = request.send().await.unwrap();
            assert_eq!(response.status(), 200);
            assert_eq!(response.headers()["vary"], "accept-encoding, cookie");
            let etag = response.headers()["etag"].to_str().unwrap().to_string();
            (etag, response.text().await.unwrap())
        }
    };
    let (chinese_tag, chinese) = page(None).await;
    assert!(chinese.contains(r#"<html lang="zh-CN">"#), "{chinese}");
    assert!(chinese.contains(r#"data-testid="login-form""#) && chinese.contains("登录"), "{chinese}");
    assert!(!chinese.contains("<script>"), "inline scripts would break the Content-Security-Policy");
    let (english_tag, english) = page(Some("bo_locale=en-US")).await;
    assert!(english.contains(r#"<html lang="en-US">"#) && english.contains("Sign in"), "{english}");
    assert_ne!(chinese_tag, english_tag, "each page revalidates by its own ETag");
    let (_, dark) = page(Some("bo_theme=dark")).await;
    assert!(dark.contains(r#"<body data-theme="dark">"#) && dark.contains("登录"), "{dark}");
    let (_, console) = page(Some("bo_locale=en-US; bo_signed_in=1")).await;
    assert!(console.contains(r#"<div id="root"><div class="app-boot""#), "{console}");
    assert!(!console.contains("login-form"));
    // Revalidation compares with the page this browser gets.
    let revalidated =
        app.client.get(app.url("/web/")).header("cookie", "bo_locale=en-US").header("if-none-match", english_tag);
    assert_eq!(revalidated.send().await.unwrap().status(), 304);
}

#[tokio::test]
async fn the_api_reference_is_generated_and_served() {
    let app = spawn_app(Backend::Sqlite).await;
    let document: serde_json::Value =
        app.client.get(app.url("/api-docs/openapi.json")).send().await.unwrap().json().await.unwrap();
    for path in [
        "/adminapi/login/login",
        "/adminapi/login/logout",
        "/adminapi/merchant/userInfo",
        "/api/user/menu",
        "/adminapi/monitor/overview",
        "/adminapi/login/verify2FA",
        "/adminapi/google-auth/setup2FA",
        "/adminapi/google-auth/enable2FA",
        "/adminapi/google-auth/disable2FA",
        "/adminapi/google-auth/regenerateBackupCodes",
        "/adminapi/google-auth/get2FAStatus",
        "/adminapi/merchant/changeIntegration",
        "/adminapi/monitor/stream",
        "/adminapi/monitor/stream/ticket",
        "/healthz",
        "/readyz",
        "/metrics",
    ] {
        assert!(document["paths"][path].is_object(), "{path} missing from the OpenAPI document");
    }
    let page = app.client.get(app.url("/api-docs/ui/")).send().await.unwrap();
    assert_eq!(page.status(), 200);
}

/// Every operation declares its success answer (issue 54): a JSON answer is the envelope
/// with code 20000 around the handler's `data` schema, anything else (a file, the event
/// stream, the metrics) names its media type. The console's types and the schema fuzzer
/// read these declarations; a real answer here has exactly the declared fields.
#[tokio::test]
async fn openapi_every_success_declares_its_answer() {
    let app = spawn_app(Backend::Sqlite).await;
    let document: serde_json::Value =
        app.client.get(app.url("/api-docs/openapi.json")).send().await.unwrap().json().await.unwrap();
    let mut operations = 0;
    for (path, item) in document["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let content = operation["responses"]["200"]["content"].as_object();
            let content = content.unwrap_or_else(|| panic!("{method} {path}: the 200 answer declares no content"));
            if let Some(json) = content.get("application/json") {
                let envelope = &json["schema"];
                assert_eq!(envelope["properties"]["code"]["const"], 20000, "{method} {path}: {envelope}");
                assert_eq!(envelope["required"], serde_json::json!(["code", "msg", "data"]), "{method} {path}");
                assert!(envelope["properties"]["data"].is_object(), "{method} {path}: no `data` schema");
            }
            // Anything else is a file, the event stream or the metrics (a number declared
            // without `content_type` would come out as text/plain).
            for media in content.keys().filter(|media| *media != "application/json") {
                let file = ["text/csv", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"];
                let known = file.contains(&media.as_str())
                    || media.starts_with("image/")
                    || (media == "text/event-stream" && path == "/adminapi/monitor/stream")
                    || (media == "text/plain" && path == "/metrics");
                assert!(known, "{method} {path} answers {media}");
            }
            operations += 1;
        }
    }
    assert!(operations > 120, "{operations} operations");
    let success = |path: &str, method: &str| document["paths"][path][method]["responses"]["200"]["content"].clone();
    let data =
        |path: &str, method: &str| success(path, method)["application/json"]["schema"]["properties"]["data"].clone();
    assert_eq!(data("/adminapi/login/logout", "post"), serde_json::json!({"type": "null"}));
    assert_eq!(data("/adminapi/merchant/userInfo", "post")["$ref"], "#/components/schemas/UserInfo");
    assert_eq!(data("/adminapi/message/list", "post")["items"]["$ref"], "#/components/schemas/MessageItem");
    let export = success("/adminapi/order/export", "get");
    assert!(export["text/csv"].is_object() && export.get("application/json").is_none(), "{export}");
    assert!(success("/adminapi/monitor/stream", "get")["text/event-stream"].is_object());

    // The declared fields are the answer's: every one required is there, nothing else is.
    let token = app.login(ADMIN).await;
    let answer = app.post_as(&token, "/adminapi/merchant/userInfo", serde_json::json!({})).await;
    let schema = &document["components"]["schemas"]["UserInfo"];
    let declared: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
    for field in answer.data().as_object().unwrap().keys() {
        assert!(declared.contains(&field), "{field} is not declared in UserInfo");
    }
    for field in schema["required"].as_array().unwrap() {
        assert!(answer.data().get(field.as_str().unwrap()).is_some(), "{field} is missing from the answer");
    }
}

fn decompress(bytes: Vec<u8>) -> Vec<u8> {
    use std::io::Read;
    let mut output = Vec::new();
    flate2::read::GzDecoder::new(bytes.as_slice()).read_to_end(&mut output).unwrap();
    output
}

/// A body over the limit is refused by its declared length before it is read. The server reads
/// the rest before answering: otherwise it closes with unread bytes, the kernel sends a reset,
/// and the client may lose the answer. Proof that it was read: the same connection serves a
/// second request afterwards.
#[tokio::test]
async fn an_oversized_body_is_answered_and_the_connection_stays_usable() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt, BufReader};
    let app = spawn_app(Backend::Sqlite).await;
    let host = app.address.trim_start_matches("http://").to_string();
    let mut stream = BufReader::new(tokio::net::TcpStream::connect(&host).await.unwrap());
    let body = format!("{{\"username\": \"{}\", \"password\": \"x\"}}", "a".repeat(200_000));
    let request = format!(
        "POST /adminapi/login/login HTTP/1.1\r\nhost: {host}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.get_mut().write_all(request.as_bytes()).await.unwrap();
    let (head, first) = read_response(&mut stream).await;
    assert!(head.starts_with("HTTP/1.1 400"), "{head}");
    assert!(first.contains("\"code\":40000"), "{first}");

    let again = format!(
        "POST /adminapi/login/logout HTTP/1.1\r\nhost: {host}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n"
    );
    stream.get_mut().write_all(again.as_bytes()).await.expect("the connection is still open");
    let mut rest = String::new();
    stream.read_to_string(&mut rest).await.expect("a second answer on the same connection");
    assert!(rest.starts_with("HTTP/1.1 "), "{rest:?}");
}

/// Reads one HTTP/1.1 response framed by Content-Length: (head, body).
async fn read_response(stream: &mut tokio::io::BufReader<tokio::net::TcpStream>) -> (String, String) {
    use tokio::io::{AsyncBufReadExt, AsyncReadExt};
    let mut head = String::new();
    loop {
        let mut line = String::new();
        assert!(stream.read_line(&mut line).await.expect("response head") > 0, "connection closed: {head}");
        if line == "\r\n" {
            break;
        }
        head.push_str(&line);
    }
    let length: usize = head
        .lines()
        .find_map(|line| line.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().parse().unwrap()))
        .expect("a content-length");
    let mut body = vec![0; length];
    stream.read_exact(&mut body).await.unwrap();
    (head, String::from_utf8(body).unwrap())
}

/// The merchant API guide is served by the server itself, in the language asked for (the
/// console links it with its own), so a merchant's developer never needs the repository.
#[tokio::test]
async fn the_merchant_api_guide_is_served_in_both_languages() {
    let app = spawn_app(Backend::Sqlite).await;
    let page = |path: &'static str, language: &'static str| {
        let request = app.client.get(app.url(path)).header("accept-language", language);
        async move {
            let response = request.send().await.unwrap();
            let status = response.status().as_u16();
            let kind = response.headers().get("content-type").map(|v| v.to_str().unwrap().to_string());
            (status, kind, response.text().await.unwrap())
        }
    };
    let (status, kind, zh) = page("/guide/merchant-api?lang=zh-CN", "en-US").await;
    assert_eq!((status, kind.as_deref()), (200, Some("text/html; charset=utf-8")));
    // The console's icon, so a browser asks for no /favicon.ico (a 404 in its console).
    assert!(zh.contains("href=\"/web/favicon.svg\""));
    assert!(zh.contains("<html lang=\"zh-CN\">") && zh.contains("待签名字符串"), "{zh:.300}");
    assert!(!zh.contains("The string to sign"));
    // Without `lang`, the browser's language.
    let (_, _, en) = page("/guide/merchant-api", "en-US,en;q=0.9").await;
    assert!(en.contains("<html lang=\"en-US\">") && en.contains("X-Signature"), "{en:.300}");
    assert!(!en.contains("待签名字符串"));
    // The guide's links lead to pages that exist.
    for link in ["/guide/merchant-api-callbacks?lang=en-US", "/guide/examples/merchant_api.py"] {
        assert!(en.contains(&format!("href=\"{link}\"")), "{link}");
        assert_eq!(page(link, "en-US").await.0, 200, "{link}");
    }
    let (_, _, callbacks) = page("/guide/merchant-api-callbacks?lang=zh-CN", "en-US").await;
    assert!(callbacks.contains("Standard Webhooks") && callbacks.contains("通知地址"));
    let answer = app.send(app.client.get(app.url("/guide/secrets"))).await;
    assert_eq!((answer.status.as_u16(), answer.code()), (404, 40400));
    let answer = app.send(app.client.get(app.url("/guide/examples/..%2FCargo.toml"))).await;
    assert_eq!((answer.status.as_u16(), answer.code()), (404, 40400));
}
