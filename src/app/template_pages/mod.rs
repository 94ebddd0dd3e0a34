//! The template and demo pages' calls (template material and the demo mock calls).
//!
//! Mounted only when the server runs with `--template-pages` (which `--demo` implies):
//! without it every path below answers 404 and the menu has no template section. The
//! answers use the demo calls' mock envelope `{data, status, msg, code}` (failure code 50000).
//! The data comes from `generate`, deterministic per Beijing day, never stored, and
//! without the original mock's 600–1000 ms latency. Signed-in callers only.

pub mod channel_form;
pub mod generate;
mod policy;

use crate::http::error::{FieldError, code};
use crate::http::extract::{JsonBody, QueryParams};
use crate::i18n::{Locale, Message, TemplateMessage, TradeMessage};
use crate::identity::session::CurrentUser;
use crate::platform::db::now_millis;
use crate::platform::state::AppState;
use axum::{
    Json, Router,
    http::{HeaderMap, StatusCode},
    response::{IntoResponse, Response},
    routing::{get, post},
};
use generate::{PopularType, day_of};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

pub use policy::{PolicyPage, PolicyQuery};

/// Path prefix of every template call.
pub const PREFIX: &str = "/api/template";

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/template/content-data", get(content_data))
        .route("/api/template/popular/list", get(popular_list))
        .route("/api/template/chat/list", get(chat_list))
        .route("/api/template/quality-inspection/list", get(quality_inspection_list))
        .route("/api/template/the-service/list", get(service_list))
        .route("/api/template/rules-preset/list", get(rules_preset_list))
        .route("/api/template/policy/list", get(policy_list))
        .route("/api/template/channel-form/submit", post(channel_form_submit))
        .route("/api/template/user/my-project/list", get(my_projects))
        .route("/api/template/user/latest-activity", get(latest_activity))
        .route("/api/template/user/visits", get(visits))
        .route("/api/template/user/project-and-team/list", get(projects_and_teams))
        .route("/api/template/user/my-team/list", get(my_teams))
}

/// The demo calls' success wrap: `{data, status: "ok", msg, code: 20000}`.
pub struct MockOk<T>(pub T, pub Locale);

impl<T: Serialize> IntoResponse for MockOk<T> {
    fn into_response(self) -> Response {
        Json(json!({
            "data": self.0,
            "status": "ok",
            "msg": Message::Success.text(self.1),
            "code": code::SUCCESS,
        }))
        .into_response()
    }
}

/// The demo calls' failure wrap with code 50000; `data.fields` names each refused field.
pub struct MockFail {
    pub message: Message,
    pub fields: Vec<FieldError>,
    pub locale: Locale,
}

impl IntoResponse for MockFail {
    fn into_response(self) -> Response {
        let fields: serde_json::Map<String, Value> = self
            .fields
            .iter()
            .map(|field| (field.field.clone(), Value::String(field.message.text(self.locale).into())))
            .collect();
        let keys: serde_json::Map<String, Value> =
            self.fields.iter().map(|field| (field.field.clone(), Value::String(field.message.key().into()))).collect();
        let data = if fields.is_empty() { Value::Null } else { json!({ "fields": fields, "keys": keys }) };
        let body = json!({
            "data": data,
            "status": "fail",
            "msg": self.message.text(self.locale),
            "code": code::GENERIC_FAILURE,
        });
        // 400 when a field breaks what the OpenAPI document states (missing, not one of
        // the choices, out of range); 422 for the rest (a relation between fields, a link's
        // form, a length once trimmed).
        let documented = self.fields.is_empty()
            || self.fields.iter().any(|field| {
                matches!(
                    &field.message,
                    Message::Template(TemplateMessage::Required | TemplateMessage::NumberOutOfRange { .. })
                        | Message::Trade(TradeMessage::InvalidChoice { .. } | TradeMessage::TimeInvalid)
                )
            });
        let status = if documented { StatusCode::BAD_REQUEST } else { StatusCode::UNPROCESSABLE_ENTITY };
        (status, Json(body)).into_response()
    }
}

type MockResult<T> = Result<MockOk<T>, MockFail>;

fn today() -> i64 {
    day_of(now_millis())
}

