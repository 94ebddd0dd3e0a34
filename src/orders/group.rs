//! Group commit: placements that arrive together are written in one transaction.
//!
//! Placed alone, every order pays for a whole transaction: on SQLite a commit that writes
//! the pages the order touched (the account, the ends of the indexes, the counters) into the
//! WAL again; on PostgreSQL a commit that waits for its WAL flush while holding the merchant's
//! account row, so one merchant's orders queue behind each other's flushes. Here a writer
//! takes every placement waiting (up to [`MAX_GROUP`]) and places them one after the other in
//! one transaction: each still reads its product, quote, account and id under the lock and
//! is checked exactly as it would be alone, and the account moves through the same ledger.
//! The group commits once, and every request is answered only after that commit.
//!
//! An order refused by its checks writes nothing and is answered at once, so it cannot fail
//! the others. If a statement or the commit fails (a reused merchant order id, a deadlock
//! between two servers), the group is rolled back and each of its orders is placed alone, as
//! without grouping, so each gets its own answer and nothing is written twice.

use super::place::{self, BalanceChange, PlaceIntent};
use super::store::{self, NewOrder, Opened};
use crate::db::{Database, DatabaseKind};
use crate::error::AppError;
use crate::finance::ledger::Actor;
use crate::sql::StatementBatch;
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tokio::sync::{Mutex, mpsc, oneshot};

/// At most this many orders share a transaction (a longer group holds the lock longer
/// without making the commit cheaper per order).
const MAX_GROUP: usize = 128;
/// Writers at once. SQLite has one writer whatever we do; on PostgreSQL groups of different
/// merchants commit side by side.
const POSTGRES_WRITERS: usize = 4;

pub type Placed = (NewOrder, i64, BalanceChange);

struct Job {
    actor: Actor,
    intent: PlaceIntent,
    answer: oneshot::Sender<Result<Placed, AppError>>,
}

/// The queue in front of the writers; they start with the first placement.
#[derive(Default)]
pub struct Placements {
    queue: OnceLock<mpsc::UnboundedSender<Job>>,
}

impl Placements {
    /// Places one order in the next group; answers after its commit.
    pub async fn place(
        &self,
        db: &Database,
        deadline: Duration,
        actor: Actor,
        intent: PlaceIntent,
    ) -> Result<Placed, AppError> {
        let queue = self.queue.get_or_init(|| start(db.clone(), deadline));
        let (answer, answered) = oneshot::channel();
        queue
            .send(Job { actor, intent, answer })
            .map_err(|_| AppError::Internal(anyhow::anyhow!("placement writer stopped")))?;
        answered.await.map_err(|_| AppError::Internal(anyhow::anyhow!("placement writer stopped")))?
    }
}

fn start(db: Database, deadline: Duration) -> mpsc::UnboundedSender<Job> {
    let (sender, receiver) = mpsc::unbounded_channel();
    let receiver = Arc::new(Mutex::new(receiver));
    let writers = match db.kind {
        DatabaseKind::Sqlite => 1,
        DatabaseKind::Postgres => POSTGRES_WRITERS,
    };
    for _ in 0..writers {
        let (db, receiver) = (db.clone(), receiver.clone());
        tokio::spawn(async move {
            // Ends when every sender is gone (the application state dropped).
            while let Some(mut jobs) = next_group(&receiver).await {
                // One lock order for every group, merchant by merchant: two PostgreSQL
                // writers never wait for each other's account rows crosswise.
                jobs.sort_by_key(|job| job.intent.merchant_id);
                write_group(&db, deadline, jobs).await;
            }
        });
    }
    sender
}

/// Waits for one placement, then takes every other one already waiting.
async fn next_group(receiver: &Mutex<mpsc::UnboundedReceiver<Job>>) -> Option<Vec<Job>> {
    let mut receiver = receiver.lock().await;
    let first = receiver.recv().await?;
    let mut jobs = vec![first];
    while jobs.len() < MAX_GROUP {
        match receiver.try_recv() {
            Ok(job) => jobs.push(job),
            Err(_) => break,
        }
    }
    Some(jobs)
}

