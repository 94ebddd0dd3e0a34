//! Request extractors that turn every kind of bad input into a validation envelope.

use crate::error::{AppError, FieldError};
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
        parse_json(if bytes.iter().all(u8::is_ascii_whitespace) { b"{}" } else { &bytes }).map(JsonBody)
    }
}

/// The JSON body of a money-moving call with the `Idempotency-Key` it carried, if any
/// (see `idempotency`). The key is checked here; the handler claims it in its transaction.
pub struct IdempotentJson<T>(pub T, pub Option<crate::idempotency::IdempotentRequest>);

impl<S, T> FromRequest<S> for IdempotentJson<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = AppError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let endpoint = request.uri().path().to_string();
        let key = request.headers().get(crate::idempotency::HEADER).map(|value| value.as_bytes().to_vec());
        let bytes = Bytes::from_request(request, state).await.map_err(|rejection| {
            tracing::debug!(%rejection, "request body rejected");
            AppError::MalformedBody
        })?;
        let bytes: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) { b"{}" } else { &bytes };
        let body = parse_json::<T>(bytes)?;
        let value: serde_json::Value = serde_json::from_slice(bytes).map_err(|_| AppError::MalformedBody)?;
        let idempotency = crate::idempotency::IdempotentRequest::parse(key.as_deref(), &endpoint, &value)?;
        Ok(IdempotentJson(body, idempotency))
    }
}

fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, AppError> {
    let deserializer = &mut serde_json::Deserializer::from_slice(bytes);
    serde_path_to_error::deserialize(deserializer).map_err(|error| {
        let path = error.path().to_string();
        let inner = error.into_inner();
        if inner.is_syntax() || inner.is_eof() {
            return AppError::MalformedBody;
        }
        let field = if path == "." { "body".to_string() } else { path };
        // serde's text names the expected type, which is useful and contains no input.
        let detail = inner.to_string();
        let detail = detail.split(" at line ").next().unwrap_or(&detail).to_string();
        AppError::Validation(vec![FieldError::new(field, Message::InvalidField { detail })])
    })
}

/// The client's address as the server sees it. Forwarded headers are used only when
/// the server is configured to sit behind a proxy, and then only the entry a trusted
/// proxy added (see `forwarded`).
#[derive(Debug, Clone, Copy)]
pub struct ClientAddress(pub IpAddr);

/// Set by the application when `--trust-forwarded-for` is given: the proxies to trust.
#[derive(Debug, Clone)]
pub struct TrustForwardedFor(pub Option<std::sync::Arc<crate::forwarded::TrustedProxies>>);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddress {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|info| info.0.ip())
            .unwrap_or(IpAddr::from([127, 0, 0, 1]));
        let Some(trusted) = parts.extensions.get::<TrustForwardedFor>().and_then(|trust| trust.0.clone()) else {
            return Ok(ClientAddress(crate::forwarded::canonical(peer)));
        };
        let values: Vec<&str> =
            parts.headers.get_all("x-forwarded-for").iter().filter_map(|value| value.to_str().ok()).collect();
        Ok(ClientAddress(crate::forwarded::client_address(peer, &values, &trusted)))
    }
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
        #[allow(dead_code)]
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
    fn well_formed_bodies_parse() {
        assert!(parse_json::<Sample>(b"{\"name\":\"a\"}").is_ok());
    }
}
