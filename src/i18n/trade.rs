//! Messages of orders, quotes, batches and the merchant account, in both locales.
//! Kept apart from the sign-in messages only to keep each file readable; they are
//! `Message`s like any other (`Message::Trade`).

use super::{FileKind, Locale};
use crate::domain::Carrier;
use std::borrow::Cow;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TradeMessage {
    AccountRequired,
    AccountInvalid,
    CarrierMismatch {
        number: Carrier,
        product: Carrier,
    },
    /// A supplier reported the number moved away from `from`, the product's carrier (携号转网).
    NumberPorted {
        from: Carrier,
    },
    /// The number (or a prefix of it) is on the platform's blocklist.
    AccountBlocked,
    /// The merchant keeps one order in flight per number and this number has one.
    NumberInFlight,
    /// The number's orders today reached the merchant's limit (`max` a day).
    NumberDailyOrders {
        max: i64,
    },
    /// The number's amount today would pass the merchant's limit (`max_fen` a day).
    NumberDailyAmount {
        max_fen: i64,
    },
    /// The merchant's order amount today would pass its cap (`cap_fen` a day).
    MerchantDailyCap {
        cap_fen: i64,
    },
    /// A batch line for a fast product while a maintenance window closes every channel that
    /// could take it (`title`, ending at `until`, Beijing time `YYYY-MM-DD HH:MM`); the
    /// single order's answer is `WindowMessage::Closed`, with the same words.
    WindowClosed {
        title: String,
        until: String,
    },
    /// A risk-control setting is not a whole number of at least 0.
    RiskLimitInvalid,
    /// A blocklist entry is not an 11-digit number or a prefix of 3 to 10 digits.
    BlockPatternInvalid,
    BlockReasonInvalid {
        max: usize,
    },
    BlockPatternTaken,
    /// An import with no lines or more than `max`.
    BlockImportSize {
        max: usize,
    },
    /// The product is sold only in some provinces, not the number's (None: the number's
    /// segment is not in the table).
    OutOfScope {
        carrier: Carrier,
        province: Option<u32>,
    },
    ProductRequired,
    ProductUnknown,
    QuoteUnavailable,
    MerchantOrderIdInvalid,
    MerchantOrderIdDuplicate,
    DuplicateInFile,
    InsufficientFunds,
    AmountInvalid,
    AdjustmentInvalid,
    AdjustmentBelowZero,
    AdjustmentRemarkRequired,
    CreditLimitBelowUsed,
    RepaymentTooLarge,
    OrderNotResolvable,
    /// Only a successful order can be reversed (冲正).
    OrderNotReversible,
    /// A reversal's reason: required, at most `max` characters.
    ReversalReasonInvalid {
        max: usize,
    },
    SerialRequired,
    CardNotDelivered,
    /// A card-secret order can be marked failed by hand, not successful: only the supplier
    /// delivers its card.
    CardOrderNeedsCard,
    /// The password of a card-secret export: 8 to 64 characters with letters and digits.
    CardExportPasswordWeak,
    /// A card-secret export names its orders (or a filter), at most `max`.
    CardExportNoneChosen,
    CardExportTooMany {
        max: usize,
    },
    /// None of the chosen orders has a delivered card.
    CardExportNothing,
    InvalidChoice {
        allowed: &'static str,
    },
    /// A province filter that is no province's GB/T 2260 code.
    ProvinceInvalid,
    CursorInvalid,
    PageSizeInvalid {
        max: i64,
    },
    TimeInvalid,
    /// A statement's period is `day` with `YYYY-MM-DD` or `month` with `YYYY-MM`.
    StatementPeriodInvalid,
    /// A report's range: `start` after `end`, or longer than `max_days`.
    ReportRangeInvalid {
        max_days: i64,
    },
    BatchEmpty,
    BatchTooLarge {
        max: usize,
    },
    BatchFileUnreadable,
    BatchLineIncomplete,
    BatchCellTooLong,
    BatchFileNotUtf8 {
        line: i64,
    },
    BatchLineTooLong {
        line: i64,
        max: usize,
    },
    BatchFileUnpackedTooLarge {
        max_mb: u64,
    },
    BatchFileTooManyRows {
        max: usize,
    },
    BatchFileTooManyCells {
        max: usize,
    },
    BatchFileTooDeep {
        max: usize,
    },
    BatchFileTooSlow {
        seconds: u64,
    },
    BatchFileNameTooLong {
        max: usize,
    },
    /// A cell of this line holds U+0000, which no order field may (PostgreSQL cannot
    /// store it).
    BatchLineNul {
        line: i64,
    },
    /// The upload's bytes are neither a workbook nor text, whatever its name says.
    BatchFileKind {
        kind: FileKind,
    },
    QuoteChanged,
    BatchExpired,
    BatchNotDiscardable,
    /// A submit of a batch submitted already, not a repeat of the submit that placed it.
    BatchSubmitted,
    /// Discarded, expired and removed, or another merchant's.
    BatchNotFound,
    /// A number lookup's input is not a mainland mobile number.
    SegmentPhoneInvalid,
    /// A valid number whose 7-digit prefix the segment table lacks.
    SegmentUnknown {
        prefix: u32,
    },
}

