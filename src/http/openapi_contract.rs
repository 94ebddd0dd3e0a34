//! What every operation of the OpenAPI document shares, written once here rather than on
//! each handler: the success envelope around each handler's declared `data`, the answers
//! the extractors and guards give before a handler runs, the error envelope's schema,
//! optional bodies, and the integer ranges the server accepts.
//! Each rule mirrors one piece of code (named in its comment), so the document says
//! exactly what the server does (schemathesis checks it, `make fuzz-api`).

use crate::http::error::code;
use serde_json::{Map, Value, json};

/// The error envelope's schema, referenced by every error response.
const ERROR_ENVELOPE: &str = "ErrorEnvelope";

/// Paths a user holding a temporary password may still call (`session::CurrentUser`
/// answers 40300 on every other signed-in path until the password is changed).
const TEMPORARY_PASSWORD_PATHS: [&str; 3] =
    ["/adminapi/merchant/userInfo", "/adminapi/merchant/changePassword", "/adminapi/login/logout"];

/// A schema written as JSON, for what utoipa's builders make long-winded (`anyOf` of
/// types). The literal is the source's own: a unit test reads each one back.
pub fn schema(value: Value) -> utoipa::openapi::schema::Schema {
    serde_json::from_value(value).unwrap_or_else(|_| utoipa::openapi::schema::Schema::Object(Default::default()))
}

/// An optional RFC 3339 time as `pagination::parse_time` reads it: blank or null is none.
pub fn optional_time() -> utoipa::openapi::schema::Schema {
    schema(json!({"anyOf": [
        {"type": "string", "format": "date-time"},
        {"type": "string", "pattern": "^\\s*$"},
        {"type": "null"}
    ]}))
}

/// An optional province, a GB/T 2260 code of `domain::product_scope::PROVINCE_CODES` (any
/// other number is refused, so the document lists them).
pub fn optional_province() -> utoipa::openapi::schema::Schema {
    let codes: Vec<Value> = crate::domain::product_scope::PROVINCE_CODES.iter().map(|code| json!(code)).collect();
    schema(json!({"anyOf": [{"type": "integer", "enum": codes}, {"type": "null"}]}))
}

/// Applies the shared rules to a document (as JSON) and returns it.
pub fn complete(mut document: Value) -> Value {
    let schemas = document.pointer("/components/schemas").cloned().unwrap_or_else(|| json!({}));
    if let Some(paths) = document.get_mut("paths").and_then(Value::as_object_mut) {
        for (path, item) in paths.iter_mut() {
            let Some(item) = item.as_object_mut() else { continue };
            for (method, operation) in item.iter_mut() {
                if !matches!(method.as_str(), "get" | "post" | "put" | "delete" | "patch") {
                    continue;
                }
                if let Some(operation) = operation.as_object_mut() {
                    complete_operation(path, operation, &schemas);
                }
            }
        }
    }
    let components = document
        .as_object_mut()
        .map(|root| root.entry("components").or_insert_with(|| json!({})))
        .and_then(Value::as_object_mut);
    if let Some(components) = components {
        let schemas = components.entry("schemas").or_insert_with(|| json!({}));
        if let Some(schemas) = schemas.as_object_mut() {
            schemas.insert(ERROR_ENVELOPE.into(), error_envelope());
        }
    }
    if let Some(schemas) = document.pointer_mut("/components/schemas").and_then(Value::as_object_mut) {
        for (name, rule) in cross_field_rules() {
            if let Some(schema) = schemas.get_mut(name).and_then(Value::as_object_mut) {
                schema.extend(rule.as_object().cloned().unwrap_or_default());
            }
        }
    }
    encodable_part_names(&mut document);
    bound_integers(&mut document);
    rust_whitespace(&mut document);
    no_nul_characters(&mut document);
    document
}

/// A text without U+0000, which the server refuses in every string it reads
/// (`extract::JsonBody`, `query_string::from_query`, batch files): PostgreSQL cannot store it.
const NO_NUL: &str = r"^[^\x00]*$";

