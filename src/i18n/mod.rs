//! Every user-facing text of the server, in both console locales, one file per area:
//! here the sign-in, session and two-factor messages; `trade.rs` orders, quotes, batches
//! and money; `identity/user_centre/` the user centre; `notices.rs` message-center notices
//! (stored in both languages); `files.rs` column titles and status words of exported
//! files. `coverage.rs` tests that no text lacks a language.
//!
//! Every text the server can put into an envelope's `msg` (or a field message) is a
//! [`Message`]. Handlers never build user-facing strings themselves: they return a
//! `Message`, and the response is rendered in the locale the client asked for with
//! `Accept-Language` (the console sends its current locale). English is the default
//! because it is the language of the API reference.

mod admin;
pub mod audit;
mod audit_detail;
mod audit_detail_words;
mod catalogue;
mod channel;
#[cfg(test)]
mod coverage;
#[cfg(test)]
mod documented_keys;
mod failure;
mod file_kind;
pub mod files;
pub mod funding;
pub mod guide;
pub mod notices;
mod notify;
mod open_api;
pub mod provinces;
pub mod security;
pub mod template;
mod trade;
mod user_centre;
mod views;
pub mod windows;

pub use admin::AdminMessage;
use axum::http::HeaderMap;
pub use catalogue::{CatalogueMessage, SegmentAt, SegmentProblem};
pub use channel::{ChannelMessage, pause_reason};
pub use failure::{FailureReason, failure_text};
pub use file_kind::FileKind;
pub use funding::FundingMessage;
pub use notify::NotifyMessage;
pub use open_api::OpenApiMessage;
use std::borrow::Cow;
pub use template::TemplateMessage;
pub use trade::TradeMessage;
pub use user_centre::UserCentreMessage;
pub use views::ViewMessage;
pub use windows::WindowMessage;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Locale {
    EnUs,
    ZhCn,
}

impl Locale {
    /// Picks the first supported language of an `Accept-Language` header.
    /// Quality values are ignored on purpose: the console sends one language.
    pub fn from_headers(headers: &HeaderMap) -> Self {
        let Some(value) = headers.get(axum::http::header::ACCEPT_LANGUAGE).and_then(|value| value.to_str().ok()) else {
            return Locale::EnUs;
        };
        for part in value.split(',') {
            let tag = part.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
            if tag.starts_with("zh") {
                return Locale::ZhCn;
            }
            if tag.starts_with("en") {
                return Locale::EnUs;
            }
        }
        Locale::EnUs
    }

    /// The language's tag, as in `Accept-Language` and `<html lang>`.
    pub fn tag(self) -> &'static str {
        match self {
            Locale::ZhCn => "zh-CN",
            Locale::EnUs => "en-US",
        }
    }
}

