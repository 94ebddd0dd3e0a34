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

pub use super::audit_detail::{AuditDetail, ProductFacts};
