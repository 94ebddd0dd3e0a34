//! Request extractors that turn every kind of bad input into a validation envelope.

use crate::http::error::{AppError, FieldError};
use crate::i18n::Message;
use axum::{
    body::Bytes,
    extract::{ConnectInfo, FromRequest, FromRequestParts, Request},
    http::request::Parts,
};
use serde::de::DeserializeOwned;
use std::net::{IpAddr, SocketAddr};

/// A JSON body parsed into `T`. Unlike `axum::Json` it never answers with plain text:
/// bad JSON, a wrong type or a missing field become `40000` with the offending field
/// named. An empty body is read as `{}`, so calls without parameters may omit it.
pub struct JsonBody<T>(pub T);

impl<S, T> FromRequest<S> for JsonBody<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = AppError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = Bytes::from_request(request, state).await.map_err(|rejection| {
            // Too large or unreadable bodies: the same answer as malformed JSON.
            tracing::debug!(%rejection, "request body rejected");
            AppError::MalformedBody
        })?;
        // Only no body at all is `{}`: whitespace alone is a body, and not JSON.
        parse_json(if bytes.is_empty() { b"{}" } else { &bytes }).map(JsonBody)
    }
}

/// Query parameters parsed into `T` (`query_string`). Unlike `axum::extract::Query` a bad
/// parameter is the `40000` envelope naming it (the plain-text rejection broke the API
/// contract), and an integer is whatever JSON Schema calls one (`5.0` too).
pub struct QueryParams<T>(pub T);

impl<S, T> FromRequestParts<S> for QueryParams<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        crate::http::query_string::from_query(parts.uri.query().unwrap_or("")).map(QueryParams).map_err(
            |(field, fault)| {
                let message = match fault {
                    crate::http::query_string::Fault::Invalid(detail) => Message::InvalidField { detail },
                    crate::http::query_string::Fault::NulCharacter => Message::NulCharacter,
                };
                AppError::Validation(vec![FieldError::new(field, message)])
            },
        )
    }
}

/// The JSON body of a money-moving call with the `Idempotency-Key` it carried, if any
/// (see `idempotency`). The key is checked here; the handler claims it in its transaction.
pub struct IdempotentJson<T>(pub T, pub Option<crate::http::idempotency::IdempotentRequest>);

impl<S, T> FromRequest<S> for IdempotentJson<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = AppError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let endpoint = request.uri().path().to_string();
        let key = request.headers().get(crate::http::idempotency::HEADER).map(|value| value.as_bytes().to_vec());
        let bytes = Bytes::from_request(request, state).await.map_err(|rejection| {
            tracing::debug!(%rejection, "request body rejected");
            AppError::MalformedBody
        })?;
        let bytes: &[u8] = if bytes.is_empty() { b"{}" } else { &bytes };
        let body = parse_json::<T>(bytes)?;
        // The body's digest only for a call that carries a key: an order placed without one
        // (the open API's clients, the load benchmark) pays for one parse, not two.
        let idempotency = match key {
            None => None,
            Some(key) => {
                let value: serde_json::Value = serde_json::from_slice(bytes).map_err(|_| AppError::MalformedBody)?;
                crate::http::idempotency::IdempotentRequest::parse(Some(&key), &endpoint, &value)?
            }
        };
        Ok(IdempotentJson(body, idempotency))
    }
}

fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, AppError> {
    let mut value: serde_json::Value = serde_json::from_slice(bytes).map_err(|_| AppError::MalformedBody)?;
    // Every request body is an object: serde would also read a struct from an array by
    // position, which the OpenAPI document does not allow.
    if !value.is_object() {
        let detail = "expected a JSON object".to_string();
        return Err(AppError::Validation(vec![FieldError::new("body", Message::InvalidField { detail })]));
    }
    // U+0000 in what the type reads is refused naming where; in fields the type does not
    // read (ignored, never stored) it is no one's business, as the document says.
    let nul_paths = mark_nul_texts(bytes, &mut value);
    whole_numbers_as_integers(&mut value);
    serde_path_to_error::deserialize(value).map_err(|error| {
        let path = error.path().to_string();
        let field = if path == "." { "body".to_string() } else { path };
        let within = |nul: &&String| {
            nul.strip_prefix(field.as_str()).is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
        };
        // serde's text names the expected type, which is useful and contains no input.
        let detail = error.into_inner().to_string();
        // A flattened struct loses the path: a marker read as text is still told by its type.
        let marker = || nul_paths.first().filter(|_| detail.starts_with("invalid type: map"));
        if let Some(nul) = nul_paths.iter().find(within).or_else(marker) {
            return AppError::Validation(vec![FieldError::new(nul.clone(), Message::NulCharacter)]);
        }
        AppError::Validation(vec![FieldError::new(field, Message::InvalidField { detail })])
    })
}

