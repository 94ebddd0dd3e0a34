//! The profile form and the rules of its fields, as validated types. The server
//! checks every rule itself: the console's checks are a convenience, not a guard.

use crate::http::error::{AppError, FieldError};
use crate::i18n::Message;
use crate::i18n::UserCentreMessage as Text;
use serde::Deserialize;
use std::net::IpAddr;
use utoipa::ToSchema;

pub const PROFILE_TEXT_MAX: usize = 200;
pub const MAX_WHITELIST_ENTRIES: usize = 50;

/// The profile form as sent. Every field is optional in JSON so that a missing field is
/// reported with its own message rather than a parse error.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct ProfileRequest {
    #[schema(value_type = String, required = true, pattern = r"\S")]
    pub nickname: Option<String>,
    #[schema(value_type = String, required = true, pattern = r"\S")]
    pub email: Option<String>,
    #[schema(value_type = String, required = true, pattern = r"\S")]
    pub country_region: Option<String>,
    #[schema(value_type = String, required = true, pattern = r"\S")]
    pub area: Option<String>,
    pub address: Option<String>,
    pub contact_phone: Option<String>,
    /// Personal profile, at most 200 characters.
    pub introduction: Option<String>,
    pub personal_website: Option<String>,
    pub office_location: Option<String>,
    /// Where results are notified: an http(s) URL, or empty.
    pub notify_url: Option<String>,
    /// IPv4/IPv6 addresses or CIDR ranges separated by English commas, or empty.
    pub ip_whitelist: Option<String>,
}

/// A profile that passed every rule, normalised, ready to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profile {
    pub nickname: String,
    pub email: String,
    pub country_region: String,
    pub area: String,
    pub address: String,
    pub contact_phone: String,
    pub introduction: String,
    pub personal_website: String,
    pub office_location: String,
    /// The integration settings, when the request held them: the profile form of the console
    /// no longer sends them (they have their own form), and saving it must not blank them.
    pub notify_url: Option<String>,
    pub ip_whitelist: Option<String>,
}

/// The integration settings form (notify URL, IP whitelist; later the API keys), saved on
/// its own by `changeIntegration`. An absent field is an empty one: the form sends both.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct IntegrationRequest {
    /// Where results are notified: an http(s) URL, or empty.
    pub notify_url: Option<String>,
    /// IPv4/IPv6 addresses or CIDR ranges separated by English commas, or empty.
    pub ip_whitelist: Option<String>,
}

/// Integration settings that passed the same rules as in the profile form, normalised.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Integration {
    pub notify_url: String,
    pub ip_whitelist: String,
}

impl Integration {
    pub fn parse(request: IntegrationRequest) -> Result<Self, AppError> {
        let mut errors = Errors::default();
        let notify_url = check_notify_url(&mut errors, request.notify_url.unwrap_or_default());
        let ip_whitelist = check_ip_whitelist(&mut errors, request.ip_whitelist.unwrap_or_default());
        errors.into_result(Integration { notify_url, ip_whitelist })
    }
}

fn check_notify_url(errors: &mut Errors, value: String) -> String {
    let notify_url = errors.text("notify_url", Some(value), None, 500);
    if !notify_url.is_empty() && !is_http_url(&notify_url) {
        errors.add("notify_url", Text::NotifyUrlInvalid);
    }
    notify_url
}

fn check_ip_whitelist(errors: &mut Errors, value: String) -> String {
    let raw_whitelist = errors.text("ip_whitelist", Some(value), None, 4000);
    match parse_ip_whitelist(&raw_whitelist) {
        Ok(entries) => entries.join(","),
        Err(message) => {
            errors.add("ip_whitelist", message);
            String::new()
        }
    }
}

/// Collects field errors so that one answer names every bad field. The second list holds
/// fields required only by a rule beyond the document (named all the same).
#[derive(Default)]
pub struct Errors(Vec<FieldError>, Vec<FieldError>);

impl Errors {
    pub fn add(&mut self, field: &str, text: Text) {
        self.0.push(FieldError::new(field, Message::UserCentre(text)));
    }

    /// A field missing that the document does not mark required: needed because of the
    /// stored state (a new security question needs its answer), so 422 on its own.
    pub fn add_required_by_rule(&mut self, field: &str, text: Text) {
        self.1.push(FieldError::new(field, Message::UserCentre(text)));
    }

    /// 400 when a field the OpenAPI document marks required is missing or blank; otherwise
    /// the rules broken are beyond its schema (an address's form, a length once trimmed, a
    /// check digit, a choice another field decides): 422, still 40000 naming every field.
    pub fn into_result<T>(self, value: T) -> Result<T, AppError> {
        let Errors(mut fields, by_rule) = self;
        let breaks_document = fields.iter().any(|field| field.message.key().ends_with(".required"));
        fields.extend(by_rule);
        if fields.is_empty() {
            Ok(value)
        } else if breaks_document {
            Err(AppError::Validation(fields))
        } else {
            Err(AppError::Unprocessable(fields))
        }
    }

