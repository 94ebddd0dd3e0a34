//! Texts of upstream channels (administration and supplier callbacks), in both locales.

use super::Locale;
use std::borrow::Cow;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChannelMessage {
    /// A supplier's callback whose signature does not match the channel's secret.
    CallbackSignatureWrong,
    /// A callback that is not a result of the channel's protocol.
    CallbackMalformed,
    /// The callback names an order the channel never got from us.
    CallbackOrderUnknown,
    CodeInvalid {
        max: usize,
    },
    CodeTaken,
    NameRequired {
        max: usize,
    },
    AdapterUnknown,
    BaseUrlInvalid,
    BaseUrlPrivate {
        host: String,
    },
    TimeoutOutOfRange {
        min: i64,
        max: i64,
    },
    SecretRequired,
    CostInvalid,
    WeightInvalid,
    ProductUnknown,
    /// A channel's coverage names a code that is no province's (GB/T 2260).
    ProvincesInvalid,
    /// A coverage import's line without a product key or a cost.
    CoverageIncomplete {
        line: i64,
    },
    /// A coverage import's cost that is not a positive amount of yuan (two decimals at most).
    CoverageCost {
        line: i64,
    },
    /// A coverage import's provinces that are neither 全国/national nor provinces.
    CoverageProvinces {
        line: i64,
    },
    /// A coverage import's priority or weight out of range or not whole.
    CoverageNumbers {
        line: i64,
    },
    /// The sandbox is built in: its protocol and address cannot change.
    SandboxFixed,
    /// Reconciliation: the date is not a Beijing day `YYYY-MM-DD`.
    ReconcileDateInvalid,
    /// The channel's protocol has no statement.
    StatementUnsupported,
    /// The supplier could not be reached or did not answer in time.
    StatementUnreachable,
    /// The supplier answered the statement request with another HTTP status than 200.
    StatementStatus {
        status: u16,
    },
    StatementTooLarge {
        max_mib: usize,
    },
    StatementTooManyLines {
        max: usize,
    },
    StatementSignatureWrong,
    /// Not a statement of the protocol (or of another day).
    StatementMalformed,
    /// Querying the supplier or sending to a channel: only orders in manual review.
    OrderNotInReview,
    /// Sending while an attempt may still top the order up: it could be fulfilled twice.
    AttemptOpen,
    /// Querying an order without an attempt awaiting its supplier's answer.
    NoOpenAttempt,
    /// Another query of the same attempt is under way.
    QueryBusy,
    /// Sending: no channel supplying the product can take the order now.
    NoChannel,
    /// Sending: the chosen channel is not one of the order's candidates now.
    ChannelNotCandidate,
    /// What the supplier answered an administrator's query, in words.
    SupplierSucceeded,
    SupplierFailed,
    SupplierProcessing,
    SupplierNotReceived,
    SupplierNoAnswer,
}

