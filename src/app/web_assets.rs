//! The built console (web/dist), embedded in the binary and served under `/web/`.
//!
//! Vite names its bundles by content hash under `assets/`, so those are cached for a
//! year as immutable; everything else (index.html above all) is revalidated on each
//! load through its ETag, so a new release is picked up at once.
//!
//! The console build writes `.br` and `.gz` twins of its larger files (web/scripts/
//! compress.mjs); they are served to clients that accept them, so no CPU is spent
//! compressing the same bytes on every request.
//!
//! `/web/` answers with one of three first pages the build writes: the login page with its
//! form as HTML in Chinese or in English (shown and usable before any script runs), or the
//! bare console for visitors with a session. The console keeps two hint cookies for this
//! choice (web/src/lib/shell-hints.ts); they are never trusted for anything else.

use axum::{
    Router,
    body::Body,
    extract::Path,
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Redirect, Response},
    routing::get,
};
use rust_embed::RustEmbed;

#[derive(RustEmbed)]
#[folder = "web/dist"]
#[allow_missing = true]
struct ConsoleAssets;

pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/", get(|| async { Redirect::temporary("/web/") }))
        .route("/web", get(|| async { Redirect::temporary("/web/") }))
        .route("/web/", get(|headers: HeaderMap| async move { serve_first_page(&headers) }))
        .route(
            "/web/{*path}",
            get(|Path(path): Path<String>, headers: HeaderMap| async move { serve(&path, &headers) }),
        )
}

/// The console's hint cookies (set by the browser, see web/src/lib/shell-hints.ts).
const SIGNED_IN_COOKIE: &str = "bo_signed_in";
const LOCALE_COOKIE: &str = "bo_locale";
const THEME_COOKIE: &str = "bo_theme";

/// Which page `/web/` answers with: the bare console when the browser holds a session, else
/// the login page in the stored language, Chinese unless English was chosen (the console's
/// own rule: the stored choice, else zh-CN), dark when the console's theme is.
fn first_page(request_headers: &HeaderMap) -> &'static str {
    let cookie = |name: &str| {
        request_headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .find(|(key, _)| *key == name)
            .map(|(_, value)| value.to_string())
    };
    if cookie(SIGNED_IN_COOKIE).as_deref() == Some("1") {
        return "index.html";
    }
    let english = cookie(LOCALE_COOKIE).as_deref() == Some("en-US");
    let dark = cookie(THEME_COOKIE).as_deref() == Some("dark");
    match (english, dark) {
        (true, true) => "login.en-US.dark.html",
        (true, false) => "login.en-US.html",
        (false, true) => "login.zh-CN.dark.html",
        (false, false) => "login.zh-CN.html",
    }
}

fn serve_first_page(request_headers: &HeaderMap) -> Response {
    let page = first_page(request_headers);
    // A console built before the login pages existed has only index.html.
    let page = if ConsoleAssets::get(page).is_some() { page } else { "index.html" };
    let mut response = serve(page, request_headers);
    // The same address answers differently by cookie: shared caches must keep them apart.
    response.headers_mut().insert(header::VARY, HeaderValue::from_static("accept-encoding, cookie"));
    response
}

fn serve(path: &str, request_headers: &HeaderMap) -> Response {
    let Some(file) = ConsoleAssets::get(path) else {
        if path == "index.html" {
            return (
                StatusCode::SERVICE_UNAVAILABLE,
                "The console is not built into this binary: run `make run` (or `npm run build` in web/).",
            )
                .into_response();
        }
        return (StatusCode::NOT_FOUND, "not found").into_response();
    };
    let etag = format!("\"{}\"", hex::encode(file.metadata.sha256_hash()));
    let (body, encoding) = match precompressed(path, request_headers) {
        Some((data, encoding)) => (data, Some(encoding)),
        None => (file.data, None),
    };
    let cache_control = if path.starts_with("assets/") { "public, max-age=31536000, immutable" } else { "no-cache" };
    let not_modified = request_headers
        .get(header::IF_NONE_MATCH)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.split(',').any(|candidate| candidate.trim() == etag));
    let mut response = if not_modified {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mime = mime_guess::from_path(path).first_or_octet_stream();
        let mut response = Response::new(Body::from(body.into_owned()));
        if let Ok(value) = HeaderValue::from_str(mime.as_ref()) {
            response.headers_mut().insert(header::CONTENT_TYPE, value);
        }
        if let Some(encoding) = encoding {
            response.headers_mut().insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
        }
        response
    };
    let headers = response.headers_mut();
    headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache_control));
    if let Ok(value) = HeaderValue::from_str(&etag) {
        headers.insert(header::ETAG, value);
    }
    response
}

