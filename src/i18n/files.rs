//! Texts written into files: column titles of exports, batch results and the batch
//! template, and the words for statuses in them. Each pair is (Chinese, English).

use super::Locale;

/// Labels in both languages, one (Chinese, English) pair each.
pub struct Labels<const N: usize>(pub [(&'static str, &'static str); N]);

impl<const N: usize> Labels<N> {
    pub fn get(&self, locale: Locale) -> [&'static str; N] {
        self.0.map(|(zh, en)| if locale == Locale::ZhCn { zh } else { en })
    }

    /// The labels as a file's title row.
    pub fn row(&self, locale: Locale) -> Vec<String> {
        self.get(locale).map(String::from).to_vec()
    }

    pub fn pairs(&self) -> &[(&'static str, &'static str)] {
        &self.0
    }
}

/// Columns of the order export.
pub const ORDER_EXPORT_COLUMNS: Labels<19> = Labels([
    ("商户订单号", "Merchant order id"),
    ("订单号", "Order number"),
    ("系统订单号", "System order id"),
    ("商品名称", "Product name"),
    ("商品编号", "Product key"),
    ("运营商", "Carrier"),
    ("充值账号", "Recharge account"),
    ("面值(元)", "Face value (yuan)"),
    ("供货价(元)", "Supply price (yuan)"),
    ("订单状态", "Status"),
    ("下单时间", "Order time"),
    ("耗时(秒)", "Time taken (s)"),
    ("渠道回调时间", "Channel callback time"),
    ("流水号", "Serial number"),
    ("回购单", "Buyback"),
    ("商户编号", "Merchant id"),
    ("失败原因", "Failure reason"),
    ("归属省份", "Province"),
    // The city as the segment table names it in Chinese, in both languages: the CSV is
    // built in SQL, which has no English city names (the segment table holds them).
    ("归属城市", "City"),
]);

/// Columns of the encrypted card-secret export.
pub const CARD_EXPORT_COLUMNS: Labels<8> = Labels([
    ("订单号", "Order number"),
    ("商户订单号", "Merchant order id"),
    ("商品名称", "Product name"),
    ("面值(元)", "Face value (yuan)"),
    ("充值账号", "Recharge account"),
    ("卡号", "Card number"),
    ("卡密", "Card secret"),
    ("交付时间(北京时间)", "Delivered (Beijing time)"),
]);

/// Order statuses by code (0 to 5: pending, processing, success, failure, manual review, reversed).
pub const ORDER_STATUS: Labels<6> = Labels([
    ("待处理", "pending"),
    ("处理中", "processing"),
    ("成功", "success"),
    ("失败", "failure"),
    ("人工审核", "manual review"),
    ("已冲正", "reversed"),
]);

/// Account types of account-change records by their code, as the console shows them.
pub const ACCOUNT_TYPES: [(&str, (&str, &str)); 2] =
    [("balance", ("余额账户", "Balance account")), ("credit", ("授信账户", "Credit account"))];

/// Change types of account-change records by their code, as the console shows them.
pub const CHANGE_TYPES: [(&str, (&str, &str)); 7] = [
    ("order_debit", ("下单扣款", "Order debit")),
    ("refund", ("失败退款", "Refund")),
    ("topup", ("加款", "Top-up")),
    ("credit_granted", ("授信", "Credit granted")),
    ("repayment", ("还款", "Repayment")),
    ("adjustment", ("调账", "Adjustment")),
    ("reversal_refund", ("冲正退款", "Reversal refund")),
];

/// A code's words in `locale` from one of the lists above; a code without words is
/// written as it is (an exported file never loses a record's type).
pub fn code_label<'a>(labels: &[(&str, (&'static str, &'static str))], code: &'a str, locale: Locale) -> &'a str {
    match labels.iter().find(|(known, _)| *known == code) {
        Some((_, (zh, _))) if locale == Locale::ZhCn => zh,
        Some((_, (_, en))) => en,
        None => code,
    }
}

#[cfg(test)]
#[test]
fn codes_are_written_in_the_readers_words() {
    assert_eq!(code_label(&CHANGE_TYPES, "order_debit", Locale::ZhCn), "下单扣款");
    assert_eq!(code_label(&ACCOUNT_TYPES, "balance", Locale::EnUs), "Balance account");
    assert_eq!(code_label(&CHANGE_TYPES, "unknown_code", Locale::ZhCn), "unknown_code");
}

