//! Names of audit actions for people (the audit page and its export), in both locales.
//! The codes are `crate::platform::audit::action`; a test there checks every code has a name here.

use super::Locale;

/// (code, Chinese, English) for every audit action.
pub const ACTION_NAMES: &[(&str, &str, &str)] = &[
    ("login", "登录成功", "Signed in"),
    ("login_failed", "登录失败", "Sign-in failed"),
    ("login_throttled", "登录被限制", "Sign-in throttled"),
    ("logout", "退出登录", "Signed out"),
    ("user_created", "创建用户", "User created"),
    ("profile_changed", "修改资料", "Profile changed"),
    ("integration_changed", "修改对接设置", "Integration settings changed"),
    ("password_changed", "修改密码", "Password changed"),
    ("security_question_changed", "修改密保问题", "Security question changed"),
    ("security_email_changed", "修改安全邮箱", "Security email changed"),
    ("security_phone_changed", "修改安全手机", "Security phone changed"),
    ("avatar_changed", "修改头像", "Avatar changed"),
    ("certification_submitted", "提交认证", "Certification submitted"),
    ("certification_withdrawn", "撤回认证", "Certification withdrawn"),
    ("certification_approved", "认证通过", "Certification approved"),
    ("certification_rejected", "认证驳回", "Certification rejected"),
    ("login_pending_two_factor", "密码正确，待验证两步验证码", "Password right, two-factor code pending"),
    ("two_factor_enabled", "开启两步验证", "Two-factor enabled"),
    ("two_factor_disabled", "关闭两步验证", "Two-factor disabled"),
    ("two_factor_reset", "重置他人两步验证", "Two-factor reset for a user"),
    ("backup_codes_regenerated", "重新生成备用码", "Backup codes regenerated"),
    ("backup_code_used", "使用备用码", "Backup code used"),
    ("two_factor_failed", "两步验证码错误", "Wrong two-factor code"),
    ("two_factor_throttled", "两步验证被限制", "Two-factor code throttled"),
    ("card_secret_revealed", "查看卡密", "Card secret revealed"),
    ("card_secrets_exported", "导出卡密", "Card secrets exported"),
    ("order_resolved", "人工处理订单", "Order resolved by hand"),
    ("order_supplier_queried", "查询上游订单结果", "Order queried at its supplier"),
    ("order_sent_to_channel", "人工发送订单到渠道", "Order sent to a channel by hand"),
    ("quote_saved", "修改报价", "Quote changed"),
    ("api_key_created", "创建 API 密钥", "API key created"),
    ("api_key_revoked", "吊销 API 密钥", "API key revoked"),
    ("webhook_secret_rotated", "更换回调签名密钥", "Webhook secret rotated"),
    ("notification_resent", "重发通知", "Notifications resent"),
    ("login_refused_disabled", "商户已停用，拒绝登录", "Sign-in refused: merchant disabled"),
    ("merchant_created", "创建商户", "Merchant created"),
    ("merchant_updated", "修改商户", "Merchant changed"),
    ("merchant_disabled", "停用商户", "Merchant disabled"),
    ("merchant_enabled", "启用商户", "Merchant enabled"),
    ("merchant_user_added", "添加商户用户", "Merchant user added"),
    ("password_reset", "重置密码", "Password reset"),
    ("money_top_up", "充值", "Top-up"),
    ("money_credit_limit", "设置授信额度", "Credit limit set"),
    ("money_repayment", "授信还款", "Credit repayment"),
    ("money_adjustment", "余额调整", "Balance adjustment"),
    ("step_up_confirmed", "资金操作二次验证", "Money actions confirmed with two-factor"),
    ("server_key_rotated", "更换服务器密钥", "Server key rotated"),
    ("quotes_repriced", "批量调价", "Quotes repriced by a rule"),
    ("quotes_imported", "导入报价", "Price list imported"),
    ("product_created", "新增商品", "Product created"),
    ("product_updated", "修改商品", "Product changed"),
    ("product_deleted", "删除商品", "Product deleted"),
    ("api_key_legacy_on", "开启 MD5 兼容签名", "Legacy MD5 signing switched on"),
    ("api_key_legacy_off", "关闭 MD5 兼容签名", "Legacy MD5 signing switched off"),
    ("certification_licence_uploaded", "上传营业执照", "Business licence uploaded"),
    ("channel_saved", "保存上游渠道", "Channel saved"),
    ("channel_enabled", "启用或停用上游渠道", "Channel switched on or off"),
    ("channel_products_saved", "保存渠道商品成本", "Channel product costs saved"),
];

/// The name of an action in `locale`; an unknown code (a row written by a newer server)
/// is shown as it is.
pub fn action_name(code: &str, locale: Locale) -> String {
    match ACTION_NAMES.iter().find(|(known, _, _)| *known == code) {
        Some((_, zh, _)) if locale == Locale::ZhCn => (*zh).to_string(),
        Some((_, _, en)) => (*en).to_string(),
        None => code.to_string(),
    }
}