/// PostgreSQL cannot store U+0000 and SQLite would keep what the other engine refuses, so
/// no text holding it reaches a handler. Each such string is replaced by an object no text
/// field accepts: reading it fails at its path, answered as a NUL there (`remark`,
/// `lines[3].account`), while a field the type ignores stays ignored. A field *name*
/// holding it names no field of any request, so the entry is dropped. Returns the paths.
fn mark_nul_texts(bytes: &[u8], value: &mut serde_json::Value) -> Vec<String> {
    let mut paths = Vec::new();
    // JSON writes U+0000 only as the escape `\u0000`: a body without one needs no walk.
    if bytes.windows(6).any(|window| window == b"\\u0000") {
        mark(value, "", &mut paths);
    }
    paths
}

fn mark(value: &mut serde_json::Value, path: &str, paths: &mut Vec<String>) {
    match value {
        serde_json::Value::String(text) if text.contains('\0') => {
            paths.push(path.to_string());
            *value = serde_json::json!({ "nul": path });
        }
        serde_json::Value::Array(items) => {
            for (index, item) in items.iter_mut().enumerate() {
                mark(item, &format!("{path}[{index}]"), paths);
            }
        }
        serde_json::Value::Object(fields) => {
            fields.retain(|key, _| !key.contains('\0'));
            for (key, child) in fields.iter_mut() {
                let child_path = if path.is_empty() { key.clone() } else { format!("{path}.{key}") };
                mark(child, &child_path, paths);
            }
        }
        _ => {}
    }
}

/// A path segment holding U+0000 (`%00`) names nothing the server stores: 40000 on `field`
/// before it reaches a query, which PostgreSQL would fail on.
pub fn path_text(field: &str, text: &str) -> Result<(), AppError> {
    match text.contains('\0') {
        true => Err(AppError::Validation(vec![FieldError::new(field, Message::NulCharacter)])),
        false => Ok(()),
    }
}

/// JSON has one number type: `5.0` is the integer 5 (JSON Schema says so too), so a
/// whole number written with a fraction is read as an integer.
fn whole_numbers_as_integers(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Number(number) => {
            // Strictly inside: a literal just outside i64 rounds to the bound as a float.
            let whole = number.as_f64().filter(|float| {
                number.is_f64() && float.fract() == 0.0 && *float > i64::MIN as f64 && *float < i64::MAX as f64
            });
            if let Some(float) = whole {
                *value = serde_json::Value::from(float as i64);
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(whole_numbers_as_integers),
        serde_json::Value::Object(fields) => fields.values_mut().for_each(whole_numbers_as_integers),
        _ => {}
    }
}

/// The client's address as the server sees it. Forwarded headers are used only when
/// the server is configured to sit behind a proxy, and then only the entry a trusted
/// proxy added (see `forwarded`).
#[derive(Debug, Clone, Copy)]
pub struct ClientAddress(pub IpAddr);

/// Set by the application when `--trust-forwarded-for` is given: the proxies to trust.
#[derive(Debug, Clone)]
pub struct TrustForwardedFor(pub Option<std::sync::Arc<crate::platform::forwarded::TrustedProxies>>);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddress {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|info| info.0.ip())
            .unwrap_or(IpAddr::from([127, 0, 0, 1]));
        let Some(trusted) = parts.extensions.get::<TrustForwardedFor>().and_then(|trust| trust.0.clone()) else {
            return Ok(ClientAddress(crate::platform::forwarded::canonical(peer)));
        };
        let values: Vec<&str> =
            parts.headers.get_all("x-forwarded-for").iter().filter_map(|value| value.to_str().ok()).collect();
        Ok(ClientAddress(crate::platform::forwarded::client_address(peer, &values, &trusted)))
    }
}

