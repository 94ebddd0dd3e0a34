//! Texts of the user centre (profile, security, certification, messages), in both
//! locales.

use crate::i18n::Locale;
use std::borrow::Cow;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UserCentreMessage {
    EmailRequired,
    EmailInvalid,
    NicknameRequired,
    CountryRegionRequired,
    AreaRequired,
    TooLong {
        max: usize,
    },
    NotifyUrlInvalid,
    IpWhitelistInvalid {
        entry: String,
    },
    IpWhitelistChineseComma,
    IpWhitelistTooMany {
        max: usize,
    },
    PhoneInvalid,
    WebsiteInvalid,
    CurrentPasswordRequired,
    CurrentPasswordWrong,
    NewPasswordSameAsOld,
    SecurityAnswerRequired,
    AvatarMissing,
    AvatarNotAnImage,
    AvatarTooLarge {
        max_kib: usize,
    },
    LicenceNotAnImage,
    LicenceTooLarge {
        max_kib: usize,
    },
    /// A licence image for a record that is not the caller's own under audit.
    LicenceNotEditable,
    CertificationFieldRequired,
    CertificationPending,
    CertificationNotWithdrawable,
    CertificationNotReviewable,
    RejectReasonRequired,
    DecisionInvalid,
    IdsInvalid,
    AccountTypeInvalid,
    CertificateTypeInvalid,
    CreditCodeInvalid,
    OrganizationCodeInvalid,
}