impl ChannelMessage {
    pub fn key(&self) -> &'static str {
        use ChannelMessage::*;
        match self {
            CallbackSignatureWrong => "channel.callback.signature_wrong",
            CallbackMalformed => "channel.callback.malformed",
            CallbackOrderUnknown => "channel.callback.order_unknown",
            CodeInvalid { .. } => "channel.code.invalid",
            CodeTaken => "channel.code.taken",
            NameRequired { .. } => "channel.name.required",
            AdapterUnknown => "channel.adapter.unknown",
            BaseUrlInvalid => "channel.base_url.invalid",
            BaseUrlPrivate { .. } => "channel.base_url.private",
            TimeoutOutOfRange { .. } => "channel.timeout.out_of_range",
            SecretRequired => "channel.secret.required",
            CostInvalid => "channel.cost.invalid",
            WeightInvalid => "channel.weight.invalid",
            ProductUnknown => "channel.product.unknown",
            ProvincesInvalid => "channel.provinces.invalid",
            CoverageIncomplete { .. } => "channel.coverage.incomplete",
            CoverageCost { .. } => "channel.coverage.cost",
            CoverageProvinces { .. } => "channel.coverage.provinces",
            CoverageNumbers { .. } => "channel.coverage.numbers",
            SandboxFixed => "channel.sandbox.fixed",
            ReconcileDateInvalid => "channel.reconcile.date_invalid",
            StatementUnsupported => "channel.statement.unsupported",
            StatementUnreachable => "channel.statement.unreachable",
            StatementStatus { .. } => "channel.statement.status",
            StatementTooLarge { .. } => "channel.statement.too_large",
            StatementTooManyLines { .. } => "channel.statement.too_many_lines",
            StatementSignatureWrong => "channel.statement.signature_wrong",
            StatementMalformed => "channel.statement.malformed",
            OrderNotInReview => "order.review.not_in_review",
            AttemptOpen => "order.send.attempt_open",
            NoOpenAttempt => "order.query.no_open_attempt",
            QueryBusy => "order.query.busy",
            NoChannel => "order.send.no_channel",
            ChannelNotCandidate => "order.send.channel_not_candidate",
            SupplierSucceeded => "order.query.answer.success",
            SupplierFailed => "order.query.answer.failed",
            SupplierProcessing => "order.query.answer.processing",
            SupplierNotReceived => "order.query.answer.not_received",
            SupplierNoAnswer => "order.query.answer.none",
        }
    }

    pub fn text(&self, locale: Locale) -> Cow<'static, str> {
        use ChannelMessage::*;
        let zh = locale == Locale::ZhCn;
        let pick = |zh_text: &'static str, en_text: &'static str| -> Cow<'static, str> {
            if zh { zh_text.into() } else { en_text.into() }
        };
        // Texts naming a line: both are formatted, one is kept (an import's few errors).
        let owned = |zh_text: String, en_text: String| -> Cow<'static, str> {
            if zh { zh_text.into() } else { en_text.into() }
        };
        match self {
            CallbackSignatureWrong => pick("回调签名不正确", "the callback signature is wrong"),
            CallbackMalformed => {
                pick("回调内容不是该渠道协议的结果", "the callback is not a result of this channel's protocol")
            }
            CallbackOrderUnknown => pick("该渠道没有这个订单", "this channel has no such order from us"),
            CodeInvalid { max } => {
                if zh {
                    format!("渠道编码须为 1 到 {max} 个小写字母、数字或连字符").into()
                } else {
                    format!("the channel code must be 1 to {max} lowercase letters, digits or hyphens").into()
                }
            }
            CodeTaken => pick("该渠道编码已被使用", "this channel code is already taken"),
            NameRequired { max } => {
                if zh {
                    format!("渠道名称须为 1 到 {max} 个字符").into()
                } else {
                    format!("the channel name must be 1 to {max} characters").into()
                }
            }
            AdapterUnknown => pick("未知的渠道协议", "unknown channel protocol"),
            BaseUrlInvalid => pick("接口地址须为 http(s) 地址", "the base URL must be an http(s) URL"),
            BaseUrlPrivate { host } => {
                if zh {
                    format!("接口地址 {host} 属于内部网络，不允许使用").into()
                } else {
                    format!("the base URL's host {host} is inside a private network and not allowed").into()
                }
            }
            TimeoutOutOfRange { min, max } => {
                if zh {
                    format!("超时须在 {min} 到 {max} 毫秒之间").into()
                } else {
                    format!("the timeout must be between {min} and {max} ms").into()
                }
            }
            SecretRequired => pick("请填写签名密钥", "enter the signing secret"),
            CostInvalid => pick("成本价须为不小于 0 的整数（分）", "the cost must be a whole number of fen, 0 or more"),
            WeightInvalid => pick("权重须为 0 到 10000 的整数", "the weight must be a whole number from 0 to 10000"),
            ProductUnknown => pick("商品不存在", "no such product"),
            ProvincesInvalid => pick(
                "覆盖省份须为省级行政区划代码（如 440000 广东），留空为全国",
                "coverage must be provinces' codes (e.g. 440000 Guangdong), empty for national",
            ),
            CoverageIncomplete { line } => owned(
                format!("第 {line} 行：缺少商品编码或成本"),
                format!("line {line}: the product key or the cost is missing"),
            ),
            CoverageCost { line } => owned(
                format!("第 {line} 行：成本须为正的元金额，最多两位小数"),
                format!("line {line}: the cost must be a positive amount of yuan with at most two decimals"),
            ),
            CoverageProvinces { line } => owned(
                format!("第 {line} 行：覆盖省份须为省份名称或代码（如 广东 或 440000，以空格或分号分隔），或 全国"),
                format!(
                    "line {line}: provinces must be names or codes (e.g. Guangdong or 440000, separated by spaces or semicolons), or National"
                ),
            ),
            CoverageNumbers { line } => owned(
                format!("第 {line} 行：优先级须为整数，权重须为 0 到 10000 的整数"),
                format!("line {line}: the priority must be a whole number and the weight one from 0 to 10000"),
            ),
            SandboxFixed => {
                pick("内置沙箱渠道的协议和地址不可修改", "the built-in sandbox's protocol and address cannot change")
            }
            ReconcileDateInvalid => pick("请选择正确的日期（YYYY-MM-DD）", "choose a valid date (YYYY-MM-DD)"),
            StatementUnsupported => pick("该渠道的协议不提供对账单", "this channel's protocol offers no statement"),
            StatementUnreachable => pick(
                "无法从供应商获取对账单（连接失败或超时），请稍后重试",
                "the supplier's statement could not be fetched (connection failed or timed out); try again later",
            ),
            StatementStatus { status } => {
                if zh {
                    format!("供应商拒绝提供对账单（HTTP {status}）").into()
                } else {
                    format!("the supplier refused the statement (HTTP {status})").into()
                }
            }
            StatementTooLarge { max_mib } => {
                if zh {
                    format!("供应商的对账单超过 {max_mib} MB，未读取").into()
                } else {
                    format!("the supplier's statement is larger than {max_mib} MB and was not read").into()
                }
            }
            StatementTooManyLines { max } => {
                if zh {
                    format!("供应商的对账单超过 {max} 行，未读取").into()
                } else {
                    format!("the supplier's statement has more than {max} lines and was not read").into()
                }
            }
            StatementSignatureWrong => {
                pick("供应商对账单的签名不正确，未采用", "the supplier's statement signature is wrong; it was not used")
            }
            StatementMalformed => pick(
                "供应商返回的不是该日期的有效对账单",
                "the supplier's answer is not a valid statement of that date",
            ),
            OrderNotInReview => pick(
                "只有人工审核中的直充或卡密订单可以查询上游或发送到渠道",
                "Only a direct or card-secret order in manual review can be queried at its supplier or sent to a channel",
            ),
            AttemptOpen => pick(
                "该订单在渠道的结果尚未确定（处理中或未知），不能再次发送，否则可能重复充值；请先查询上游",
                "This order's last hand-over to a channel has no final answer yet (pending or unknown); sending it again could top it up twice, so query the supplier first",
            ),
            NoOpenAttempt => {
                pick("该订单没有等待上游结果的渠道请求", "This order has no hand-over awaiting its supplier's answer")
            }
            QueryBusy => pick(
                "正在向上游查询该订单，请稍后再试",
                "The supplier is being asked about this order right now; try again in a moment",
            ),
            NoChannel => pick(
                "当前没有可以接收该订单的渠道（供货渠道均已停用、暂停、余额不足或已对该订单失败）",
                "No channel can take this order now (every channel supplying it is off, paused, short of balance or has already failed it)",
            ),
            ChannelNotCandidate => pick(
                "所选渠道当前不能接收该订单，请从可选渠道中选择",
                "That channel cannot take this order now; choose one of the candidates",
            ),
            SupplierSucceeded => {
                pick("上游答复：充值成功，订单已成功", "The supplier says it succeeded: the order is successful")
            }
            SupplierFailed => pick(
                "上游答复：充值失败，订单已转下一个渠道或退款",
                "The supplier says it failed: the order goes to the next channel, or is refunded when none is left",
            ),
            SupplierProcessing => pick(
                "上游答复：仍在处理中，订单继续人工审核",
                "The supplier is still processing it: the order stays in review",
            ),
            SupplierNotReceived => pick(
                "上游答复：没有收到该订单，订单继续人工审核",
                "The supplier says it never received this order: the order stays in review",
            ),
            SupplierNoAnswer => pick(
                "上游没有给出明确答复（超时或出错），订单继续人工审核",
                "The supplier gave no clear answer (timeout or error): the order stays in review",
            ),
        }
    }
}

/// Why a channel was paused, by the code stored in `channels.pause_reason`; an unknown code
/// is shown as it is.
pub fn pause_reason(code: &str, locale: Locale) -> Cow<'static, str> {
    let (zh, en) = match code {
        "low_success_ratio" => ("成功率过低", "success ratio too low"),
        "unknown_streak" => ("连续无明确结果", "unknown answers in a row"),
        "probe_failed" => ("试探订单未成功", "the probe order did not succeed"),
        other => return Cow::Owned(other.to_string()),
    };
    Cow::Borrowed(if locale == Locale::ZhCn { zh } else { en })
}