/// A write transaction of either engine.
enum Transaction {
    Sqlite(crate::db::SqliteWrite),
    Postgres(sqlx::Transaction<'static, sqlx::Any>),
}

async fn write_group(db: &Database, deadline: Duration, jobs: Vec<Job>) {
    let mut transaction = match db.kind {
        DatabaseKind::Sqlite => db.sqlite_write().await.map(Transaction::Sqlite),
        DatabaseKind::Postgres => db.begin_write().await.map(Transaction::Postgres),
    };
    let mut written: Vec<(Job, Placed)> = Vec::with_capacity(jobs.len());
    let mut jobs = jobs.into_iter();
    let mut begun = false;
    let failed = loop {
        let Some(job) = jobs.next() else { break None };
        let Ok(open) = transaction.as_mut() else {
            break Some(job);
        };
        let outcome = place_in(open, !begun, deadline, job).await;
        begun = true;
        match outcome {
            Outcome::Written(done) => written.push(*done),
            Outcome::Refused => {}
            Outcome::Failed(job) => break Some(job),
        }
    };
    let committed = match (failed, transaction) {
        (None, Ok(Transaction::Sqlite(write))) if begun => write.commit_with(StatementBatch::default()).await.is_ok(),
        (None, Ok(Transaction::Postgres(transaction))) => transaction.commit().await.is_ok(),
        (None, Ok(Transaction::Sqlite(_))) => true,
        (failed, transaction) => {
            if let Ok(Transaction::Sqlite(write)) = transaction {
                write.rollback().await;
            }
            // Dropping a PostgreSQL transaction rolls it back. Everything the group wrote is
            // gone: its orders and the one that failed go again, each alone.
            for job in written.drain(..).map(|(job, _)| job).chain(failed).chain(jobs) {
                place_alone(db, deadline, job).await;
            }
            return;
        }
    };
    for (job, placed) in written {
        if committed {
            let _ = job.answer.send(Ok(placed));
        } else {
            // The commit did not happen: nothing of the group exists, so each goes alone.
            place_alone(db, deadline, job).await;
        }
    }
}

enum Outcome {
    Written(Box<(Job, Placed)>),
    /// Refused by its checks and answered at once: nothing of it was written.
    Refused,
    /// A statement failed: the group must go back.
    Failed(Job),
}

/// Reads, checks and writes one order inside the group's transaction.
async fn place_in(transaction: &mut Transaction, first: bool, deadline: Duration, job: Job) -> Outcome {
    let (merchant_id, key) = (job.intent.merchant_id, &job.intent.line.product_key);
    let opened = match transaction {
        Transaction::Sqlite(write) => store::open_on_sqlite(write, first, merchant_id, job.actor.clone(), key).await,
        Transaction::Postgres(transaction) => {
            store::open_on_postgres(transaction, merchant_id, job.actor.clone(), key).await
        }
    };
    let Ok(Opened { ledger, order_id, offer }) = opened else {
        return Outcome::Failed(job);
    };
    let order = match place::build_and_charge(deadline, &job.intent, offer.as_ref(), &ledger, &job.actor) {
        Ok(order) => order,
        Err(refused) => {
            let _ = job.answer.send(Err(refused));
            return Outcome::Refused;
        }
    };
    let (mut batch, connection) = match transaction {
        Transaction::Sqlite(write) => (StatementBatch::default(), write.connection()),
        Transaction::Postgres(transaction) => (StatementBatch::one_statement(), &mut **transaction),
    };
    let balance = place::add_order_writes(&mut batch, ledger, order_id, &order);
    match batch.execute(connection).await {
        Ok(()) => Outcome::Written(Box::new((job, (order, order_id, balance)))),
        Err(_) => Outcome::Failed(job),
    }
}

async fn place_alone(db: &Database, deadline: Duration, job: Job) {
    let result = place::place_alone(db, deadline, &job.actor, &job.intent).await;
    let _ = job.answer.send(result);
}
