//! The policy list's filters and paging.
//!
//! Every query value arrives as text and is parsed here, so a wrong one is answered in
//! the mock envelope naming the field, never with the framework's plain-text 400.

use super::generate::{CONTENT_TYPES, FILTER_TYPES, POLICY_STATUSES, PolicyRow};
use crate::http::error::FieldError;
use crate::i18n::{Message, TemplateMessage, TradeMessage};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub const DEFAULT_PAGE_SIZE: i64 = 10;
pub const MAX_PAGE_SIZE: i64 = 100;

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct PolicyQuery {
    /// Page number from 1 (default 1).
    #[param(pattern = r"^\s*(\+?0*([1-9][0-9]{0,5}|1000000))?\s*$")]
    pub current: Option<String>,
    /// Rows per page, 1 to 100 (default 10).
    #[param(pattern = r"^\s*(\+?0*([1-9][0-9]?|100))?\s*$")]
    pub page_size: Option<String>,
    /// Part of the policy number.
    pub number: Option<String>,
    /// Part of the name.
    pub name: Option<String>,
    /// `img`, `horizontalVideo` or `verticalVideo`.
    #[param(pattern = r"^\s*(img|horizontalVideo|verticalVideo)?\s*$")]
    pub content_type: Option<String>,
    /// `artificial` or `rules`.
    #[param(pattern = r"^\s*(artificial|rules)?\s*$")]
    pub filter_type: Option<String>,
    /// `online` or `offline`.
    #[param(pattern = r"^\s*(online|offline)?\s*$")]
    pub status: Option<String>,
    /// First created day, `YYYY-MM-DD` (inclusive).
    #[param(pattern = r"^\s*([0-9]{4}-[0-9]{2}-[0-9]{2})?\s*$")]
    pub created_time_start: Option<String>,
    /// Last created day, `YYYY-MM-DD` (inclusive).
    #[param(pattern = r"^\s*([0-9]{4}-[0-9]{2}-[0-9]{2})?\s*$")]
    pub created_time_end: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PolicyPage {
    pub list: Vec<PolicyRow>,
    /// Rows matching the filters (55 without filters).
    pub total: usize,
}

fn present(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|text| !text.is_empty())
}

fn is_date(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 10
        && bytes
            .iter()
            .enumerate()
            .all(|(index, byte)| if index == 4 || index == 7 { *byte == b'-' } else { byte.is_ascii_digit() })
}

