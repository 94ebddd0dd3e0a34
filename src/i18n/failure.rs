//! Why an order failed, as stored in `orders.failure_reason`: a stable code for the
//! reasons the system itself gives (rendered in the reader's language in the console,
//! the API and exports), or an administrator's own words, shown as written.

use super::Locale;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureReason {
    /// The channel reports that the carrier refused the top-up.
    CarrierRefused,
    /// An administrator marked the order failed without giving a reason.
    MarkedByAdministrator,
    /// No channel supplies the product now (none set up, all disabled, paused or short of funds).
    NoChannel,
    /// The supplier declined the order (its balance, its catalogue, or a plain refusal).
    ChannelDeclined,
    /// The supplier reported a card order successful without the card number and password
    /// (recorded on the attempt, which stays unresolved: not a reason an order ends with).
    CardNotDelivered,
    /// The supplier reports that the number moved to another carrier (携号转网): the
    /// product's carrier cannot top it up (recorded per number, `platform::ports`).
    NumberPorted,
}

impl FailureReason {
    pub const ALL: [FailureReason; 6] = [
        FailureReason::CarrierRefused,
        FailureReason::MarkedByAdministrator,
        FailureReason::NoChannel,
        FailureReason::ChannelDeclined,
        FailureReason::CardNotDelivered,
        FailureReason::NumberPorted,
    ];

    /// What is stored, and what the API returns as `failure_reason_code`.
    pub fn code(self) -> &'static str {
        match self {
            FailureReason::CarrierRefused => "order.failure.carrier_refused",
            FailureReason::MarkedByAdministrator => "order.failure.marked_by_administrator",
            FailureReason::NoChannel => "order.failure.no_channel",
            FailureReason::ChannelDeclined => "order.failure.channel_declined",
            FailureReason::CardNotDelivered => "order.failure.card_not_delivered",
            FailureReason::NumberPorted => "order.failure.number_ported",
        }
    }

    /// The reason a stored text stands for. Also reads the English sentences stored
    /// before reasons were codes, so older orders are shown in the reader's language too.
    pub fn from_stored(stored: &str) -> Option<Self> {
        LEGACY_SENTENCES
            .iter()
            .find(|(sentence, _)| *sentence == stored)
            .map(|(_, reason)| *reason)
            .or_else(|| Self::ALL.into_iter().find(|reason| reason.code() == stored))
    }

    /// Every stored text that reads as a reason: the codes and the older sentences.
    pub fn every_stored() -> impl Iterator<Item = &'static str> {
        Self::ALL.into_iter().map(Self::code).chain(LEGACY_SENTENCES.iter().map(|(sentence, _)| *sentence))
    }

    pub fn text(self, locale: Locale) -> &'static str {
        match (self, locale) {
            (FailureReason::CarrierRefused, Locale::ZhCn) => "运营商拒绝充值",
            (FailureReason::CarrierRefused, Locale::EnUs) => "The carrier refused the top-up",
            (FailureReason::MarkedByAdministrator, Locale::ZhCn) => "管理员标记失败",
            (FailureReason::MarkedByAdministrator, Locale::EnUs) => "Marked failed by an administrator",
            (FailureReason::NoChannel, Locale::ZhCn) => "暂无可用渠道供应该商品",
            (FailureReason::NoChannel, Locale::EnUs) => "No channel can supply this product now",
            (FailureReason::ChannelDeclined, Locale::ZhCn) => "上游渠道拒绝了该订单",
            (FailureReason::ChannelDeclined, Locale::EnUs) => "The supplier declined the order",
            (FailureReason::CardNotDelivered, Locale::ZhCn) => "上游报告成功但未交付卡密",
            (FailureReason::CardNotDelivered, Locale::EnUs) => {
                "The supplier reported success without delivering the card"
            }
            (FailureReason::NumberPorted, Locale::ZhCn) => {
                "该号码已携号转网，原运营商无法充值：请选择号码现属运营商的商品"
            }
            (FailureReason::NumberPorted, Locale::EnUs) => {
                "The number has moved to another carrier (number portability): order a product of its current carrier"
            }
        }
    }
}

/// The English sentences stored before reasons were codes.
const LEGACY_SENTENCES: [(&str, FailureReason); 3] = [
    ("sandbox: the carrier refused the top-up", FailureReason::CarrierRefused),
    ("carrier refused the top-up", FailureReason::CarrierRefused),
    ("marked failed by an administrator", FailureReason::MarkedByAdministrator),
];

/// A stored failure reason as the reader sees it: a known code in their language, anything
/// else (an administrator's words, a supplier's own text) as written.
pub fn failure_text(stored: &str, locale: Locale) -> String {
    FailureReason::from_stored(stored).map_or_else(|| stored.to_string(), |reason| reason.text(locale).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_old_english_sentences_read_in_both_languages() {
        for reason in FailureReason::ALL {
            assert_eq!(FailureReason::from_stored(reason.code()), Some(reason));
        }
        assert_eq!(failure_text("sandbox: the carrier refused the top-up", Locale::ZhCn), "运营商拒绝充值");
        assert_eq!(failure_text("order.failure.carrier_refused", Locale::EnUs), "The carrier refused the top-up");
        assert_eq!(failure_text("号码已停机", Locale::EnUs), "号码已停机");
    }
}
