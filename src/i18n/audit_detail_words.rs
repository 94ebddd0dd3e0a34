//! Words several audit details share (`audit_detail.rs`): what a two-factor code was asked
//! for, an image's kind and size, a product and its change, a supplier's answer. It names
//! nothing of `audit_detail.rs`, which uses it.

use crate::domain::yuan;

/// A product as the audit trail shows it: key, name, face value (fen) and status (1 on sale).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ProductFacts {
    pub product_key: String,
    pub name: String,
    pub face_value_fen: i64,
    pub status: i64,
    /// `Speed::code`; 0 in rows written before products had a speed.
    #[serde(default)]
    pub speed: i64,
    /// The sales area as stored (province codes joined by commas, empty: national).
    #[serde(default)]
    pub provinces: String,
}

/// What a two-factor code was for; a purpose this server does not know is shown as it is.
pub(super) fn code_purpose(purpose: &str, zh: bool) -> String {
    let (zh_text, en_text) = match purpose {
        "login" => ("登录", "Sign-in"),
        "step_up" => ("资金操作确认", "Confirming money actions"),
        "api_key_create" => ("创建 API 密钥", "Creating an API key"),
        "reset_other" => ("重置他人两步验证", "Resetting another user's two-factor"),
        "enable" => ("开启两步验证", "Turning two-factor on"),
        "disable" => ("关闭两步验证", "Turning two-factor off"),
        "regenerate" => ("重新生成备用码", "Regenerating backup codes"),
        "rotate_webhook_secret" => ("更换回调签名密钥", "Rotating the webhook secret"),
        "card_export" => ("导出卡密", "Exporting card secrets"),
        other => (other, other),
    };
    let purpose = if zh { zh_text } else { en_text };
    if zh { format!("用途：{purpose}") } else { format!("For: {purpose}") }
}

/// An image's kind from its media type ("image/png" is PNG).
pub(super) fn image_kind(content_type: &str) -> String {
    content_type.strip_prefix("image/").unwrap_or(content_type).to_ascii_uppercase()
}

/// A size in bytes as people read it: bytes under 1 KB, else KB or MB with one decimal.
pub(super) fn size(bytes: i64) -> String {
    if bytes < 1_024 {
        format!("{bytes} B")
    } else if bytes < 1_048_576 {
        format!("{:.1} KB", bytes as f64 / 1_024.0)
    } else {
        format!("{:.1} MB", bytes as f64 / 1_048_576.0)
    }
}

fn on_sale(status: i64, zh: bool) -> &'static str {
    match (status == 1, zh) {
        (true, true) => "上架",
        (true, false) => "on sale",
        (false, true) => "下架",
        (false, false) => "off sale",
    }
}

/// A product as created: key, name, face value, status.
pub(super) fn product(product: &ProductFacts, zh: bool) -> String {
    let ProductFacts { product_key, name, face_value_fen, status, .. } = product;
    let (face, sale) = (yuan(*face_value_fen), on_sale(*status, zh));
    if zh {
        format!("商品 {product_key}「{name}」，面值 ¥{face}，{sale}")
    } else {
        format!("Product {product_key} “{name}”, face value ¥{face}, {sale}")
    }
}

/// A product's change: only what changed, before → after.
pub(super) fn product_change(before: &ProductFacts, after: &ProductFacts, zh: bool) -> String {
    let mut changes = Vec::new();
    if before.product_key != after.product_key {
        let label = if zh { "编码" } else { "key" };
        changes.push(format!("{label} {} → {}", before.product_key, after.product_key));
    }
    if before.name != after.name {
        changes.push(match zh {
            true => format!("名称「{}」→「{}」", before.name, after.name),
            false => format!("name “{}” → “{}”", before.name, after.name),
        });
    }
    if before.face_value_fen != after.face_value_fen {
        let label = if zh { "面值" } else { "face value" };
        changes.push(format!("{label} ¥{} → ¥{}", yuan(before.face_value_fen), yuan(after.face_value_fen)));
    }
    if before.status != after.status {
        changes.push(format!("{} → {}", on_sale(before.status, zh), on_sale(after.status, zh)));
    }
    if before.speed != after.speed && before.speed != 0 {
        let label = if zh { "速度" } else { "speed" };
        changes.push(format!("{label} {} → {}", speed(before.speed, zh), speed(after.speed, zh)));
    }
    if before.provinces != after.provinces {
        let label = if zh { "销售地区" } else { "sales area" };
        changes.push(format!("{label} {} → {}", area(&before.provinces, zh), area(&after.provinces, zh)));
    }
    let key = &after.product_key;
    match (changes.is_empty(), zh) {
        (true, true) => format!("商品 {key}：未改动"),
        (true, false) => format!("Product {key}: nothing changed"),
        (false, true) => format!("商品 {key}：{}", changes.join("；")),
        (false, false) => format!("Product {key}: {}", changes.join("; ")),
    }
}