/// Every message the server shows to a person. The `key` is stable and documented in
/// `docs/api.md`; the texts may be improved without breaking clients.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Message {
    Success,
    UsernameRequired,
    PasswordRequired,
    UsernameTooLong {
        max: usize,
    },
    PasswordTooLong {
        max: usize,
    },
    AccountOrPasswordWrong,
    TooManyAttempts {
        retry_after_seconds: u64,
    },
    PermissionDenied,
    NotFound,
    /// The path exists but not with this method (405, `Allow` lists the methods).
    MethodNotAllowed,
    MalformedBody,
    /// A multipart form that cannot be read (no boundary, a broken part header).
    MalformedForm,
    InvalidField {
        detail: String,
    },
    /// A text holds U+0000, which PostgreSQL cannot store (refused on both engines).
    NulCharacter,
    TokenUnknown,
    TokenConflict,
    SessionEnded,
    TokenExpired,
    InternalError,
    /// `/readyz`: the database cannot be reached, takes no writes or lacks migrations.
    NotReady,
    /// The database cannot take the call now (no primary during a failover, connections
    /// lost, the pool exhausted): nothing is answered as done or as refused.
    DatabaseUnavailable,
    PasswordTooShort {
        min: usize,
    },
    PasswordWeak,
    PasswordInvalidCharacter,
    MerchantIdInvalid,
    /// Texts of the user centre (profile, security, certification, messages).
    UserCentre(UserCentreMessage),
    TwoFactorStatusFailed,
    TwoFactorSetupFailed,
    TwoFactorQrCodeFailed,
    TwoFactorCodeWrong,
    BackupCodesRegenerateFailed,
    TwoFactorAlreadyEnabled,
    TwoFactorNotEnabled,
    TwoFactorSetupExpired,
    PendingLoginInvalid,
    IdempotencyKeyInvalid {
        max: usize,
    },
    IdempotencyKeyReused,
    /// Orders, quotes, batches and the merchant account (`i18n/trade.rs`).
    Trade(TradeMessage),
    /// The template and demo pages (`i18n/template.rs`).
    Template(TemplateMessage),
    /// The merchant open API and its keys (`i18n/open_api.rs`).
    OpenApi(OpenApiMessage),
    /// Order notifications (`i18n/notify.rs`).
    Notify(NotifyMessage),
    /// The administrators' platform tools (`i18n/admin.rs`).
    Admin(AdminMessage),
    /// The product catalogue and merchants' price lists (`i18n/catalogue.rs`).
    Catalogue(CatalogueMessage),
    /// Upstream channels (`i18n/channel.rs`).
    Channel(ChannelMessage),
    /// Merchants' funding requests (`i18n/funding.rs`).
    Funding(FundingMessage),
    /// Saved views of the list pages (`i18n/views.rs`).
    View(ViewMessage),
    /// Maintenance windows (`i18n/windows.rs`).
    Window(WindowMessage),
}

impl From<WindowMessage> for Message {
    fn from(message: WindowMessage) -> Self {
        Message::Window(message)
    }
}

impl From<FundingMessage> for Message {
    fn from(message: FundingMessage) -> Self {
        Message::Funding(message)
    }
}

impl From<ViewMessage> for Message {
    fn from(message: ViewMessage) -> Self {
        Message::View(message)
    }
}

impl From<CatalogueMessage> for Message {
    fn from(message: CatalogueMessage) -> Self {
        Message::Catalogue(message)
    }
}

impl From<ChannelMessage> for Message {
    fn from(message: ChannelMessage) -> Self {
        Message::Channel(message)
    }
}

impl From<OpenApiMessage> for Message {
    fn from(message: OpenApiMessage) -> Self {
        Message::OpenApi(message)
    }
}

impl From<NotifyMessage> for Message {
    fn from(message: NotifyMessage) -> Self {
        Message::Notify(message)
    }
}

impl From<AdminMessage> for Message {
    fn from(message: AdminMessage) -> Self {
        Message::Admin(message)
    }
}

impl From<TradeMessage> for Message {
    fn from(message: TradeMessage) -> Self {
        Message::Trade(message)
    }
}

