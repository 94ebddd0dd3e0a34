//! Texts of the product catalogue and of merchants' price lists (bulk rules, import), in
//! both locales.

use super::Locale;
use std::borrow::Cow;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CatalogueMessage {
    /// Product keys: 1 to `max` of A-Z, 0-9, `-`, `_`.
    ProductKeyInvalid {
        max: usize,
    },
    ProductKeyTaken,
    /// A sales area names something that is not a province's GB/T 2260 code.
    ProvincesInvalid,
    ProductNameInvalid {
        max: usize,
    },
    FaceValueInvalid,
    /// A product that quotes or orders refer to is kept (switched off instead).
    ProductInUse,
    /// A product in use keeps its key, carrier, kind and face value (orders and quotes
    /// were made for them); its name and on/off may change.
    ProductLocked,
    /// A bulk rule's rate: basis points of the face value.
    RateInvalid {
        min: i64,
        max: i64,
    },
    /// The rule gives a price of zero or above the face value's ceiling.
    RulePriceInvalid,
    /// The rule matched no product.
    RuleMatchesNothing,
    /// The rule sets prices at or below cost or under the minimum margin, and the apply
    /// did not acknowledge them (`products`: the first keys, then how many more).
    RuleNeedsAcknowledgement {
        count: usize,
        products: String,
    },
    /// The warnings acknowledged are not the ones the rule gives now (costs or prices
    /// moved since the preview).
    RuleWarningsChanged {
        count: usize,
        products: String,
    },
    /// Import: the line's merchant is not the merchant being imported for.
    ImportLineMerchant {
        line: i64,
    },
    ImportLineProduct {
        line: i64,
    },
    ImportLinePrice {
        line: i64,
    },
    ImportLineStatus {
        line: i64,
    },
    ImportLineDuplicate {
        line: i64,
        first: i64,
    },
    ImportLineIncomplete {
        line: i64,
    },
    /// A number-segment file that is neither segments' CSV nor phone.dat, or is damaged.
    SegmentFileUnreadable,
    SegmentFileTooLarge {
        max_mb: usize,
    },
    /// No segment in the file, or more than the table may hold.
    SegmentFileRows {
        max: usize,
    },
    /// One line (CSV) or index entry (phone.dat) of a segment file, and what is wrong with it.
    SegmentEntry {
        at: SegmentAt,
        problem: SegmentProblem,
    },
    /// The preview asked for is not waiting to be applied (applied already, or never made).
    SegmentUploadGone,
    /// The table changed after the preview was made: it would not show what applying does.
    SegmentUploadStale,
}

/// Where in a segment file: a CSV line or a phone.dat index entry, counted from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SegmentAt {
    Line(i64),
    Record(i64),
}

/// What is wrong with one segment of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SegmentProblem {
    /// Not seven digits starting with 1.
    Prefix,
    /// No province of that name or code.
    Province(String),
    City,
    /// No carrier of that name.
    Carrier(String),
    /// Too few cells for the file's columns.
    Columns,
    /// The same prefix as an earlier line.
    Repeated {
        first: i64,
    },
}

impl SegmentAt {
    fn words(self, zh: bool) -> String {
        match (self, zh) {
            (SegmentAt::Line(line), true) => format!("第 {line} 行"),
            (SegmentAt::Line(line), false) => format!("line {line}"),
            (SegmentAt::Record(record), true) => format!("第 {record} 条索引"),
            (SegmentAt::Record(record), false) => format!("index entry {record}"),
        }
    }
}

