//! A maintenance window as an administrator sends it, checked field by field: a 422 names
//! each wrong field with its own key (`window.*`), both languages.

use crate::domain::Carrier;
use crate::domain::windows::{DaySpan, Recurrence, WindowScope, parse_clock};
use crate::http::error::{AppError, FieldError};
use crate::http::pagination::parse_time;
use crate::i18n::WindowMessage;
use crate::platform::sql::Bind;
use crate::platform::state::AppState;
use serde::Deserialize;
use utoipa::ToSchema;

pub const MAX_TITLE_CHARS: usize = 60;
pub const MAX_NOTE_CHARS: usize = 200;

#[derive(Debug, Deserialize, ToSchema)]
pub struct WindowForm {
    /// Shown to merchants and in refusals (1 to 60 characters).
    pub title: String,
    /// For administrators (at most 200 characters).
    #[serde(default)]
    pub note: String,
    /// `carrier`, `province` (a carrier in one province) or `channel`.
    pub scope: String,
    /// mobile, unicom, telecom or broadnet (scopes carrier and province).
    pub carrier: Option<String>,
    /// GB/T 2260 code (scope province).
    pub province: Option<i64>,
    /// Scope channel.
    pub channel_id: Option<i64>,
    /// `once`, `daily`, `weekly` or `monthly`.
    pub recurrence: String,
    /// Once: RFC 3339 start and end (the end after the start).
    pub starts_at: Option<String>,
    pub ends_at: Option<String>,
    /// Weekly: 1 Monday … 7 Sunday; monthly: 1 … 31 (the last day in shorter months).
    pub day: Option<i64>,
    /// Recurring: Beijing `HH:MM`; an end before the start ends on the next day.
    pub span_start: Option<String>,
    pub span_end: Option<String>,
}

/// A form that passed every check.
#[derive(Debug)]
pub struct Checked {
    pub title: String,
    pub note: String,
    pub scope: WindowScope,
    pub recurrence: Recurrence,
}

fn wrong(field: &str, message: WindowMessage) -> FieldError {
    FieldError::new(field, message.into())
}

/// Checks every field (all wrong fields named at once); a channel must exist.
pub async fn check(state: &AppState, form: &WindowForm) -> Result<Checked, AppError> {
    let mut errors = Vec::new();
    let title = form.title.trim().to_string();
    if title.is_empty() || title.chars().count() > MAX_TITLE_CHARS {
        errors.push(wrong("title", WindowMessage::TitleInvalid { max: MAX_TITLE_CHARS }));
    }
    let note = form.note.trim().to_string();
    if note.chars().count() > MAX_NOTE_CHARS {
        errors.push(wrong("note", WindowMessage::NoteTooLong { max: MAX_NOTE_CHARS }));
    }
    let carrier = form.carrier.as_deref().and_then(Carrier::parse);
    let province = form.province.and_then(|code| u32::try_from(code).ok());
    let province = province.filter(|code| crate::domain::product_scope::PROVINCE_CODES.contains(code));
    let channel_known = match form.channel_id {
        Some(id) if form.scope == "channel" => channel_exists(state, id).await?,
        _ => false,
    };
    let scope = match (form.scope.as_str(), carrier, province, form.channel_id) {
        ("carrier", Some(carrier), None, None) if form.province.is_none() => Some(WindowScope::Carrier(carrier)),
        ("province", Some(carrier), Some(code), None) => Some(WindowScope::Province(carrier, code)),
        ("channel", None, None, Some(id)) if form.province.is_none() && channel_known => Some(WindowScope::Channel(id)),
        _ => None,
    };
    if scope.is_none() {
        errors.push(wrong("scope", WindowMessage::ScopeInvalid));
    }
    let recurrence = recurrence(form, &mut errors)?;
    match (scope, recurrence) {
        (Some(scope), Some(recurrence)) if errors.is_empty() => Ok(Checked { title, note, scope, recurrence }),
        _ => Err(AppError::Unprocessable(errors)),
    }
}

async fn channel_exists(state: &AppState, id: i64) -> Result<bool, AppError> {
    let found: Option<i64> =
        sqlx::query_scalar("SELECT id FROM channels WHERE id = $1").bind(id).fetch_optional(&state.db.pool).await?;
    Ok(found.is_some())
}

fn recurrence(form: &WindowForm, errors: &mut Vec<FieldError>) -> Result<Option<Recurrence>, AppError> {
    if form.recurrence == "once" {
        let start = parse_time("starts_at", form.starts_at.as_deref())?;
        let end = parse_time("ends_at", form.ends_at.as_deref())?;
        return Ok(match start.zip(end) {
            Some((start, end)) if end > start => Some(Recurrence::Once { start, end }),
            Some(_) => {
                errors.push(wrong("ends_at", WindowMessage::EndBeforeStart));
                None
            }
            None => {
                errors.push(wrong("starts_at", WindowMessage::EndBeforeStart));
                None
            }
        });
    }
    let span = form
        .span_start
        .as_deref()
        .and_then(parse_clock)
        .zip(form.span_end.as_deref().and_then(parse_clock))
        .and_then(|(start, end)| DaySpan::new(start, end));
    let day = form.day.and_then(|day| u8::try_from(day).ok());
    let found = match (form.recurrence.as_str(), span, day) {
        ("daily", Some(span), _) => Some(Recurrence::Daily { span }),
        ("weekly", Some(span), Some(weekday @ 1..=7)) => Some(Recurrence::Weekly { weekday, span }),
        ("monthly", Some(span), Some(day @ 1..=31)) => Some(Recurrence::Monthly { day, span }),
        _ => None,
    };
    if found.is_none() {
        errors.push(wrong("recurrence", WindowMessage::RecurrenceInvalid));
    }
    Ok(found)
}

/// The row's values, in the order creation and change both write them: title, note,
/// scope_kind, carrier, province, channel_id, recurrence, starts_at, ends_at, day,
/// span_start, span_end.
pub fn binds(form: &Checked) -> Vec<Bind> {
    let mut binds = vec![Bind::Text(form.title.clone()), Bind::Text(form.note.clone())];
    binds.extend(columns(form).map(Bind::OptInt));
    binds
}

/// The row's columns after title and note.
fn columns(form: &Checked) -> [Option<i64>; 10] {
    let (kind, carrier, province, channel) = match form.scope {
        WindowScope::Carrier(carrier) => (1, Some(carrier.code()), None, None),
        WindowScope::Province(carrier, code) => (2, Some(carrier.code()), Some(i64::from(code)), None),
        WindowScope::Channel(id) => (3, None, None, Some(id)),
    };
    let (recurrence, start, end, day, span) = match form.recurrence {
        Recurrence::Once { start, end } => (1, Some(start), Some(end), None, None),
        Recurrence::Daily { span } => (2, None, None, None, Some(span)),
        Recurrence::Weekly { weekday, span } => (3, None, None, Some(i64::from(weekday)), Some(span)),
        Recurrence::Monthly { day, span } => (4, None, None, Some(i64::from(day)), Some(span)),
    };
    [
        Some(kind),
        carrier,
        province,
        channel,
        Some(recurrence),
        start,
        end,
        day,
        span.map(|span| i64::from(span.start)),
        span.map(|span| i64::from(span.end)),
    ]
}
