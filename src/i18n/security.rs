//! The security history's words (issue 52 §1): each kind's name, each event's details
//! rendered in the reader's language, and the export's columns. The kind codes are
//! `identity::security_history::kind`; a test there checks every code has a name here.

use super::Locale;
use super::audit_detail::staff_role_name;

/// (code, Chinese, English) for every kind of security event.
pub const KIND_NAMES: &[(&str, &str, &str)] = &[
    ("sign_in", "登录成功", "Signed in"),
    ("sign_in_failed", "登录失败", "Sign-in failed"),
    ("sign_in_locked", "登录被锁定", "Sign-in locked"),
    ("password_changed", "修改密码", "Password changed"),
    ("password_reset", "管理员重置密码", "Password reset by an administrator"),
    ("two_factor_enabled", "开启两步验证", "Two-factor enabled"),
    ("two_factor_disabled", "关闭两步验证", "Two-factor disabled"),
    ("two_factor_reset", "管理员重置两步验证", "Two-factor reset by an administrator"),
    ("backup_codes_regenerated", "重新生成备用码", "Backup codes regenerated"),
    ("api_key_created", "创建 API 密钥", "API key created"),
    ("api_key_revoked", "吊销 API 密钥", "API key revoked"),
    ("api_key_legacy_on", "API 密钥开启旧版 MD5 签名", "Legacy MD5 signing turned on for an API key"),
    ("api_key_legacy_off", "API 密钥关闭旧版 MD5 签名", "Legacy MD5 signing turned off for an API key"),
    ("integration_changed", "修改回调地址或 IP 白名单", "Notify URL or IP whitelist changed"),
    ("webhook_secret_rotated", "更换回调签名密钥", "Webhook secret rotated"),
    ("staff_added", "添加员工", "Staff member added"),
    ("staff_role_changed", "修改员工角色", "Staff role changed"),
    ("staff_disabled", "停用员工", "Staff member disabled"),
    ("staff_enabled", "启用员工", "Staff member enabled"),
    ("staff_removed", "移除员工", "Staff member removed"),
    ("staff_two_factor_required", "设置员工两步验证要求", "Two-factor requirement for staff set"),
];

/// A kind's name in `locale`; an unknown code (a newer server wrote it) as it is.
pub fn kind_name(code: &str, locale: Locale) -> String {
    KIND_NAMES
        .iter()
        .find(|(known, _, _)| *known == code)
        .map(|(_, zh, en)| if locale == Locale::ZhCn { *zh } else { *en })
        .unwrap_or(code)
        .to_string()
}

/// Why a sign-in failed or locked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureReason {
    /// A wrong password.
    Password,
    /// A wrong two-factor code at sign-in.
    TwoFactorCode,
    /// The right password for a user its owner disabled, or of a disabled merchant.
    Disabled,
}

/// A security event's details as data, stored as JSON (`security_events.detail`) and
/// rendered in the reader's language. Never a password, a code, a key secret or a token.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum SecurityDetail {
    None,
    /// A sign-in; `with_code`: completed with a two-factor code.
    SignIn {
        with_code: bool,
    },
    Failed {
        reason: FailureReason,
    },
    /// The failure that locked sign-in for `retry_after_seconds`.
    Locked {
        reason: FailureReason,
        retry_after_seconds: u64,
    },
    /// An open-API key, by its id (never its secret).
    ApiKey {
        key_id: String,
    },
    /// A change to one of the merchant's users; `from`: the role before a role change.
    Staff {
        username: String,
        role: String,
        from: Option<String>,
    },
    TwoFactorRequirement {
        required: bool,
    },
    /// Which integration settings changed (never their values: a URL can carry a token).
    Integration {
        notify_url: bool,
        ip_whitelist: bool,
    },
    /// An administrator's change to one of the merchant's users (two-factor reset, a
    /// temporary password).
    OfUser {
        username: String,
    },
}

impl SecurityDetail {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The text of stored details; '' for a form this server does not know.
    pub fn render(stored: &str, locale: Locale) -> String {
        serde_json::from_str::<SecurityDetail>(stored).map(|detail| detail.text(locale)).unwrap_or_default()
    }