impl SegmentProblem {
    fn key(&self) -> &'static str {
        match self {
            SegmentProblem::Prefix => "segment.line.prefix",
            SegmentProblem::Province(_) => "segment.line.province",
            SegmentProblem::City => "segment.line.city",
            SegmentProblem::Carrier(_) => "segment.line.carrier",
            SegmentProblem::Columns => "segment.line.columns",
            SegmentProblem::Repeated { .. } => "segment.line.repeated",
        }
    }

    fn words(&self, zh: bool) -> String {
        match (self, zh) {
            (SegmentProblem::Prefix, true) => "号段须为 1 开头的 7 位数字".into(),
            (SegmentProblem::Prefix, false) => "the segment must be 7 digits starting with 1".into(),
            (SegmentProblem::Province(name), true) => format!("无法识别的省份“{name}”"),
            (SegmentProblem::Province(name), false) => format!("no province is called {name:?}"),
            (SegmentProblem::City, true) => "缺少城市".into(),
            (SegmentProblem::City, false) => "the city is missing".into(),
            (SegmentProblem::Carrier(name), true) => format!("无法识别的运营商“{name}”"),
            (SegmentProblem::Carrier(name), false) => format!("no carrier is called {name:?}"),
            (SegmentProblem::Columns, true) => "列数不足（号段,省份,城市,运营商）".into(),
            (SegmentProblem::Columns, false) => "too few cells (segment, province, city, carrier)".into(),
            (SegmentProblem::Repeated { first }, true) => format!("号段与第 {first} 行重复"),
            (SegmentProblem::Repeated { first }, false) => format!("the same segment as line {first}"),
        }
    }
}