    /// Trims `value` and checks it is present (if `required`) and not over `max` characters.
    pub fn text(&mut self, field: &str, value: Option<String>, required: Option<Text>, max: usize) -> String {
        let value = value.unwrap_or_default().trim().to_string();
        if value.is_empty() {
            if let Some(message) = required {
                self.add(field, message);
            }
        } else if value.chars().count() > max {
            self.add(field, Text::TooLong { max });
        }
        value
    }
}

impl Profile {
    pub fn parse(request: ProfileRequest) -> Result<Self, AppError> {
        let mut errors = Errors::default();
        let nickname = errors.text("nickname", request.nickname, Some(Text::NicknameRequired), 50);
        let email = errors.text("email", request.email, Some(Text::EmailRequired), 254);
        if !email.is_empty() && email.chars().count() <= 254 && !is_email(&email) {
            errors.add("email", Text::EmailInvalid);
        }
        let country_region =
            errors.text("country_region", request.country_region, Some(Text::CountryRegionRequired), 64);
        let area = errors.text("area", request.area, Some(Text::AreaRequired), 128);
        let address = errors.text("address", request.address, None, PROFILE_TEXT_MAX);
        let contact_phone = errors.text("contact_phone", request.contact_phone, None, 32);
        if !contact_phone.is_empty() && !is_phone(&contact_phone) {
            errors.add("contact_phone", Text::PhoneInvalid);
        }
        let introduction = errors.text("introduction", request.introduction, None, PROFILE_TEXT_MAX);
        let personal_website = errors.text("personal_website", request.personal_website, None, PROFILE_TEXT_MAX);
        if !personal_website.is_empty() && !is_http_url(&personal_website) {
            errors.add("personal_website", Text::WebsiteInvalid);
        }
        let office_location = errors.text("office_location", request.office_location, None, PROFILE_TEXT_MAX);
        let notify_url = request.notify_url.map(|value| check_notify_url(&mut errors, value));
        let ip_whitelist = request.ip_whitelist.map(|value| check_ip_whitelist(&mut errors, value));
        errors.into_result(Profile {
            nickname,
            email,
            country_region,
            area,
            address,
            contact_phone,
            introduction,
            personal_website,
            office_location,
            notify_url,
            ip_whitelist,
        })
    }
}

/// A pragmatic address check: one `@`, a non-empty local part, a dotted domain of
/// letters, digits and hyphens (internationalised domains in their Unicode form too).
pub fn is_email(text: &str) -> bool {
    let Some((local, domain)) = text.split_once('@') else { return false };
    if local.is_empty() || local.len() > 64 || domain.contains('@') || text.chars().any(char::is_whitespace) {
        return false;
    }
    let labels: Vec<&str> = domain.split('.').collect();
    labels.len() >= 2
        && labels.iter().all(|label| {
            !label.is_empty()
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.chars().all(|character| character.is_alphanumeric() || character == '-')
        })
}

pub fn is_phone(text: &str) -> bool {
    let digits = text.chars().filter(char::is_ascii_digit).count();
    (5..=20).contains(&digits)
        && text.chars().all(|character| character.is_ascii_digit() || " +-()".contains(character))
}

pub fn is_http_url(text: &str) -> bool {
    match url::Url::parse(text) {
        Ok(parsed) => {
            matches!(parsed.scheme(), "http" | "https") && parsed.host_str().is_some_and(|host| !host.is_empty())
        }
        Err(_) => false,
    }
}

/// Parses the whitelist into canonical entries: addresses in their standard text form,
/// CIDR ranges reduced to their network address, duplicates dropped, order kept.
pub fn parse_ip_whitelist(text: &str) -> Result<Vec<String>, Text> {
    if text.contains('，') {
        return Err(Text::IpWhitelistChineseComma);
    }
    let mut entries: Vec<String> = Vec::new();
    for raw in text.split(',').map(str::trim).filter(|entry| !entry.is_empty()) {
        let entry =
            parse_ip_entry(raw).ok_or_else(|| Text::IpWhitelistInvalid { entry: raw.chars().take(64).collect() })?;
        if !entries.contains(&entry) {
            entries.push(entry);
        }
    }
    if entries.len() > MAX_WHITELIST_ENTRIES {
        return Err(Text::IpWhitelistTooMany { max: MAX_WHITELIST_ENTRIES });
    }
    Ok(entries)
}

