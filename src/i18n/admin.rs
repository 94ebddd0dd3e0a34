//! Texts of the administrators' platform tools (merchant administration), in both locales.

use super::Locale;
use std::borrow::Cow;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AdminMessage {
    MerchantNameRequired,
    MerchantNameTooLong {
        max: usize,
    },
    UsernameInvalid {
        max: usize,
    },
    UsernameTaken,
    /// Sign-in, sessions and new orders of a disabled merchant.
    MerchantDisabled,
    /// A user holding a temporary password may only choose a new one.
    PasswordChangeRequired,
    /// Password resets are for merchants' users; administrators change their own.
    NotAMerchantUser,
    /// The audit page's action filter names no known action.
    AuditActionUnknown,
    /// The security history's kind filter names no known kind.
    SecurityKindUnknown,
    /// A money action by an administrator with two-factor on, without a confirmation in
    /// the last minutes (`/adminapi/admin/stepUp/confirm`).
    StepUpRequired,
    /// Removing a ported-number record (携号转网) needs a reason of 1 to `max` characters.
    PortReasonInvalid {
        max: usize,
    },
    /// The merchant requires two-factor of its users and this one has not turned it on.
    TwoFactorRequired,
    /// The last enabled owner cannot be removed, disabled or given another role.
    LastOwner,
    /// Sign-in of a user the merchant's owner disabled.
    UserDisabled,
}

impl AdminMessage {
    pub fn key(&self) -> &'static str {
        use AdminMessage::*;
        match self {
            MerchantNameRequired => "merchant.name.required",
            MerchantNameTooLong { .. } => "merchant.name.too_long",
            UsernameInvalid { .. } => "merchant.username.invalid",
            UsernameTaken => "merchant.username.taken",
            MerchantDisabled => "merchant.disabled",
            PasswordChangeRequired => "password.change_required",
            NotAMerchantUser => "merchant.user.not_merchant",
            AuditActionUnknown => "audit.action_unknown",
            SecurityKindUnknown => "security.kind_unknown",
            StepUpRequired => "step_up.required",
            PortReasonInvalid { .. } => "port.reason.invalid",
            TwoFactorRequired => "two_factor.required",
            LastOwner => "staff.last_owner",
            UserDisabled => "user.disabled",
        }
    }

    pub fn text(&self, locale: Locale) -> Cow<'static, str> {
        use AdminMessage::*;
        let zh = locale == Locale::ZhCn;
        let pick = |zh_text: &'static str, en_text: &'static str| -> Cow<'static, str> {
            if zh { zh_text.into() } else { en_text.into() }
        };
        match self {
            MerchantNameRequired => pick("商户名称不能为空", "the merchant name cannot be empty"),
            MerchantNameTooLong { max } => {
                if zh {
                    format!("商户名称最多 {max} 个字符").into()
                } else {
                    format!("the merchant name must be at most {max} characters").into()
                }
            }
            UsernameInvalid { max } => {
                if zh {
                    format!("用户名须为 1 到 {max} 个字符且不含空格").into()
                } else {
                    format!("the username must be 1 to {max} characters without spaces").into()
                }
            }
            UsernameTaken => pick("该用户名已被使用", "this username is already taken"),
            MerchantDisabled => pick(
                "该商户已被停用，无法登录或下单，请联系平台管理员",
                "this merchant is disabled: it cannot sign in or place orders; contact the platform's administrators",
            ),
            PasswordChangeRequired => {
                pick("请先修改临时密码后再继续操作", "change your temporary password before anything else")
            }
            NotAMerchantUser => pick("只能重置商户用户的密码", "only a merchant user's password can be reset"),
            AuditActionUnknown => pick("未知的操作类型", "unknown action"),
            SecurityKindUnknown => pick("未知的安全事件类型", "unknown kind of security event"),
            StepUpRequired => {
                pick("资金操作需先输入两步验证码确认", "confirm money actions with your two-factor code first")
            }
            PortReasonInvalid { max } => {
                if zh {
                    format!("请填写删除原因，最多 {max} 个字").into()
                } else {
                    format!("give the reason for the removal, at most {max} characters").into()
                }
            }
            TwoFactorRequired => pick(
                "本商户要求所有用户开启两步验证，请先完成设置",
                "this merchant requires two-factor authentication of every user: set it up first",
            ),
            LastOwner => pick(
                "不能移除、停用或降级商户的最后一位所有者",
                "the merchant's last owner cannot be removed, disabled or given another role",
            ),
            UserDisabled => pick(
                "该账号已被商户所有者停用，请联系所有者",
                "this account was disabled by the merchant's owner: contact them",
            ),
        }
    }
}
