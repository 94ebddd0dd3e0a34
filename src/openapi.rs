//! The OpenAPI document, generated from the handlers' annotations, and its browsable
//! reference page at `/api-docs/ui/`.

use crate::user_centre::{avatar, certification, certification_queue, inbox, integration, profile, validation};
use crate::{auth, finance, monitor, orders, quotes, two_factor, users};
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
        integration::change_integration,
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
        certification_queue::pending_count,
        inbox::list,
        inbox::mark_read,
        inbox::mark_all_read,
        inbox::unread_count,
        two_factor::setup,
        two_factor::enable,
        two_factor::disable,
        two_factor::regenerate_backup_codes,
        two_factor::status,
        two_factor::admin_reset::reset,
        orders::list,
        orders::detail,
        orders::add,
        orders::price,
        orders::reveal_card,
        orders::resolve::resolve,
        orders::export::export_orders,
        orders::batch::preview,
        orders::batch_submit::submit,
        orders::batch_submit::list,
        orders::batch::result,
        orders::batch::template,
        orders::batch_lifecycle::discard,
        quotes::products,
        quotes::list,
        quotes::export,
        quotes::save,
        finance::overview,
        finance::log::list,
        finance::log::export,
        finance::admin::list,
        finance::admin::top_up,
        finance::admin::set_credit,
        finance::admin::repay,
        finance::admin::adjust,
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
        validation::IntegrationRequest,
        profile::ProfileView,
        profile::ChangeInfoRequest,
        profile::ChangePasswordRequest,
        profile::PasswordChanged,
        profile::SecurityRequest,
        profile::ActivityItem,
        avatar::AvatarSaved,
        certification::SubmitRequest,
        certification_queue::PendingCount,
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
        two_factor::admin_reset::ResetRequest,
        two_factor::CodeRequest,
        two_factor::BackupCodesResponse,
        two_factor::StatusResponse,
        crate::domain::Carrier,
        crate::domain::OrderKind,
        crate::domain::ProductKind,
        orders::query::OrderFilter,
        orders::OrderListRequest,
        orders::OrderListResponse,
        orders::model::OrderItem,
        orders::OrderRef,
        orders::OrderDetail,
        orders::TimelineEntry,
        orders::AddOrderRequest,
        orders::AddOrderResponse,
        orders::PriceRequest,
        orders::PriceResponse,
        orders::PriceOffer,
        orders::RevealedCard,
        orders::resolve::ResolveRequest,
        orders::batch::PreviewText,
        orders::batch::PreviewResponse,
        orders::batch::PreviewError,
        orders::batch::BatchSummary,
        orders::batch::SubmitRequest,
        orders::batch::BatchListRequest,
        orders::batch::BatchListResponse,
        orders::batch_lifecycle::DiscardRequest,
        orders::batch_lifecycle::RecentDuplicate,
        quotes::Product,
        quotes::QuoteFilter,
        quotes::QuoteItem,
        quotes::QuoteListRequest,
        quotes::QuoteListResponse,
        quotes::SaveQuoteRequest,
        finance::OverviewRequest,
        finance::Overview,
        finance::DayCount,
        finance::ledger::Account,
        finance::log::AccountRecord,
        finance::log::LogFilter,
        finance::log::LogListRequest,
        finance::log::LogListResponse,
        finance::admin::MerchantListRequest,
        finance::admin::MerchantListResponse,
        finance::admin::MerchantFigures,
        finance::admin::FundingRequest,
        finance::admin::CreditRequest,
    )),
    modifiers(&SessionTokenSchemes),
)]
pub struct ApiDoc;

struct SessionTokenSchemes;

impl Modify for SessionTokenSchemes {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme("token", SecurityScheme::Http(Http::new(HttpAuthScheme::Bearer)));
        components
            .add_security_scheme("token_header", SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::new("token"))));
    }
}

pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    let mut document = ApiDoc::openapi();
    document.merge(crate::openapi_v1::doc::OpenApiV1Doc::openapi());
    SwaggerUi::new("/api-docs/ui").url("/api-docs/openapi.json", document).into()
}