/// An audit event's details as data, stored as JSON (`audit_events.params`) and rendered
/// in the reader's language when the log is read; rows written before keep their free text.
/// Amounts are fen, rendered as yuan.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum AuditDetail {
    ChannelEnabled {
        enabled: bool,
    },
    ChannelSaved {
        code: String,
        secret_set: bool,
    },
    ChannelProductsSaved {
        count: i64,
    },
    OrderResolved {
        order_no: String,
        success: bool,
    },
    /// An administrator's top-up, credit limit, repayment or adjustment (signed).
    Money {
        amount_fen: i64,
        remark: String,
    },
    /// A bulk price rule: carrier and product kind codes (None: all), the rate in basis
    /// points of the face value, the rounding (`half_up`, `down`, `up`).
    QuotesRepriced {
        carrier: Option<String>,
        kind: Option<String>,
        rate_bp: i64,
        rounding: String,
        changed: i64,
        total: i64,
        /// Prices applied at or below the cheapest channel's cost or under the minimum
        /// margin, confirmed by the administrator: (product key, price, cheapest cost) in fen.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        acknowledged: Vec<(String, i64, i64)>,
    },
    /// Card secrets exported as an encrypted file: how many orders, and the list filter
    /// (the given fields as JSON) when they were chosen by filter rather than one by one.
    CardSecretsExported {
        count: i64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        filter: Option<String>,
    },
    /// One quote: price and status (1 on sale, 0 off) before (None: new) and after.
    QuoteSaved {
        product_key: String,
        before: Option<(i64, i64)>,
        price_fen: i64,
        status: i64,
    },
}

impl AuditDetail {
    pub fn text(&self, locale: Locale) -> String {
        use crate::domain::yuan;
        let zh = locale == Locale::ZhCn;
        let pick = |zh_text: &str, en_text: &str| if zh { zh_text.to_string() } else { en_text.to_string() };
        match self {
            AuditDetail::ChannelEnabled { enabled: true } => {
                pick("已启用，恢复接单", "Switched on: takes orders again")
            }
            AuditDetail::ChannelEnabled { enabled: false } => {
                pick("已停用，不再接新订单", "Switched off: takes no new orders")
            }
            AuditDetail::ChannelSaved { code, secret_set } => match (zh, secret_set) {
                (true, true) => format!("渠道编码 {code}，已更新密钥"),
                (true, false) => format!("渠道编码 {code}"),
                (false, true) => format!("Channel code {code}, secret replaced"),
                (false, false) => format!("Channel code {code}"),
            },
            AuditDetail::ChannelProductsSaved { count } => {
                if zh {
                    format!("保存了 {count} 个商品的成本、优先级与权重")
                } else {
                    format!("Costs, priorities and weights of {count} products saved")
                }
            }
            AuditDetail::OrderResolved { order_no, success } => match (zh, success) {
                (true, true) => format!("订单 {order_no} 人工标记为成功"),
                (true, false) => format!("订单 {order_no} 人工标记为失败并退款"),
                (false, true) => format!("Order {order_no} marked successful"),
                (false, false) => format!("Order {order_no} marked failed and refunded"),
            },
            AuditDetail::Money { amount_fen, remark } => {
                let amount = yuan(*amount_fen);
                match (zh, remark.is_empty()) {
                    (true, true) => format!("金额 ¥{amount}"),
                    (true, false) => format!("金额 ¥{amount}，备注：{remark}"),
                    (false, true) => format!("Amount ¥{amount}"),
                    (false, false) => format!("Amount ¥{amount}, remark: {remark}"),
                }
            }
            AuditDetail::QuotesRepriced { carrier, kind, rate_bp, rounding, changed, total, acknowledged } => {
                let carrier = carrier.as_deref().and_then(crate::domain::Carrier::parse);
                let carrier = match carrier {
                    Some(carrier) => super::files::carrier_name(carrier, locale),
                    None => {
                        if zh {
                            "全部运营商"
                        } else {
                            "all carriers"
                        }
                    }
                };
                let kind = match kind.as_deref() {
                    Some("direct") => pick("直充商品", "direct top-ups"),
                    Some("card") => pick("卡密商品", "card secrets"),
                    _ => pick("全部商品", "all products"),
                };
                let rate = format!("{}.{:02}%", rate_bp / 100, rate_bp % 100);
                let rounding = match (rounding.as_str(), zh) {
                    ("down", true) => "向下取整到分",
                    ("down", false) => "rounded down to the fen",
                    ("up", true) => "向上取整到分",
                    ("up", false) => "rounded up to the fen",
                    (_, true) => "四舍五入到分",
                    (_, false) => "rounded to the nearest fen",
                };
                let confirmed: Vec<String> = acknowledged
                    .iter()
                    .map(|(product, price, cost)| {
                        if zh {
                            format!("{product} ¥{}（成本 ¥{}）", yuan(*price), yuan(*cost))
                        } else {
                            format!("{product} ¥{} (cost ¥{})", yuan(*price), yuan(*cost))
                        }
                    })
                    .collect();
                let confirmed = match (confirmed.is_empty(), zh) {
                    (true, _) => String::new(),
                    (false, true) => format!("；经确认低于成本或最低毛利：{}", confirmed.join("、")),
                    (false, false) => format!("; confirmed at or below cost or margin: {}", confirmed.join(", ")),
                };
                if zh {
                    format!(
                        "{carrier}、{kind}按面值的 {rate} 定价（{rounding}）：{total} 个报价中 {changed} 个变动{confirmed}"
                    )
                } else {
                    format!(
                        "{carrier}, {kind} priced at {rate} of face value ({rounding}): {changed} of {total} quotes changed{confirmed}"
                    )
                }
            }
            AuditDetail::CardSecretsExported { count, filter } => match (filter, zh) {
                (None, true) => format!("导出 {count} 笔已选订单的卡密（加密文件）"),
                (None, false) => format!("Card secrets of {count} chosen orders exported (encrypted file)"),
                (Some(filter), true) => format!("按筛选条件 {filter} 导出 {count} 笔订单的卡密（加密文件）"),
                (Some(filter), false) => {
                    format!("Card secrets of {count} orders matching {filter} exported (encrypted file)")
                }
            },
            AuditDetail::QuoteSaved { product_key, before, price_fen, status } => {
                let state = |status: i64| match (status == 1, zh) {
                    (true, true) => "上架",
                    (true, false) => "on sale",
                    (false, true) => "下架",
                    (false, false) => "off sale",
                };
                let after = format!("¥{}（{}）", yuan(*price_fen), state(*status));
                let after_en = format!("¥{} ({})", yuan(*price_fen), state(*status));
                match (before, zh) {
                    (Some((price, was)), true) => {
                        format!("商品 {product_key}：¥{}（{}）→ {after}", yuan(*price), state(*was))
                    }
                    (Some((price, was)), false) => {
                        format!("Product {product_key}: ¥{} ({}) → {after_en}", yuan(*price), state(*was))
                    }
                    (None, true) => format!("商品 {product_key}：新报价 {after}"),
                    (None, false) => format!("Product {product_key}: new quote {after_en}"),
                }
            }
        }
    }

