//! Settling channel successes in groups: many orders' successes in one transaction.
//!
//! Settled alone, every success costs its own commits (the attempt, the channel's health,
//! the order), and on SQLite each queues for the one writer: the worker's batches and the
//! suppliers' callbacks would be paid order by order. Here a batch of successes is one
//! transaction: each attempt recorded once (`WHERE outcome IN ('pending', 'unknown')`),
//! each order moved once (`UPDATE ... WHERE status = old`), exactly the checks of one
//! alone (`health::record_success`, `lifecycle::finish_by_channel`); the channels'
//! health and known balances once per channel. Locks are taken attempts and orders in
//! order-id order, then counters, then channels, in every batch.
//!
//! Callbacks arrive one request at a time: [`settle_callback`] queues them (in the state's
//! `callbacks`) and one writer settles whatever is waiting together, answering each request
//! after the commit. If a batch fails (a deadlock between two servers on PostgreSQL), each
//! of its successes is settled alone, so each still gets its own answer and nothing is
//! written twice.
//!
//! Probe attempts never come here: their success resumes a channel (`health::resolved`).

use crate::orders::lifecycle::{self, ChannelSuccess};
use crate::platform::channel::attempts;
use crate::platform::channel::settling::{Callback, Settled, Success};
use crate::platform::crypto::Secrets;
use crate::platform::db::Database;
use crate::platform::live::LiveMonitor;
use crate::platform::state::AppState;
use std::collections::BTreeMap;
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};

/// At most this many successes share a transaction.
const MAX_GROUP: usize = 256;

/// What settling needs of the application: no more, so the callbacks' writer holds no
/// application state (it ends when the state is dropped).
#[derive(Clone)]
pub struct Settler {
    db: Database,
    secrets: Arc<Secrets>,
    live: Arc<LiveMonitor>,
}

impl Settler {
    pub fn new(state: &AppState) -> Self {
        Self { db: state.db.clone(), secrets: state.secrets.clone(), live: state.live.clone() }
    }

    /// Settles the successes in one transaction; one answer each, in their order.
    pub async fn settle(&self, successes: &[Success]) -> anyhow::Result<Vec<Settled>> {
        let mut by_order: Vec<usize> = (0..successes.len()).collect();
        by_order.sort_by_key(|&index| (successes[index].attempt.order_id, successes[index].attempt.id));
        let mut answers = vec![Settled::Unchanged; successes.len()];
        let mut transaction = self.db.begin_write().await?;
        // Recorded here: their cost leaves the channel's known balance.
        let mut spent: BTreeMap<i64, i64> = BTreeMap::new();
        let mut finishing = Vec::with_capacity(successes.len());
        for index in by_order {
            let Success { attempt, serial_no, card } = &successes[index];
            if attempts::record(&mut *transaction, attempt, attempts::SUCCESS, "success", Some(serial_no)).await? {
                *spent.entry(attempt.channel_id).or_default() += attempt.cost_fen;
            } else if attempts::outcome_of(&mut transaction, attempt.id).await?.as_deref() != Some(attempts::SUCCESS) {
                tracing::warn!(
                    order_id = attempt.order_id,
                    attempt = attempt.attempt_no,
                    "success reported for a failed attempt; ignored"
                );
                answers[index] = Settled::Contradicted;
                continue;
            }
            let success = ChannelSuccess {
                order_id: attempt.order_id,
                serial_no: serial_no.clone(),
                card: card.clone(),
                fulfilled_by: (attempt.channel_id, attempt.cost_fen),
            };
            finishing.push((index, success));
        }
        let orders: Vec<ChannelSuccess> = finishing.iter().map(|(_, success)| success.clone()).collect();
        let finished = lifecycle::succeed_many(&mut transaction, &self.secrets, &orders).await?;
        // As `health::resolved` for a success: the run of unknown answers is over, and the
        // known balance follows our spending between two reads.
        for (channel_id, cost) in spent {
            sqlx::query(
                "UPDATE channels SET unknown_streak = 0, balance_fen = balance_fen - $1
                 WHERE id = $2 AND balance_fen IS NOT NULL",
            )
            .bind(cost)
            .bind(channel_id)
            .execute(&mut *transaction)
            .await?;
            sqlx::query("UPDATE channels SET unknown_streak = 0 WHERE id = $1 AND unknown_streak <> 0")
                .bind(channel_id)
                .execute(&mut *transaction)
                .await?;
        }
        transaction.commit().await?;
        for ((index, _), finished) in finishing.into_iter().zip(finished) {
            if let Some(finished) = finished {
                answers[index] = Settled::Changed;
                self.live.finished(finished);
            }
        }
        Ok(answers)
    }
}

/// Settles one callback's success in the next group; answers after its commit.
pub async fn settle_callback(state: &AppState, success: Success) -> anyhow::Result<Settled> {
    let queue = state.callbacks.get_or_init(|| start(Settler::new(state)));
    let (answer, answered) = oneshot::channel();
    queue.send(Callback { success, answer }).map_err(|_| anyhow::anyhow!("callback writer stopped"))?;
    answered.await.map_err(|_| anyhow::anyhow!("callback writer stopped"))?
}

fn start(settler: Settler) -> mpsc::UnboundedSender<Callback> {
    let (sender, mut receiver) = mpsc::unbounded_channel::<Callback>();
    tokio::spawn(async move {
        // Ends when every sender is gone (the application state dropped).
        while let Some(first) = receiver.recv().await {
            let mut jobs = vec![first];
            while jobs.len() < MAX_GROUP {
                match receiver.try_recv() {
                    Ok(job) => jobs.push(job),
                    Err(_) => break,
                }
            }
            let successes: Vec<Success> = jobs.iter().map(|job| job.success.clone()).collect();
            match settler.settle(&successes).await {
                Ok(answers) => {
                    for (job, answer) in jobs.into_iter().zip(answers) {
                        let _ = job.answer.send(Ok(answer));
                    }
                }
                // Nothing of the group was written: each alone, with its own answer.
                Err(_) => {
                    for job in jobs {
                        let answer = settler.settle(std::slice::from_ref(&job.success)).await;
                        let _ = job.answer.send(answer.map(|answers| answers[0]));
                    }
                }
            }
        }
    });
    sender
}
