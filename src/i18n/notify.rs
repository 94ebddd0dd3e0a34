//! Texts of order notifications (callbacks to merchants), in both locales.

use crate::i18n::Locale;
use std::borrow::Cow;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotifyMessage {
    /// The notify URL is not an http(s) URL with a host.
    UrlInvalid,
    /// The notify URL points inside a private network.
    UrlPrivate { host: String },
    /// A test notification, but no notify URL is set.
    NoNotifyUrl,
    /// Resending a notification that a sender is delivering right now.
    InFlight,
    /// Resending failed notifications needs both ends of the time range.
    TimeRangeRequired,
}

impl NotifyMessage {
    pub fn key(&self) -> &'static str {
        use NotifyMessage::*;
        match self {
            UrlInvalid => "notify.url.invalid",
            UrlPrivate { .. } => "notify.url.private",
            NoNotifyUrl => "notify.url.missing",
            InFlight => "notify.in_flight",
            TimeRangeRequired => "notify.time_range.required",
        }
    }

    pub fn text(&self, locale: Locale) -> Cow<'static, str> {
        use NotifyMessage::*;
        let zh = locale == Locale::ZhCn;
        match self {
            UrlInvalid if zh => "通知地址须为带主机名的 http(s) 地址，且不含用户名和密码".into(),
            UrlInvalid => "The notify URL must be an http(s) URL with a host and without a user name or password".into(),
            UrlPrivate { host } if zh => {
                format!("通知地址指向本机、内网或保留地址（{host}），不允许使用：请填写公网可访问的地址").into()
            }
            UrlPrivate { host } => format!(
                "The notify URL points to a loopback, private or reserved address ({host}): use an address reachable from the internet"
            )
            .into(),
            NoNotifyUrl if zh => "尚未设置通知地址：请先在接口设置中保存通知地址".into(),
            NoNotifyUrl => "No notify URL is set: save one in the integration settings first".into(),
            InFlight if zh => "该通知正在发送，请稍后再试".into(),
            InFlight => "This notification is being sent right now: try again in a moment".into(),
            TimeRangeRequired if zh => "请选择开始时间和结束时间".into(),
            TimeRangeRequired => "Choose both a start and an end time".into(),
        }
    }
}
