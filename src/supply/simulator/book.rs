//! The simulator's own book: orders by upstream id, balance, statement.

use super::SimConfig;
use crate::platform::channel::http_json::{Answer, SubmitRequest, code};
use serde::Serialize;
use std::collections::HashMap;
use std::time::Duration;

#[derive(Debug, Clone)]
pub struct SimOrder {
    pub upstream_order_id: String,
    pub account: String,
    pub face_value_fen: i64,
    pub price_fen: i64,
    pub accepted_at: i64,
    pub ready_at: i64,
    /// Drawn once, at acceptance.
    pub succeeds: bool,
    /// Failed because the number moved to another carrier (`SimConfig::ported_accounts`).
    pub ported: bool,
    /// A success reversed (冲正) at this time (drawn at acceptance, `reversal_ratio`).
    pub reversed_at: Option<i64>,
    pub serial_no: String,
    /// A card order's card number and password, issued at acceptance; `None` for a top-up,
    /// or for a card order this supplier will report successful without its card
    /// (`cardless_ratio`).
    pub card_no: Option<String>,
    pub card_password: Option<String>,
    pub notify_url: Option<String>,
    /// Times it was submitted (a platform resubmitting shows here).
    pub submissions: u32,
    /// Times it was asked about with `/query`.
    pub queries: u32,
    /// The balance was credited back (a failed order).
    pub refunded: bool,
}

/// Random decimal digits, as a prepaid card's number or password.
fn digits(length: usize) -> String {
    (0..length).map(|_| char::from(b'0' + rand::random::<u8>() % 10)).collect()
}