/// The 8-day content series.
#[utoipa::path(get, path = "/api/template/content-data", tag = "template",
    responses((status = 200, description = "`data` is a list of ContentPoint", body = [generate::ContentPoint])), security(("token" = [])))]
pub async fn content_data(_caller: CurrentUser, headers: HeaderMap) -> MockOk<Vec<generate::ContentPoint>> {
    MockOk(generate::content_data(today()), Locale::from_headers(&headers))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PopularQuery {
    /// `text`, `image` or `video`.
    #[serde(rename = "type")]
    #[param(pattern = "^(text|image|video)$")]
    pub kind: Option<String>,
}

/// Popular items of one type, most clicked first.
#[utoipa::path(get, path = "/api/template/popular/list", tag = "template", params(PopularQuery),
    responses((status = 200, description = "`data` is a list of PopularItem", body = [generate::PopularItem]),
        (status = 400, description = "50000: unknown type")), security(("token" = [])))]
pub async fn popular_list(
    _caller: CurrentUser,
    headers: HeaderMap,
    QueryParams(query): QueryParams<PopularQuery>,
) -> MockResult<Vec<generate::PopularItem>> {
    let locale = Locale::from_headers(&headers);
    let kind = PopularType::parse(query.kind.as_deref().unwrap_or("text")).ok_or_else(|| MockFail {
        message: TradeMessage::InvalidChoice { allowed: "text, image, video" }.into(),
        fields: vec![FieldError::new("type", TradeMessage::InvalidChoice { allowed: "text, image, video" }.into())],
        locale,
    })?;
    Ok(MockOk(generate::popular(today(), kind, locale), locale))
}

/// The chat list.
#[utoipa::path(get, path = "/api/template/chat/list", tag = "template",
    responses((status = 200, description = "`data` is a list of ChatItem", body = [generate::ChatItem])), security(("token" = [])))]
pub async fn chat_list(_caller: CurrentUser, headers: HeaderMap) -> MockOk<Vec<generate::ChatItem>> {
    let locale = Locale::from_headers(&headers);
    MockOk(generate::chat(today(), locale), locale)
}

/// Quality-inspection queues.
#[utoipa::path(get, path = "/api/template/quality-inspection/list", tag = "template",
    responses((status = 200, description = "`data` is a list of QualityInspection", body = [generate::QualityInspection])), security(("token" = [])))]
pub async fn quality_inspection_list(
    _caller: CurrentUser,
    headers: HeaderMap,
) -> MockOk<Vec<generate::QualityInspection>> {
    let locale = Locale::from_headers(&headers);
    let now = now_millis();
    MockOk(generate::quality_inspection(day_of(now), now, locale), locale)
}

/// Service cards.
#[utoipa::path(get, path = "/api/template/the-service/list", tag = "template",
    responses((status = 200, description = "`data` is a list of ServiceItem", body = [generate::ServiceItem])), security(("token" = [])))]
pub async fn service_list(_caller: CurrentUser, headers: HeaderMap) -> MockOk<Vec<generate::ServiceItem>> {
    let locale = Locale::from_headers(&headers);
    MockOk(generate::services(today(), locale), locale)
}

/// Rule presets.
#[utoipa::path(get, path = "/api/template/rules-preset/list", tag = "template",
    responses((status = 200, description = "`data` is a list of RulePreset", body = [generate::RulePreset])), security(("token" = [])))]
pub async fn rules_preset_list(_caller: CurrentUser, headers: HeaderMap) -> MockOk<Vec<generate::RulePreset>> {
    let locale = Locale::from_headers(&headers);
    MockOk(generate::rule_presets(today(), locale), locale)
}

/// The policy list (55 rows, page 1 and size 10 by default).
#[utoipa::path(get, path = "/api/template/policy/list", tag = "template", params(PolicyQuery),
    responses((status = 200, description = "`data` is a PolicyPage: list and total", body = PolicyPage),
        (status = 400, description = "50000: a filter or page value is invalid")), security(("token" = [])))]