impl Message {
    pub fn key(&self) -> &'static str {
        match self {
            Message::Success => "success",
            Message::UsernameRequired => "login.username.required",
            Message::PasswordRequired => "login.password.required",
            Message::UsernameTooLong { .. } => "login.username.too_long",
            Message::PasswordTooLong { .. } => "password.too_long",
            Message::AccountOrPasswordWrong => "login.credentials.wrong",
            Message::TooManyAttempts { .. } => "throttle.too_many_attempts",
            Message::PermissionDenied => "permission.denied",
            Message::NotFound => "not_found",
            Message::MethodNotAllowed => "method_not_allowed",
            Message::MalformedBody => "request.malformed_body",
            Message::MalformedForm => "request.malformed_form",
            Message::InvalidField { .. } => "request.invalid_field",
            Message::NulCharacter => "request.nul_character",
            Message::TokenUnknown => "session.token_unknown",
            Message::TokenConflict => "session.token_conflict",
            Message::SessionEnded => "session.ended",
            Message::TokenExpired => "session.expired",
            Message::InternalError => "internal_error",
            Message::NotReady => "not_ready",
            Message::DatabaseUnavailable => "database_unavailable",
            Message::PasswordTooShort { .. } => "password.too_short",
            Message::PasswordWeak => "password.weak",
            Message::PasswordInvalidCharacter => "password.invalid_character",
            Message::MerchantIdInvalid => "merchant.mid_invalid",
            Message::UserCentre(message) => message.key(),
            Message::TwoFactorStatusFailed => "two_factor.status_failed",
            Message::TwoFactorSetupFailed => "two_factor.setup_failed",
            Message::TwoFactorQrCodeFailed => "two_factor.qr_code_failed",
            Message::TwoFactorCodeWrong => "two_factor.code_wrong",
            Message::BackupCodesRegenerateFailed => "two_factor.regenerate_failed",
            Message::TwoFactorAlreadyEnabled => "two_factor.already_enabled",
            Message::TwoFactorNotEnabled => "two_factor.not_enabled",
            Message::TwoFactorSetupExpired => "two_factor.setup_expired",
            Message::PendingLoginInvalid => "login.pending_invalid",
            Message::IdempotencyKeyInvalid { .. } => "idempotency.key_invalid",
            Message::IdempotencyKeyReused => "idempotency.key_reused",
            Message::Trade(message) => message.key(),
            Message::Template(message) => message.key(),
            Message::OpenApi(message) => message.key(),
            Message::Notify(message) => message.key(),
            Message::Admin(message) => message.key(),
            Message::Catalogue(message) => message.key(),
            Message::Channel(message) => message.key(),
            Message::Funding(message) => message.key(),
            Message::View(message) => message.key(),
            Message::Window(message) => message.key(),
        }
    }

    /// The text shown to people. English sentences start with a capital letter (issue 15),
    /// except the few the specification words in lower case, which stay exactly as given.
    pub fn text(&self, locale: Locale) -> Cow<'static, str> {
        let text = self.text_as_written(locale);
        if locale == Locale::ZhCn || self.is_spec_wording() {
            return text;
        }
        capitalize(text)
    }

    /// The console expects these English texts word for word, in lower case.
    fn is_spec_wording(&self) -> bool {
        matches!(
            self,
            Message::UsernameRequired
                | Message::PasswordRequired
                | Message::AccountOrPasswordWrong
                | Message::PermissionDenied
                | Message::UserCentre(
                    UserCentreMessage::EmailRequired
                        | UserCentreMessage::NicknameRequired
                        | UserCentreMessage::CountryRegionRequired
                        | UserCentreMessage::AreaRequired
                        | UserCentreMessage::TooLong { .. }
                )
        )
    }

    fn text_as_written(&self, locale: Locale) -> Cow<'static, str> {
        use Locale::*;
        let text: Cow<'static, str> = match (self, locale) {
            (Message::Success, EnUs) => "success".into(),
            (Message::Success, ZhCn) => "成功".into(),
            (Message::UsernameRequired, EnUs) => "username cannot be empty".into(),
            (Message::UsernameRequired, ZhCn) => "用户名不能为空".into(),
            (Message::PasswordRequired, EnUs) => "password cannot be empty".into(),
            (Message::PasswordRequired, ZhCn) => "密码不能为空".into(),
            (Message::UsernameTooLong { max }, EnUs) => format!("username must be at most {max} characters").into(),
            (Message::UsernameTooLong { max }, ZhCn) => format!("用户名最多 {max} 个字符").into(),
            (Message::PasswordTooLong { max }, EnUs) => format!("password must be at most {max} characters").into(),
            (Message::PasswordTooLong { max }, ZhCn) => format!("密码最多 {max} 个字符").into(),
            (Message::AccountOrPasswordWrong, EnUs) => "account or password wrong".into(),
            (Message::AccountOrPasswordWrong, ZhCn) => "账号或密码错误".into(),
            (Message::TooManyAttempts { retry_after_seconds }, EnUs) => {
                format!("too many attempts, please retry in {}", english_duration(*retry_after_seconds)).into()
            }
            (Message::TooManyAttempts { retry_after_seconds }, ZhCn) => {
                format!("尝试次数过多，请在 {}后重试", chinese_duration(*retry_after_seconds)).into()
            }
            (Message::PermissionDenied, EnUs) => "your user group does not have permission for this operation".into(),
            (Message::PermissionDenied, ZhCn) => "您所在的用户组没有此操作的权限".into(),
            (Message::NotFound, EnUs) => "the requested resource does not exist".into(),
            (Message::NotFound, ZhCn) => "请求的资源不存在".into(),
            (Message::MethodNotAllowed, EnUs) => "this path does not accept this method".into(),
            (Message::MethodNotAllowed, ZhCn) => "该路径不支持此请求方法".into(),
            (Message::MalformedBody, EnUs) => "the request body is not valid JSON".into(),
            (Message::MalformedBody, ZhCn) => "请求体不是有效的 JSON".into(),
            (Message::MalformedForm, EnUs) => "the request body is not a valid multipart form".into(),
            (Message::MalformedForm, ZhCn) => "请求体不是有效的 multipart 表单".into(),
            (Message::InvalidField { detail }, EnUs) => format!("invalid value: {detail}").into(),
            (Message::InvalidField { detail }, ZhCn) => format!("字段值无效：{detail}").into(),
            (Message::NulCharacter, EnUs) => "must not contain a NUL character (U+0000)".into(),
            (Message::NulCharacter, ZhCn) => "不能包含空字符 (NUL)".into(),
            (Message::TokenUnknown, EnUs) => "not logged in or the login token is invalid".into(),
            (Message::TokenUnknown, ZhCn) => "未登录或登录凭证无效".into(),
            (Message::TokenConflict, EnUs) => "the Authorization and token headers carry different tokens".into(),
            (Message::TokenConflict, ZhCn) => "Authorization 与 token 请求头中的凭证不一致".into(),
            (Message::SessionEnded, EnUs) => {
                "your session has ended: the account signed in elsewhere or the session was revoked".into()
            }
            (Message::SessionEnded, ZhCn) => "会话已结束：账号已在别处登录或会话已被注销".into(),
            (Message::TokenExpired, EnUs) => "your login has expired, please log in again".into(),
            (Message::TokenExpired, ZhCn) => "登录已过期，请重新登录".into(),
            (Message::InternalError, EnUs) => "internal server error, please retry later".into(),
            (Message::InternalError, ZhCn) => "服务器内部错误，请稍后重试".into(),
            (Message::NotReady, EnUs) => "not ready: the database is unreachable, read-only or not migrated".into(),
            (Message::NotReady, ZhCn) => "尚未就绪：数据库无法连接、只读或迁移未完成".into(),
            (Message::DatabaseUnavailable, EnUs) => {
                "the service is briefly unavailable (its database is switching over): retry in a few seconds \
                 with the same merchant order id or Idempotency-Key, which answers the first call's result"
                    .into()
            }
            (Message::DatabaseUnavailable, ZhCn) => {
                "服务暂时不可用（数据库正在切换）：请几秒后用同一商户订单号或 Idempotency-Key 重试，将返回首次请求的结果".into()
            }
            (Message::PasswordTooShort { min }, EnUs) => format!("password must be at least {min} characters").into(),
            (Message::PasswordTooShort { min }, ZhCn) => format!("密码至少 {min} 位").into(),
            (Message::PasswordWeak, EnUs) => {
                "password must contain digits and both upper and lower case letters".into()
            }
            (Message::PasswordWeak, ZhCn) => "密码必须同时包含数字、大写字母和小写字母".into(),
            (Message::PasswordInvalidCharacter, EnUs) => {
                "password may contain only digits, letters and non-space special characters".into()
            }
            (Message::PasswordInvalidCharacter, ZhCn) => "密码只能包含数字、字母和非空格的特殊字符".into(),
            (Message::MerchantIdInvalid, EnUs) => "mid must be a positive integer".into(),
            (Message::MerchantIdInvalid, ZhCn) => "商户编号必须是正整数".into(),
            (Message::UserCentre(message), locale) => message.text(locale),
            // The two-factor texts, word for word as the console shows them.
            (Message::TwoFactorStatusFailed, EnUs) => "Failed to get two-factor authentication status".into(),
            (Message::TwoFactorStatusFailed, ZhCn) => "获取双因素认证状态失败".into(),
            (Message::TwoFactorSetupFailed, EnUs) => "Initialization failed".into(),
            (Message::TwoFactorSetupFailed, ZhCn) => "初始化失败".into(),
            (Message::TwoFactorQrCodeFailed, EnUs) => "QR code generation failed".into(),
            (Message::TwoFactorQrCodeFailed, ZhCn) => "二维码生成失败".into(),
            (Message::TwoFactorCodeWrong, EnUs) => "Verification code is incorrect, please try again".into(),
            (Message::TwoFactorCodeWrong, ZhCn) => "验证码错误，请重试".into(),
            (Message::BackupCodesRegenerateFailed, EnUs) => "Failed to regenerate backup codes".into(),
            (Message::BackupCodesRegenerateFailed, ZhCn) => "重新生成备用验证码失败".into(),
            (Message::TwoFactorAlreadyEnabled, EnUs) => "Two-factor authentication is already enabled".into(),
            (Message::TwoFactorAlreadyEnabled, ZhCn) => "双因素认证已启用".into(),
            (Message::TwoFactorNotEnabled, EnUs) => "Two-factor authentication is not enabled".into(),
            (Message::TwoFactorNotEnabled, ZhCn) => "双因素认证未启用".into(),
            (Message::TwoFactorSetupExpired, EnUs) => {
                "The two-factor setup has expired or was replaced, please start again".into()
            }
            (Message::TwoFactorSetupExpired, ZhCn) => "双因素认证设置已过期或已被替换，请重新开始".into(),
            (Message::PendingLoginInvalid, EnUs) => {
                "The sign-in has expired or is no longer valid, please log in again".into()
            }
            (Message::PendingLoginInvalid, ZhCn) => "登录验证已失效，请重新登录".into(),
            (Message::IdempotencyKeyInvalid { max }, EnUs) => {
                format!("Idempotency-Key must be 1 to {max} visible ASCII characters").into()
            }
            (Message::IdempotencyKeyInvalid { max }, ZhCn) => {
                format!("Idempotency-Key 必须是 1 到 {max} 个可见 ASCII 字符").into()
            }
            (Message::IdempotencyKeyReused, EnUs) => {
                "this Idempotency-Key was already used for a different request; nothing was changed".into()
            }
            (Message::IdempotencyKeyReused, ZhCn) => "该 Idempotency-Key 已用于另一个请求，本次未做任何更改".into(),
            (Message::Trade(message), locale) => message.text(locale),
            (Message::Template(message), locale) => message.text(locale),
            (Message::OpenApi(message), locale) => message.text(locale),
            (Message::Notify(message), locale) => message.text(locale),
            (Message::Admin(message), locale) => message.text(locale),
            (Message::Catalogue(message), locale) => message.text(locale),
            (Message::Channel(message), locale) => message.text(locale),
            (Message::Funding(message), locale) => message.text(locale),
            (Message::View(message), locale) => message.text(locale),
            (Message::Window(message), locale) => message.text(locale),
        };
        text
    }
}