impl SimOrder {
    pub fn ready_in(&self) -> Duration {
        Duration::from_millis((self.ready_at - self.accepted_at).max(0) as u64)
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct StatementLine {
    pub upstream_order_id: String,
    pub account: String,
    pub face_value_fen: i64,
    pub price_fen: i64,
    pub serial_no: String,
    pub finished_at: i64,
    /// `success`, or `reversed` for a success reversed since.
    pub status: &'static str,
    #[serde(skip_serializing_if = "str::is_empty")]
    pub reason: &'static str,
}

/// One order as the simulator's `/book` lists it.
#[derive(Debug, Clone, Serialize)]
pub struct BookLine {
    pub upstream_order_id: String,
    pub account: String,
    pub face_value_fen: i64,
    /// Its result is out (a success or a definite failure).
    pub finished: bool,
    pub succeeds: bool,
    pub reversed: bool,
    pub submissions: u32,
    pub queries: u32,
}

/// What a reversal says, in the simulator's words.
pub const REVERSAL_REASON: &str = "carrier reversed the top-up";

pub enum Accepted {
    /// Boxed: an order is large beside the other answers.
    New(Box<SimOrder>),
    Known,
    BalanceShort,
}

#[derive(Debug, Default)]
pub struct Book {
    pub orders: HashMap<String, SimOrder>,
    pub balance_fen: i64,
}

impl Book {
    pub fn new(balance_fen: i64) -> Self {
        Self { orders: HashMap::new(), balance_fen }
    }

    /// Takes an order; a known upstream id only counts the submission. An order the
    /// balance does not cover is refused (code 10) and not kept.
    pub fn accept(&mut self, request: &SubmitRequest, config: &SimConfig, success_ratio: f64, now: i64) -> Accepted {
        if let Some(order) = self.orders.get_mut(&request.upstream_order_id) {
            order.submissions += 1;
            return Accepted::Known;
        }
        let price_fen = request.face_value_fen * config.price_permille / 1000;
        if price_fen > self.balance_fen {
            return Accepted::BalanceShort;
        }
        self.balance_fen -= price_fen;
        let issued = request.card && rand::random::<f64>() >= config.cardless_ratio;
        let ready_at = now + config.delay.as_millis() as i64;
        let ported = config.ported_accounts.contains(&request.account);
        let succeeds = !ported && rand::random::<f64>() < success_ratio;
        let reversed_at = (succeeds && rand::random::<f64>() < config.reversal_ratio)
            .then(|| ready_at + config.reversal_delay.as_millis() as i64);
        let order = SimOrder {
            upstream_order_id: request.upstream_order_id.clone(),
            account: request.account.clone(),
            face_value_fen: request.face_value_fen,
            price_fen,
            accepted_at: now,
            ready_at,
            succeeds,
            ported,
            reversed_at,
            serial_no: format!("SIM{now}{:06}", rand::random::<u32>() % 1_000_000),
            card_no: issued.then(|| digits(16)),
            card_password: issued.then(|| digits(18)),
            notify_url: request.notify_url.clone(),
            submissions: 1,
            queries: 0,
            refunded: false,
        };
        self.orders.insert(order.upstream_order_id.clone(), order.clone());
        Accepted::New(Box::new(order))
    }

    /// Where an order stands now, as the protocol answers it (settling a failure's
    /// refund the first time it is seen final).
    pub fn answer_for(&mut self, upstream_order_id: &str, now: i64) -> Answer {
        let base = Answer { upstream_order_id: upstream_order_id.to_string(), ..Answer::default() };
        let Some(order) = self.orders.get_mut(upstream_order_id) else {
            // Never accepted: a submission the balance did not cover, or unknown.
            return Answer { code: code::NOT_FOUND, msg: "not found".into(), ..base };
        };
        if now < order.ready_at {
            return Answer { code: code::PROCESSING, msg: "processing".into(), ..base };
        }
        if order.reversed_at.is_some_and(|at| now >= at) {
            // The top-up was taken back: so was the supplier's charge.
            if !order.refunded {
                order.refunded = true;
                self.balance_fen += order.price_fen;
            }
            return Answer { code: code::REVERSED, msg: REVERSAL_REASON.into(), ..base };
        }
        if order.succeeds {
            return Answer {
                code: code::SUCCESS,
                msg: "success".into(),
                serial_no: Some(order.serial_no.clone()),
                card_no: order.card_no.clone(),
                card_password: order.card_password.clone(),
                ..base
            };
        }
        if !order.refunded {
            order.refunded = true;
            self.balance_fen += order.price_fen;
        }
        if order.ported {
            return Answer { code: code::NUMBER_PORTED, msg: "number ported to another carrier".into(), ..base };
        }
        Answer { code: code::ACCOUNT_REJECTED, msg: "carrier refused".into(), ..base }
    }

    /// Every order, by upstream id.
    pub fn lines(&self, now: i64) -> Vec<BookLine> {
        let mut lines: Vec<BookLine> = self
            .orders
            .values()
            .map(|order| BookLine {
                upstream_order_id: order.upstream_order_id.clone(),
                account: order.account.clone(),
                face_value_fen: order.face_value_fen,
                finished: now >= order.ready_at,
                succeeds: order.succeeds,
                reversed: order.reversed_at.is_some_and(|at| now >= at),
                submissions: order.submissions,
                queries: order.queries,
            })
            .collect();
        lines.sort_by(|a, b| a.upstream_order_id.cmp(&b.upstream_order_id));
        lines
    }

    /// The successful top-ups finished on a Beijing date (YYYY-MM-DD), those reversed
    /// since (as the statement is asked for) listed as `reversed`.
    pub fn statement(&self, date: &str) -> Vec<StatementLine> {
        let now = crate::platform::db::now_millis();
        let mut lines: Vec<StatementLine> = self
            .orders
            .values()
            .filter(|order| order.succeeds && crate::domain::beijing_time(order.ready_at).starts_with(date))
            .map(|order| StatementLine {
                upstream_order_id: order.upstream_order_id.clone(),
                account: order.account.clone(),
                face_value_fen: order.face_value_fen,
                price_fen: order.price_fen,
                serial_no: order.serial_no.clone(),
                finished_at: order.ready_at,
                status: if order.reversed_at.is_some_and(|at| now >= at) { "reversed" } else { "success" },
                reason: if order.reversed_at.is_some_and(|at| now >= at) { REVERSAL_REASON } else { "" },
            })
            .collect();
        lines.sort_by(|a, b| a.upstream_order_id.cmp(&b.upstream_order_id));
        lines
    }
}