/// A multipart part read in chunks, so an oversized upload is refused as soon as it passes
/// `max` bytes instead of being held whole. None: too large, or cut off (a body over the
/// route's limit ends as a broken chunk, which is the same "too large" to the sender).
pub async fn bounded_part(field: &mut axum::extract::multipart::Field<'_>, max: usize) -> Option<Vec<u8>> {
    let mut bytes = Vec::new();
    while let Some(chunk) = field.chunk().await.ok()? {
        if bytes.len() + chunk.len() > max {
            return None;
        }
        bytes.extend_from_slice(&chunk);
    }
    Some(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    struct Sample {
        #[allow(dead_code)]
        name: String,
        #[serde(default)]
        count: Option<i64>,
    }

    fn field_of(error: AppError) -> String {
        match error {
            AppError::Validation(fields) => fields[0].field.clone(),
            other => panic!("expected a validation error, got {other:?}"),
        }
    }

    #[test]
    fn syntax_errors_are_malformed_bodies() {
        assert!(matches!(parse_json::<Sample>(b"{\"name\":"), Err(AppError::MalformedBody)));
        assert!(matches!(parse_json::<Sample>(b"not json"), Err(AppError::MalformedBody)));
    }

    #[test]
    fn wrong_types_name_the_field() {
        assert_eq!(field_of(parse_json::<Sample>(b"{\"name\":1}").unwrap_err()), "name");
        assert_eq!(field_of(parse_json::<Sample>(b"{\"name\":\"a\",\"count\":\"x\"}").unwrap_err()), "count");
        assert_eq!(field_of(parse_json::<Sample>(b"\"text\"").unwrap_err()), "body");
    }

    #[test]
    fn only_objects_are_bodies() {
        // serde alone reads a struct from an array by position.
        assert_eq!(field_of(parse_json::<Sample>(b"[\"a\", 1]").unwrap_err()), "body");
    }

    #[test]
    fn whole_numbers_with_a_fraction_are_integers() {
        let sample = parse_json::<Sample>(b"{\"name\":\"a\",\"count\":-574.0}").unwrap();
        assert_eq!(sample.count, Some(-574));
        assert_eq!(field_of(parse_json::<Sample>(b"{\"name\":\"a\",\"count\":1.5}").unwrap_err()), "count");
        let beyond = b"{\"name\":\"a\",\"count\":-9223372036854775809}";
        assert_eq!(field_of(parse_json::<Sample>(beyond).unwrap_err()), "count");
        // Read exactly where a float's step is 0.5: the fast parse read this one as …798.5
        // and refused it (the schema fuzzer's case against /adminapi/admin/quote/save).
        let sample = parse_json::<Sample>(b"{\"name\":\"a\",\"count\":-3927573033421798.0}").unwrap();
        assert_eq!(sample.count, Some(-3_927_573_033_421_798));
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Nested {
        remark: Option<String>,
        lines: Option<Vec<Line>>,
        filter: Option<std::collections::HashMap<String, Vec<String>>>,
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Line {
        account: String,
    }

    fn nul_field_of(body: &str) -> (String, Message) {
        match parse_json::<Nested>(body.as_bytes()).unwrap_err() {
            AppError::Validation(fields) => (fields[0].field.clone(), fields[0].message.clone()),
            other => panic!("expected a validation error, got {other:?}"),
        }
    }

    #[test]
    fn a_nul_in_what_is_read_is_refused_naming_where() {
        let cases = [
            (r#"{"remark":"a\u0000b"}"#, "remark"),
            (r#"{"lines":[{"account":"1"},{"account":"2"},{"account":"3"},{"account":"\u0000"}]}"#, "lines[3].account"),
            (r#"{"filter":{"inner":["x","\u0000"]}}"#, "filter.inner[1]"),
        ];
        for (body, field) in cases {
            assert_eq!(nul_field_of(body), (field.to_string(), Message::NulCharacter), "{body}");
        }
        // What the type does not read is ignored, NUL or not: an unknown field, a field name
        // holding one (it names no field), an unknown field inside a known object.
        let ignored = r#"{"name":"a","other":"\u0000","a\u0000b":1,"deep":{"k\u0000":["\u0000"]}}"#;
        assert_eq!(parse_json::<Sample>(ignored.as_bytes()).unwrap().name, "a");
        let inside = r#"{"lines":[{"account":"1","note":"\u0000"}]}"#;
        assert!(parse_json::<Nested>(inside.as_bytes()).is_ok());
        // A map's keys are read: one holding NUL is dropped, never stored.
        let keyed = parse_json::<Nested>(br#"{"filter":{"a\u0000":["x"],"b":["y"]}}"#).unwrap();
        assert_eq!(keyed.filter.unwrap().keys().collect::<Vec<_>>(), ["b"]);
        // An escaped backslash before `u0000` is no NUL.
        assert!(parse_json::<Sample>(br#"{"name":"\\u0000"}"#).is_ok());
    }

    #[test]
    fn well_formed_bodies_parse() {
        assert!(parse_json::<Sample>(b"{\"name\":\"a\"}").is_ok());
    }
}