fn parse_ip_entry(raw: &str) -> Option<String> {
    let Some((address, prefix)) = raw.split_once('/') else {
        return raw.parse::<IpAddr>().ok().map(|address| address.to_string());
    };
    let address: IpAddr = address.trim().parse().ok()?;
    let prefix_text = prefix.trim();
    if prefix_text.is_empty() || !prefix_text.bytes().all(|byte| byte.is_ascii_digit()) || prefix_text.len() > 3 {
        return None;
    }
    let prefix: u32 = prefix_text.parse().ok()?;
    let network = match address {
        IpAddr::V4(v4) if prefix <= 32 => {
            let mask = if prefix == 0 { 0 } else { u32::MAX << (32 - prefix) };
            IpAddr::from((u32::from(v4) & mask).to_be_bytes())
        }
        IpAddr::V6(v6) if prefix <= 128 => {
            let mask = if prefix == 0 { 0 } else { u128::MAX << (128 - prefix) };
            IpAddr::from((u128::from(v6) & mask).to_be_bytes())
        }
        _ => return None,
    };
    Some(format!("{network}/{prefix}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn valid_request() -> ProfileRequest {
        ProfileRequest {
            nickname: Some("演示商户".into()),
            email: Some("shop@example.com".into()),
            country_region: Some("China".into()),
            area: Some("110000/110100/110101".into()),
            ..Default::default()
        }
    }

    fn fields(error: AppError) -> Vec<(String, &'static str)> {
        match error {
            AppError::Validation(fields) | AppError::Unprocessable(fields) => {
                fields.into_iter().map(|field| (field.field, field.message.key())).collect()
            }
            other => panic!("expected validation, got {other:?}"),
        }
    }

    #[test]
    fn a_missing_field_is_400_and_a_malformed_one_422() {
        let missing = Profile::parse(ProfileRequest::default()).unwrap_err();
        assert!(matches!(missing, AppError::Validation(_)), "{missing:?}");
        let malformed = Profile::parse(ProfileRequest { email: Some("no-at-sign".into()), ..valid_request() });
        assert!(matches!(malformed, Err(AppError::Unprocessable(_))), "{malformed:?}");
    }

    #[test]
    fn the_four_required_fields_have_their_own_messages() {
        let errors = fields(Profile::parse(ProfileRequest::default()).unwrap_err());
        assert_eq!(
            errors,
            vec![
                ("nickname".to_string(), "profile.nickname.required"),
                ("email".to_string(), "profile.email.required"),
                ("country_region".to_string(), "profile.country_region.required"),
                ("area".to_string(), "profile.area.required"),
            ]
        );
        assert_eq!(Text::EmailRequired.text(crate::i18n::Locale::EnUs), "please enter email");
        assert_eq!(Text::AreaRequired.text(crate::i18n::Locale::EnUs), "please select area");
    }

    #[test]
    fn texts_are_limited_to_200_characters() {
        let mut request = valid_request();
        request.introduction = Some("简".repeat(200));
        assert!(Profile::parse(request).is_ok());
        let mut request = valid_request();
        request.introduction = Some("简".repeat(201));
        assert_eq!(fields(Profile::parse(request).unwrap_err()), vec![("introduction".to_string(), "field.too_long")]);
    }

    #[test]
    fn urls_must_be_http() {
        for good in ["https://shop.example.com/notify", "http://10.0.0.1:8080/cb?x=1"] {
            assert!(is_http_url(good), "{good}");
        }
        for bad in ["ftp://example.com", "javascript:alert(1)", "example.com", "http://", "http://exa mple.com"] {
            assert!(!is_http_url(bad), "{bad}");
        }
    }

    #[test]
    fn emails_and_phones() {
        assert!(is_email("a.b+c@mail.example.cn"));
        assert!(is_email("用户@例子.中国"));
        for bad in ["plain", "@example.com", "a@b", "a@@b.com", "a b@c.com", "a@-b.com", "a@b..com"] {
            assert!(!is_email(bad), "{bad}");
        }
        assert!(is_phone("+86 138-0013-8000"));
        assert!(is_phone("010-12345678"));
        assert!(!is_phone("12ab5678"));
        assert!(!is_phone("123"));
    }

    #[test]
    fn whitelists_are_validated_and_normalised() {
        assert_eq!(
            parse_ip_whitelist(" 192.168.1.10, 10.1.2.3/8 ,2001:0db8::0001, ::1,192.168.1.10,, 2001:db8::1234/32")
                .unwrap(),
            vec!["192.168.1.10", "10.0.0.0/8", "2001:db8::1", "::1", "2001:db8::/32"]
        );
        assert_eq!(parse_ip_whitelist("").unwrap(), Vec::<String>::new());
        assert_eq!(parse_ip_whitelist("1.2.3.4，5.6.7.8").unwrap_err(), Text::IpWhitelistChineseComma);
        for bad in
            ["256.1.1.1", "1.2.3", "1.2.3.4/33", "::1/129", "1.2.3.4/", "1.2.3.4/+8", "localhost", "1.2.3.4 5.6.7.8"]
        {
            assert!(matches!(parse_ip_whitelist(bad), Err(Text::IpWhitelistInvalid { .. })), "{bad}");
        }
        let integration = Integration::parse(IntegrationRequest {
            notify_url: Some(" https://shop.example.com/cb ".into()),
            ip_whitelist: Some("10.1.2.3/8, 10.0.0.0/8".into()),
        })
        .unwrap();
        assert_eq!(integration.notify_url, "https://shop.example.com/cb");
        assert_eq!(integration.ip_whitelist, "10.0.0.0/8");
        assert_eq!(
            Integration::parse(IntegrationRequest::default()).unwrap(),
            Integration { notify_url: String::new(), ip_whitelist: String::new() }
        );
        let many = (0..51).map(|index| format!("10.0.0.{index}")).collect::<Vec<_>>().join(",");
        assert_eq!(parse_ip_whitelist(&many).unwrap_err(), Text::IpWhitelistTooMany { max: 50 });
    }
}
