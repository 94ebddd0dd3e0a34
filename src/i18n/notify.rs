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
    /// Why a delivery failed (`crate::notify::reason` classifies the raw error), each
    /// saying what to do. The host name of the notify URL could not be resolved.
    DeliveryDns,
    /// Nothing listens at the address and port of the notify URL.
    DeliveryRefused,
    /// No answer within the time limit.
    DeliveryTimeout,
    /// The HTTPS handshake failed (certificate or protocol).
    DeliveryTls,
    /// The merchant's server answered with a status other than 2xx.
    DeliveryHttpStatus { status: i64 },
    /// The destination is inside a private network or the URL is not usable.
    DeliveryGuard,
    /// An answer came but it is not a success (it said "fail", or it broke off).
    DeliveryAnswer,
    /// The connection failed for another reason.
    DeliveryFailed,
}

impl NotifyMessage {
    /// A delivery's reason with, for administrators, a short technical detail after it.
    pub fn with_technical_detail(reason: &str, detail: &str, locale: Locale) -> String {
        match locale {
            Locale::ZhCn => format!("{reason}（技术细节：{detail}）"),
            Locale::EnUs => format!("{reason} (technical detail: {detail})"),
        }
    }

    pub fn key(&self) -> &'static str {
        use NotifyMessage::*;
        match self {
            UrlInvalid => "notify.url.invalid",
            UrlPrivate { .. } => "notify.url.private",
            NoNotifyUrl => "notify.url.missing",
            InFlight => "notify.in_flight",
            TimeRangeRequired => "notify.time_range.required",
            DeliveryDns => "notify.delivery.dns",
            DeliveryRefused => "notify.delivery.refused",
            DeliveryTimeout => "notify.delivery.timeout",
            DeliveryTls => "notify.delivery.tls",
            DeliveryHttpStatus { .. } => "notify.delivery.http_status",
            DeliveryGuard => "notify.delivery.guard",
            DeliveryAnswer => "notify.delivery.answer",
            DeliveryFailed => "notify.delivery.failed",
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
            DeliveryDns if zh => "找不到回调地址的域名（DNS 解析失败）：请检查域名拼写，并确认它在公网可以解析".into(),
            DeliveryDns => "The host name of the notify URL could not be found (DNS): check its spelling and that it resolves on the internet".into(),
            DeliveryRefused if zh => "回调地址拒绝连接：请确认服务已启动，端口正确，且防火墙允许来自公网的访问".into(),
            DeliveryRefused => "The notify URL refused the connection: check that your service is running on that port and the firewall lets the internet in".into(),
            DeliveryTimeout if zh => "回调地址在时限内没有应答：请确认服务可以从公网访问，并尽快返回应答（耗时处理请放到应答之后）".into(),
            DeliveryTimeout => "The notify URL did not answer in time: check it is reachable from the internet and answers quickly (do slow work after answering)".into(),
            DeliveryTls if zh => "与回调地址的 HTTPS 握手失败：请检查证书是否有效、未过期且与域名一致".into(),
            DeliveryTls => "The HTTPS handshake with the notify URL failed: check that its certificate is valid, current and matches the host name".into(),
            DeliveryHttpStatus { status } if zh => format!("回调地址返回了 HTTP {status}：请返回 2xx 状态表示已收到（不会跟随重定向）").into(),
            DeliveryHttpStatus { status } => format!("The notify URL answered HTTP {status}: answer with a 2xx status once received (redirects are not followed)").into(),
            DeliveryGuard if zh => "回调地址指向本机、内网或保留地址，或不是有效的 http(s) 地址，已被拒绝：请填写公网可访问的地址".into(),
            DeliveryGuard => "The notify URL points to a loopback, private or reserved address, or is not a usable http(s) URL, and was refused: use an address reachable from the internet".into(),
            DeliveryAnswer if zh => "回调地址的应答无法识别为成功（例如返回了 fail 或应答中断）：收到通知后请返回 2xx 状态".into(),
            DeliveryAnswer => "The notify URL's answer was not understood as a success (it said fail, or broke off): answer with a 2xx status once received".into(),
            DeliveryFailed if zh => "无法连接回调地址：请确认该地址可以从公网访问".into(),
            DeliveryFailed => "The notify URL could not be reached: check that it is reachable from the internet".into(),
        }
    }
}
