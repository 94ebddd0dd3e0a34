//! Group commit: placements that arrive together are written in one transaction.
//!
//! Placed alone, every order pays for a whole transaction: on SQLite a commit that writes
//! the pages the order touched (the account, the ends of the indexes, the counters) into the
//! WAL again; on PostgreSQL a commit that waits for its WAL flush while holding the merchant's
//! account row, so one merchant's orders queue behind each other's flushes. Here a writer
//! takes every placement waiting (up to [`MAX_GROUP`]), sorts them into runs (one merchant,
//! one product, one actor) and writes a run in two round trips: the account lock, the offer
//! and the ids in one; every order's row, the account with its log records and the counters
//! in the other (on SQLite the last run's writes carry the COMMIT too). Each order is still
//! checked exactly as alone, against the offer read under the lock and the balance as the
//! orders before it left it. The group commits once, and every request is answered only
//! after that commit.
//!
//! On PostgreSQL a group is first tried without the transaction and the lock (unlocked.rs):
//! one statement, guarded by everything its orders were decided from; when a guard fails,
//! the group is written as above, under the lock.
//!
//! An order refused by its checks writes nothing and is answered at once, so it cannot fail
//! the others. If a statement or the commit fails (a reused merchant order id, a deadlock
//! between two servers), the group is rolled back and each of its orders is placed alone, as
//! without grouping, so each gets its own answer and nothing is written twice.

use super::decide::{self, Decision, Job, run_key};
use crate::orders::counters::CounterChanges;

use super::alone;
use super::intent::PlaceIntent;
use super::run::{self, Claims, Lock};
use super::unlocked::{NotWritten, Target, Unlocked};
use crate::http::error::AppError;
use crate::money::finance::ledger::Actor;
use crate::platform::config::Deadlines;
use crate::platform::db::{Database, DatabaseKind};
use crate::platform::sql::StatementBatch;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use tokio::sync::{mpsc, oneshot};

/// At most this many orders share a transaction (a longer group holds the lock longer
/// without making the commit cheaper per order).
const MAX_GROUP: usize = 128;
/// Writers at once. SQLite has one writer whatever we do; on PostgreSQL groups of different
/// merchants commit side by side. A merchant's placements always go to the same writer: two
/// writers sharing one merchant would only split its groups and queue each part behind the
/// other's flush on the account row (measured with four writers sharing a queue in
/// bench/README.md).
const POSTGRES_WRITERS: usize = 4;

use super::decide::Placed;

/// The queue in front of the writers; they start with the first placement.
#[derive(Default)]
pub struct Placements {
    queues: OnceLock<Vec<mpsc::UnboundedSender<Job>>>,
    outcomes: Arc<Outcomes>,
}

/// Groups written since start, by outcome (`/metrics`): a group that fell back cost each of
/// its orders a transaction of its own, so a rising share says what group commit is losing.
/// Groups written without the lock whose account had moved are counted too: each cost its
/// orders a second write.
#[derive(Default)]
pub struct Outcomes {
    committed: AtomicU64,
    fell_back: AtomicU64,
    locked_again: AtomicU64,
}

impl Outcomes {
    /// (groups committed, groups rolled back and placed order by order, groups whose write
    /// without the lock failed and went again under it)
    pub fn counts(&self) -> (u64, u64, u64) {
        let read = |count: &AtomicU64| count.load(Ordering::Relaxed);
        (read(&self.committed), read(&self.fell_back), read(&self.locked_again))
    }
}

impl crate::platform::held::Holds for crate::platform::held::Placements {
    type Value = Placements;
}

impl Placements {
    /// Places one order in the next group; answers after its commit.
    pub async fn place(
        &self,
        db: &Database,
        deadline: Deadlines,
        actor: Actor,
        intent: PlaceIntent,
    ) -> Result<Placed, AppError> {
        let queues = self.queues.get_or_init(|| start(db.clone(), deadline, self.outcomes.clone()));
        let queue = &queues[intent.merchant_id.unsigned_abs() as usize % queues.len()];
        let (answer, answered) = oneshot::channel();
        queue
            .send(Job { actor, intent, answer })
            .map_err(|_| AppError::Internal(anyhow::anyhow!("placement writer stopped")))?;
        answered.await.map_err(|_| AppError::Internal(anyhow::anyhow!("placement writer stopped")))?
    }

    pub fn outcomes(&self) -> &Outcomes {
        &self.outcomes
    }
}

