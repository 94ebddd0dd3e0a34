//! An audit event's details as data: stored as JSON and rendered in the reader's language
//! when the log is read (`crate::platform::audit::record_detail`). The words several details
//! share (a code's purpose, an image's kind, a product) are in `audit_detail_words.rs`.

use super::Locale;
pub use super::audit_detail_words::ProductFacts;

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
    /// A success reversed and refunded; `by_supplier`: on its supplier's report.
    OrderReversed {
        order_no: String,
        reason: String,
        by_supplier: bool,
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
    /// A merchant created with its first sign-in user.
    MerchantCreated {
        merchant_id: i64,
        name: String,
        username: String,
    },
    MerchantUserAdded {
        user_id: i64,
        username: String,
    },
    MerchantRenamed {
        from: String,
        to: String,
    },
    /// A merchant's staff member added, its role changed (`from` None: added), disabled,
    /// enabled or removed (`change`: `added`, `role`, `disabled`, `enabled`, `removed`).
    /// Roles are `identity::permissions::MerchantRole` codes.
    Staff {
        username: String,
        change: String,
        from: Option<String>,
        role: String,
    },
    /// Two-factor required of every user of the merchant, or no longer.
    StaffTwoFactor {
        required: bool,
    },
    /// How many sessions of the merchant's users the switch-off ended.
    MerchantDisabled {
        sessions_ended: i64,
    },
    TemporaryPassword {
        username: String,
    },
    /// A merchant's API key created, revoked, or its MD5 signing switched.
    ApiKey {
        merchant_id: i64,
        key_id: String,
    },
    TwoFactorReset {
        user_id: i64,
        username: String,
    },
    /// What a two-factor code was asked for: `login`, `step_up`, `api_key_create`,
    /// `reset_other`, `enable`, `disable`, `regenerate` (identity/two_factor's purposes).
    TwoFactorCode {
        purpose: String,
    },
    /// A sign-in completed with a two-factor code after the password.
    SignedInWithCode,
    /// Created from the command line, not by a person in the console.
    CommandLine,
    Certification {
        record_id: i64,
    },
    LicenceUploaded {
        record_id: i64,
        content_type: String,
        size: i64,
    },
    AvatarChanged {
        content_type: String,
    },
    NotificationResent {
        notification_id: i64,
    },
    NotificationsResent {
        count: i64,
    },
    ProductCreated {
        product: ProductFacts,
    },
    /// A number or prefix barred from top-ups, or its bar lifted, with the reason.
    /// A merchant's risk controls as saved (0: no limit; amounts in fen).
    RiskLimitsSaved {
        single_flight: bool,
        number_daily_orders: i64,
        number_daily_fen: i64,
        daily_cap_fen: i64,
    },
    NumberBlocked {
        pattern: String,
        reason: String,
    },
    NumberUnblocked {
        pattern: String,
        reason: String,
    },
    NumbersImported {
        lines: i64,
        added: i64,
    },
    /// A ported-number record removed: the number, the carrier it was said to have left
    /// (`domain::Carrier` code), the administrator's reason.
    NumberPortRemoved {
        number: String,
        from_carrier: i64,
        reason: String,
    },
    /// The number-segment table replaced by an uploaded file (`segment_uploads`).
    SegmentsApplied {
        file_name: String,
        rows: i64,
        added: i64,
        changed: i64,
        removed: i64,
    },
    ProductUpdated {
        before: ProductFacts,
        after: ProductFacts,
    },
    ProductDeleted {
        product_key: String,
    },
    QuotesImported {
        file_name: String,
        lines: i64,
        changed: i64,
    },
    CardRevealed {
        order_no: String,
    },
    /// An administrator asked an order's supplier about an attempt; `answer` is one of
    /// `success`, `failed`, `processing`, `not_received`, `no_answer`.
    SupplierQueried {
        attempt_no: i64,
        answer: String,
    },
    SentToChannel {
        attempt_no: i64,
        channel_code: String,
    },
    ServerKeyRotated {
        resealed: i64,
    },
    /// A funding request's step (`filed`, `withdrawn`, `approved`, `rejected`), its amount,
    /// the transfer's reference and a rejection's reason.
    FundingRequest {
        request_id: i64,
        step: String,
        amount_fen: i64,
        bank_reference: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
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
            AuditDetail::OrderReversed { order_no, reason, by_supplier } => match (zh, by_supplier) {
                (true, true) => format!("订单 {order_no} 经供应商报告冲正并退款，原因：{reason}"),
                (true, false) => format!("订单 {order_no} 人工冲正并退款，原因：{reason}"),
                (false, true) => {
                    format!("Order {order_no} reversed on its supplier's report and refunded, reason: {reason}")
                }
                (false, false) => format!("Order {order_no} reversed by hand and refunded, reason: {reason}"),
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
            AuditDetail::MerchantCreated { merchant_id, name, username } => match zh {
                true => format!("商户 {merchant_id}「{name}」，登录用户 {username}"),
                false => format!("Merchant {merchant_id} “{name}”, sign-in user {username}"),
            },
            AuditDetail::MerchantUserAdded { user_id, username } => match zh {
                true => format!("添加用户 {username}（用户 ID {user_id}）"),
                false => format!("User {username} added (user id {user_id})"),
            },
            AuditDetail::Staff { username, change, from, role } => {
                let name = |code: &str| staff_role_name(code, zh);
                match (zh, change.as_str()) {
                    (true, "added") => format!("添加员工 {username}，角色：{}", name(role)),
                    (false, "added") => format!("{username} added as {}", name(role)),
                    (true, "role") => format!(
                        "员工 {username} 的角色：{} → {}",
                        name(from.as_deref().unwrap_or_default()),
                        name(role)
                    ),
                    (false, "role") => {
                        format!("{username}'s role: {} → {}", name(from.as_deref().unwrap_or_default()), name(role))
                    }
                    (true, "disabled") => format!("停用员工 {username}（{}）", name(role)),
                    (false, "disabled") => format!("{username} ({}) disabled", name(role)),
                    (true, "enabled") => format!("启用员工 {username}（{}）", name(role)),
                    (false, "enabled") => format!("{username} ({}) enabled", name(role)),
                    (true, _) => format!("移除员工 {username}（{}）", name(role)),
                    (false, _) => format!("{username} ({}) removed", name(role)),
                }
            }
            AuditDetail::StaffTwoFactor { required } => match (zh, required) {
                (true, true) => "要求所有用户开启两步验证".to_string(),
                (true, false) => "不再要求所有用户开启两步验证".to_string(),
                (false, true) => "Two-factor required of every user".to_string(),
                (false, false) => "Two-factor no longer required of every user".to_string(),
            },
            AuditDetail::MerchantRenamed { from, to } => match zh {
                true => format!("名称「{from}」→「{to}」"),
                false => format!("Name “{from}” → “{to}”"),
            },
            AuditDetail::MerchantDisabled { sessions_ended } => match zh {
                true => format!("已停用，结束 {sessions_ended} 个登录会话"),
                false => format!("Disabled, {sessions_ended} sessions ended"),
            },
            AuditDetail::TemporaryPassword { username } => match zh {
                true => format!("为 {username} 设置临时密码，下次登录须修改"),
                false => format!("Temporary password set for {username}, to be changed at the next sign-in"),
            },
            AuditDetail::ApiKey { merchant_id, key_id } => match zh {
                true => format!("商户 {merchant_id} 的密钥 {key_id}"),
                false => format!("Key {key_id} of merchant {merchant_id}"),
            },
            AuditDetail::TwoFactorReset { user_id, username } => match zh {
                true => format!("用户 {username}（用户 ID {user_id}）须重新绑定"),
                false => format!("User {username} (user id {user_id}) must set it up again"),
            },
            AuditDetail::TwoFactorCode { purpose } => super::audit_detail_words::code_purpose(purpose, zh),
            AuditDetail::SignedInWithCode => pick("密码与两步验证码", "Password and two-factor code"),
            AuditDetail::CommandLine => pick("由命令行执行", "From the command line"),
            AuditDetail::Certification { record_id } => match zh {
                true => format!("认证记录 {record_id}"),
                false => format!("Certification record {record_id}"),
            },
            AuditDetail::LicenceUploaded { record_id, content_type, size } => {
                let (kind, size) =
                    (super::audit_detail_words::image_kind(content_type), super::audit_detail_words::size(*size));
                match zh {
                    true => format!("认证记录 {record_id}：{kind} 图片，{size}"),
                    false => format!("Certification record {record_id}: {kind} image, {size}"),
                }
            }
            AuditDetail::AvatarChanged { content_type } => {
                let kind = super::audit_detail_words::image_kind(content_type);
                if zh { format!("{kind} 图片") } else { format!("{kind} image") }
            }
            AuditDetail::NotificationResent { notification_id } => match zh {
                true => format!("通知 {notification_id} 重新排队发送"),
                false => format!("Notification {notification_id} queued again"),
            },
            AuditDetail::NotificationsResent { count } => match zh {
                true => format!("{count} 条失败的通知重新排队发送"),
                false => format!("{count} failed notifications queued again"),
            },
            AuditDetail::ProductCreated { product } => super::audit_detail_words::product(product, zh),
            AuditDetail::NumberBlocked { pattern, reason } => match zh {
                true => format!("{pattern}，原因：{reason}"),
                false => format!("{pattern}, reason: {reason}"),
            },
            AuditDetail::NumberUnblocked { pattern, reason } => match zh {
                true => format!("{pattern}（原因：{reason}）"),
                false => format!("{pattern} (reason: {reason})"),
            },
            AuditDetail::NumbersImported { lines, added } => match zh {
                true => format!("{lines} 行，新增 {added} 条"),
                false => format!("{lines} lines, {added} added"),
            },
            AuditDetail::NumberPortRemoved { number, from_carrier, reason } => {
                let carrier = crate::domain::Carrier::from_code(*from_carrier)
                    .map_or_else(|| from_carrier.to_string(), |c| super::files::carrier_name(c, locale).to_string());
                match zh {
                    true => format!("{number}（记录为转出{carrier}），原因：{reason}"),
                    false => format!("{number} (recorded as having left {carrier}), reason: {reason}"),
                }
            }
            AuditDetail::SegmentsApplied { file_name, rows, added, changed, removed } => match zh {
                true => format!("文件 {file_name}：共 {rows} 个号段，新增 {added}、变更 {changed}、删除 {removed}"),
                false => {
                    format!("file {file_name}: {rows} segments, {added} added, {changed} changed, {removed} removed")
                }
            },
            AuditDetail::ProductUpdated { before, after } => {
                super::audit_detail_words::product_change(before, after, zh)
            }
            AuditDetail::ProductDeleted { product_key } => match zh {
                true => format!("商品 {product_key}"),
                false => format!("Product {product_key}"),
            },
            AuditDetail::QuotesImported { file_name, lines, changed } => match zh {
                true => format!("文件「{file_name}」：{lines} 行，{changed} 个价格变动"),
                false => format!("File “{file_name}”: {lines} lines, {changed} prices changed"),
            },
            AuditDetail::CardRevealed { order_no } => match zh {
                true => format!("订单 {order_no}"),
                false => format!("Order {order_no}"),
            },
            AuditDetail::SupplierQueried { attempt_no, answer } => {
                let answer = super::audit_detail_words::supplier_answer(answer, zh);
                if zh {
                    format!("第 {attempt_no} 次尝试：{answer}")
                } else {
                    format!("Attempt {attempt_no}: {answer}")
                }
            }
            AuditDetail::SentToChannel { attempt_no, channel_code } => match zh {
                true => format!("第 {attempt_no} 次尝试，发往渠道 {channel_code}"),
                false => format!("Attempt {attempt_no}, sent to channel {channel_code}"),
            },
            AuditDetail::ServerKeyRotated { resealed } => match zh {
                true => format!("由命令行执行：{resealed} 个加密值改用新密钥"),
                false => format!("From the command line: {resealed} sealed values moved to the new key"),
            },
            AuditDetail::FundingRequest { request_id, step, amount_fen, bank_reference, reason } => {
                super::audit_detail_words::funding(*request_id, step, *amount_fen, bank_reference, reason, zh)
            }
            AuditDetail::RiskLimitsSaved { single_flight, number_daily_orders, number_daily_fen, daily_cap_fen } => {
                super::audit_detail_words::risk_limits(
                    *single_flight,
                    (*number_daily_orders, *number_daily_fen, *daily_cap_fen),
                    zh,
                )
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
#[path = "audit_detail_tests.rs"]
mod tests;

/// A merchant role's name for people (`identity::permissions::MerchantRole` codes).
pub fn staff_role_name(code: &str, zh: bool) -> &'static str {
    match (code, zh) {
        ("owner", true) => "所有者",
        ("owner", false) => "Owner",
        ("finance", true) => "财务",
        ("finance", false) => "Finance",
        ("operator", true) => "操作员",
        ("operator", false) => "Operator",
        ("developer", true) => "开发者",
        ("developer", false) => "Developer",
        ("viewer", true) => "只读成员",
        ("viewer", false) => "Viewer",
        (_, true) => "未知角色",
        (_, false) => "Unknown role",
    }
}
