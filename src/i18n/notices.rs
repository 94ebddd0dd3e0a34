//! Message-center notices. A notice is stored once for a user whose language the server
//! does not know when it writes, so each is kept in both languages, Chinese first:
//! `中文 / English` (what [`Notice::stored`] writes).

use super::{Locale, NotifyMessage};
use std::borrow::Cow;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    TwoFactorEnabled,
    TwoFactorDisabled,
    /// To the user whose two-factor an administrator turned off.
    TwoFactorResetByAdministrator,
    /// Who turned it off, and what to do if the user did not ask for it.
    TwoFactorResetDetail {
        administrator: String,
    },
    BackupCodesRegenerated,
    AccountSecurity,
    /// A security change and where it came from.
    SecurityChangeFrom {
        address: String,
    },
    PasswordChanged,
    OtherSessionsSignedOut,
    /// When (Beijing time) and from where the password was changed.
    PasswordChangedAt {
        time: String,
        address: String,
    },
    CertificationPassed,
    CertificationRejected,
    /// To administrators: a merchant submitted a certification to review.
    CertificationSubmitted,
    RealNameCertification,
    LowBalance,
    PleaseTopUp,
    /// The balance after the orders and the alert line, in yuan.
    LowBalanceDetail {
        balance: String,
        line: String,
    },
    ApiKeyCreated,
    ApiKeyRevoked,
    /// Which key, by whom and from where.
    ApiKeyChange {
        key_id: String,
        by: String,
        address: String,
    },
    /// Sub-title of notices about the merchant's integration (notifications, keys).
    Integration,
    WebhookSecretRotated,
    /// When the previous secret stops signing (Beijing time) and where the change came from.
    WebhookSecretRotatedDetail {
        until: String,
        address: String,
    },
    NotificationExhausted,
    /// Which order's notification gave up, where it was sent and why (a delivery reason).
    NotificationExhaustedDetail {
        order_no: String,
        url: String,
        reason: NotifyMessage,
    },
    /// Sub-title of notices about batches of orders.
    Batches,
    BatchFinished,
    /// A batch whose every order reached a final state, with its counts.
    BatchFinishedDetail {
        batch_id: i64,
        file_name: String,
        succeeded: i64,
        failed: i64,
        refused: i64,
    },
    /// To the merchant: a successful order was reversed (冲正) and its price refunded.
    OrderReversed,
    OrderReversedDetail {
        order_no: String,
        reason: String,
    },
    /// To the other administrators: a person switched a channel off.
    ChannelSwitchedOff,
    ChannelSwitchedOffDetail {
        name: String,
        by: String,
    },
    /// An administrator moved money on the merchant's account.
    Funding,
    /// Amounts in yuan; the remark the administrator wrote (may be empty).
    FundsToppedUp {
        amount: String,
        remark: String,
    },
    CreditLimitSet {
        limit: String,
        remark: String,
    },
    RepaymentRecorded {
        amount: String,
        remark: String,
    },
    /// A merchant's funding request decided (the title; `Funding` is the sub-title).
    FundingRequestApproved,
    FundingRequestRejected,
    /// Amount in yuan, the transfer's reference.
    FundingApprovedDetail {
        id: i64,
        amount: String,
        reference: String,
    },
    FundingRejectedDetail {
        id: i64,
        amount: String,
        reference: String,
        reason: String,
    },
    /// `amount` signed (`-12.00` takes money out).
    BalanceAdjusted {
        amount: String,
        remark: String,
    },
    /// To a user given a temporary password by an administrator.
    PasswordReset,
    ChangeTemporaryPassword,
    MerchantRenamed {
        name: String,
    },
    MerchantEnabled,
    /// Sign-in and new orders refused; orders already placed still settle.
    MerchantDisabled,
    MerchantAccount,
    /// Sub-title of notices about upstream channels (to administrators).
    Channels,
    ChannelPaused,
    /// Which channel, why (a `PauseReason` text) and until when (Beijing time).
    ChannelPausedDetail {
        name: String,
        /// The pause reason's code (`channels.pause_reason`).
        reason: String,
        until: String,
    },
    ChannelResumed,
    ChannelResumedDetail {
        name: String,
    },
    CardSecretsExported,
    /// Who exported how many orders' card secrets, when (Beijing time) and from where.
    CardSecretsExportedDetail {
        count: usize,
        by: String,
        time: String,
        address: String,
    },
    ChannelBalanceLow,
    ChannelBalanceLowDetail {
        name: String,
        balance: String,
        line: String,
    },
}