    /// The stored form (a JSON object).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The text of stored details; None for a form this server does not know (a newer one wrote it).
    pub fn render(params: &str, locale: Locale) -> Option<String> {
        serde_json::from_str::<AuditDetail>(params).ok().map(|detail| detail.text(locale))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn details_are_data_rendered_in_both_languages() {
        let details = [
            AuditDetail::ChannelEnabled { enabled: false },
            AuditDetail::ChannelSaved { code: "up1".into(), secret_set: true },
            AuditDetail::ChannelProductsSaved { count: 3 },
            AuditDetail::OrderResolved { order_no: "N1".into(), success: false },
            AuditDetail::Money { amount_fen: -1250, remark: "fix".into() },
            AuditDetail::QuotesRepriced {
                carrier: None,
                kind: Some("direct".into()),
                rate_bp: 9920,
                rounding: "half_up".into(),
                changed: 2,
                total: 5,
                acknowledged: vec![("MOBILE-DIRECT-50".into(), 4925, 4925)],
            },
            AuditDetail::QuoteSaved { product_key: "K".into(), before: Some((990, 1)), price_fen: 980, status: 0 },
            AuditDetail::CardSecretsExported { count: 2, filter: None },
            AuditDetail::CardSecretsExported { count: 3, filter: Some(r#"{"status":2}"#.into()) },
        ];
        for detail in details {
            let (zh, en) = (detail.text(Locale::ZhCn), detail.text(Locale::EnUs));
            assert!(!zh.is_empty() && !en.is_empty() && zh != en, "{detail:?}");
            for developer in ["bp", "HalfUp", "half_up", "enabled=", "_fen"] {
                assert!(!zh.contains(developer) && !en.contains(developer), "{developer} in {zh} / {en}");
            }
            assert_eq!(AuditDetail::render(&detail.to_json(), Locale::ZhCn), Some(zh));
        }
        assert_eq!(
            AuditDetail::Money { amount_fen: -1250, remark: String::new() }.text(Locale::EnUs),
            "Amount ¥-12.50"
        );
        assert_eq!(AuditDetail::render(r#"{"t":"from_a_newer_server"}"#, Locale::EnUs), None);
    }
}
