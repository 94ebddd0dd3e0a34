//! Messages about a merchant's money in the message center.

use crate::domain::yuan;
use crate::state::AppState;
use crate::user_centre::inbox::{MessageKind, Notification, notify};

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
    let content = format!(
        "账户余额已降至 ¥{balance}，低于提醒线 ¥{line}。余额与授信都用完后将无法下单，请及时充值。 / Your balance \
         is down to ¥{balance}, below the alert line of ¥{line}. Orders stop once balance and credit run out: \
         top up in time.",
        balance = yuan(balance_after_fen),
        line = yuan(threshold),
    );
    let result: Result<(), sqlx::Error> = async {
        let users: Vec<i64> = sqlx::query_scalar("SELECT id FROM users WHERE merchant_id = $1")
            .bind(merchant_id)
            .fetch_all(&state.db.pool)
            .await?;
        for user_id in users {
            let notification = Notification {
                kind: MessageKind::Notice,
                title: "余额不足提醒 / Low balance",
                sub_title: "请及时充值 / Please top up",
                content: &content,
                message_type: 2,
            };
            notify(&state.db.pool, user_id, notification).await?;
        }
        Ok(())
    }
    .await;
    if let Err(error) = result {
        tracing::error!(error = %error, merchant_id, "low-balance notice not written");
    }
}
