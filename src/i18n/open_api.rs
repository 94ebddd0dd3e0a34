//! Texts of the merchant open API (`/openapi/v1`) and its keys, in both locales. Each
//! refusal tells the developer what to fix: they read these in their logs, not a console.

use crate::i18n::Locale;
use std::borrow::Cow;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpenApiMessage {
    /// A signature header is missing or not of its form.
    HeaderInvalid {
        header: &'static str,
    },
    KeyUnknown,
    /// A legacy MD5 call's parameter is missing or not of its form (`body`: the body is
    /// not a JSON object of flat fields, or a parameter is repeated).
    LegacyParamInvalid {
        param: &'static str,
    },
    /// A legacy MD5 call with a key that is not switched to legacy signing.
    LegacyNotEnabled,
    LegacySignatureWrong,
    /// `X-Timestamp` is further from the server's clock than the window allows.
    TimestampSkewed {
        server_time: i64,
        window_seconds: u64,
    },
    NonceReplayed,
    SignatureWrong,
    WhitelistEmpty,
    AddressNotWhitelisted {
        address: String,
    },
    MerchantDisabled,
    RateLimited {
        retry_after_seconds: u64,
    },
    /// A merchant order id already used with a different request.
    OrderIdReused,
    NotifyUrlInvalid {
        max: usize,
    },
    /// Creating a key over the limit of active keys.
    KeyLimitReached {
        max: usize,
    },
    KeyAlreadyRevoked,
}