impl TradeMessage {
    pub fn key(&self) -> &'static str {
        use TradeMessage::*;
        match self {
            AccountRequired => "order.account.required",
            AccountInvalid => "order.account.invalid",
            CarrierMismatch { .. } => "order.account.carrier_mismatch",
            NumberPorted { .. } => "order.account.ported",
            OutOfScope { .. } => "order.product.out_of_scope",
            AccountBlocked => "order.account.blocked",
            NumberInFlight => "order.account.in_flight",
            NumberDailyOrders { .. } => "order.account.daily_orders",
            NumberDailyAmount { .. } => "order.account.daily_amount",
            MerchantDailyCap { .. } => "order.merchant.daily_cap",
            WindowClosed { .. } => "order.batch.window",
            RiskLimitInvalid => "risk.limit.invalid",
            BlockPatternInvalid => "blocklist.pattern.invalid",
            BlockReasonInvalid { .. } => "blocklist.reason.invalid",
            BlockPatternTaken => "blocklist.pattern.taken",
            BlockImportSize { .. } => "blocklist.import.size",
            ProductRequired => "order.product.required",
            ProductUnknown => "order.product.unknown",
            QuoteUnavailable => "order.quote.unavailable",
            MerchantOrderIdInvalid => "order.merchant_order_id.invalid",
            MerchantOrderIdDuplicate => "order.merchant_order_id.duplicate",
            DuplicateInFile => "batch.duplicate_in_file",
            InsufficientFunds => "funds.insufficient",
            AmountInvalid => "amount.invalid",
            AdjustmentInvalid => "amount.adjustment_invalid",
            AdjustmentBelowZero => "balance.adjustment_below_zero",
            AdjustmentRemarkRequired => "amount.adjustment_remark_required",
            CreditLimitBelowUsed => "credit.limit_below_used",
            RepaymentTooLarge => "credit.repayment_too_large",
            OrderNotResolvable => "order.not_resolvable",
            OrderNotReversible => "order.not_reversible",
            ReversalReasonInvalid { .. } => "order.reversal.reason_invalid",
            SerialRequired => "order.serial_no.required",
            CardNotDelivered => "order.card.not_delivered",
            CardOrderNeedsCard => "order.card.success_needs_card",
            CardExportPasswordWeak => "order.card_export.password_weak",
            CardExportNoneChosen => "order.card_export.none_chosen",
            CardExportTooMany { .. } => "order.card_export.too_many",
            CardExportNothing => "order.card_export.nothing",
            InvalidChoice { .. } => "request.invalid_choice",
            ProvinceInvalid => "request.province_invalid",
            CursorInvalid => "request.cursor_invalid",
            PageSizeInvalid { .. } => "request.page_size_invalid",
            TimeInvalid => "request.time_invalid",
            StatementPeriodInvalid => "statement.period_invalid",
            ReportRangeInvalid { .. } => "report.range_invalid",
            BatchEmpty => "batch.empty",
            BatchTooLarge { .. } => "batch.too_large",
            BatchFileUnreadable => "batch.file_unreadable",
            BatchLineIncomplete => "batch.line_incomplete",
            BatchCellTooLong => "batch.cell_too_long",
            BatchFileNotUtf8 { .. } => "batch.file_not_utf8",
            BatchLineTooLong { .. } => "batch.line_too_long",
            BatchFileUnpackedTooLarge { .. } => "batch.file_unpacked_too_large",
            BatchFileTooManyRows { .. } => "batch.file_too_many_rows",
            BatchFileTooManyCells { .. } => "batch.file_too_many_cells",
            BatchFileTooDeep { .. } => "batch.file_too_deep",
            BatchFileTooSlow { .. } => "batch.file_too_slow",
            BatchFileNameTooLong { .. } => "batch.file_name_too_long",
            BatchLineNul { .. } => "batch.line_nul",
            BatchFileKind { .. } => "batch.file_kind",
            QuoteChanged => "batch.quote_changed",
            BatchExpired => "batch.expired",
            BatchNotDiscardable => "batch.not_discardable",
            BatchSubmitted => "batch.submitted",
            BatchNotFound => "batch.not_found",
            SegmentPhoneInvalid => "segment.phone_invalid",
            SegmentUnknown { .. } => "segment.unknown",
        }
    }

    /// The message a stored batch-row reason (`key` or `key|number|product`) stands for.
    pub fn from_stored(stored: &str) -> Option<Self> {
        use TradeMessage::*;
        let mut parts = stored.split('|');
        let key = parts.next()?;
        let simple = [
            AccountRequired,
            AccountInvalid,
            AccountBlocked,
            NumberInFlight,
            ProductRequired,
            ProductUnknown,
            QuoteUnavailable,
            MerchantOrderIdInvalid,
            MerchantOrderIdDuplicate,
            DuplicateInFile,
            InsufficientFunds,
            BatchLineIncomplete,
            QuoteChanged,
        ];
        if let Some(message) = simple.into_iter().find(|message| message.key() == key) {
            return Some(message);
        }
        if key == "order.account.carrier_mismatch" {
            let number = Carrier::parse(parts.next()?)?;
            let product = Carrier::parse(parts.next()?)?;
            return Some(CarrierMismatch { number, product });
        }
        if key == "order.account.ported" {
            return Some(NumberPorted { from: Carrier::parse(parts.next()?)? });
        }
        // A risk limit's refusal keeps the limit it was refused by.
        let limit = |parts: &mut std::str::Split<'_, char>| parts.next().and_then(|text| text.parse::<i64>().ok());
        match key {
            "order.account.daily_orders" => return Some(NumberDailyOrders { max: limit(&mut parts)? }),
            "order.account.daily_amount" => return Some(NumberDailyAmount { max_fen: limit(&mut parts)? }),
            "order.merchant.daily_cap" => return Some(MerchantDailyCap { cap_fen: limit(&mut parts)? }),
            _ => {}
        }
        if key == "order.batch.window" {
            // The title last: it may hold the separator.
            let until = parts.next()?.to_string();
            let title = parts.collect::<Vec<_>>().join("|");
            return Some(WindowClosed { title, until });
        }
        if key == "order.product.out_of_scope" {
            let carrier = Carrier::parse(parts.next()?)?;
            let province = parts.next()?.parse().ok();
            return Some(OutOfScope { carrier, province });
        }
        None
    }

    /// What to store for a batch row: the key, plus the carriers of a mismatch.
    pub fn stored(&self) -> String {
        match self {
            TradeMessage::CarrierMismatch { number, product } => {
                format!("{}|{}|{}", self.key(), number.as_str(), product.as_str())
            }
            TradeMessage::NumberPorted { from } => format!("{}|{}", self.key(), from.as_str()),
            TradeMessage::OutOfScope { carrier, province } => {
                format!(
                    "{}|{}|{}",
                    self.key(),
                    carrier.as_str(),
                    province.map(|code| code.to_string()).unwrap_or_default()
                )
            }
            TradeMessage::NumberDailyOrders { max: limit }
            | TradeMessage::NumberDailyAmount { max_fen: limit }
            | TradeMessage::MerchantDailyCap { cap_fen: limit } => format!("{}|{limit}", self.key()),
            TradeMessage::WindowClosed { title, until } => format!("{}|{until}|{title}", self.key()),
            other => other.key().to_string(),
        }
    }

    pub fn text(&self, locale: Locale) -> Cow<'static, str> {
        use Locale::*;
        use TradeMessage::*;
        match (self, locale) {
            (AccountRequired, EnUs) => "recharge account cannot be empty".into(),
            (AccountRequired, ZhCn) => "充值账号不能为空".into(),
            (AccountInvalid, EnUs) => {
                "the recharge account must be an 11-digit mainland mobile number from an allocated segment".into()
            }
            (AccountInvalid, ZhCn) => "充值账号必须是已分配号段的 11 位中国大陆手机号码".into(),
            (NumberInFlight, ZhCn) => "该号码有正在充值的订单，请等待其完成后再下单".into(),
            (NumberInFlight, EnUs) => "this number has an order in progress; wait for it to finish before ordering again".into(),
            (NumberDailyOrders { max }, ZhCn) => format!("该号码今日已下单 {max} 笔，达到每日上限；请明日再试或联系平台调整").into(),
            (NumberDailyOrders { max }, EnUs) => {
                format!("this number reached its limit of {max} orders today; try tomorrow or ask the platform to change it").into()
            }
            (NumberDailyAmount { max_fen }, ZhCn) => {
                format!("该号码今日充值金额将超过每日上限 {} 元；请明日再试或联系平台调整", crate::domain::yuan(*max_fen)).into()
            }
            (NumberDailyAmount { max_fen }, EnUs) => format!(
                "this order would take the number past its daily limit of {} yuan; try tomorrow or ask the platform to change it",
                crate::domain::yuan(*max_fen)
            )
            .into(),
            (WindowClosed { title, until }, locale) => {
                super::windows::WindowMessage::Closed { title: title.clone(), until: until.clone() }.text(locale)
            }
            (MerchantDailyCap { cap_fen }, ZhCn) => {
                format!("本商户今日下单金额将超过每日上限 {} 元；请明日再试或联系平台调整", crate::domain::yuan(*cap_fen)).into()
            }
            (MerchantDailyCap { cap_fen }, EnUs) => format!(
                "this order would take your orders today past your daily cap of {} yuan; try tomorrow or ask the platform to raise it",
                crate::domain::yuan(*cap_fen)
            )
            .into(),
            (RiskLimitInvalid, ZhCn) => "请填写不小于 0 的整数（0 表示不限）".into(),
            (RiskLimitInvalid, EnUs) => "enter a whole number of at least 0 (0: no limit)".into(),
            (AccountBlocked, ZhCn) => "该号码在平台风控黑名单中，不能充值；如有疑问请联系平台客服".into(),
            (AccountBlocked, EnUs) => {
                "this number is on the platform's blocklist and cannot be topped up; contact the platform if you think this is wrong".into()
            }
            (BlockPatternInvalid, ZhCn) => "请输入 11 位手机号码，或 3 至 10 位号段（以 1 开头）".into(),
            (BlockPatternInvalid, EnUs) => "enter an 11-digit mobile number, or a prefix of 3 to 10 digits starting with 1".into(),
            (BlockReasonInvalid { max }, ZhCn) => format!("请填写原因，最多 {max} 个字").into(),
            (BlockReasonInvalid { max }, EnUs) => format!("give a reason of at most {max} characters").into(),
            (BlockPatternTaken, ZhCn) => "该号码或号段已在黑名单中".into(),
            (BlockPatternTaken, EnUs) => "this number or prefix is on the blocklist already".into(),
            (BlockImportSize { max }, ZhCn) => format!("请粘贴 1 至 {max} 行").into(),
            (BlockImportSize { max }, EnUs) => format!("paste 1 to {max} lines").into(),
            (OutOfScope { carrier, province }, locale) => super::provinces::out_of_scope(*carrier, *province, locale).into(),
            (CarrierMismatch { number, product }, EnUs) => format!(
                "the number's segment belongs to {}, but the product is for {}. Segment matching is only a \
                 sanity check: numbers can be ported to another carrier and keep their segment. If this number \
                 has moved to {}, confirm that it is ported to order anyway",
                super::files::carrier_name(*number, EnUs),
                super::files::carrier_name(*product, EnUs),
                super::files::carrier_name(*product, EnUs)
            )
            .into(),
            (CarrierMismatch { number, product }, ZhCn) => format!(
                "该号码的号段属于{}，但商品属于{}。号段匹配只是合理性检查：携号转网的号码会保留原号段。\
                 如该号码已转网至{}，请确认其已携号转网后继续下单",
                super::files::carrier_name(*number, ZhCn),
                super::files::carrier_name(*product, ZhCn),
                super::files::carrier_name(*product, ZhCn)
            )
            .into(),
            (NumberPorted { from }, ZhCn) => format!(
                "上游渠道已告知该号码携号转网，不再是{}号码：请选择号码现属运营商的商品",
                super::files::carrier_name(*from, ZhCn)
            )
            .into(),
            (NumberPorted { from }, EnUs) => format!(
                "a supplier reported that this number has moved away from {} (number portability); \
                 choose a product of the carrier it belongs to now",
                super::files::carrier_name(*from, EnUs)
            )
            .into(),
            (ProductRequired, EnUs) => "product key cannot be empty".into(),
            (ProductRequired, ZhCn) => "商品编号不能为空".into(),
            (ProductUnknown, EnUs) => "no product has this product key".into(),
            (ProductUnknown, ZhCn) => "没有该商品编号的商品".into(),
            (QuoteUnavailable, EnUs) => "you have no quote for this product, or it is switched off".into(),
            (QuoteUnavailable, ZhCn) => "您没有该商品的报价，或报价已下架".into(),
            (MerchantOrderIdInvalid, EnUs) => {
                "merchant order id must be 1 to 64 letters, digits, '-', '_' or '.'".into()
            }
            (MerchantOrderIdInvalid, ZhCn) => "商户订单号须为 1 至 64 位字母、数字、'-'、'_' 或 '.'".into(),
            (MerchantOrderIdDuplicate, EnUs) => {
                "this merchant order id has been used already: the order was not placed again and nothing was charged"
                    .into()
            }
            (MerchantOrderIdDuplicate, ZhCn) => "该商户订单号已存在：订单未重复提交，也未重复扣款".into(),
            (DuplicateInFile, EnUs) => "this merchant order id appears on an earlier line of the file".into(),
            (DuplicateInFile, ZhCn) => "该商户订单号在文件前面的行中已出现".into(),
            (InsufficientFunds, EnUs) => "insufficient funds: balance plus available credit is below the price".into(),
            (InsufficientFunds, ZhCn) => "资金不足：余额与可用授信之和低于供货价".into(),
            (AmountInvalid, EnUs) => "amount must be a positive number of fen, at most 100 million yuan".into(),
            (AmountInvalid, ZhCn) => "金额必须是正整数（单位：分），且不超过 1 亿元".into(),
            (AdjustmentInvalid, EnUs) => "an adjustment must be a non-zero number of fen, at most 100 million yuan either way".into(),
            (AdjustmentInvalid, ZhCn) => "调账金额必须是非零整数（单位：分），绝对值不超过 1 亿元".into(),
            (AdjustmentBelowZero, EnUs) => "the adjustment would make the balance negative".into(),
            (AdjustmentBelowZero, ZhCn) => "调账后余额将为负数".into(),
            (AdjustmentRemarkRequired, EnUs) => "An adjustment needs a remark saying what it corrects".into(),
            (AdjustmentRemarkRequired, ZhCn) => "调账须填写备注，说明调整原因".into(),
            (CreditLimitBelowUsed, EnUs) => "the credit limit cannot be below the credit awaiting repayment".into(),
            (CreditLimitBelowUsed, ZhCn) => "授信额度不能低于待还授信".into(),
            (RepaymentTooLarge, EnUs) => "the repayment exceeds the credit awaiting repayment".into(),
            (RepaymentTooLarge, ZhCn) => "还款金额超过待还授信".into(),
            (OrderNotResolvable, EnUs) => {
                "only on-behalf orders awaiting a person and orders under manual review can be marked; this one has finished or is with a channel".into()
            }
            (OrderNotResolvable, ZhCn) => "只能处理待人工代充或人工审核中的订单；该订单已完成或正由渠道处理".into(),
            (OrderNotReversible, EnUs) => "only a successful order can be reversed; this one is not (or no longer) successful".into(),
            (OrderNotReversible, ZhCn) => "只有充值成功的订单可以冲正；该订单不是（或已不是）成功状态".into(),
            (ReversalReasonInvalid { max }, EnUs) => {
                format!("a reversal needs a reason of 1 to {max} characters (it is shown to the merchant)").into()
            }
            (ReversalReasonInvalid { max }, ZhCn) => format!("冲正须填写原因，1 至 {max} 个字符（商户可见）").into(),
            (SerialRequired, EnUs) => {
                "A success needs the serial number that proves the top-up (from the carrier or supplier)".into()
            }
            (SerialRequired, ZhCn) => "标记成功须填写证明充值完成的流水号（运营商或供应商提供）".into(),
            (CardNotDelivered, EnUs) => "this order has no card secret: it is not a successful card-secret order".into(),
            (CardNotDelivered, ZhCn) => "该订单没有卡密：不是已成功的卡密订单".into(),
            (CardOrderNeedsCard, EnUs) => {
                "this card-secret order has no card from its supplier, so it cannot be marked successful: mark it failed (the merchant is refunded) or wait for the supplier to deliver the card".into()
            }
            (CardOrderNeedsCard, ZhCn) => {
                "该卡密订单尚未收到上游交付的卡密，不能标记成功：请标记失败（退款给商户），或等待上游交付卡密".into()
            }
            (CardExportPasswordWeak, EnUs) => {
                "the file's password must be 8 to 64 characters and hold both letters and digits".into()
            }
            (CardExportPasswordWeak, ZhCn) => "文件密码须为 8 至 64 个字符，且同时包含字母和数字".into(),
            (CardExportNoneChosen, EnUs) => "choose the orders to export, or export by the list's filter".into(),
            (CardExportNoneChosen, ZhCn) => "请选择要导出的订单，或按列表筛选条件导出".into(),
            (CardExportTooMany { max }, EnUs) => {
                format!("at most {max} orders per card-secret export: narrow the filter or choose fewer").into()
            }
            (CardExportTooMany { max }, ZhCn) => format!("每次最多导出 {max} 笔订单的卡密：请缩小筛选范围或少选一些").into(),
            (CardExportNothing, EnUs) => "none of the chosen orders has a delivered card secret".into(),
            (CardExportNothing, ZhCn) => "所选订单中没有已交付卡密的订单".into(),
            (InvalidChoice { allowed }, EnUs) => format!("must be one of: {allowed}").into(),
            (InvalidChoice { allowed }, ZhCn) => format!("取值必须是以下之一：{allowed}").into(),
            (ProvinceInvalid, EnUs) => "the province is a province's GB/T 2260 code, such as 440000 (Guangdong)".into(),
            (ProvinceInvalid, ZhCn) => "省份须为省级行政区的 GB/T 2260 代码，如 440000（广东）".into(),
            (CursorInvalid, EnUs) => "the cursor is not valid here; start again from the first page".into(),
            (CursorInvalid, ZhCn) => "游标无效，请从第一页重新开始".into(),
            (PageSizeInvalid { max }, EnUs) => format!("page_size must be 1 to {max}").into(),
            (PageSizeInvalid { max }, ZhCn) => format!("每页条数必须是 1 至 {max}").into(),
            (TimeInvalid, EnUs) => "time must be RFC 3339, e.g. 2024-01-01T00:00:00+08:00".into(),
            (TimeInvalid, ZhCn) => "时间格式须为 RFC 3339，例如 2024-01-01T00:00:00+08:00".into(),
            (StatementPeriodInvalid, EnUs) => "give a day as YYYY-MM-DD, or a month as YYYY-MM with period month".into(),
            (StatementPeriodInvalid, ZhCn) => "日对账单请填 YYYY-MM-DD，月对账单请填 YYYY-MM".into(),
            (ReportRangeInvalid { max_days }, EnUs) => {
                format!("the end date must not be before the start date, and the range at most {max_days} days").into()
            }
            (ReportRangeInvalid { max_days }, ZhCn) => {
                format!("结束日期不能早于开始日期，且日期范围最多 {max_days} 天").into()
            }
            (BatchEmpty, EnUs) => "the file has no order lines".into(),
            (BatchEmpty, ZhCn) => "文件中没有订单行".into(),
            (BatchTooLarge { max }, EnUs) => format!("a batch may hold at most {max} lines").into(),
            (BatchTooLarge { max }, ZhCn) => format!("每批最多 {max} 行").into(),
            (BatchFileUnreadable, EnUs) => "the file could not be read as CSV (UTF-8) or Excel (xlsx)".into(),
            (BatchFileUnreadable, ZhCn) => "无法按 CSV（UTF-8）或 Excel（xlsx）读取该文件".into(),
            (BatchLineIncomplete, EnUs) => "the line needs a recharge account and a product key".into(),
            (BatchLineIncomplete, ZhCn) => "该行需要充值账号和商品编号".into(),
            (BatchCellTooLong, EnUs) => "a cell of the file is longer than 128 characters".into(),
            (BatchCellTooLong, ZhCn) => "文件中有单元格超过 128 个字符".into(),
            (BatchFileNotUtf8 { line }, EnUs) => {
                format!("line {line} is neither UTF-8 nor GBK text: save the file as \"CSV UTF-8\" or as Excel (xlsx)").into()
            }
            (BatchFileNotUtf8 { line }, ZhCn) => {
                format!("第 {line} 行既不是 UTF-8 也不是 GBK 文本：请将文件另存为“CSV UTF-8”或 Excel（xlsx）").into()
            }
            (BatchLineTooLong { line, max }, EnUs) => format!("line {line} is longer than {max} characters").into(),
            (BatchLineTooLong { line, max }, ZhCn) => format!("第 {line} 行超过 {max} 个字符").into(),
            (BatchFileUnpackedTooLarge { max_mb }, EnUs) => {
                format!("the workbook unpacks to more than {max_mb} MB; split it or save it as CSV").into()
            }
            (BatchFileUnpackedTooLarge { max_mb }, ZhCn) => {
                format!("该工作簿解压后超过 {max_mb} MB，请拆分或另存为 CSV").into()
            }
            (BatchFileTooManyRows { max }, EnUs) => {
                format!("the sheet has more than {max} rows (empty rows included); delete the empty ones").into()
            }
            (BatchFileTooManyRows { max }, ZhCn) => format!("工作表超过 {max} 行（含空行），请删除空行").into(),
            (BatchFileTooManyCells { max }, EnUs) => format!("the sheet has more than {max} cells").into(),
            (BatchFileTooManyCells { max }, ZhCn) => format!("工作表超过 {max} 个单元格").into(),
            (BatchFileTooDeep { max }, EnUs) => {
                format!("the workbook's XML is nested more than {max} levels deep: it is not a plain sheet").into()
            }
            (BatchFileTooDeep { max }, ZhCn) => format!("该工作簿的 XML 嵌套超过 {max} 层，不是普通的工作表").into(),
            (BatchFileTooSlow { seconds }, EnUs) => {
                format!("the file could not be read within {seconds} seconds; split it or save it as CSV").into()
            }
            (BatchFileTooSlow { seconds }, ZhCn) => format!("{seconds} 秒内未能读完该文件，请拆分或另存为 CSV").into(),
            (BatchFileNameTooLong { max }, EnUs) => format!("file_name must be at most {max} characters").into(),
            (BatchFileNameTooLong { max }, ZhCn) => format!("文件名最多 {max} 个字符").into(),
            (BatchLineNul { line }, EnUs) => format!("line {line} contains a NUL character (U+0000)").into(),
            (BatchLineNul { line }, ZhCn) => format!("第 {line} 行包含空字符 (NUL)").into(),
            (BatchFileKind { kind }, EnUs) => {
                format!("the file holds {}, not an Excel workbook (.xlsx) or CSV text", kind.en_name()).into()
            }
            (BatchFileKind { kind }, ZhCn) => {
                format!("文件内容是{}，不是 Excel 表格 (.xlsx) 或 CSV 文本", kind.zh_name()).into()
            }
            (QuoteChanged, EnUs) => {
                "your price for this product changed after the preview: preview the file again to order at the new price"
                    .into()
            }
            (BatchExpired, EnUs) => "this preview has expired (previews are kept for 24 hours): preview the file again".into(),
            (BatchExpired, ZhCn) => "该预览已过期（预览保留 24 小时），请重新预览".into(),
            (BatchNotDiscardable, EnUs) => "only a preview that has not been submitted can be discarded".into(),
            (BatchNotDiscardable, ZhCn) => "只能作废尚未提交的预览".into(),
            (BatchSubmitted, EnUs) => "this batch has been submitted already: its outcome is in the batch list".into(),
            (BatchSubmitted, ZhCn) => "该批次已提交，结果见批次列表".into(),
            (BatchNotFound, EnUs) => "no such batch: it was discarded, or expired before it was submitted".into(),
            (BatchNotFound, ZhCn) => "批次不存在：已作废，或未提交而过期".into(),
            (SegmentPhoneInvalid, EnUs) => "phone must be an 11-digit mainland mobile number, e.g. 13800138000".into(),
            (SegmentPhoneInvalid, ZhCn) => "手机号码须为 11 位中国大陆手机号码，例如 13800138000".into(),
            (SegmentUnknown { prefix }, EnUs) => format!("the segment table has no place for numbers starting {prefix}").into(),
            (SegmentUnknown { prefix }, ZhCn) => format!("号段表中没有 {prefix} 开头号码的归属地").into(),
            (QuoteChanged, ZhCn) => "预览后该商品的供货价已变更：请重新预览，按新价格下单".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mismatch_message_explains_portability_in_both_languages() {
        let message = TradeMessage::CarrierMismatch { number: Carrier::Unicom, product: Carrier::Mobile };
        assert!(message.text(Locale::EnUs).contains("sanity check"));
        assert!(message.text(Locale::EnUs).contains("ported"));
        assert!(message.text(Locale::ZhCn).contains("携号转网"));
        assert_eq!(TradeMessage::from_stored(&message.stored()), Some(message));
        assert_eq!(TradeMessage::from_stored("funds.insufficient"), Some(TradeMessage::InsufficientFunds));
        assert_eq!(TradeMessage::from_stored("nonsense"), None);
    }

    #[test]
    fn a_window_refusal_reads_back_with_a_title_holding_the_separator() {
        let message =
            TradeMessage::WindowClosed { title: "移动|全国 升级".into(), until: "2026-12-01 02:00".into() };
        assert_eq!(TradeMessage::from_stored(&message.stored()), Some(message.clone()));
        assert!(message.text(Locale::ZhCn).contains("「移动|全国 升级」"));
        assert!(message.text(Locale::EnUs).contains("2026-12-01 02:00"));
        assert_eq!(TradeMessage::from_stored("order.batch.window"), None);
    }
}