fn start(db: Database, deadline: Deadlines, outcomes: Arc<Outcomes>) -> Vec<mpsc::UnboundedSender<Job>> {
    let writers = match db.kind {
        DatabaseKind::Sqlite => 1,
        DatabaseKind::Postgres => POSTGRES_WRITERS,
    };
    (0..writers)
        .map(|_| {
            let (sender, mut receiver) = mpsc::unbounded_channel();
            let (db, outcomes) = (db.clone(), outcomes.clone());
            tokio::spawn(async move {
                let mut writer = Writer { db, own: None, unlocked: Unlocked::default() };
                // Ends when every sender is gone (the application state dropped).
                while let Some(jobs) = next_group(&mut receiver).await {
                    let mut jobs = decide::refuse_repeated_numbers(jobs);
                    if jobs.is_empty() {
                        continue;
                    }
                    // One lock order for every group, merchant by merchant: two PostgreSQL
                    // writers never wait for each other's account rows crosswise.
                    jobs.sort_by(|a, b| run_key(a).cmp(&run_key(b)));
                    let outcome = match writer.write_group(deadline, jobs, &outcomes.locked_again).await {
                        true => &outcomes.committed,
                        false => &outcomes.fell_back,
                    };
                    outcome.fetch_add(1, Ordering::Relaxed);
                }
            });
            sender
        })
        .collect()
}

/// Waits for one placement, then takes every other one already waiting.
async fn next_group(receiver: &mut mpsc::UnboundedReceiver<Job>) -> Option<Vec<Job>> {
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
enum Transaction<'c> {
    Sqlite(crate::platform::db::SqliteWrite),
    Postgres(sqlx::Transaction<'c, sqlx::Any>),
}

/// PostgreSQL: the writer's own connection, taken out of the pool for good (named in
/// `pg_stat_activity` as [`WRITER_APPLICATION_NAME`]). A connection given back to sqlx's
/// pool is pinged on its way back: a round trip for every group, which the database and the
/// server pay for on the cores the next group needs (measured both ways in bench/README.md).
/// Dropped after any failure: a
/// group that failed may have left it broken, and the next group opens another.
async fn own_connection<'c>(
    db: &Database,
    own: &'c mut Option<sqlx::AnyConnection>,
) -> Result<&'c mut sqlx::AnyConnection, sqlx::Error> {
    Ok(match own {
        Some(connection) => connection,
        None => {
            let mut connection = db.pool.acquire().await?.detach();
            sqlx::query(sqlx::AssertSqlSafe(format!("SET application_name = '{WRITER_APPLICATION_NAME}'")))
                .execute(&mut connection)
                .await?;
            own.insert(connection)
        }
    })
}

async fn begin_own<'c>(
    db: &Database,
    own: &'c mut Option<sqlx::AnyConnection>,
) -> Result<sqlx::Transaction<'c, sqlx::Any>, sqlx::Error> {
    sqlx::Connection::begin(own_connection(db, own).await?).await
}

/// How a placement writer's connection introduces itself to PostgreSQL.
pub const WRITER_APPLICATION_NAME: &str = "backoffice placement writer";

/// One writer's state between groups.
struct Writer {
    db: Database,
    /// PostgreSQL: the writer's own connection ([`own_connection`]).
    own: Option<sqlx::AnyConnection>,
    /// PostgreSQL: writing without the lock.
    unlocked: Unlocked,
}

impl Writer {
    /// Writes the group; false when it fell back to placing its orders alone.
    async fn write_group(&mut self, deadline: Deadlines, jobs: Vec<Job>, locked_again: &AtomicU64) -> bool {
        let (db, own) = (&self.db, &mut self.own);
        let jobs = if self.unlocked.applies(&jobs) {
            let written = match db.kind {
                DatabaseKind::Postgres => match own_connection(db, own).await {
                    Ok(connection) => self.unlocked.write(Target::Postgres(connection), deadline, jobs).await,
                    Err(_) => Err(NotWritten { jobs, connection_suspect: true }),
                },
                // A SQLite connection left suspect is closed by `run_in_one_hop` itself.
                DatabaseKind::Sqlite => match db.sqlite_write().await {
                    Ok(mut write) => self.unlocked.write(Target::Sqlite(&mut write), deadline, jobs).await,
                    Err(_) => Err(NotWritten { jobs, connection_suspect: true }),
                },
            };
            match written {
                Ok(()) => return true,
                Err(NotWritten { jobs, connection_suspect }) => {
                    if connection_suspect {
                        *own = None;
                    }
                    // Answered already (an outcome unknown): nothing to write again.
                    if jobs.is_empty() {
                        return false;
                    }
                    locked_again.fetch_add(1, Ordering::Relaxed);
                    jobs
                }
            }
        } else {
            jobs
        };
        let transaction = match db.kind {
            DatabaseKind::Sqlite => db.sqlite_write().await.map(Transaction::Sqlite),
            DatabaseKind::Postgres => begin_own(db, own).await.map(Transaction::Postgres),
        };
        let Some(again) = write_and_commit(transaction, deadline, jobs).await else { return true };
        *own = None;
        // Nothing the group wrote exists (a failed commit, or a rollback: dropping a transaction
        // rolls it back, and so does a failed SQLite commit): its orders go again, each alone.
        for job in again {
            place_alone(db, deadline, job).await;
        }
        false
    }
}