/// The embedded compressed twin of `path` that the client accepts, best first.
fn precompressed(path: &str, request_headers: &HeaderMap) -> Option<(std::borrow::Cow<'static, [u8]>, &'static str)> {
    let accepted = request_headers.get(header::ACCEPT_ENCODING).and_then(|value| value.to_str().ok()).unwrap_or("");
    let accepts = |name: &str| {
        accepted.split(',').any(|item| {
            let mut parts = item.split(';');
            let coding = parts.next().unwrap_or("").trim();
            let refused = parts.any(|parameter| matches!(parameter.trim(), "q=0" | "q=0.0" | "q=0.00" | "q=0.000"));
            coding.eq_ignore_ascii_case(name) && !refused
        })
    };
    [("br", ".br"), ("gzip", ".gz")]
        .into_iter()
        .filter(|(name, _)| accepts(name))
        .find_map(|(name, suffix)| ConsoleAssets::get(&format!("{path}{suffix}")).map(|file| (file.data, name)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn accepting(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::ACCEPT_ENCODING, HeaderValue::from_str(value).unwrap());
        headers
    }

    fn with_cookies(values: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for value in values {
            headers.append(header::COOKIE, HeaderValue::from_str(value).unwrap());
        }
        headers
    }

    #[test]
    fn the_first_page_follows_the_hint_cookies() {
        assert_eq!(first_page(&HeaderMap::new()), "login.zh-CN.html");
        assert_eq!(first_page(&with_cookies(&["bo_locale=en-US"])), "login.en-US.html");
        assert_eq!(first_page(&with_cookies(&["a=b; bo_locale=en-US; c=d"])), "login.en-US.html");
        assert_eq!(first_page(&with_cookies(&["x=1", "bo_locale=en-US"])), "login.en-US.html");
        assert_eq!(first_page(&with_cookies(&["bo_locale=zh-CN"])), "login.zh-CN.html");
        // Anything else is the default language, never a file name taken from the cookie.
        assert_eq!(first_page(&with_cookies(&["bo_locale=../../etc"])), "login.zh-CN.html");
        assert_eq!(first_page(&with_cookies(&["not_bo_locale=en-US"])), "login.zh-CN.html");
        assert_eq!(first_page(&with_cookies(&["bo_signed_in=1; bo_locale=en-US"])), "index.html");
        assert_eq!(first_page(&with_cookies(&["bo_signed_in=0"])), "login.zh-CN.html");
        assert_eq!(first_page(&with_cookies(&["bo_theme=dark"])), "login.zh-CN.dark.html");
        assert_eq!(first_page(&with_cookies(&["bo_theme=dark; bo_locale=en-US"])), "login.en-US.dark.html");
        assert_eq!(first_page(&with_cookies(&["bo_theme=light; bo_locale=en-US"])), "login.en-US.html");
        assert_eq!(first_page(&with_cookies(&["bo_theme=dark; bo_signed_in=1"])), "index.html");
    }

    #[test]
    fn refused_encodings_are_not_chosen() {
        // Whatever the build embedded, an encoding the client refuses is never picked.
        assert!(precompressed("index.html", &accepting("identity")).is_none());
        assert!(precompressed("index.html", &accepting("br;q=0, gzip;q=0")).is_none());
        assert!(precompressed("missing.js", &accepting("br, gzip")).is_none());
    }
}