impl PolicyQuery {
    /// The page of `rows` the query asks for, or why it cannot be answered.
    pub fn page(&self, rows: Vec<PolicyRow>) -> Result<PolicyPage, Vec<FieldError>> {
        let mut errors = Vec::new();
        let mut number = |field: &str, value: &Option<String>, default: i64, max: i64| match present(value) {
            None => default,
            Some(text) => match text.parse::<i64>() {
                Ok(parsed) if (1..=max).contains(&parsed) => parsed,
                _ => {
                    errors.push(FieldError::new(field, TemplateMessage::NumberOutOfRange { min: 1, max }.into()));
                    default
                }
            },
        };
        let current = number("current", &self.current, 1, 1_000_000);
        let page_size = number("pageSize", &self.page_size, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
        let mut choice = |field: &str, value: &Option<String>, allowed: &[&str], list: &'static str| {
            let text = present(value)?;
            if allowed.contains(&text) {
                Some(text.to_string())
            } else {
                errors.push(FieldError::new(field, Message::from(TradeMessage::InvalidChoice { allowed: list })));
                None
            }
        };
        let content_type =
            choice("contentType", &self.content_type, &CONTENT_TYPES, "img, horizontalVideo, verticalVideo");
        let filter_type = choice("filterType", &self.filter_type, &FILTER_TYPES, "artificial, rules");
        let status = choice("status", &self.status, &POLICY_STATUSES, "online, offline");
        let mut date = |field: &str, value: &Option<String>| {
            let text = present(value)?;
            if is_date(text) {
                Some(text.to_string())
            } else {
                errors.push(FieldError::new(field, TradeMessage::TimeInvalid.into()));
                None
            }
        };
        let start = date("createdTimeStart", &self.created_time_start);
        let end = date("createdTimeEnd", &self.created_time_end);
        if !errors.is_empty() {
            return Err(errors);
        }
        let number_part = present(&self.number);
        let name_part = present(&self.name).map(str::to_lowercase);
        let matching: Vec<PolicyRow> = rows
            .into_iter()
            .filter(|row| number_part.is_none_or(|part| row.number.to_string().contains(part)))
            .filter(|row| name_part.as_deref().is_none_or(|part| row.name.to_lowercase().contains(part)))
            .filter(|row| content_type.as_deref().is_none_or(|wanted| row.content_type == wanted))
            .filter(|row| filter_type.as_deref().is_none_or(|wanted| row.filter_type == wanted))
            .filter(|row| status.as_deref().is_none_or(|wanted| row.status == wanted))
            // `YYYY-MM-DD HH:MM:SS` compares as text; the day is its first 10 characters.
            .filter(|row| start.as_deref().is_none_or(|first| &row.created_time[..10] >= first))
            .filter(|row| end.as_deref().is_none_or(|last| &row.created_time[..10] <= last))
            .collect();
        let total = matching.len();
        let skip = usize::try_from((current - 1) * page_size).unwrap_or(usize::MAX);
        let list = matching.into_iter().skip(skip).take(page_size as usize).collect();
        Ok(PolicyPage { list, total })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::template_pages::generate::policies;
    use crate::i18n::Locale;

    fn query() -> PolicyQuery {
        PolicyQuery::default()
    }

    #[test]
    fn defaults_are_page_1_of_10_with_the_total_of_55() {
        let page = query().page(policies(20_000, Locale::EnUs)).unwrap();
        assert_eq!(page.total, 55);
        assert_eq!(page.list.len(), 10);
        let last = PolicyQuery { current: Some("6".into()), ..query() }.page(policies(20_000, Locale::EnUs)).unwrap();
        assert_eq!(last.list.len(), 5);
        let beyond = PolicyQuery { current: Some("7".into()), ..query() }.page(policies(20_000, Locale::EnUs)).unwrap();
        assert!(beyond.list.is_empty());
    }

    #[test]
    fn filters_combine_and_the_total_counts_the_matches() {
        let rows = policies(20_000, Locale::EnUs);
        let online = rows.iter().filter(|row| row.status == "online" && row.content_type == "img").count();
        let page = PolicyQuery { status: Some("online".into()), content_type: Some("img".into()), ..query() }
            .page(rows.clone())
            .unwrap();
        assert_eq!(page.total, online);
        assert!(page.list.iter().all(|row| row.status == "online" && row.content_type == "img"));
        let one = &rows[3];
        let by_number = PolicyQuery { number: Some(one.number.to_string()), ..query() }.page(rows.clone()).unwrap();
        assert!(by_number.list.iter().any(|row| row.id == one.id));
        let day = one.created_time[..10].to_string();
        let by_day =
            PolicyQuery { created_time_start: Some(day.clone()), created_time_end: Some(day.clone()), ..query() }
                .page(rows.clone())
                .unwrap();
        assert!(by_day.total >= 1 && by_day.list.iter().all(|row| row.created_time.starts_with(&day)));
    }

    #[test]
    fn wrong_values_are_named() {
        let wrong = PolicyQuery {
            current: Some("0".into()),
            page_size: Some("101".into()),
            status: Some("archived".into()),
            created_time_start: Some("yesterday".into()),
            ..query()
        };
        let fields: Vec<String> =
            wrong.page(policies(20_000, Locale::EnUs)).unwrap_err().into_iter().map(|error| error.field).collect();
        assert_eq!(fields, ["current", "pageSize", "status", "createdTimeStart"]);
    }
}