/// Columns of the account-change export.
pub const ACCOUNT_LOG_COLUMNS: Labels<13> = Labels([
    ("编号", "Id"),
    ("商户编号", "Merchant id"),
    ("账户类型", "Account type"),
    ("账变类型", "Change type"),
    ("金额(元)", "Amount (yuan)"),
    ("变动前余额(元)", "Balance before (yuan)"),
    ("变动后余额(元)", "Balance after (yuan)"),
    ("变动前可用授信(元)", "Available credit before (yuan)"),
    ("变动后可用授信(元)", "Available credit after (yuan)"),
    ("订单号", "Order number"),
    ("操作人", "By"),
    ("备注", "Remark"),
    ("时间", "Time"),
]);

/// Columns of the quote export.
pub const QUOTE_EXPORT_COLUMNS: Labels<8> = Labels([
    ("商户编号", "Merchant id"),
    ("业务名称", "Business name"),
    ("商品名称", "Product name"),
    ("商品编号", "Product key"),
    ("供货价(元)", "Supply price (yuan)"),
    ("面值(元)", "Face value (yuan)"),
    ("状态", "Status"),
    ("创建时间", "Created"),
]);

/// The carriers, in `Carrier::code` order (1 mobile, 2 unicom, 3 telecom, 4 broadnet).
pub const CARRIERS: Labels<4> = Labels([
    ("中国移动", "China Mobile"),
    ("中国联通", "China Unicom"),
    ("中国电信", "China Telecom"),
    ("中国广电", "China Broadnet"),
]);

/// A carrier's name in `locale`.
pub fn carrier_name(carrier: crate::domain::Carrier, locale: Locale) -> &'static str {
    use crate::domain::Carrier;
    let index = match carrier {
        Carrier::Mobile => 0,
        Carrier::Unicom => 1,
        Carrier::Telecom => 2,
        Carrier::Broadnet => 3,
    };
    CARRIERS.get(locale)[index]
}

/// The blocklist's export: number or prefix, reason, added by, added at.
pub const BLOCKLIST_HEADER: Labels<4> =
    Labels([("号码或号段", "Number or prefix"), ("原因", "Reason"), ("添加人", "Added by"), ("添加时间", "Added at")]);

/// The ported numbers' export: number, carrier left, channel, system order id, recorded at.
pub const PORTS_HEADER: Labels<5> = Labels([
    ("号码", "Number"),
    ("转出运营商", "Carrier left"),
    ("上游渠道", "Channel"),
    ("系统订单号", "System order id"),
    ("记录时间", "Recorded at"),
]);

/// An order bought back, then an ordinary one.
pub const BUYBACK: Labels<2> = Labels([("回购单", "buyback"), ("正常单", "normal")]);

/// The business name stored beside a product, by its kind: direct top-up, card secret. It
/// is written once in Chinese, as the price lists' business column shows it.
pub fn business_name(kind: crate::domain::ProductKind) -> &'static str {
    match kind {
        crate::domain::ProductKind::Direct => "话费直充",
        crate::domain::ProductKind::Card => "话费卡密",
    }
}

/// A quote switched on, then off.
pub const QUOTE_STATUS: Labels<2> = Labels([("上架", "on"), ("下架", "off")]);

/// Columns of a batch's result file.
pub const BATCH_RESULT_COLUMNS: Labels<10> = Labels([
    ("行号", "Line"),
    ("充值账号", "Recharge account"),
    ("商品编号", "Product key"),
    ("商户订单号", "Merchant order id"),
    ("供货价(元)", "Supply price (yuan)"),
    ("结果", "Outcome"),
    ("原因", "Reason"),
    ("订单号", "Order number"),
    ("订单状态", "Order status"),
    ("失败原因", "Failure reason"),
]);

/// Batch line outcomes by code (0 to 3: valid, invalid, placed, refused).
pub const BATCH_OUTCOME: Labels<4> = Labels([
    ("待提交", "valid, not submitted"),
    ("校验未通过", "invalid"),
    ("已下单", "placed"),
    ("提交时被拒", "refused at submit"),
]);

/// The batch template's title row.
pub const BATCH_TEMPLATE_COLUMNS: Labels<3> = Labels([
    ("充值账号", "Recharge account"),
    ("商品编号", "Product key"),
    ("商户订单号(可选)", "Merchant order id (optional)"),
]);

/// Columns of the audit log export.
pub const AUDIT_LOG_COLUMNS: Labels<8> = Labels([
    ("编号", "Id"),
    ("时间", "Time"),
    ("操作人", "Actor"),
    ("操作", "Action"),
    ("操作代码", "Action code"),
    ("对象", "Target"),
    ("详情", "Detail"),
    ("来源地址", "Client address"),
]);

