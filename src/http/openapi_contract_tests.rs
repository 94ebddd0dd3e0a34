use super::*;

fn sample() -> Value {
    json!({
        "paths": {
            "/adminapi/x/list": {"post": {
                "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Filter"}}}},
                "responses": {"200": {"description": "ok"}},
                "security": [{"token": []}]
            }},
            "/adminapi/x/detail": {"post": {
                "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Ref"}}}},
                "responses": {"200": {"description": "ok"}, "404": {"description": "40400"}},
                "security": [{"token": []}]
            }}
        },
        "components": {"schemas": {
            "Filter": {"allOf": [{"$ref": "#/components/schemas/Page"}, {"type": "object", "properties": {"page": {"type": ["integer", "null"], "format": "int64"}}}]},
            "Page": {"type": "object", "properties": {"sort": {"type": "string"}}},
            "Ref": {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer", "format": "int32", "minimum": 1}}}
        }}
    })
}

#[test]
fn shared_answers_are_declared_with_the_error_envelope() {
    let document = complete(sample());
    let detail = &document["paths"]["/adminapi/x/detail"]["post"];
    for status in ["400", "401", "403", "404"] {
        assert_eq!(
            detail["responses"][status]["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/ErrorEnvelope",
            "{status}"
        );
    }
    assert_eq!(detail["responses"]["404"]["description"], "40400", "a handler's own text is kept");
    assert!(document["components"]["schemas"]["ErrorEnvelope"]["required"].is_array());
}

#[test]
fn a_body_that_requires_nothing_may_be_left_out() {
    let document = complete(sample());
    assert_eq!(document["paths"]["/adminapi/x/list"]["post"]["requestBody"]["required"], false);
    assert_eq!(document["paths"]["/adminapi/x/detail"]["post"]["requestBody"]["required"], true);
}

#[test]
fn blank_means_what_trim_removes() {
    let pattern = with_rust_whitespace(r"^\s*\S([\s\S]{0,62}\S)?\s*$");
    assert!(pattern.starts_with(r"^[\t\n"), "{pattern}");
    assert!(pattern.contains(r"[\s\S]{0,62}"), "{pattern}");
    assert!(pattern.contains(r"\u0085") && !pattern.contains(r"\ufeff"), "{pattern}");
    // The characters in the class are exactly what the server trims.
    let listed = ['\t', '\n', '\u{b}', '\u{c}', '\r', ' ', '\u{85}', '\u{a0}', '\u{1680}', '\u{2028}', '\u{2029}'];
    assert!(listed.iter().all(|c| c.is_whitespace()));
    assert!(!'\u{feff}'.is_whitespace());
    let spaces = (0x2000..=0x200a).chain([0x202f, 0x205f, 0x3000]).filter_map(char::from_u32);
    assert!(spaces.into_iter().all(char::is_whitespace));
    let all: usize = (0..=0x10ffff).filter_map(char::from_u32).filter(|c| c.is_whitespace()).count();
    assert_eq!(all, 11 + 11 + 3, "every whitespace character is in the class");
}

#[test]
fn integers_get_the_range_of_their_type() {
    let document = complete(sample());
    let page = &document["components"]["schemas"]["Filter"]["allOf"][1]["properties"]["page"];
    assert_eq!((page["minimum"].as_i64(), page["maximum"].as_i64()), (Some(i64::MIN), Some(i64::MAX)));
    let id = &document["components"]["schemas"]["Ref"]["properties"]["id"];
    assert_eq!((id["minimum"].as_i64(), id["maximum"].as_i64()), (Some(1), Some(i64::from(i32::MAX))));
}

#[test]
fn a_form_s_part_names_exclude_what_a_part_header_cannot_hold() {
    let document = complete(json!({
        "paths": {"/adminapi/x/upload": {"post": {
            "requestBody": {"content": {"multipart/form-data": {"schema": {"$ref": "#/components/schemas/Upload"}}}},
            "responses": {"200": {"description": "ok"}}
        }}},
        "components": {"schemas": {
            "Upload": {"type": "object", "properties": {"file": {"type": "string"}}},
            "Other": {"type": "object"}
        }}
    }));
    let pattern = document["components"]["schemas"]["Upload"]["propertyNames"]["pattern"].as_str().unwrap();
    assert_eq!(pattern, r"^[^\x00-\x08\x0a-\x1f\x7f]*$");
    assert!(
        document["components"]["schemas"]["Other"].get("propertyNames").is_none(),
        "a JSON body's field names are free: unknown ones are ignored"
    );
}

#[test]
fn texts_exclude_nul_and_files_do_not() {
    let document = complete(json!({
        "paths": {},
        "components": {"schemas": {
            "Body": {"type": "object", "properties": {
                "remark": {"type": ["string", "null"]},
                "kind": {"type": "string", "pattern": "^(a|b)$"},
                "file": {"type": "string", "format": "binary"},
                "count": {"type": "integer"}
            }}
        }}
    }));
    let properties = &document["components"]["schemas"]["Body"]["properties"];
    assert_eq!(properties["remark"]["pattern"], r"^[^\x00]*$");
    assert_eq!(properties["kind"]["pattern"], "^(a|b)$");
    assert_eq!(properties["kind"]["allOf"], json!([{"pattern": r"^[^\x00]*$"}]));
    assert!(properties["file"].get("pattern").is_none() && properties["count"].get("pattern").is_none());
    assert!(properties.get("propertyNames").is_none(), "a map of properties is no object schema");
}

#[test]
fn a_success_wraps_the_declared_data_in_the_envelope_once() {
    let document = complete(json!({
        "paths": {
            "/adminapi/x/list": {"post": {"responses": {"200": {"description": "`data` is a list of Row",
                "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Row"}}}}}}}},
            "/adminapi/x/delete": {"post": {"responses": {"200": {"description": "done"}}}},
            "/adminapi/x/export": {"get": {"responses": {"200": {"description": "the file",
                "content": {"text/csv": {}}}}}}
        },
        "components": {"schemas": {"Row": {"type": "object"}}}
    }));
    let answer = |path: &str, method: &str| document["paths"][path][method]["responses"]["200"].clone();
    let list = answer("/adminapi/x/list", "post");
    assert_eq!(list["description"], "`data` is a list of Row", "the handler's words are kept");
    let envelope = &list["content"]["application/json"]["schema"];
    assert_eq!(envelope["required"], json!(["code", "msg", "data"]));
    assert_eq!(envelope["properties"]["code"]["const"], 20000);
    assert_eq!(envelope["properties"]["msg"]["type"], "string");
    assert_eq!(
        envelope["properties"]["data"],
        json!({"type": "array", "items": {"$ref": "#/components/schemas/Row"}}),
        "the declared schema is the envelope's `data`, not wrapped twice"
    );
    let delete = answer("/adminapi/x/delete", "post");
    assert_eq!(delete["content"]["application/json"]["schema"]["properties"]["data"], json!({"type": "null"}));
    let export = answer("/adminapi/x/export", "get");
    assert_eq!(export["content"], json!({"text/csv": {}}), "a file is declared as it is");
}
