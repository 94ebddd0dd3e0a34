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
pub const ORDER_EXPORT_COLUMNS: Labels<17> = Labels([
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
]);

/// Order statuses by code (0 to 4: pending, processing, success, failure, manual review).
pub const ORDER_STATUS: Labels<5> = Labels([
    ("待处理", "pending"),
    ("处理中", "processing"),
    ("成功", "success"),
    ("失败", "failure"),
    ("人工审核", "manual review"),
]);

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
