//! Placing an order: the one entry (`orders::place`) every caller uses. It hands the order to
//! the group-commit engine in `placement/`, which places it with others that arrive at the
//! same time (or alone), then tells the live monitor, the order worker and the low-balance
//! alert.

use super::model::OrderRow;
use super::placement::intent::PlaceIntent;
use crate::domain::risk::RiskLimits;
use crate::domain::windows::Closed;
use crate::http::error::AppError;
use crate::i18n::TradeMessage;
use crate::money::finance::ledger::Actor;
use crate::orders::risk;
use crate::platform::state::AppState;

/// Charges and writes one order in one transaction. The merchant's account is locked
/// first, so parallel orders of one merchant queue there and the balance can never go
/// below zero; a reused merchant order id rolls everything back (nothing charged).
pub async fn place(state: &AppState, actor: Actor, mut intent: PlaceIntent) -> Result<OrderRow, AppError> {
    if intent.line.product_key.trim().is_empty() {
        // Refused without touching the database: without a product the intent cannot build.
        return Err(intent
            .build(None, 0, 0)
            .err()
            .unwrap_or_else(|| AppError::field("product_key", TradeMessage::ProductRequired)));
    }
    // The number parsed once for its place, the blocklist and the windows (the line's check
    // parses it again, as every caller's line is checked).
    let number = crate::domain::PhoneNumber::parse(&intent.line.account);
    if let Some(number) = &number {
        intent.region = state.segments.region_of(number);
        if state.blocklist.current(&state.db).await?.barring(number.as_str()).is_some() {
            return Err(AppError::unprocessable("account", TradeMessage::AccountBlocked));
        }
        intent.line.ported_from = state.ports.left_by(&state.db, number).await?;
    }
    let province = intent.region.as_ref().map(|region| region.province_code);
    intent.closed = closing_window(state, &intent.line.product_key, number.as_ref(), province).await?;
    let risk = state.risk.of(&state.db, intent.merchant_id).await?;
    intent.single_flight = risk.single_flight;
    // Kept for a refusal's answer (the intent goes to the group).
    let (merchant_id, given_id) = (intent.merchant_id, intent.line.merchant_order_id.clone());
    let placed = match within_limits(state, &intent, &risk, number.as_ref()).await {
        Ok(()) => {
            // A disabled merchant is refused by the group's first read (run.rs), placing alone below.
            let deadline = state.config.channel.deadlines();
            state.placements.place(&state.db, deadline, actor, intent).await
        }
        Err(refused) => Err(refused),
    };
    let (order, id, balance) = match placed {
        Ok(placed) => placed,
        Err(error) => return Err(risk_refusal_counted(state, merchant_id, given_id.as_deref(), error).await),
    };
    state.live.placed(order.live_placed(id));
    state.arrivals.notify_one();
    crate::money::finance::alerts::low_balance_after_debit(state, order.merchant_id, balance.0, balance.1).await;
    Ok(order.into_row(id))
}

/// Refused when the order would pass one of the merchant's daily limits (`orders::risk`:
/// read only when the merchant has one).
async fn within_limits(
    state: &AppState,
    intent: &PlaceIntent,
    limits: &RiskLimits,
    number: Option<&crate::domain::PhoneNumber>,
) -> Result<(), AppError> {
    let Some(number) = number.filter(|_| limits.counts_today()) else { return Ok(()) };
    let key = crate::domain::product_key_input(&intent.line.product_key);
    let now = crate::platform::db::now_millis();
    let (today, price) = risk::today(&state.db.pool, intent.merchant_id, number.as_str(), &key, now).await?;
    // Without a quote the group refuses the order for that.
    match price.and_then(|price| limits.refusal(today, price)) {
        Some(reason) => Err(risk::refused(reason, limits)),
        None => Ok(()),
    }
}

/// A refusal by the risk controls is counted on the live monitor. A retry of an order placed
/// before (its merchant order id used) is answered as the conflict its callers read that
/// order from, not as a refusal of its number.
async fn risk_refusal_counted(state: &AppState, merchant_id: i64, given: Option<&str>, error: AppError) -> AppError {
    let Some(reason) = risk::reason_of(&error) else { return error };
    if let Some(id) = given.and_then(crate::domain::MerchantOrderId::parse)
        && matches!(risk::merchant_order_id_used(&state.db.pool, merchant_id, id.as_str()).await, Ok(true))
    {
        return AppError::Conflict(TradeMessage::MerchantOrderIdDuplicate.into());
    }
    state.live.refused(&state.db, merchant_id, &[reason]).await;
    error
}

/// The maintenance window that closes every channel which could take the order now, if
/// any (`PlaceIntent::build` refuses a fast product then; a slow one waits). Answered from
/// memory: no window running (the usual case) or one closing the number's carrier costs no
/// query; only while a channel's window runs are the product's channels read.
pub(in crate::orders) async fn closing_window(
    state: &AppState,
    product_key: &str,
    number: Option<&crate::domain::PhoneNumber>,
    province: Option<u32>,
) -> Result<Option<Closed>, AppError> {
    let now = crate::platform::db::now_millis();
    let schedule = state.windows.current(&state.db).await?;
    if !schedule.any_running(now) {
        return Ok(None);
    }
    if let Some(number) = number
        && let Some(closed) = schedule.closing_number(number.carrier(), province, now)
    {
        return Ok(Some(closed));
    }
    if !schedule.channel_window_running(now) {
        return Ok(None);
    }
    let channels: Vec<(i64, String)> = sqlx::query_as(
        "SELECT cp.channel_id, cp.provinces FROM channel_products cp JOIN channels c ON c.id = cp.channel_id
         JOIN products p ON p.id = cp.product_id WHERE p.product_key = $1 AND cp.enabled <> 0 AND c.enabled <> 0",
    )
    .bind(crate::domain::product_key_input(product_key))
    .fetch_all(&state.db.pool)
    .await?;
    // Only the channels covering the number's province could take it (routing::cover): a
    // closed channel elsewhere does not refuse it, an open one elsewhere does not admit it.
    let covering = channels
        .into_iter()
        .filter(|(_, provinces)| crate::domain::Scope::from_stored(provinces).unwrap_or_default().admits(province));
    let mut closing = Vec::new();
    for (channel, _) in covering {
        match schedule.closing_channel(channel, now) {
            Some(closed) => closing.push(closed),
            // One channel is open: the order goes there.
            None => return Ok(None),
        }
    }
    // Orders are taken again when the first window ends.
    Ok(closing.into_iter().min_by_key(|closed| closed.until))
}
