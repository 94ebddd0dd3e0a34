//! The OpenAPI document, generated from the handlers' annotations, and its browsable
//! reference page at `/api-docs/ui/`.

use crate::app::template_pages::{self, channel_form, generate};
use crate::identity::user_centre::{
    avatar, certification, certification_licence, certification_queue, inbox, integration, password, profile,
    validation,
};
use crate::{
    identity::auth, identity::step_up, identity::system_info, identity::two_factor, identity::users, identity::views,
    money::finance, money::funding, money::merchant_admin, money::statements, monitoring::audit_log,
    monitoring::live_stream, monitoring::monitor, monitoring::operations, orders, orders::quotes, platform::live,
};
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
        system_info::system_info,
        template_pages::content_data,
        template_pages::popular_list,
        template_pages::chat_list,
        template_pages::quality_inspection_list,
        template_pages::service_list,
        template_pages::rules_preset_list,
        template_pages::policy_list,
        template_pages::channel_form_submit,
        template_pages::my_projects,
        template_pages::latest_activity,
        template_pages::visits,
        template_pages::projects_and_teams,
        template_pages::my_teams,
        monitor::overview,
        live_stream::ticket,
        live_stream::stream_events,
        operations::healthz,
        operations::readyz,
        operations::metrics,
        profile::profile,
        profile::change_info,
        integration::change_integration,
        password::change_password,
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
        certification_licence::upload,
        certification_licence::download,
        inbox::list,
        inbox::mark_read,
        inbox::mark_all_read,
        inbox::unread_count,
        views::list,
        views::create,
        views::update,
        views::delete,
        views::set_default,
        two_factor::setup,
        two_factor::enable,
        two_factor::disable,
        two_factor::regenerate_backup_codes,
        two_factor::status,
        two_factor::admin_reset::reset,
        orders::list,
        orders::detail,
        orders::add::add,
        orders::price::price,
        orders::segments::lookup_number,
        orders::reveal_card,
        orders::card_export::export_cards,
        orders::resolve::resolve,
        orders::resolve::resolve_many,
        orders::reverse::reverse_order,
        crate::supply::worker::review::query_supplier,
        crate::supply::worker::review::send_to_channel,
        orders::export::export_orders,
        orders::batch::preview,
        orders::batch::submit::submit,
        orders::batch::submit::list,
        orders::batch::result,
        orders::batch::template,
        orders::batch::lifecycle::discard,
        orders::batch::detail::detail,
        quotes::products,
        quotes::list,
        quotes::export,
        quotes::edit::save,
        quotes::catalogue::create,
        quotes::catalogue::update,
        quotes::catalogue::delete,
        quotes::pricing::preview,
        quotes::pricing::apply,
        quotes::history::list,
        crate::orders::blocklist::list,
        crate::orders::blocklist::add,
        crate::orders::blocklist::delete,
        crate::orders::blocklist::import,
        crate::orders::blocklist::export,
        crate::orders::ported_numbers::list,
        crate::orders::ported_numbers::delete,
        crate::orders::ported_numbers::export,
        crate::orders::risk_settings::admin_view,
        crate::orders::risk_settings::save,
        crate::orders::risk_settings::own,
        crate::orders::segment_admin::summary,
        crate::orders::segment_admin::preview,
        crate::orders::segment_admin::apply,
        crate::orders::segment_admin::export,
        quotes::import::import,
        finance::overview,
        finance::log::list,
        finance::log::export,
        finance::admin::list,
        finance::admin::top_up,
        finance::admin::set_credit,
        finance::admin::repay,
        finance::admin::adjust,
        funding::file::create,
        funding::list::own,
        funding::file::withdraw,
        funding::own_proof,
        funding::list::queue,
        funding::review::approve,
        funding::review::reject,
        funding::any_proof,
        merchant_admin::create,
        merchant_admin::update,
        merchant_admin::disable,
        merchant_admin::enable,
        merchant_admin::users,
        merchant_admin::add_user,
        merchant_admin::reset_password,
        crate::identity::staff::list,
        crate::identity::staff::add,
        crate::identity::staff::set_role,
        crate::identity::staff::disable,
        crate::identity::staff::enable,
        crate::identity::staff::remove,
        crate::identity::staff::require_two_factor,
        crate::identity::security_history::api::list,
        crate::identity::security_history::api::export,
        crate::identity::security_history::api::kinds,
        crate::supply::callback::callback,
        crate::supply::admin::list,
        crate::supply::admin::save,
        crate::supply::admin::enable,
        crate::supply::admin::test,
        crate::supply::admin_supplies::products,
        crate::supply::admin_supplies::save_products,
        crate::supply::admin_coverage::import,
        crate::supply::admin_coverage::export,
        crate::supply::admin_routing::preview,
        crate::supply::windows::list,
        crate::supply::windows::create,
        crate::supply::windows::update,
        crate::supply::windows::delete,
        crate::supply::windows::upcoming,
        crate::supply::admin_reconcile::reconcile,
        crate::supply::admin_reconcile::export,
        audit_log::list,
        audit_log::export,
        audit_log::actions,
        step_up::confirm,
        statements::statement,
        statements::export,
        orders::reports::profit,
        orders::reports::export::profit_export,
        orders::reports::sales,
        orders::reports::export::sales_export,
    ),
    components(schemas(
        auth::LoginRequest,
        auth::LoginResponse,
        auth::LoginInfo,
        auth::LoginOutcome,
        auth::pending_login::PendingLoginResponse,
        auth::pending_login::VerifyTwoFactorRequest,
        crate::identity::session::Role,
        users::UserInfoRequest,
        users::UserInfo,
        users::menu::MenuEntry,
        users::menu::MenuMeta,
        system_info::SystemInfo,
        system_info::Features,
        generate::ContentPoint,
        generate::PopularItem,
        generate::ChatItem,
        generate::LabelValue,
        generate::QualityInspection,
        generate::ServiceItem,
        generate::RulePreset,
        generate::PolicyRow,
        generate::Contributor,
        generate::Project,
        generate::Team,
        generate::Activity,
        generate::Visits,
        template_pages::PolicyPage,
        template_pages::ChannelFormReceipt,
        template_pages::ProjectsAndTeams,
        channel_form::ChannelFormRequest,
        channel_form::ChannelForm,
        monitor::MonitorOverview,
        live_stream::StreamTicket,
        live::snapshot::LiveSnapshot,
        live::snapshot::MinuteFigures,
        live::snapshot::CarrierRatio,
        live::snapshot::ChannelRatio,
        live::snapshot::MerchantVolume,
        live::snapshot::ProvinceVolume,
        live::snapshot::LiveAlert,
        live::snapshot::NotificationFigures,
        live::snapshot::RefusalCount,
        operations::Health,
        operations::Readiness,
        validation::ProfileRequest,
        validation::IntegrationRequest,
        profile::ProfileView,
        profile::ChangeInfoRequest,
        password::ChangePasswordRequest,
        password::PasswordChanged,
        profile::SecurityRequest,
        profile::ActivityItem,
        avatar::AvatarSaved,
        avatar::AvatarUpload,
        certification::SubmitRequest,
        certification_queue::PendingCount,
        certification_licence::LicenceSaved,
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
        views::SavedView,
        views::SavedViewList,
        views::ViewPageRequest,
        views::CreateViewRequest,
        views::UpdateViewRequest,
        views::ViewIdRequest,
        views::DefaultViewRequest,
        views::ViewDeleted,
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
        orders::add::AddOrderRequest,
        orders::add::AddOrderResponse,
        orders::price::PriceRequest,
        orders::price::PriceResponse,
        orders::price::PriceOffer,
        orders::segments::SegmentLookupRequest,
        orders::segments::NumberSegment,
        orders::RevealedCard,
        orders::card_export::CardExportRequest,
        orders::resolve::ResolveRequest,
        orders::reverse::ReverseRequest,
        orders::resolve::ResolveManyRequest,
        orders::resolve::ResolveManyItem,
        orders::resolve::ResolveManyResponse,
        crate::supply::worker::review::QuerySupplierRequest,
        crate::supply::worker::review::QuerySupplierAnswer,
        crate::supply::worker::review::SendToChannelRequest,
        orders::resolve::ResolveRefusal,
        orders::batch::PreviewText,
        orders::batch::PreviewResponse,
        orders::batch::PreviewError,
        orders::batch::BatchSummary,
        orders::batch::SubmitRequest,
        orders::batch::BatchListRequest,
        orders::batch::BatchListResponse,
        orders::batch::lifecycle::DiscardRequest,
        orders::batch::lifecycle::RecentDuplicate,
        orders::batch::detail::DetailRequest,
        orders::batch::detail::BatchDetail,
        quotes::Product,
        quotes::QuoteFilter,
        quotes::QuoteItem,
        quotes::QuoteListRequest,
        quotes::QuoteListResponse,
        quotes::edit::SaveQuoteRequest,
        quotes::catalogue::ProductRequest,
        quotes::catalogue::ProductIdRequest,
        quotes::pricing::Rounding,
        quotes::pricing::RepriceRequest,
        quotes::pricing::RepriceRow,
        quotes::pricing::RepricePreview,
        quotes::history::Source,
        quotes::history::HistoryRequest,
        crate::orders::blocklist::BlocklistQuery,
        crate::orders::blocklist::BlockedNumber,
        crate::orders::blocklist::BlocklistPage,
        crate::orders::blocklist::BlockRequest,
        crate::orders::blocklist::BlockIdRequest,
        crate::orders::risk_settings::RiskLimitsView,
        crate::orders::risk_settings::MerchantRiskRequest,
        crate::orders::risk_settings::SaveRiskRequest,
        crate::orders::blocklist::BlockImportRequest,
        crate::orders::blocklist::BlockImportResult,
        crate::orders::ported_numbers::PortFilter,
        crate::orders::ported_numbers::PortListRequest,
        crate::orders::ported_numbers::PortedNumber,
        crate::orders::ported_numbers::PortedNumberPage,
        crate::orders::ported_numbers::PortRemoveRequest,
        crate::orders::segment_admin::SegmentTableSummary,
        crate::orders::segment_admin::SegmentPlace,
        crate::orders::segment_admin::SegmentChange,
        crate::orders::segment_admin::ProvinceCount,
        crate::orders::segment_admin::SegmentPreview,
        crate::orders::segment_admin::SegmentUpload,
        crate::orders::segment_admin::SegmentApplyRequest,
        crate::orders::segment_admin::SegmentApplied,
        quotes::history::PriceHistoryItem,
        quotes::history::PriceHistoryResponse,
        quotes::import::ImportOutcome,
        finance::OverviewRequest,
        finance::Overview,
        finance::DayCount,
        finance::ledger::Account,
        finance::log::AccountRecord,
        finance::log::LogFilter,
        finance::log::LogListRequest,
        crate::http::pagination::Paging,
        crate::http::pagination::PageNumber,
        finance::log::LogListResponse,
        finance::admin::MerchantListRequest,
        finance::admin::MerchantListResponse,
        finance::admin::MerchantFigures,
        finance::admin::FundingRequest,
        finance::admin::CreditRequest,
        funding::FundingItem,
        funding::FundingForm,
        funding::FundingCreated,
        funding::FundingWithdrawal,
        funding::FundingListRequest,
        funding::AdminFundingListRequest,
        funding::FundingListResponse,
        funding::FundingApproval,
        funding::FundingRejection,
        merchant_admin::CreateMerchantRequest,
        merchant_admin::TemporaryCredentials,
        merchant_admin::AddUserRequest,
        merchant_admin::ResetPasswordRequest,
        merchant_admin::UpdateMerchantRequest,
        merchant_admin::MerchantRef,
        merchant_admin::MerchantState,
        merchant_admin::MerchantUserItem,
        crate::identity::permissions::MerchantRole,
        crate::identity::staff::StaffListRequest,
        crate::identity::staff::StaffMember,
        crate::identity::staff::StaffList,
        crate::identity::staff::AddStaffRequest,
        crate::identity::staff::StaffRef,
        crate::identity::staff::SetRoleRequest,
        crate::identity::staff::RequireTwoFactorRequest,
        crate::identity::security_history::api::SecurityEvent,
        crate::identity::security_history::api::SecurityFilter,
        crate::identity::security_history::api::SecurityListRequest,
        crate::identity::security_history::api::SecurityListResponse,
        crate::identity::security_history::api::SecurityKind,
        crate::supply::callback::CallbackAnswer,
        crate::supply::admin::ChannelItem,
        crate::supply::figures::ChannelFigures,
        crate::supply::admin::SaveChannelRequest,
        crate::supply::admin::SavedChannel,
        crate::supply::admin::EnableRequest,
        crate::supply::admin::ChannelIdRequest,
        crate::supply::admin::TestResult,
        crate::supply::admin_supplies::SupplyItem,
        crate::supply::admin_supplies::SaveSuppliesRequest,
        crate::supply::admin_coverage::CoverageUpload,
        crate::supply::admin_coverage::CoverageImported,
        crate::supply::admin_routing::PreviewRequest,
        crate::supply::admin_routing::RouteItem,
        crate::supply::admin_routing::RouteWindow,
        crate::supply::windows::WindowQuery,
        crate::supply::windows::MaintenanceWindow,
        crate::supply::windows::WindowPage,
        crate::supply::windows::WindowUpdate,
        crate::supply::windows::WindowId,
        crate::supply::windows_form::WindowForm,
        crate::supply::admin_reconcile::ReconcileRequest,
        crate::supply::admin_reconcile::ReconcileCounts,
        crate::supply::admin_reconcile::Reconciliation,
        crate::supply::reconcile::Kind,
        crate::supply::reconcile::Line,
        crate::supply::reconcile::Totals,
        crate::platform::channel::attempts::AttemptItem,
        crate::platform::channel::routing::Exclusion,
        audit_log::AuditListRequest,
        audit_log::AuditListResponse,
        audit_log::AuditEvent,
        audit_log::AuditAction,
        step_up::StepUpResponse,
        statements::StatementRequest,
        statements::Statement,
        statements::OrderFigures,
        statements::ProvinceFigures,
        statements::Movement,
        orders::reports::ProfitRequest,
        orders::reports::SalesRequest,
        orders::reports::SalesReport,
        orders::reports::SalesRow,
        orders::reports::query::Report,
        orders::reports::query::ReportRow,
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

/// The whole document: the console's calls, the open API's and the notifications', with
/// one operation id per operation (handlers in different modules share names such as
/// `list` or `enable`; generated clients key their types by the id).
pub fn document() -> utoipa::openapi::OpenApi {
    let mut document = ApiDoc::openapi();
    document.merge(crate::merchant_api::doc::OpenApiV1Doc::openapi());
    document.merge(crate::notify::NotifyApiDoc::openapi());
    for (path, item) in document.paths.paths.iter_mut() {
        for (method, operation) in [
            ("get", &mut item.get),
            ("post", &mut item.post),
            ("put", &mut item.put),
            ("delete", &mut item.delete),
            ("patch", &mut item.patch),
        ] {
            if let Some(operation) = operation {
                operation.operation_id = Some(operation_id(method, path));
            }
        }
    }
    document
}

/// The document as served: `document()` completed by the shared rules
/// (`openapi_contract`). It stays JSON: utoipa's types would drop the cross-field rules
/// (`if`/`then`) if it were read back into them.
pub fn document_value() -> serde_json::Value {
    serde_json::to_value(document()).map(crate::http::openapi_contract::complete).unwrap_or_default()
}

/// `post /adminapi/admin/merchant/enable` → `post_adminapi_admin_merchant_enable`.
fn operation_id(method: &str, path: &str) -> String {
    let words = path.split(|c: char| !c.is_ascii_alphanumeric()).filter(|word| !word.is_empty());
    std::iter::once(method).chain(words).collect::<Vec<_>>().join("_")
}

/// The document as served at `/api-docs/openapi.json` (`backoffice openapi` prints it; the
/// console's API types are generated from it, `make api-types`).
pub fn document_json() -> String {
    serde_json::to_string_pretty(&document_value()).unwrap_or_default()
}

pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    SwaggerUi::new("/api-docs/ui").external_url_unchecked("/api-docs/openapi.json", document_value()).into()
}

#[cfg(test)]
mod operation_id_tests {
    #[test]
    fn every_operation_has_its_own_id_and_the_open_api_is_in_the_document() {
        let document = super::document();
        let mut ids = std::collections::HashSet::new();
        for item in document.paths.paths.values() {
            for operation in [&item.get, &item.post, &item.put, &item.delete, &item.patch].into_iter().flatten() {
                let id = operation.operation_id.clone().expect("an operation id");
                assert!(ids.insert(id.clone()), "operation id {id} used twice");
            }
        }
        assert!(ids.contains("post_adminapi_google_auth_enable2FA"));
        assert!(ids.contains("post_adminapi_admin_merchant_enable"));
        assert!(document.paths.paths.keys().any(|path| path.starts_with("/openapi/v1/")));
        assert!(document.paths.paths.keys().any(|path| path.starts_with("/adminapi/notify/")));
        let served = super::document_value();
        assert!(served["components"]["schemas"]["ErrorEnvelope"].is_object(), "the shared rules were applied");
        // The cross-field rules survive (utoipa's own types would drop `if`/`then`).
        assert!(served["components"]["schemas"]["ResolveRequest"]["then"].is_object());
        assert!(served["components"]["schemas"]["CertificationSubmitRequest"]["if"].is_object());
        // The schemas written as JSON were read as written.
        let mid = &served["components"]["schemas"]["UserInfoRequest"]["properties"]["mid"];
        assert_eq!(mid["anyOf"].as_array().map(Vec::len), Some(3), "{mid}");
    }
}

#[cfg(test)]
mod permission_tests {
    use crate::identity::permissions::rule;

    /// Every operation the server documents has a permission rule: a new endpoint without
    /// one fails here (and would be refused to everyone, `identity::permissions`).
    #[test]
    fn every_documented_operation_has_a_permission_rule() {
        let document = super::document_value();
        let paths = document["paths"].as_object().expect("paths");
        assert!(paths.len() > 100, "the whole document: {}", paths.len());
        let mut missing = Vec::new();
        for (path, item) in paths {
            for method in ["get", "post", "put", "delete", "patch"] {
                if item.get(method).is_some() && rule(&method.to_uppercase(), path).is_none() {
                    missing.push(format!("{method} {path}"));
                }
            }
        }
        assert!(missing.is_empty(), "operations without a permission rule: {missing:?}");
    }
}