impl UserCentreMessage {
    pub fn key(&self) -> &'static str {
        use UserCentreMessage::*;
        match self {
            EmailRequired => "profile.email.required",
            EmailInvalid => "profile.email.invalid",
            NicknameRequired => "profile.nickname.required",
            CountryRegionRequired => "profile.country_region.required",
            AreaRequired => "profile.area.required",
            TooLong { .. } => "field.too_long",
            NotifyUrlInvalid => "profile.notify_url.invalid",
            IpWhitelistInvalid { .. } => "profile.ip_whitelist.invalid",
            IpWhitelistChineseComma => "profile.ip_whitelist.chinese_comma",
            IpWhitelistTooMany { .. } => "profile.ip_whitelist.too_many",
            PhoneInvalid => "profile.phone.invalid",
            WebsiteInvalid => "profile.website.invalid",
            CurrentPasswordRequired => "password.current.required",
            CurrentPasswordWrong => "password.current.wrong",
            NewPasswordSameAsOld => "password.same_as_old",
            SecurityAnswerRequired => "security.answer.required",
            AvatarMissing => "avatar.missing",
            AvatarNotAnImage => "avatar.not_an_image",
            AvatarTooLarge { .. } => "avatar.too_large",
            LicenceNotAnImage => "certification.licence.not_an_image",
            LicenceTooLarge { .. } => "certification.licence.too_large",
            LicenceNotEditable => "certification.licence.not_editable",
            CertificationFieldRequired => "certification.field.required",
            CertificationPending => "certification.pending",
            CertificationNotWithdrawable => "certification.not_withdrawable",
            CertificationNotReviewable => "certification.not_reviewable",
            RejectReasonRequired => "certification.reject_reason.required",
            DecisionInvalid => "certification.decision.invalid",
            IdsInvalid => "message.ids.invalid",
            AccountTypeInvalid => "certification.account_type.invalid",
            CertificateTypeInvalid => "certification.certificate_type.invalid",
            CreditCodeInvalid => "certification.credit_code.invalid",
            OrganizationCodeInvalid => "certification.organization_code.invalid",
        }
    }

    pub fn text(&self, locale: Locale) -> Cow<'static, str> {
        use UserCentreMessage::*;
        let english = locale == Locale::EnUs;
        let pick =
            |en: &'static str, zh: &'static str| -> Cow<'static, str> { if english { en.into() } else { zh.into() } };
        match self {
            EmailRequired => pick("please enter email", "请输入邮箱"),
            EmailInvalid => pick("please enter a valid email address", "请输入有效的邮箱地址"),
            NicknameRequired => pick("please enter nickname", "请输入昵称"),
            CountryRegionRequired => pick("please select country/region", "请选择国家/地区"),
            AreaRequired => pick("please select area", "请选择所在区域"),
            TooLong { max } => {
                if english {
                    format!("at most {max} characters").into()
                } else {
                    format!("最多 {max} 个字符").into()
                }
            }
            NotifyUrlInvalid => pick(
                "the callback URL must be an http:// or https:// address",
                "回调地址必须是 http:// 或 https:// 开头的网址",
            ),
            IpWhitelistInvalid { entry } => {
                if english {
                    format!("{entry:?} is not a valid IPv4 or IPv6 address or CIDR range").into()
                } else {
                    format!("“{entry}”不是有效的 IPv4、IPv6 地址或 CIDR 网段").into()
                }
            }
            IpWhitelistChineseComma => {
                pick("separate IP addresses with English commas (,)", "多个 IP 请用英文逗号（,）分隔")
            }
            IpWhitelistTooMany { max } => {
                if english {
                    format!("at most {max} IP entries").into()
                } else {
                    format!("最多 {max} 个 IP").into()
                }
            }
            PhoneInvalid => pick("please enter a valid phone number", "请输入有效的电话号码"),
            WebsiteInvalid => pick(
                "the website must be an http:// or https:// address",
                "个人网站必须是 http:// 或 https:// 开头的网址",
            ),
            CurrentPasswordRequired => pick("please enter the current password", "请输入当前密码"),
            CurrentPasswordWrong => pick("the current password is wrong", "当前密码错误"),
            NewPasswordSameAsOld => {
                pick("the new password must differ from the current one", "新密码不能与当前密码相同")
            }
            SecurityAnswerRequired => pick("please enter the answer to the security question", "请输入密保问题的答案"),
            AvatarMissing => pick("please choose an image to upload", "请选择要上传的图片"),
            AvatarNotAnImage => {
                pick("the avatar must be a PNG, JPEG, GIF or WebP image", "头像必须是 PNG、JPEG、GIF 或 WebP 图片")
            }
            AvatarTooLarge { max_kib } => {
                if english {
                    format!("the avatar must be at most {max_kib} KiB").into()
                } else {
                    format!("头像不能超过 {max_kib} KiB").into()
                }
            }
            LicenceNotAnImage => pick(
                "the business licence must be a PNG, JPEG or WebP image (a photo or scan)",
                "营业执照必须是 PNG、JPEG 或 WebP 图片（照片或扫描件）",
            ),
            LicenceTooLarge { max_kib } => {
                if english {
                    format!("the business licence image must be at most {max_kib} KiB").into()
                } else {
                    format!("营业执照图片不能超过 {max_kib} KiB").into()
                }
            }
            LicenceNotEditable => pick(
                "a licence image can be added only to your own certification while it is under review",
                "只能为自己审核中的认证上传营业执照图片",
            ),
            CertificationFieldRequired => pick("this field is required", "此项为必填项"),
            CertificationPending => pick(
                "a certification is already being audited; withdraw it before submitting another",
                "已有认证正在审核中，请先撤回再重新提交",
            ),
            CertificationNotWithdrawable => {
                pick("only a certification under audit can be withdrawn", "只有审核中的认证可以撤回")
            }
            CertificationNotReviewable => {
                pick("only a certification under audit can be reviewed", "只有审核中的认证可以审核")
            }
            RejectReasonRequired => pick("please give the reason for rejecting", "请填写驳回原因"),
            DecisionInvalid => pick("the decision must be approve or reject", "审核结果必须是通过或驳回"),
            IdsInvalid => pick("ids must be a list of positive integers", "ids 必须是正整数列表"),
            AccountTypeInvalid => pick("the account type must be enterprise", "账户类型必须是企业"),
            CertificateTypeInvalid => pick("unknown certificate type", "未知的证件类型"),
            CreditCodeInvalid => pick(
                "The unified social credit code must be 18 characters with a valid check character (GB 32100-2015)",
                "统一社会信用代码应为 18 位且校验码正确（GB 32100-2015）",
            ),
            OrganizationCodeInvalid => pick(
                "The organisation code must be 8 characters and a valid check character, e.g. 12345678-9",
                "组织机构代码应为 8 位本体代码加正确的校验码，如 12345678-9",
            ),
        }
    }
}