impl Notice {
    pub fn text(&self, locale: Locale) -> Cow<'static, str> {
        use Notice::*;
        let zh = locale == Locale::ZhCn;
        let pick = |zh_text: &'static str, en_text: &'static str| -> Cow<'static, str> {
            if zh { zh_text.into() } else { en_text.into() }
        };
        match self {
            TwoFactorEnabled => pick("双因素认证已启用", "Two-factor authentication enabled"),
            TwoFactorDisabled => pick("双因素认证已禁用", "Two-factor authentication disabled"),
            TwoFactorResetByAdministrator => {
                pick("双因素认证已被管理员重置", "Two-factor authentication reset by an administrator")
            }
            TwoFactorResetDetail { administrator } => {
                if zh {
                    format!(
                        "管理员 {administrator} 关闭了您的双因素认证，现在登录只需密码。如非您本人申请，请立即修改密码并联系管理员。"
                    )
                    .into()
                } else {
                    format!(
                        "Administrator {administrator} turned off your two-factor authentication: signing in now takes the \
                         password only. If you did not ask for this, change your password and contact an administrator at once."
                    )
                    .into()
                }
            }
            BackupCodesRegenerated => pick("备用验证码已重新生成", "Backup codes regenerated"),
            AccountSecurity => pick("账户安全", "Account security"),
            SecurityChangeFrom { address } => {
                if zh {
                    format!("操作来自 IP {address}。如非本人操作，请立即修改密码并联系管理员。").into()
                } else {
                    format!("Done from {address}. If this was not you, change your password and contact an administrator at once.").into()
                }
            }
            PasswordChanged => pick("密码已修改", "Password changed"),
            OtherSessionsSignedOut => pick("您的其他登录会话已全部退出", "Your other sessions were signed out"),
            PasswordChangedAt { time, address } => {
                if zh {
                    format!("您的登录密码已于 {time}（北京时间）修改（IP {address}）。如非本人操作，请立即联系管理员。")
                        .into()
                } else {
                    format!("Your password was changed at {time} (Beijing time) from {address}. If this was not you, contact an administrator at once.").into()
                }
            }
            CertificationPassed => pick("企业认证已通过", "Enterprise certification passed"),
            CertificationRejected => pick("企业认证被驳回", "Enterprise certification rejected"),
            CertificationSubmitted => pick("新的企业认证待审核", "New enterprise certification to review"),
            RealNameCertification => pick("实名认证", "Real-name certification"),
            LowBalance => pick("余额不足提醒", "Low balance"),
            PleaseTopUp => pick("请及时充值", "Please top up"),
            LowBalanceDetail { balance, line } => {
                if zh {
                    format!("账户余额已降至 ¥{balance}，低于提醒线 ¥{line}。余额与授信都用完后将无法下单，请及时充值。")
                        .into()
                } else {
                    format!("Your balance is down to ¥{balance}, below the alert line of ¥{line}. Orders stop once balance and credit run out: top up in time.").into()
                }
            }
            ApiKeyCreated => pick("已创建 API 密钥", "API key created"),
            ApiKeyRevoked => pick("已吊销 API 密钥", "API key revoked"),
            ApiKeyChange { key_id, by, address } => {
                if zh {
                    format!("API 密钥 {key_id}，操作人 {by}，IP {address}。如非本人操作，请立即吊销该密钥、修改密码并联系管理员。").into()
                } else {
                    format!("API key {key_id}, by {by} from {address}. If this was not you, revoke the key, change your password and contact an administrator at once.").into()
                }
            }
            Integration => pick("接口对接", "Integration"),
            WebhookSecretRotated => pick("回调签名密钥已更换", "Webhook signing secret rotated"),
            WebhookSecretRotatedDetail { until, address } => {
                if zh {
                    format!("新的回调签名密钥已生成（IP {address}）。旧密钥将继续作为第二个签名使用至 {until}（北京时间）。如非本人操作，请立即修改密码并联系管理员。").into()
                } else {
                    format!("A new webhook signing secret was created from {address}. The previous secret keeps signing as a second signature until {until} (Beijing time). If this was not you, change your password and contact an administrator at once.").into()
                }
            }
            NotificationExhausted => pick("订单回调通知发送失败", "Order notification undeliverable"),
            NotificationExhaustedDetail { order_no, url, reason } => {
                let reason = reason.text(locale);
                if zh {
                    format!("订单 {order_no} 的结果通知已按重试计划全部尝试，发送到 {url} 仍未成功：{reason}。修复后请在“回调通知”页面重新发送；在下一次发送成功之前，不再就其他订单重复提醒。").into()
                } else {
                    format!("The result notification of order {order_no} was tried on the whole retry schedule and never delivered to {url}: {reason}. Once fixed, resend it from the Notifications page; until a notification gets through, other orders' failures are not told again.").into()
                }
            }
            Batches => pick("批量添加订单", "Batch add orders"),
            BatchFinished => pick("批量订单已全部完成", "Batch finished"),
            BatchFinishedDetail { batch_id, file_name, succeeded, failed, refused } => {
                if zh {
                    format!("批次 {batch_id}（{file_name}）的订单已全部完成：成功 {succeeded} 笔，失败并退款 {failed} 笔，未受理 {refused} 行。").into()
                } else {
                    format!("Every order of batch {batch_id} ({file_name}) is finished: {succeeded} succeeded, {failed} failed and refunded, {refused} lines refused.").into()
                }
            }
            OrderReversed => pick("订单已冲正并退款", "Order reversed and refunded"),
            OrderReversedDetail { order_no, reason } => {
                if zh {
                    format!("订单 {order_no} 此前显示充值成功，现已冲正（未到账）：货款已退回您的账户，明细见“账变记录”。原因：{reason}。").into()
                } else {
                    format!("Order {order_no}, shown successful before, was reversed (the top-up did not stand): its price was refunded to your account, see the account-change records. Reason: {reason}.").into()
                }
            }
            ChannelSwitchedOff => pick("渠道已被停用", "Channel switched off"),
            ChannelSwitchedOffDetail { name, by } => {
                if zh {
                    format!("管理员 {by} 已停用渠道“{name}”：它不再接新订单，已在途的订单照常处理。如需恢复，请在“上游渠道”页面重新启用。").into()
                } else {
                    format!("Administrator {by} switched channel \"{name}\" off: it takes no new orders; those it has keep going. Switch it on again on the Channels page.").into()
                }
            }
            Funding => pick("账户资金变动", "Money on your account"),
            FundsToppedUp { amount, remark } => with_remark(
                zh,
                remark,
                format!("管理员已为您的余额加款 ¥{amount}。"),
                format!("An administrator added ¥{amount} to your balance."),
            ),
            CreditLimitSet { limit, remark } => with_remark(
                zh,
                remark,
                format!("管理员已将您的总授信额度设为 ¥{limit}。"),
                format!("An administrator set your total credit limit to ¥{limit}."),
            ),
            RepaymentRecorded { amount, remark } => with_remark(
                zh,
                remark,
                format!("管理员已登记您的授信还款 ¥{amount}。"),
                format!("An administrator recorded a credit repayment of ¥{amount}."),
            ),
            BalanceAdjusted { amount, remark } => with_remark(
                zh,
                remark,
                format!("管理员已调整您的余额 ¥{amount}。"),
                format!("An administrator adjusted your balance by ¥{amount}."),
            ),
            FundingRequestApproved => pick("充值申请已通过", "Funding request approved"),
            FundingRequestRejected => pick("充值申请被驳回", "Funding request rejected"),
            FundingApprovedDetail { id, amount, reference } => match zh {
                true => format!("充值申请 #{id}（银行流水 {reference}）已通过，¥{amount} 已加入余额。明细见“账变记录”。").into(),
                false => format!("Funding request #{id} (bank reference {reference}) was approved: ¥{amount} added to your balance. See the account-change records.").into(),
            },
            FundingRejectedDetail { id, amount, reference, reason } => match zh {
                true => format!("充值申请 #{id}（银行流水 {reference}，¥{amount}）被驳回，原因：{reason}。").into(),
                false => format!("Funding request #{id} (bank reference {reference}, ¥{amount}) was rejected: {reason}.").into(),
            },
            PasswordReset => pick("管理员已重置您的密码", "An administrator reset your password"),
            ChangeTemporaryPassword => pick(
                "请使用管理员提供的临时密码登录，并在登录后立即设置新密码。",
                "Sign in with the temporary password the administrator gave you and choose a new one at once.",
            ),
            MerchantRenamed { name } => {
                if zh {
                    format!("商户名称已改为“{name}”").into()
                } else {
                    format!("The merchant is now named \"{name}\"").into()
                }
            }
            MerchantEnabled => {
                pick("商户已重新启用，可以登录和下单", "The merchant is enabled again: sign-in and orders work")
            }
            MerchantDisabled => pick(
                "商户已被管理员停用：暂时无法登录和下单，已提交的订单仍会正常结算。如有疑问请联系平台管理员。",
                "The merchant was disabled by an administrator: sign-in and new orders are refused for now; orders already placed still settle. Contact the platform's administrators with any question.",
            ),
            MerchantAccount => pick("商户账户", "Merchant account"),
            Channels => pick("上游渠道", "Upstream channels"),
            ChannelPaused => pick("渠道已自动暂停", "Channel paused automatically"),
            ChannelPausedDetail { name, reason, until } => {
                let reason = super::pause_reason(reason, locale);
                if zh {
                    format!("渠道“{name}”已暂停：{reason}。冷却至 {until}（北京时间）后将用一笔订单试探。").into()
                } else {
                    format!("Channel \"{name}\" was paused: {reason}. After the cool-down until {until} (Beijing time) one order will probe it.").into()
                }
            }
            ChannelResumed => pick("渠道已恢复", "Channel resumed"),
            ChannelResumedDetail { name } => {
                if zh {
                    format!("渠道“{name}”的试探订单已成功，渠道恢复接单。").into()
                } else {
                    format!("The probe order of channel \"{name}\" succeeded: it takes orders again.").into()
                }
            }
            CardSecretsExported => pick("卡密已导出", "Card secrets exported"),
            CardSecretsExportedDetail { count, by, time, address } => {
                if zh {
                    format!("用户 {by} 于 {time}（北京时间）从 IP {address} 导出了 {count} 笔订单的卡号和卡密（加密文件）。如非本人或同事操作，请立即修改密码并联系管理员。").into()
                } else {
                    format!("{by} exported the card numbers and secrets of {count} orders (an encrypted file) at {time} (Beijing time) from {address}. If this was not you or a colleague, change your password and contact an administrator at once.").into()
                }
            }
            ChannelBalanceLow => pick("渠道余额不足提醒", "Channel balance low"),
            ChannelBalanceLowDetail { name, balance, line } => {
                if zh {
                    format!("渠道“{name}”的余额为 ¥{balance}，低于提醒线 ¥{line}，请及时向该渠道充值。").into()
                } else {
                    format!("The balance at channel \"{name}\" is ¥{balance}, below the alert line of ¥{line}: top it up in time.").into()
                }
            }
        }
    }

    /// Both languages as the message center stores them: `中文 / English`.
    pub fn stored(&self) -> String {
        format!("{} / {}", self.text(Locale::ZhCn), self.text(Locale::EnUs))
    }
}

/// A funding notice's sentence, with the administrator's remark when there is one and where
/// to see the change.
fn with_remark(zh: bool, remark: &str, zh_text: String, en_text: String) -> Cow<'static, str> {
    match (zh, remark.is_empty()) {
        (true, true) => format!("{zh_text}明细见“账变记录”。").into(),
        (true, false) => format!("{zh_text}备注：{remark}。明细见“账变记录”。").into(),
        (false, true) => format!("{en_text} See the account-change records.").into(),
        (false, false) => format!("{en_text} Remark: {remark}. See the account-change records.").into(),
    }
}