pub async fn policy_list(
    _caller: CurrentUser,
    headers: HeaderMap,
    QueryParams(query): QueryParams<PolicyQuery>,
) -> MockResult<PolicyPage> {
    let locale = Locale::from_headers(&headers);
    let rows = generate::policies(today(), locale);
    query.page(rows).map(|page| MockOk(page, locale)).map_err(|fields| MockFail {
        message: fields.first().map(|field| field.message.clone()).unwrap_or(TemplateMessage::SubmitFailed.into()),
        fields,
        locale,
    })
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChannelFormReceipt {
    /// A reference for the result and detail pages; nothing is stored under it.
    pub id: String,
    pub submitted_at: String,
    pub form: channel_form::ChannelForm,
}

/// Checks a channel form against its ranges and echoes it; nothing is stored.
#[utoipa::path(post, path = "/api/template/channel-form/submit", tag = "template",
    request_body = channel_form::ChannelFormRequest,
    responses((status = 200, description = "`data` is a ChannelFormReceipt", body = ChannelFormReceipt),
        (status = 400, description = "50000: 'Form submission failed, please retry', data.fields per field: missing, not a choice, out of range"),
        (status = 422, description = "50000: the same, for the link's form, a text too long, or the encoding rates' order (minimum <= default <= maximum)")),
    security(("token" = [])))]
pub async fn channel_form_submit(
    _caller: CurrentUser,
    headers: HeaderMap,
    JsonBody(request): JsonBody<channel_form::ChannelFormRequest>,
) -> MockResult<ChannelFormReceipt> {
    let locale = Locale::from_headers(&headers);
    let form = request.validate().map_err(|fields| MockFail {
        message: TemplateMessage::SubmitFailed.into(),
        fields,
        locale,
    })?;
    let now = now_millis();
    Ok(MockOk(
        ChannelFormReceipt {
            id: format!("CF{}", crate::domain::beijing_time(now).replace(['-', ' ', ':'], "")),
            submitted_at: crate::domain::beijing_time(now),
            form,
        },
        locale,
    ))
}

/// My projects with their contributors.
#[utoipa::path(get, path = "/api/template/user/my-project/list", tag = "template",
    responses((status = 200, description = "`data` is a list of Project", body = [generate::Project])), security(("token" = [])))]
pub async fn my_projects(_caller: CurrentUser, headers: HeaderMap) -> MockOk<Vec<generate::Project>> {
    let locale = Locale::from_headers(&headers);
    MockOk(generate::projects(today(), locale), locale)
}

/// Latest activity.
#[utoipa::path(get, path = "/api/template/user/latest-activity", tag = "template",
    responses((status = 200, description = "`data` is a list of Activity", body = [generate::Activity])), security(("token" = [])))]
pub async fn latest_activity(_caller: CurrentUser, headers: HeaderMap) -> MockOk<Vec<generate::Activity>> {
    let locale = Locale::from_headers(&headers);
    MockOk(generate::activities(today(), locale), locale)
}

/// Visits.
#[utoipa::path(get, path = "/api/template/user/visits", tag = "template",
    responses((status = 200, description = "`data` is a list of Visits", body = [generate::Visits])), security(("token" = [])))]
pub async fn visits(_caller: CurrentUser, headers: HeaderMap) -> MockOk<Vec<generate::Visits>> {
    let locale = Locale::from_headers(&headers);
    MockOk(generate::visits(today(), locale), locale)
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ProjectsAndTeams {
    pub projects: Vec<generate::Project>,
    pub teams: Vec<generate::Team>,
}

/// Projects and teams together (the user-info overview).
#[utoipa::path(get, path = "/api/template/user/project-and-team/list", tag = "template",
    responses((status = 200, description = "`data` is a ProjectsAndTeams", body = ProjectsAndTeams)), security(("token" = [])))]
pub async fn projects_and_teams(_caller: CurrentUser, headers: HeaderMap) -> MockOk<ProjectsAndTeams> {
    let locale = Locale::from_headers(&headers);
    let day = today();
    MockOk(ProjectsAndTeams { projects: generate::projects(day, locale), teams: generate::teams(day, locale) }, locale)
}

/// My teams.
#[utoipa::path(get, path = "/api/template/user/my-team/list", tag = "template",
    responses((status = 200, description = "`data` is a list of Team", body = [generate::Team])), security(("token" = [])))]
pub async fn my_teams(_caller: CurrentUser, headers: HeaderMap) -> MockOk<Vec<generate::Team>> {
    let locale = Locale::from_headers(&headers);
    MockOk(generate::teams(today(), locale), locale)
}
