//! The OpenAPI document, generated from the handlers' annotations, and its browsable
//! reference page at `/api-docs/ui/`.

use crate::user_centre::{avatar, certification, inbox, profile, validation};
use crate::{auth, monitor, two_factor, users};
use axum::Router;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, Http, HttpAuthScheme, SecurityScheme};
use utoipa::{Modify, OpenApi};
use utoipa_swagger_ui::SwaggerUi;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "backoffice API",
        description = "Every response is the envelope `{code, msg, data}`; `code` 20000 is success. \
            The code catalogue is docs/api.md. Messages follow `Accept-Language` (en-US or zh-CN).",
    ),
    paths(
        auth::login,
        auth::logout,
        auth::pending_login::verify_two_factor,
        users::user_info,
        users::menu::user_menu,
        monitor::overview,
        profile::profile,
        profile::change_info,
        profile::change_password,
        profile::security,
        profile::activity,
        avatar::upload,
        avatar::download,
        certification::submit,
        certification::list,
        certification::detail,
        certification::withdraw,
        certification::review,
        inbox::list,
        inbox::mark_read,
        inbox::mark_all_read,
        inbox::unread_count,
        two_factor::setup,
        two_factor::enable,
        two_factor::disable,
        two_factor::regenerate_backup_codes,
        two_factor::status,
    ),
    components(schemas(
        auth::LoginRequest,
        auth::LoginResponse,
        auth::LoginInfo,
        auth::LoginOutcome,
        auth::pending_login::PendingLoginResponse,
        auth::pending_login::VerifyTwoFactorRequest,
        users::UserInfoRequest,
        users::UserInfo,
        users::menu::MenuEntry,
        users::menu::MenuMeta,
        monitor::MonitorOverview,
        validation::ProfileRequest,
        profile::ProfileView,
        profile::ChangeInfoRequest,
        profile::ChangePasswordRequest,
        profile::PasswordChanged,
        profile::SecurityRequest,
        profile::ActivityItem,
        avatar::AvatarSaved,
        certification::SubmitRequest,
        certification::CertificationRecord,
        certification::ListRequest,
        certification::RecordIdRequest,
        certification::ReviewRequest,
        inbox::MessageKind,
        inbox::MessageListRequest,
        inbox::MessageItem,
        inbox::MarkReadRequest,
        inbox::MarkReadResult,
        inbox::UnreadCounts,
        two_factor::SetupResponse,
        two_factor::EnableRequest,
        two_factor::CodeRequest,
        two_factor::BackupCodesResponse,
        two_factor::StatusResponse,
    )),
    modifiers(&SessionTokenSchemes),
)]
pub struct ApiDoc;

struct SessionTokenSchemes;

impl Modify for SessionTokenSchemes {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme("token", SecurityScheme::Http(Http::new(HttpAuthScheme::Bearer)));
        components.add_security_scheme("token_header", SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::new("token"))));
    }
}

pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    SwaggerUi::new("/api-docs/ui").url("/api-docs/openapi.json", ApiDoc::openapi()).into()
}