/// Every text schema says it holds no NUL (beside its own pattern, if it has one); uploaded
/// files (binary) may hold anything. Field names are free: one the type does not read is
/// ignored, NUL or not (`extract::parse_json`).
fn no_nul_characters(value: &mut Value) {
    match value {
        Value::Object(object) => {
            let has_type = |wanted: &str| match object.get("type") {
                Some(Value::String(kind)) => kind == wanted,
                Some(Value::Array(kinds)) => kinds.iter().any(|kind| kind == wanted),
                _ => false,
            };
            let binary = matches!(object.get("format").and_then(Value::as_str), Some("binary" | "byte"));
            let is_text = has_type("string") && !binary;
            for (key, child) in object.iter_mut() {
                if !matches!(key.as_str(), "example" | "examples" | "default" | "const" | "enum") {
                    no_nul_characters(child);
                }
            }
            if is_text && !object.contains_key("pattern") {
                object.insert("pattern".into(), json!(NO_NUL));
            } else if is_text {
                let all_of = object.entry("allOf").or_insert_with(|| json!([]));
                if let Some(all_of) = all_of.as_array_mut() {
                    all_of.push(json!({"pattern": NO_NUL}));
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(no_nul_characters),
        _ => {}
    }
}

/// A multipart form's part names travel in a part header (`Content-Disposition`), which
/// the parser (multer, through httparse) refuses when it holds a control character: the
/// whole form is then malformed (400). Parts other than the documented ones are ignored,
/// so any other name is fine: the document says exactly that with `propertyNames`.
fn encodable_part_names(document: &mut Value) {
    let mut forms = Vec::new();
    if let Some(paths) = document.get("paths").and_then(Value::as_object) {
        for operation in paths.values().filter_map(Value::as_object).flat_map(|item| item.values()) {
            let schema = operation.pointer("/requestBody/content/multipart~1form-data/schema/$ref");
            if let Some(name) = schema.and_then(Value::as_str).and_then(|reference| reference.rsplit('/').next()) {
                forms.push(name.to_string());
            }
        }
    }
    let Some(schemas) = document.pointer_mut("/components/schemas").and_then(Value::as_object_mut) else { return };
    for name in forms {
        if let Some(schema) = schemas.get_mut(&name).and_then(Value::as_object_mut) {
            schema.insert("propertyNames".into(), json!({"pattern": "^[^\\x00-\\x08\\x0a-\\x1f\\x7f]*$"}));
        }
    }
}

/// Whitespace as the server trims it (`char::is_whitespace`, Unicode White_Space); ECMA's
/// `\s`, which validators use, also counts U+FEFF and leaves out U+0085.
const WHITESPACE: &str = r"\t\n\u000b\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000";

/// Patterns are written with `\s`/`\S` (and `[\s\S]` for any character); in the
/// document `\s` and `\S` become the server's whitespace, so "blank" means the same to
/// a validator as to `str::trim`.
fn rust_whitespace(value: &mut Value) {
    match value {
        Value::Object(object) => {
            for (key, child) in object.iter_mut() {
                match child {
                    Value::String(pattern) if key == "pattern" => *pattern = with_rust_whitespace(pattern),
                    _ => rust_whitespace(child),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(rust_whitespace),
        _ => {}
    }
}

fn with_rust_whitespace(pattern: &str) -> String {
    const ANY: &str = "\u{0}ANY\u{0}";
    pattern
        .replace(r"[\s\S]", ANY)
        .replace(r"\s", &format!("[{WHITESPACE}]"))
        .replace(r"\S", &format!("[^{WHITESPACE}]"))
        .replace(ANY, r"[\s\S]")
}

/// Rules between fields, which utoipa's attributes cannot say (JSON Schema `if`/`then`),
/// each checked by the code named beside it.
fn cross_field_rules() -> Vec<(&'static str, Value)> {
    let serial_required = json!({
        "if": {"properties": {"result": {"const": "success"}}, "required": ["result"]},
        "then": {"required": ["serial_no"], "properties": {"serial_no": {"type": "string", "pattern": "\\S"}}}
    });
    let not_blank = json!({"type": "string", "pattern": "\\S"});
    vec![
        // `orders::resolve::Decision::parse`: a success names the serial number proving it.
        ("ResolveRequest", serial_required),
        // `certification::review`: a rejection says why.
        (
            "ReviewRequest",
            json!({
                "if": {"properties": {"decision": {"const": "reject"}}, "required": ["decision"]},
                "then": {"required": ["reason"], "properties": {"reason": not_blank}}
            }),
        ),
        // `certification::parse_submission`: an old business licence comes with the
        // organisation code (the credit code holds it).
        (
            "CertificationSubmitRequest",
            json!({
                "if": {
                    "properties": {"enterprise_certificate_type": {"pattern": "^\\s*business_license\\s*$"}},
                    "required": ["enterprise_certificate_type"]
                },
                "then": {"required": ["organization_code"], "properties": {"organization_code": not_blank}}
            }),
        ),
    ]
}

fn error_envelope() -> Value {
    json!({
        "type": "object",
        "description": "An error: `code` from the catalogue in docs/api.md, `msg` in the request's language, \
            `data` null, `{fields, keys}` for 40000 or `{retry_after_seconds}` for 429s.",
        "required": ["code", "msg", "data"],
        "properties": {
            "code": {"type": "integer", "minimum": 40000, "maximum": 59999},
            "msg": {"type": "string"},
            "data": {"type": ["object", "null"]}
        }
    })
}

/// The success envelope (`ApiOk`) around a handler's `data` schema.
fn success_envelope(data: Value) -> Value {
    json!({
        "type": "object",
        "required": ["code", "msg", "data"],
        "properties": {
            "code": {"type": "integer", "const": code::SUCCESS},
            "msg": {"type": "string"},
            "data": data
        }
    })
}

/// A handler declares only its `data` (`body = T` on its 200 answer; none when `data` is
/// null): every JSON answer goes through `ApiOk`, so its envelope is written here, once.
/// Other media types (files, the event stream, the metrics) are declared as they are.
fn wrap_success(response: &mut Map<String, Value>) {
    let content = response.entry("content").or_insert_with(|| json!({"application/json": {}}));
    let Some(media) = content.get_mut("application/json").and_then(Value::as_object_mut) else { return };
    let data = media.remove("schema").unwrap_or_else(|| json!({"type": "null"}));
    media.insert("schema".into(), success_envelope(data));
}

fn complete_operation(path: &str, operation: &mut Map<String, Value>, schemas: &Value) {
    let schemes: Vec<String> = operation
        .get("security")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .flat_map(|requirement| requirement.keys().cloned())
        .collect();
    let has_input = operation.contains_key("requestBody")
        || operation.get("parameters").and_then(Value::as_array).is_some_and(|parameters| !parameters.is_empty());
    // An empty body is read as `{}` (`extract::JsonBody`): a body whose schema requires
    // nothing may be left out.
    if let Some(body) = operation.get_mut("requestBody").and_then(Value::as_object_mut) {
        let schema = body.get("content").and_then(|content| content.pointer("/application~1json/schema")).cloned();
        if schema.is_some_and(|schema| requires_nothing(&schema, schemas)) {
            body.insert("required".into(), Value::Bool(false));
        }
    }
    let responses = operation.entry("responses").or_insert_with(|| json!({}));
    let Some(responses) = responses.as_object_mut() else { return };
    if has_input {
        // `JsonBody` and `QueryParams` answer 40000 for a body or query they cannot read.
        declare(responses, "400", "40000: the body is not JSON, or a field is missing, of the wrong type or invalid");
    }
    if schemes.iter().any(|scheme| scheme == "token") {
        // `CurrentUser`: no session, an ended one or an expired one.
        declare(responses, "401", "50008: not signed in; 50012: the session has ended; 50014: it has expired");
        if !TEMPORARY_PASSWORD_PATHS.contains(&path) {
            declare(
                responses,
                "403",
                "40300: not allowed for this role or this merchant, or the temporary password must be changed first",
            );
        }
    }
    if schemes.iter().any(|scheme| scheme == "api_signature") {
        // `openapi_v1::guard`: signature headers, whitelist, merchant state, rate limit.
        declare(
            responses,
            "401",
            "40130–40134: a signature header is missing or wrong, the key unknown, the nonce used",
        );
        declare(responses, "403", "40330–40332: the address is not whitelisted or the merchant is disabled");
        declare(responses, "429", "42930: over the merchant's call rate; `Retry-After` says when to retry");
    }
    if let Some(success) = responses.get_mut("200").and_then(Value::as_object_mut) {
        wrap_success(success);
    }
    for (status, response) in responses.iter_mut() {
        let is_error = status.starts_with('4') || status.starts_with('5');
        let Some(response) = response.as_object_mut() else { continue };
        if is_error && !response.contains_key("content") {
            response.insert(
                "content".into(),
                json!({"application/json": {"schema": {"$ref": format!("#/components/schemas/{ERROR_ENVELOPE}")}}}),
            );
        }
    }
}

fn declare(responses: &mut Map<String, Value>, status: &str, description: &str) {
    responses.entry(status.to_string()).or_insert_with(|| json!({"description": description}));
}

/// Whether `{}` is valid for the schema: an object schema with no required property (a
/// flattened struct is an `allOf` of such schemas).
fn requires_nothing(schema: &Value, schemas: &Value) -> bool {
    let schema = match schema.get("$ref").and_then(Value::as_str) {
        Some(reference) => {
            let name = reference.rsplit('/').next().unwrap_or_default();
            match schemas.get(name) {
                Some(schema) => schema,
                None => return false,
            }
        }
        None => schema,
    };
    if let Some(parts) = schema.get("allOf").and_then(Value::as_array) {
        return parts.iter().all(|part| requires_nothing(part, schemas));
    }
    let is_object = schema.get("type").and_then(Value::as_str) == Some("object");
    let required = schema.get("required").and_then(Value::as_array).is_some_and(|required| !required.is_empty());
    is_object && !required
}

/// Every `int64`/`int32` gets the range its Rust type accepts (a larger number is refused
/// by serde with 40000, so the document must not call it valid).
fn bound_integers(value: &mut Value) {
    match value {
        Value::Object(object) => {
            let is_integer = match object.get("type") {
                Some(Value::String(kind)) => kind == "integer",
                Some(Value::Array(kinds)) => kinds.iter().any(|kind| kind == "integer"),
                _ => false,
            };
            let range = match object.get("format").and_then(Value::as_str) {
                Some("int32") => Some((i64::from(i32::MIN), i64::from(i32::MAX))),
                Some("int64") => Some((i64::MIN, i64::MAX)),
                _ => None,
            };
            if let (true, Some((low, high))) = (is_integer, range) {
                object.entry("minimum").or_insert(Value::from(low));
                object.entry("maximum").or_insert(Value::from(high));
            }
            for child in object.values_mut() {
                bound_integers(child);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(bound_integers),
        _ => {}
    }
}

#[cfg(test)]
#[path = "openapi_contract_tests.rs"]
mod tests;
