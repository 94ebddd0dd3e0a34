//! The audit details render in both languages, without developer words.

use super::*;

#[test]
fn details_are_data_rendered_in_both_languages() {
    let details = [
        AuditDetail::ChannelEnabled { enabled: false },
        AuditDetail::ChannelSaved { code: "up1".into(), secret_set: true },
        AuditDetail::ChannelProductsSaved { count: 3 },
        AuditDetail::OrderResolved { order_no: "N1".into(), success: false },
        AuditDetail::OrderReversed { order_no: "N1".into(), reason: "carrier reversed".into(), by_supplier: true },
        AuditDetail::OrderReversed { order_no: "N2".into(), reason: "wrong number".into(), by_supplier: false },
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
        AuditDetail::MerchantCreated { merchant_id: 10003, name: "店".into(), username: "shop".into() },
        AuditDetail::MerchantUserAdded { user_id: 7, username: "clerk".into() },
        AuditDetail::MerchantRenamed { from: "A".into(), to: "B".into() },
        AuditDetail::Staff { username: "ann".into(), change: "added".into(), from: None, role: "finance".into() },
        AuditDetail::Staff {
            username: "ann".into(),
            change: "role".into(),
            from: Some("finance".into()),
            role: "viewer".into(),
        },
        AuditDetail::Staff { username: "ann".into(), change: "removed".into(), from: None, role: "viewer".into() },
        AuditDetail::StaffTwoFactor { required: true },
        AuditDetail::MerchantDisabled { sessions_ended: 2 },
        AuditDetail::TemporaryPassword { username: "clerk".into() },
        AuditDetail::ApiKey { merchant_id: 10001, key_id: "ak_1".into() },
        AuditDetail::TwoFactorReset { user_id: 7, username: "clerk".into() },
        AuditDetail::TwoFactorCode { purpose: "step_up".into() },
        AuditDetail::SignedInWithCode,
        AuditDetail::CommandLine,
        AuditDetail::Certification { record_id: 4 },
        AuditDetail::LicenceUploaded { record_id: 4, content_type: "image/jpeg".into(), size: 204_800 },
        AuditDetail::AvatarChanged { content_type: "image/png".into() },
        AuditDetail::NotificationResent { notification_id: 9 },
        AuditDetail::NotificationsResent { count: 3 },
        AuditDetail::ProductCreated { product: product("P-10", 1_000, 1) },
        AuditDetail::ProductUpdated { before: product("P-10", 1_000, 1), after: product("P-10", 2_000, 0) },
        AuditDetail::ProductDeleted { product_key: "P-10".into() },
        AuditDetail::QuotesImported { file_name: "prices.xlsx".into(), lines: 12, changed: 3 },
        AuditDetail::CardRevealed { order_no: "N2".into() },
        AuditDetail::SupplierQueried { attempt_no: 2, answer: "not_received".into() },
        AuditDetail::SentToChannel { attempt_no: 1, channel_code: "up1".into() },
        AuditDetail::ServerKeyRotated { resealed: 14 },
        AuditDetail::NumberPortRemoved { number: "13700137000".into(), from_carrier: 1, reason: "wrong answer".into() },
        funding("filed", None),
        funding("rejected", Some("no transfer arrived")),
    ];
    for detail in details {
        let (zh, en) = (detail.text(Locale::ZhCn), detail.text(Locale::EnUs));
        assert!(!zh.is_empty() && !en.is_empty() && zh != en, "{detail:?}");
        for developer in ["bp", "HalfUp", "half_up", "enabled=", "_fen", "step_up", "image/", "not_received"] {
            assert!(!zh.contains(developer) && !en.contains(developer), "{developer} in {zh} / {en}");
            assert!(!zh.is_ascii(), "{detail:?} has no Chinese: {zh}");
        }
        assert_eq!(AuditDetail::render(&detail.to_json(), Locale::ZhCn), Some(zh));
    }
    assert_eq!(AuditDetail::Money { amount_fen: -1250, remark: String::new() }.text(Locale::EnUs), "Amount ¥-12.50");
    assert_eq!(AuditDetail::render(r#"{"t":"from_a_newer_server"}"#, Locale::EnUs), None);
}

fn funding(step: &str, reason: Option<&str>) -> AuditDetail {
    let reason = reason.map(str::to_string);
    AuditDetail::FundingRequest {
        request_id: 12,
        step: step.into(),
        amount_fen: 50_000,
        bank_reference: "ABC123".into(),
        reason,
    }
}

#[test]
fn a_funding_request_step_names_the_request_and_the_transfer() {
    assert_eq!(funding("approved", None).text(Locale::ZhCn), "充值申请 #12（¥500.00，银行流水 ABC123）通过并入账");
    assert_eq!(
        funding("rejected", Some("no transfer")).text(Locale::EnUs),
        "Funding request #12 (¥500.00, bank reference ABC123) rejected: no transfer"
    );
}

fn product(key: &str, face_value_fen: i64, status: i64) -> ProductFacts {
    ProductFacts {
        product_key: key.into(),
        name: "移动 10 元".into(),
        face_value_fen,
        status,
        speed: 1,
        provinces: String::new(),
    }
}

#[test]
fn a_product_change_names_only_what_changed() {
    let change = AuditDetail::ProductUpdated { before: product("P-10", 1_000, 1), after: product("P-10", 2_000, 0) };
    assert_eq!(change.text(Locale::ZhCn), "商品 P-10：面值 ¥10.00 → ¥20.00；上架 → 下架");
    assert_eq!(change.text(Locale::EnUs), "Product P-10: face value ¥10.00 → ¥20.00; on sale → off sale");
    let same = AuditDetail::ProductUpdated { before: product("P-10", 1_000, 1), after: product("P-10", 1_000, 1) };
    assert_eq!(same.text(Locale::EnUs), "Product P-10: nothing changed");
}

#[test]
fn a_product_change_names_its_speed_and_sales_area() {
    let before = product("P-10", 1_000, 1);
    let after = ProductFacts { speed: 2, provinces: "330000,440000".into(), ..before.clone() };
    let change = AuditDetail::ProductUpdated { before: before.clone(), after: after.clone() };
    assert_eq!(change.text(Locale::ZhCn), "商品 P-10：速度 快充 → 慢充；销售地区 全国 → 浙江、广东");
    assert_eq!(change.text(Locale::EnUs), "Product P-10: speed fast → slow; sales area national → Zhejiang, Guangdong");
    // A row written before products had a speed reads without one.
    let old: ProductFacts =
        serde_json::from_str(r#"{"product_key":"P-10","name":"n","face_value_fen":1000,"status":1}"#).unwrap();
    assert_eq!((old.speed, old.provinces.as_str()), (0, ""));
}

#[test]
fn every_purpose_a_code_is_asked_for_has_words() {
    let purposes = [
        "login",
        "step_up",
        "api_key_create",
        "reset_other",
        "enable",
        "disable",
        "regenerate",
        "rotate_webhook_secret",
        "card_export",
    ];
    for purpose in purposes {
        let detail = AuditDetail::TwoFactorCode { purpose: purpose.into() };
        for locale in [Locale::ZhCn, Locale::EnUs] {
            assert!(!detail.text(locale).contains(purpose), "{purpose} has no words in {locale:?}");
        }
    }
    // One this server does not know (a newer one wrote it) is shown as it is.
    assert_eq!(AuditDetail::TwoFactorCode { purpose: "later".into() }.text(Locale::EnUs), "For: later");
}

#[test]
fn sizes_read_as_people_read_them() {
    let licence = |size| AuditDetail::LicenceUploaded { record_id: 4, content_type: "image/jpeg".into(), size };
    assert_eq!(licence(512).text(Locale::EnUs), "Certification record 4: JPEG image, 512 B");
    assert_eq!(licence(204_800).text(Locale::ZhCn), "认证记录 4：JPEG 图片，200.0 KB");
    assert_eq!(licence(3_145_728).text(Locale::EnUs), "Certification record 4: JPEG image, 3.0 MB");
}
