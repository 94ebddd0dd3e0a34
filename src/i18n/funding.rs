//! Texts of the merchants' funding requests (充值申请, `money/funding`), in both locales,
//! and the words the ledger stores for an approved request's top-up.

use super::Locale;
use std::borrow::Cow;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FundingMessage {
    ReferenceInvalid {
        max: usize,
    },
    /// The transfer's reference is on a pending or approved request already (any merchant's).
    ReferenceDuplicate,
    PayerNameInvalid {
        max: usize,
    },
    NoteTooLong {
        max: usize,
    },
    /// Withdraw, approve or reject of a request that is not pending any more.
    NotPending,
    ReasonRequired {
        max: usize,
    },
    /// Only a merchant's users file and withdraw requests; administrators decide them.
    MerchantsOnly,
}

impl FundingMessage {
    pub fn key(&self) -> &'static str {
        use FundingMessage::*;
        match self {
            ReferenceInvalid { .. } => "funding.reference.invalid",
            ReferenceDuplicate => "funding.reference.duplicate",
            PayerNameInvalid { .. } => "funding.payer_name.invalid",
            NoteTooLong { .. } => "funding.note.too_long",
            NotPending => "funding.not_pending",
            ReasonRequired { .. } => "funding.reason.required",
            MerchantsOnly => "funding.merchants_only",
        }
    }

    pub fn text(&self, locale: Locale) -> Cow<'static, str> {
        use FundingMessage::*;
        let zh = locale == Locale::ZhCn;
        let pick = |zh_text: &'static str, en_text: &'static str| -> Cow<'static, str> {
            if zh { zh_text.into() } else { en_text.into() }
        };
        match self {
            ReferenceInvalid { max } => match zh {
                true => format!("银行流水号须为 1 到 {max} 个字符").into(),
                false => format!("the bank reference must be 1 to {max} characters").into(),
            },
            ReferenceDuplicate => pick(
                "该银行流水号已提交过充值申请（待审核或已通过），同一笔转账只能入账一次",
                "this bank reference is on a funding request already (pending or approved): one transfer is credited once",
            ),
            PayerNameInvalid { max } => match zh {
                true => format!("付款户名须为 1 到 {max} 个字符").into(),
                false => format!("the payer's account name must be 1 to {max} characters").into(),
            },
            NoteTooLong { max } => match zh {
                true => format!("备注最多 {max} 个字符").into(),
                false => format!("the note must be at most {max} characters").into(),
            },
            NotPending => {
                pick("该充值申请已处理或已撤回，不能再操作", "this funding request was decided or withdrawn already")
            }
            ReasonRequired { max } => match zh {
                true => format!("请填写驳回原因（1 到 {max} 个字符）").into(),
                false => format!("give the reason for the rejection (1 to {max} characters)").into(),
            },
            MerchantsOnly => {
                pick("只有商户用户可以提交或撤回充值申请", "only a merchant's users file or withdraw funding requests")
            }
        }
    }
}

/// The remark of an approved request's top-up in the account log, in both languages as the
/// message center stores its texts (`中文 / English`): the log and the statement name the
/// request and the transfer beside the credit.
pub fn ledger_remark(request_id: i64, bank_reference: &str) -> String {
    format!(
        "充值申请 #{request_id} · 银行流水 {bank_reference} / Funding request #{request_id} · bank reference {bank_reference}"
    )
}
