//! Messages about a merchant's money in the message center.

use crate::domain::yuan;
use crate::i18n::notices::Notice;
use crate::identity::user_centre::inbox::{Extras, Notification, notify_merchant_with};
use crate::platform::state::AppState;

/// The console's account-change records, where money notices lead.
pub const FINANCE_LOG: &str = "/finance/account";

/// After orders were charged: if they took the balance from at or above the alert
/// threshold to below it, every user of the merchant gets one notice (not one per order
/// while the balance stays low). Failing to write it never fails the orders.
pub async fn low_balance_after_debit(
    state: &AppState,
    merchant_id: i64,
    balance_before_fen: i64,
    balance_after_fen: i64,
) {
    let threshold = state.config.low_balance_alert_fen;
    if !(balance_before_fen >= threshold && balance_after_fen < threshold) {
        return;
    }
    let content = Notice::LowBalanceDetail { balance: yuan(balance_after_fen), line: yuan(threshold) }.stored();
    let (title, sub_title) = (Notice::LowBalance.stored(), Notice::PleaseTopUp.stored());
    let result: Result<(), sqlx::Error> = async {
        let notification = Notification::notice(&title, &sub_title, &content, 2);
        let extras = Extras::new(FINANCE_LOG, None);
        notify_merchant_with(&mut *state.db.pool.acquire().await?, merchant_id, notification, extras).await
    }
    .await;
    if let Err(error) = result {
        tracing::error!(error = %error, merchant_id, "low-balance notice not written");
    }
}

/// An administrator moved money on the merchant's account (`action` one of the audit's
/// `money_*` codes): every user of the merchant is told the amount, in the move's
/// transaction.
pub async fn funded(
    connection: &mut sqlx::AnyConnection,
    merchant_id: i64,
    action: &str,
    amount_fen: i64,
    remark: &str,
) -> Result<(), sqlx::Error> {
    use crate::platform::audit::action;
    let (amount, remark) = (yuan(amount_fen), remark.to_string());
    let detail = match action {
        action::MONEY_TOP_UP => Notice::FundsToppedUp { amount, remark },
        action::MONEY_CREDIT_LIMIT => Notice::CreditLimitSet { limit: amount, remark },
        action::MONEY_REPAYMENT => Notice::RepaymentRecorded { amount, remark },
        _ => Notice::BalanceAdjusted { amount, remark },
    };
    let (title, sub_title, content) = (Notice::Funding.stored(), Notice::MerchantAccount.stored(), detail.stored());
    let notification = Notification::notice(&title, &sub_title, &content, 0);
    notify_merchant_with(connection, merchant_id, notification, Extras::new(FINANCE_LOG, None)).await
}

/// The console's funding requests page, where a rejection's notice leads.
pub const FUNDING_REQUESTS: &str = "/finance/funding";

/// A merchant's funding request decided (`detail` one of the `Funding…Detail` notices):
/// every user of the merchant is told, in the decision's transaction. An approval leads
/// to the account-change records (the credit), a rejection to the requests.
pub async fn funding_decided(
    connection: &mut sqlx::AnyConnection,
    merchant_id: i64,
    approved: bool,
    detail: Notice,
) -> Result<(), sqlx::Error> {
    let (title, link) = match approved {
        true => (Notice::FundingRequestApproved, FINANCE_LOG),
        false => (Notice::FundingRequestRejected, FUNDING_REQUESTS),
    };
    let (title, sub_title, content) = (title.stored(), Notice::Funding.stored(), detail.stored());
    let notification = Notification::notice(&title, &sub_title, &content, 0);
    notify_merchant_with(connection, merchant_id, notification, Extras::new(link, None)).await
}
