//! Security headers on every response.

use axum::{
    extract::Request,
    http::{HeaderValue, header},
    middleware::Next,
    response::Response,
};
use tower_http::set_header::SetResponseHeaderLayer;

/// What the console needs and nothing more: its own scripts only (no inline script),
/// inline styles because antd writes its CSS at run time, `data:` images for the
/// two-factor QR code, and API calls to this origin.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; \
     connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'";

pub async fn add_security_headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CONTENT_SECURITY_POLICY));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    // No cross-origin opener keeps a handle on the console's window. Its price: a first
    // navigation to the console moves to a new browsing context group, often a new renderer
    // process (16–68 ms of the login form's first paint on the 2-core bench machine,
    // bench/README.md "Where the time to the form's paint goes"). The login page becomes the
    // signed-in console in place, so it keeps the header too.
    headers.insert("cross-origin-opener-policy", HeaderValue::from_static("same-origin"));
    headers.insert("permissions-policy", HeaderValue::from_static("camera=(), microphone=(), geolocation=()"));
    response
}

/// For answers carrying secrets, backup codes or tokens: no cache may keep them, the
/// browser's included.
pub fn no_store() -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::overriding(header::CACHE_CONTROL, HeaderValue::from_static("no-store"))
}
