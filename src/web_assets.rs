//! The built console (web/dist), embedded in the binary and served under `/web/`.
//!
//! Vite names its bundles by content hash under `assets/`, so those are cached for a
//! year as immutable; everything else (index.html above all) is revalidated on each
//! load through its ETag, so a new release is picked up at once.

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
        .route("/web/", get(|headers: HeaderMap| async move { serve("index.html", &headers) }))
        .route("/web/{*path}", get(|Path(path): Path<String>, headers: HeaderMap| async move { serve(&path, &headers) }))
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
    let cache_control = if path.starts_with("assets/") {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    let not_modified = request_headers
        .get(header::IF_NONE_MATCH)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.split(',').any(|candidate| candidate.trim() == etag));
    let mut response = if not_modified {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mime = mime_guess::from_path(path).first_or_octet_stream();
        let mut response = Response::new(Body::from(file.data.into_owned()));
        if let Ok(value) = HeaderValue::from_str(mime.as_ref()) {
            response.headers_mut().insert(header::CONTENT_TYPE, value);
        }
        response
    };
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache_control));
    if let Ok(value) = HeaderValue::from_str(&etag) {
        headers.insert(header::ETAG, value);
    }
    response
}