    pub fn text(&self, locale: Locale) -> String {
        let zh = locale == Locale::ZhCn;
        let pick = |zh_text: &str, en_text: &str| if zh { zh_text.to_string() } else { en_text.to_string() };
        let reason = |reason: &FailureReason| match reason {
            FailureReason::Password => pick("密码错误", "Wrong password"),
            FailureReason::TwoFactorCode => pick("两步验证码错误", "Wrong two-factor code"),
            FailureReason::Disabled => pick("账号或商户已停用", "User or merchant disabled"),
        };
        match self {
            SecurityDetail::None => String::new(),
            SecurityDetail::SignIn { with_code: true } => pick("密码与两步验证码", "Password and two-factor code"),
            SecurityDetail::SignIn { with_code: false } => pick("密码", "Password"),
            SecurityDetail::Failed { reason: why } => reason(why),
            SecurityDetail::Locked { reason: why, retry_after_seconds } => {
                let minutes = retry_after_seconds.div_ceil(60);
                match zh {
                    true => format!("{}，锁定 {minutes} 分钟", reason(why)),
                    false => format!("{}, locked for {minutes} min", reason(why)),
                }
            }
            SecurityDetail::ApiKey { key_id } => match zh {
                true => format!("密钥 {key_id}"),
                false => format!("Key {key_id}"),
            },
            SecurityDetail::Staff { username, role, from } => {
                let role = staff_role_name(role, zh);
                match (from, zh) {
                    (Some(from), true) => format!("{username}：{} → {role}", staff_role_name(from, zh)),
                    (Some(from), false) => format!("{username}: {} → {role}", staff_role_name(from, zh)),
                    (None, true) => format!("{username}（{role}）"),
                    (None, false) => format!("{username} ({role})"),
                }
            }
            SecurityDetail::TwoFactorRequirement { required: true } => {
                pick("所有员工须开启两步验证", "Every user must turn two-factor on")
            }
            SecurityDetail::TwoFactorRequirement { required: false } => {
                pick("不再要求员工开启两步验证", "Two-factor no longer required")
            }
            SecurityDetail::Integration { notify_url, ip_whitelist } => {
                let mut changed = Vec::new();
                if *notify_url {
                    changed.push(pick("回调地址", "Notify URL"));
                }
                if *ip_whitelist {
                    changed.push(pick("IP 白名单", "IP whitelist"));
                }
                changed.join(if zh { "、" } else { ", " })
            }
            SecurityDetail::OfUser { username } => match zh {
                true => format!("用户 {username}"),
                false => format!("User {username}"),
            },
        }
    }
}

/// Columns of the security history export.
pub const SECURITY_COLUMNS: super::files::Labels<9> = super::files::Labels([
    ("编号", "Id"),
    ("时间", "Time"),
    ("商户编号", "Merchant id"),
    ("用户", "User"),
    ("事件", "Event"),
    ("事件代码", "Event code"),
    ("详情", "Detail"),
    ("来源地址", "Client address"),
    ("浏览器", "Browser"),
]);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn details_read_back_and_render_in_both_languages() {
        let detail =
            SecurityDetail::Staff { username: "ann".into(), role: "finance".into(), from: Some("viewer".into()) };
        let stored = detail.to_json();
        assert_eq!(SecurityDetail::render(&stored, Locale::ZhCn), "ann：只读成员 → 财务");
        assert_eq!(SecurityDetail::render(&stored, Locale::EnUs), "ann: Viewer → Finance");
        let locked = SecurityDetail::Locked { reason: FailureReason::Password, retry_after_seconds: 900 };
        assert_eq!(locked.text(Locale::EnUs), "Wrong password, locked for 15 min");
        assert_eq!(SecurityDetail::render("{\"t\":\"from_a_newer_server\"}", Locale::EnUs), "");
        assert_eq!(kind_name("sign_in", Locale::ZhCn), "登录成功");
        let both = SecurityDetail::Integration { notify_url: true, ip_whitelist: true };
        assert_eq!(SecurityDetail::render(&both.to_json(), Locale::ZhCn), "回调地址、IP 白名单");
        let url = SecurityDetail::Integration { notify_url: true, ip_whitelist: false };
        assert_eq!(url.text(Locale::EnUs), "Notify URL");
        assert_eq!(kind_name("unknown_kind", Locale::EnUs), "unknown_kind");
    }
}
