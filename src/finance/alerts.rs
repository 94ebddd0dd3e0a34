//! Messages about a merchant's money in the message center.

use crate::domain::yuan;
use crate::i18n::notices::Notice;
use crate::state::AppState;
use crate::user_centre::inbox::{Notification, notify_merchant};

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
        notify_merchant(&mut *state.db.pool.acquire().await?, merchant_id, notification).await
    }
    .await;
    if let Err(error) = result {
        tracing::error!(error = %error, merchant_id, "low-balance notice not written");
    }
}