/// Columns of the statement file, one row per merchant.
pub const STATEMENT_COLUMNS: Labels<23> = Labels([
    ("商户编号", "Merchant id"),
    ("商户名称", "Merchant name"),
    ("账期", "Period"),
    ("期初余额(元)", "Opening balance (yuan)"),
    ("下单笔数", "Orders placed"),
    ("下单金额(元)", "Placed amount (yuan)"),
    ("成功笔数", "Orders succeeded"),
    ("成功金额(元)", "Succeeded amount (yuan)"),
    ("失败笔数", "Orders failed"),
    ("失败金额(元)", "Failed amount (yuan)"),
    ("处理中笔数", "Orders in flight"),
    ("余额扣款(元)", "Balance debits (yuan)"),
    ("余额退款(元)", "Balance refunds (yuan)"),
    ("充值(元)", "Top-ups (yuan)"),
    ("余额调整(元)", "Adjustments (yuan)"),
    ("期末余额(元)", "Closing balance (yuan)"),
    ("期初可用授信(元)", "Opening available credit (yuan)"),
    ("授信扣款与退款(元)", "Credit debits and refunds (yuan)"),
    ("授信额度变动(元)", "Credit limit changes (yuan)"),
    ("授信还款(元)", "Credit repayments (yuan)"),
    ("期末可用授信(元)", "Closing available credit (yuan)"),
    ("已对平", "Reconciled"),
    ("成功订单归属地(笔/元)", "Successes by province (orders/yuan)"),
]);

/// The administrators' profit report file (`orders::reports`); a column the report is not
/// broken down by is left out.
pub const PROFIT_REPORT_COLUMNS: Labels<16> = Labels([
    ("日期", "Date"),
    ("商户编号", "Merchant id"),
    ("商户名称", "Merchant name"),
    ("渠道", "Channel"),
    ("运营商", "Carrier"),
    ("省份", "Province"),
    ("商品编码", "Product code"),
    ("商品名称", "Product name"),
    ("订单数", "Orders"),
    ("成功笔数", "Successes"),
    ("成功率", "Success ratio"),
    ("成功面值(元)", "Face value (yuan)"),
    ("销售额(元)", "Sales (yuan)"),
    ("成本(元)", "Cost (yuan)"),
    ("利润(元)", "Profit (yuan)"),
    ("失败笔数", "Failures"),
]);

/// The merchants' sales report file.
pub const SALES_REPORT_COLUMNS: Labels<11> = Labels([
    ("日期", "Date"),
    ("商品编码", "Product code"),
    ("商品名称", "Product name"),
    ("订单数", "Orders"),
    ("成功笔数", "Successes"),
    ("失败笔数", "Failures"),
    ("已冲正笔数", "Reversed"),
    ("处理中笔数", "In flight"),
    ("成功率", "Success ratio"),
    ("成功面值(元)", "Face value (yuan)"),
    ("消费金额(元)", "Spend (yuan)"),
]);

/// A number whose segment was not known (the statement's provinces).
pub const PROVINCE_UNKNOWN: Labels<1> = Labels([("未知", "Unknown")]);

/// Yes and no, in that order (the statement's reconciled column).
pub const YES_NO: Labels<2> = Labels([("是", "yes"), ("否", "no")]);

/// Columns of the reconciliation export (supply/admin_reconcile.rs).
pub const RECONCILE_COLUMNS: Labels<13> = Labels([
    ("结果", "Result"),
    ("上游订单号", "Upstream order id"),
    ("系统订单号", "System order id"),
    ("充值账号", "Account"),
    ("我方面值(元)", "Our face value (yuan)"),
    ("我方成本(元)", "Our cost (yuan)"),
    ("供应商面值(元)", "Supplier face value (yuan)"),
    ("供应商价格(元)", "Supplier price (yuan)"),
    ("供应商状态", "Supplier status"),
    ("我方尝试状态", "Our attempt outcome"),
    ("我方流水号", "Our serial number"),
    ("供应商流水号", "Supplier serial number"),
    ("对账日期", "Date"),
]);

/// The result of a reconciliation line, in the order of `reconcile::Kind::ALL`.
pub const RECONCILE_KINDS: Labels<6> = Labels([
    ("一致", "matched"),
    ("我方缺失", "missing on our side"),
    ("供应商缺失", "missing on the supplier's side"),
    ("金额不符", "amount mismatch"),
    ("状态不符", "status mismatch"),
    ("供应商冲正", "reversed by the supplier"),
]);

/// A channel's coverage file (export and import): product, provinces, cost, priority, weight.
pub const COVERAGE_COLUMNS: Labels<5> = Labels([
    ("商品编码", "Product key"),
    ("覆盖省份", "Provinces"),
    ("成本(元)", "Cost (yuan)"),
    ("优先级", "Priority"),
    ("权重", "Weight"),
]);

/// The coverage cell of a national row.
pub const NATIONAL: Labels<1> = Labels([("全国", "National")]);
