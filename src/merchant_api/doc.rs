//! The part of the OpenAPI document for the open API (tag `openapi-v1`) and its keys
//! (tag `apikey`), merged into the served document by `app/api_docs.rs`.

use crate::identity::api_keys;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, SecurityScheme};
use utoipa::{Modify, OpenApi};

#[derive(OpenApi)]
#[openapi(
    paths(
        super::orders::place_order,
        super::orders::get_order,
        super::balance,
        super::products,
        super::segment,
        super::windows,
        api_keys::create,
        api_keys::list,
        api_keys::revoke,
        api_keys::set_legacy,
        super::sign_check::sign_check,
    ),
    components(schemas(
        super::orders::PlaceOrderRequest,
        super::orders::ApiOrder,
        super::Balance,
        super::Product,
        crate::supply::windows::UpcomingWindow,
        api_keys::CreateKeyRequest,
        api_keys::CreatedKey,
        api_keys::ListKeysRequest,
        api_keys::KeyItem,
        api_keys::RevokeKeyRequest,
        api_keys::SetLegacyRequest,
        super::sign_check::SignCheckRequest,
        super::sign_check::SignCheckResponse,
    )),
    tags(
        (name = "openapi-v1", description = "The merchant open API: signed with an API key (X-Key-Id, X-Timestamp, \
            X-Nonce, X-Signature = hex HMAC-SHA256 over METHOD\\nPATH_AND_QUERY\\nTIMESTAMP\\nNONCE\\nhex(SHA-256(body))); \
            answers are signed the same way. Guide: /guide/merchant-api (?lang=zh-CN or en-US)."),
        (name = "apikey", description = "API keys of the open API, managed in the console."),
    ),
    modifiers(&SignatureScheme),
)]
pub struct OpenApiV1Doc;

struct SignatureScheme;

impl Modify for SignatureScheme {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "api_signature",
            SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::with_description(
                "X-Key-Id",
                "With X-Timestamp, X-Nonce and X-Signature (guide: /guide/merchant-api)",
            ))),
        );
    }
}