fn locale(zh: bool) -> super::Locale {
    if zh { super::Locale::ZhCn } else { super::Locale::EnUs }
}

fn speed(code: i64, zh: bool) -> &'static str {
    super::provinces::speed_name(crate::domain::Speed::from_code(code).unwrap_or_default(), locale(zh))
}

/// A stored sales area in words: 全国 / national, or the provinces named.
fn area(stored: &str, zh: bool) -> String {
    match crate::domain::Scope::from_stored(stored) {
        Some(scope) if !scope.is_national() => super::provinces::province_list(scope.provinces(), locale(zh)),
        _ if zh => "全国".into(),
        _ => "national".into(),
    }
}

/// What the supplier answered when asked about an attempt.
pub(super) fn supplier_answer(answer: &str, zh: bool) -> String {
    let (zh_text, en_text) = match answer {
        "success" => ("上游答复充值成功", "the supplier answered: topped up"),
        "failed" => ("上游答复充值失败", "the supplier answered: failed"),
        "processing" => ("上游答复仍在处理", "the supplier answered: still processing"),
        "not_received" => ("上游答复未收到该订单", "the supplier answered: order not received"),
        _ => ("上游没有答复", "the supplier gave no answer"),
    };
    if zh { zh_text.to_string() } else { en_text.to_string() }
}

/// A funding request's step as the audit trail shows it; a step this server does not
/// know is shown as it is.
pub(super) fn funding(
    id: i64,
    step: &str,
    amount_fen: i64,
    reference: &str,
    reason: &Option<String>,
    zh: bool,
) -> String {
    let amount = yuan(amount_fen);
    let (zh_step, en_step) = match step {
        "filed" => ("提交", "filed"),
        "withdrawn" => ("撤回", "withdrawn"),
        "approved" => ("通过并入账", "approved and credited"),
        "rejected" => ("驳回", "rejected"),
        other => (other, other),
    };
    let reason = reason.as_deref().unwrap_or_default();
    match (zh, reason.is_empty()) {
        (true, true) => format!("充值申请 #{id}（¥{amount}，银行流水 {reference}）{zh_step}"),
        (true, false) => format!("充值申请 #{id}（¥{amount}，银行流水 {reference}）{zh_step}，原因：{reason}"),
        (false, true) => format!("Funding request #{id} (¥{amount}, bank reference {reference}) {en_step}"),
        (false, false) => format!("Funding request #{id} (¥{amount}, bank reference {reference}) {en_step}: {reason}"),
    }
}

/// A merchant's risk controls as saved (0: no limit).
pub(super) fn risk_limits(single_flight: bool, (orders, number_fen, cap_fen): (i64, i64, i64), zh: bool) -> String {
    let limit = |value: i64, text: String| match (value, zh) {
        (0, true) => "不限".to_string(),
        (0, false) => "no limit".to_string(),
        _ => text,
    };
    let yuan = crate::domain::yuan;
    match zh {
        true => format!(
            "同号码在途订单：{}；每号码每日订单数：{}；每号码每日金额：{}；商户每日金额上限：{}",
            if single_flight { "限 1 笔" } else { "不限" },
            limit(orders, format!("{orders} 笔")),
            limit(number_fen, format!("¥{}", yuan(number_fen))),
            limit(cap_fen, format!("¥{}", yuan(cap_fen))),
        ),
        false => format!(
            "Orders in flight per number: {}; orders per number a day: {}; amount per number a day: {}; merchant's amount a day: {}",
            if single_flight { "one" } else { "no limit" },
            limit(orders, orders.to_string()),
            limit(number_fen, format!("¥{}", yuan(number_fen))),
            limit(cap_fen, format!("¥{}", yuan(cap_fen))),
        ),
    }
}