impl CatalogueMessage {
    pub fn key(&self) -> &'static str {
        use CatalogueMessage::*;
        match self {
            ProductKeyInvalid { .. } => "product.key.invalid",
            ProductKeyTaken => "product.key.taken",
            ProvincesInvalid => "product.provinces.invalid",
            ProductNameInvalid { .. } => "product.name.invalid",
            FaceValueInvalid => "product.face_value.invalid",
            ProductInUse => "product.in_use",
            ProductLocked => "product.locked",
            RateInvalid { .. } => "quote.rule.rate_invalid",
            RulePriceInvalid => "quote.rule.price_invalid",
            RuleMatchesNothing => "quote.rule.matches_nothing",
            RuleNeedsAcknowledgement { .. } => "quote.rule.below_margin",
            RuleWarningsChanged { .. } => "quote.rule.warnings_changed",
            ImportLineMerchant { .. } => "quote.import.merchant",
            ImportLineProduct { .. } => "quote.import.product",
            ImportLinePrice { .. } => "quote.import.price",
            ImportLineStatus { .. } => "quote.import.status",
            ImportLineDuplicate { .. } => "quote.import.duplicate",
            ImportLineIncomplete { .. } => "quote.import.incomplete",
            SegmentFileUnreadable => "segment.file.unreadable",
            SegmentFileTooLarge { .. } => "segment.file.too_large",
            SegmentFileRows { .. } => "segment.file.rows",
            SegmentEntry { problem, .. } => problem.key(),
            SegmentUploadGone => "segment.upload.gone",
            SegmentUploadStale => "segment.upload.stale",
        }
    }

    pub fn text(&self, locale: Locale) -> Cow<'static, str> {
        use CatalogueMessage::*;
        let zh = locale == Locale::ZhCn;
        let pick =
            |zh_text: String, en_text: String| -> Cow<'static, str> { if zh { zh_text } else { en_text }.into() };
        match self {
            ProductKeyInvalid { max } => pick(
                format!("商品编号须为 1 到 {max} 个大写字母、数字、- 或 _"),
                format!("the product key must be 1 to {max} capital letters, digits, - or _"),
            ),
            ProductKeyTaken => pick("该商品编号已存在".into(), "a product with this key already exists".into()),
            ProvincesInvalid => pick(
                "销售地区须为省级行政区的 GB/T 2260 代码（如 440000 广东），留空为全国".into(),
                "the sales area takes provinces' GB/T 2260 codes (440000 Guangdong); leave it empty for national"
                    .into(),
            ),
            ProductNameInvalid { max } => pick(
                format!("商品名称须为 1 到 {max} 个字符"),
                format!("the product name must be 1 to {max} characters"),
            ),
            FaceValueInvalid => pick(
                "面值须为正数（分），最多 1 亿元".into(),
                "the face value must be a positive number of fen, at most 100 million yuan".into(),
            ),
            ProductInUse => pick(
                "该商品已被报价或订单使用，不能删除，只能下架".into(),
                "this product is used by quotes or orders: it cannot be deleted, only switched off".into(),
            ),
            ProductLocked => pick(
                "该商品已被报价或订单使用，只能修改名称和上下架".into(),
                "this product is used by quotes or orders: only its name and on/off can change".into(),
            ),
            RateInvalid { min, max } => pick(
                format!("比例须为 {min} 到 {max} 个基点（1 基点 = 0.01%）的整数"),
                format!("the rate must be a whole number of basis points (0.01 %) from {min} to {max}"),
            ),
            RulePriceInvalid => pick(
                "按此规则算出的价格有的为 0 或超出上限，未做任何更改".into(),
                "this rule gives some products a price of zero or above the limit; nothing was changed".into(),
            ),
            RuleMatchesNothing => pick("没有符合条件的商品".into(), "no product matches these conditions".into()),
            RuleNeedsAcknowledgement { count, products } => pick(
                format!(
                    "有 {count} 个价格不高于最低渠道成本或低于最低毛利：{products}。请在预览中核对并勾选确认后再应用；未做任何更改"
                ),
                format!(
                    "{count} prices are at or below the cheapest channel's cost or under the minimum margin: {products}. \
                     Review them in the preview and confirm them to apply; nothing was changed"
                ),
            ),
            RuleWarningsChanged { count, products } => pick(
                format!(
                    "预览后成本或价格已变化，现有 {count} 个价格不高于最低渠道成本或低于最低毛利：{products}。请重新预览并确认；未做任何更改"
                ),
                format!(
                    "costs or prices changed since the preview: {count} prices are now at or below the cheapest \
                     channel's cost or under the minimum margin: {products}. Preview again and confirm them; nothing was changed"
                ),
            ),
            ImportLineMerchant { line } => pick(
                format!("第 {line} 行：商户编号与导入的商户不符"),
                format!("line {line}: the merchant id is not the merchant being imported"),
            ),
            ImportLineProduct { line } => pick(
                format!("第 {line} 行：没有该商品编号的商品"),
                format!("line {line}: no product has this product key"),
            ),
            ImportLinePrice { line } => pick(
                format!("第 {line} 行：供货价须为正的元金额，最多两位小数"),
                format!("line {line}: the supply price must be a positive amount of yuan with at most two decimals"),
            ),
            ImportLineStatus { line } => pick(
                format!("第 {line} 行：状态须为 上架/下架、on/off 或 1/0"),
                format!("line {line}: the status must be on/off or 1/0 (or the Chinese words for on and off)"),
            ),
            ImportLineDuplicate { line, first } => pick(
                format!("第 {line} 行：商品与第 {first} 行重复"),
                format!("line {line}: the same product as line {first}"),
            ),
            ImportLineIncomplete { line } => pick(
                format!("第 {line} 行：缺少商品编号或供货价"),
                format!("line {line}: the product key or the supply price is missing"),
            ),
            SegmentFileUnreadable => pick(
                "无法读取该文件：请上传号段 CSV（号段,省份,城市,运营商，可为 gzip 压缩）或 phone.dat".into(),
                "this file cannot be read: upload a segment CSV (segment, province, city, carrier; gzip allowed) or a phone.dat"
                    .into(),
            ),
            SegmentFileTooLarge { max_mb } => {
                pick(format!("文件不能超过 {max_mb} MB"), format!("the file must not exceed {max_mb} MB"))
            }
            SegmentFileRows { max } => pick(
                format!("文件须含 1 到 {max} 个号段；未做任何更改"),
                format!("the file must hold 1 to {max} segments; nothing was changed"),
            ),
            SegmentEntry { at, problem } => pick(
                format!("{}：{}", at.words(true), problem.words(true)),
                format!("{}: {}", at.words(false), problem.words(false)),
            ),
            SegmentUploadGone => pick(
                "该预览已不存在（已应用或已过期），请重新上传".into(),
                "this preview no longer exists (applied already, or expired): upload the file again".into(),
            ),
            SegmentUploadStale => pick(
                "预览后号段表已被更改，请重新上传并预览；未做任何更改".into(),
                "the segment table changed after this preview: upload and preview the file again; nothing was changed"
                    .into(),
            ),
        }
    }
}