/// The group's runs and its commit; after the commit every order is answered. None when
/// committed, else the orders to place again.
async fn write_and_commit(
    mut transaction: Result<Transaction<'_>, sqlx::Error>,
    deadline: Deadlines,
    jobs: Vec<Job>,
) -> Option<Vec<Job>> {
    // Each placed, or its merchant order id taken (answered as such after the commit).
    let mut written: Vec<(Job, Decision)> = Vec::with_capacity(jobs.len());
    let mut waiting: VecDeque<Job> = jobs.into();
    let mut first = true;
    // The counters of every run, written once with the last run: a transaction that wrote
    // counters twice could lock them in a different order than the worker's moves.
    let mut counters = CounterChanges::default();
    // SQLite: the last run's statements, run with the COMMIT in the same hop.
    let mut last_writes = StatementBatch::default();
    let failed = loop {
        let Some(head) = waiting.front() else { break Vec::new() };
        let length = waiting.iter().take_while(|job| run_key(job) == run_key(head)).count();
        let run: Vec<Job> = waiting.drain(..length).collect();
        let Ok(open) = transaction.as_mut() else { break run };
        let last = waiting.is_empty();
        match write_run(open, first, deadline, run, &mut counters, last).await {
            Ok((done, unwritten)) => {
                written.extend(done);
                last_writes = unwritten;
            }
            Err(run) => break run,
        }
        first = false;
    };
    let committed = match transaction {
        Ok(Transaction::Sqlite(write)) if failed.is_empty() => write.commit_with(last_writes).await.is_ok(),
        Ok(Transaction::Postgres(transaction)) if failed.is_empty() => match transaction.commit().await {
            Ok(()) => true,
            // No answer to the COMMIT: the group may be written or not, and placing its orders
            // again could place them twice.
            Err(error) if crate::http::unavailable::outcome_unknown(&error) => {
                decide::answer_outcome_unknown(written.into_iter().map(|(job, _)| job), &error);
                return None;
            }
            Err(_) => false,
        },
        // Given back before placing alone: on SQLite the one write connection is this one.
        Ok(Transaction::Sqlite(write)) => {
            write.rollback().await;
            false
        }
        Ok(Transaction::Postgres(transaction)) => {
            let _ = transaction.rollback().await;
            false
        }
        Err(_) => false,
    };
    if committed {
        decide::answer_committed(written);
        return None;
    }
    Some(written.into_iter().map(|(job, _)| job).chain(failed).chain(waiting).collect())
}

/// One run in the group's transaction: the account, the ids, the offer and what the run's
/// orders would repeat in one round trip (`run.rs`), each order checked and charged against
/// the ledger as it stands after the ones before it, then every row in one more. Refused
/// orders are answered here and write nothing; so is a replayed open-API nonce. An order
/// whose merchant order id is taken writes nothing and is answered after the commit (its
/// caller may then read the order that has it). Err: a statement failed, and these orders
/// must go again. The run's counts go into `counters`, which the `last` run of the group
/// writes. On SQLite the last run's statements are not run here but returned, to run with
/// the COMMIT in one hop to the connection thread (a hop is two thread switches, about a
/// tenth of one client's order); a failure there rolls the whole group back, as here.
async fn write_run(
    transaction: &mut Transaction<'_>,
    first: bool,
    deadline: Deadlines,
    run: Vec<Job>,
    counters: &mut CounterChanges,
    last: bool,
) -> Result<(Vec<(Job, Decision)>, StatementBatch), Vec<Job>> {
    let (merchant_id, key, actor) = (run[0].intent.merchant_id, &run[0].intent.line.product_key, &run[0].actor);
    let claims = Claims::of(run.iter().map(|job| &job.intent));
    let opened = match transaction {
        Transaction::Sqlite(write) => {
            run::open_run_on_sqlite(write, first, merchant_id, actor.clone(), key, &claims).await.map(Some)
        }
        Transaction::Postgres(transaction) => {
            run::open_run_on_postgres(transaction, Lock::ForUpdate, merchant_id, actor.clone(), key, run.len(), &claims)
                .await
        }
    };
    // No account yet (placing alone creates it) or a failed statement.
    let Ok(Some(opened)) = opened else { return Err(run) };
    let sqlite = matches!(transaction, Transaction::Sqlite(_));
    let (mut batch, connection) = match transaction {
        Transaction::Sqlite(write) => (StatementBatch::default(), write.connection()),
        Transaction::Postgres(transaction) => (StatementBatch::one_statement(), &mut **transaction),
    };
    let decided = decide::decide_run(deadline, run, opened, counters, &mut batch).answer_refused();
    if last {
        std::mem::take(counters).add_to(&mut batch);
        if sqlite {
            return Ok((decided, batch));
        }
    }
    match batch.execute(connection).await {
        Ok(()) => Ok((decided, StatementBatch::default())),
        Err(_) => Err(decided.into_iter().map(|(job, _)| job).collect()),
    }
}

async fn place_alone(db: &Database, deadline: Deadlines, job: Job) {
    let result = alone::place_alone(db, deadline, &job.actor, &job.intent).await;
    let _ = job.answer.send(result);
}