impl OpenApiMessage {
    pub fn key(&self) -> &'static str {
        use OpenApiMessage::*;
        match self {
            HeaderInvalid { .. } => "openapi.header_invalid",
            KeyUnknown => "openapi.key_unknown",
            LegacyParamInvalid { .. } => "openapi.legacy_param_invalid",
            LegacyNotEnabled => "openapi.legacy_not_enabled",
            LegacySignatureWrong => "openapi.legacy_signature_wrong",
            TimestampSkewed { .. } => "openapi.timestamp_skewed",
            NonceReplayed => "openapi.nonce_replayed",
            SignatureWrong => "openapi.signature_wrong",
            WhitelistEmpty => "openapi.whitelist_empty",
            AddressNotWhitelisted { .. } => "openapi.address_not_whitelisted",
            MerchantDisabled => "openapi.merchant_disabled",
            RateLimited { .. } => "openapi.rate_limited",
            OrderIdReused => "openapi.order_id_reused",
            NotifyUrlInvalid { .. } => "openapi.notify_url_invalid",
            KeyLimitReached { .. } => "apikey.limit_reached",
            KeyAlreadyRevoked => "apikey.already_revoked",
        }
    }

    pub fn text(&self, locale: Locale) -> Cow<'static, str> {
        use Locale::*;
        use OpenApiMessage::*;
        match (self, locale) {
            (HeaderInvalid { header }, EnUs) => format!(
                "the {header} header is missing or malformed: every request carries X-Key-Id, X-Timestamp (unix \
                 seconds), X-Nonce (16 to 64 of A-Z a-z 0-9 _ -) and X-Signature (64 lowercase hex digits)"
            )
            .into(),
            (HeaderInvalid { header }, ZhCn) => format!(
                "请求头 {header} 缺失或格式错误：每个请求都须带 X-Key-Id、X-Timestamp（Unix 秒）、X-Nonce（16 到 64 \
                 个 A-Z a-z 0-9 _ - 字符）和 X-Signature（64 位小写十六进制）"
            )
            .into(),
            (KeyUnknown, EnUs) => {
                "X-Key-Id is not an active API key: check the key id, or create a new key in the console (user settings, API keys) if it was revoked".into()
            }
            (KeyUnknown, ZhCn) => {
                "X-Key-Id 不是有效的 API 密钥：请核对密钥 ID；如已吊销，请在控制台（个人设置 - API 密钥）创建新密钥".into()
            }
            (LegacyParamInvalid { param }, EnUs) => format!(
                "the legacy-signed parameter {param} is missing or malformed: a legacy MD5 call carries key_id, \
                 timestamp (unix seconds), nonce (16 to 64 of A-Z a-z 0-9 _ -) and sign (32 hex digits) as query \
                 parameters or top-level fields of a flat JSON object, each once"
            )
            .into(),
            (LegacyParamInvalid { param }, ZhCn) => format!(
                "旧版签名参数 {param} 缺失或格式错误：旧版 MD5 调用须以查询参数或扁平 JSON 对象的顶层字段各带一次 key_id、\
                 timestamp（Unix 秒）、nonce（16 到 64 个 A-Z a-z 0-9 _ - 字符）和 sign（32 位十六进制）"
            )
            .into(),
            (LegacyNotEnabled, EnUs) => {
                "this key does not accept legacy MD5 signatures: sign with the X-Signature header (HMAC-SHA256), or ask the platform's administrator to switch this key to legacy signing".into()
            }
            (LegacyNotEnabled, ZhCn) => {
                "此密钥不接受旧版 MD5 签名：请改用 X-Signature 请求头（HMAC-SHA256）签名，或请平台管理员为此密钥开启旧版签名".into()
            }
            (LegacySignatureWrong, EnUs) => {
                "sign does not match: sort the parameters except sign and empty ones by name, join them as name=value with &, append &key=SECRET and send the uppercase hex MD5 of that".into()
            }
            (LegacySignatureWrong, ZhCn) => {
                "sign 不匹配：将除 sign 与空值外的参数按名称排序，以 name=value 用 & 连接，末尾追加 &key=SECRET，取其 MD5 的大写十六进制".into()
            }
            (TimestampSkewed { server_time, window_seconds }, EnUs) => format!(
                "X-Timestamp is more than {window_seconds} seconds from the server time ({server_time}): send the \
                 current unix time in seconds and keep your clock synchronised (NTP)"
            )
            .into(),
            (TimestampSkewed { server_time, window_seconds }, ZhCn) => format!(
                "X-Timestamp 与服务器时间（{server_time}）相差超过 {window_seconds} 秒：请发送当前 Unix 时间（秒），并校准服务器时钟（NTP）"
            )
            .into(),
            (NonceReplayed, EnUs) => {
                "this X-Nonce was already used with this key: send a new random nonce with every request (a retry too)".into()
            }
            (NonceReplayed, ZhCn) => "该 X-Nonce 已被此密钥使用过：每个请求（包括重试）都须使用新的随机 nonce".into(),
            (SignatureWrong, EnUs) => {
                "X-Signature does not match: sign METHOD\\nPATH_AND_QUERY\\nTIMESTAMP\\nNONCE\\nhex(SHA-256(body)) with HMAC-SHA256 and the key's secret, lowercase hex; the console's signature helper shows the string to sign".into()
            }
            (SignatureWrong, ZhCn) => {
                "X-Signature 不匹配：请用密钥的 secret 对 METHOD\\nPATH_AND_QUERY\\nTIMESTAMP\\nNONCE\\nhex(SHA-256(body)) 做 HMAC-SHA256，输出小写十六进制；控制台的签名助手可显示待签名字符串".into()
            }
            (WhitelistEmpty, EnUs) => {
                "the merchant's IP whitelist is empty, so every API call is refused: add your servers' addresses in the console (user settings, integration)".into()
            }
            (WhitelistEmpty, ZhCn) => {
                "商户的 IP 白名单为空，所有 API 调用都会被拒绝：请在控制台（个人设置 - 对接设置）添加您服务器的地址".into()
            }
            (AddressNotWhitelisted { address }, EnUs) => format!(
                "the calling address {address} is not in the merchant's IP whitelist: add it (or its network) in the console (user settings, integration)"
            )
            .into(),
            (AddressNotWhitelisted { address }, ZhCn) => {
                format!("调用地址 {address} 不在商户的 IP 白名单内：请在控制台（个人设置 - 对接设置）添加该地址或其网段").into()
            }
            (MerchantDisabled, EnUs) => "the merchant is disabled: contact the platform's administrator".into(),
            (MerchantDisabled, ZhCn) => "商户已被停用：请联系平台管理员".into(),
            (RateLimited { retry_after_seconds }, EnUs) => format!(
                "too many API calls for this merchant: retry in {retry_after_seconds} seconds, and spread calls out"
            )
            .into(),
            (RateLimited { retry_after_seconds }, ZhCn) => {
                format!("该商户的 API 调用过于频繁：请在 {retry_after_seconds} 秒后重试，并放慢调用速度").into()
            }
            (OrderIdReused, EnUs) => {
                "this merchant_order_id was already used with a different request: nothing was placed or charged; use a new merchant_order_id for a new order, or send exactly the same body to read the first one".into()
            }
            (OrderIdReused, ZhCn) => {
                "该 merchant_order_id 已用于另一笔不同的请求：本次未下单、未扣款；新订单请使用新的商户订单号，重试请发送完全相同的请求体".into()
            }
            (NotifyUrlInvalid { max }, EnUs) => {
                format!("notify_url must be an http or https URL of at most {max} characters").into()
            }
            (NotifyUrlInvalid { max }, ZhCn) => format!("notify_url 必须是不超过 {max} 个字符的 http 或 https 地址").into(),
            (KeyLimitReached { max }, EnUs) => {
                format!("a merchant has at most {max} active API keys: revoke one before creating another").into()
            }
            (KeyLimitReached { max }, ZhCn) => format!("每个商户最多 {max} 个有效 API 密钥：请先吊销一个再创建").into(),
            (KeyAlreadyRevoked, EnUs) => "this API key is already revoked".into(),
            (KeyAlreadyRevoked, ZhCn) => "该 API 密钥已被吊销".into(),
        }
    }
}