/// The first letter in upper case (texts start with a letter or a digit, never with an
/// identifier that must keep its case: `Idempotency-Key` and `Authorization` already do).
fn capitalize(text: Cow<'static, str>) -> Cow<'static, str> {
    match text.chars().next() {
        Some(first) if first.is_ascii_lowercase() => {
            let mut owned = text.into_owned();
            owned[..1].make_ascii_uppercase();
            Cow::Owned(owned)
        }
        _ => text,
    }
}

fn english_duration(seconds: u64) -> String {
    match seconds {
        0..=1 => "1 second".to_string(),
        2..=119 => format!("{seconds} seconds"),
        _ => format!("{} minutes", seconds.div_ceil(60)),
    }
}

fn chinese_duration(seconds: u64) -> String {
    match seconds {
        0..=119 => format!("{} 秒", seconds.max(1)),
        _ => format!("{} 分钟", seconds.div_ceil(60)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::{HeaderValue, header::ACCEPT_LANGUAGE};

    fn headers(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(ACCEPT_LANGUAGE, HeaderValue::from_str(value).unwrap());
        headers
    }

    #[test]
    fn locale_follows_the_first_supported_language() {
        assert_eq!(Locale::from_headers(&HeaderMap::new()), Locale::EnUs);
        assert_eq!(Locale::from_headers(&headers("zh-CN")), Locale::ZhCn);
        assert_eq!(Locale::from_headers(&headers("fr-FR, zh;q=0.8")), Locale::ZhCn);
        assert_eq!(Locale::from_headers(&headers("en-US,zh-CN;q=0.9")), Locale::EnUs);
        assert_eq!(Locale::from_headers(&headers("de")), Locale::EnUs);
    }

    #[test]
    fn two_factor_texts_are_those_of_the_spec() {
        assert_eq!(Message::TwoFactorStatusFailed.text(Locale::EnUs), "Failed to get two-factor authentication status");
        assert_eq!(Message::TwoFactorCodeWrong.text(Locale::EnUs), "Verification code is incorrect, please try again");
        assert_eq!(Message::TwoFactorCodeWrong.text(Locale::ZhCn), "验证码错误，请重试");
        assert_eq!(Message::BackupCodesRegenerateFailed.text(Locale::ZhCn), "重新生成备用验证码失败");
    }

    #[test]
    fn english_messages_start_with_a_capital_but_the_spec_wording_stays_exact() {
        assert_eq!(Message::MerchantIdInvalid.text(Locale::EnUs), "Mid must be a positive integer");
        assert_eq!(Message::TokenExpired.text(Locale::EnUs), "Your login has expired, please log in again");
        assert_eq!(Message::Success.text(Locale::EnUs), "Success");
        assert_eq!(Message::UsernameRequired.text(Locale::EnUs), "username cannot be empty");
        assert_eq!(Message::PasswordRequired.text(Locale::EnUs), "password cannot be empty");
        assert_eq!(Message::AccountOrPasswordWrong.text(Locale::EnUs), "account or password wrong");
        assert_eq!(
            Message::PermissionDenied.text(Locale::EnUs),
            "your user group does not have permission for this operation"
        );
        let email = Message::UserCentre(UserCentreMessage::EmailRequired);
        assert_eq!(email.text(Locale::EnUs), "please enter email");
        let profile = Message::UserCentre(UserCentreMessage::TooLong { max: 200 });
        assert_eq!(profile.text(Locale::EnUs), "at most 200 characters");
        assert_eq!(Message::MerchantIdInvalid.text(Locale::ZhCn), "商户编号必须是正整数");
    }

    #[test]
    fn retry_durations_read_naturally() {
        let message = Message::TooManyAttempts { retry_after_seconds: 900 };
        assert_eq!(message.text(Locale::EnUs), "Too many attempts, please retry in 15 minutes");
        assert_eq!(message.text(Locale::ZhCn), "尝试次数过多，请在 15 分钟后重试");
        let short = Message::TooManyAttempts { retry_after_seconds: 42 };
        assert_eq!(short.text(Locale::EnUs), "Too many attempts, please retry in 42 seconds");
    }
}
