//! A placement group written without the lock. Each run reads its account as committed
//! (`run::Lock::None`), and the group's writes go in one round trip: on PostgreSQL one
//! statement, which it commits by itself (two round trips for a group of one run instead of
//! four: `BEGIN` and `COMMIT` gone, no lock held while the server decides); on SQLite one
//! transaction in one hop to the connection thread (`SqliteWrite::run_in_one_hop`). A
//! writer's next run of the same merchant, product and actor needs no read at all: it is
//! decided from what the last one left known (`run::Known`), one round trip.
//!
//! Nothing here relies on what was read staying true: the account's update is guarded by the
//! figures read (`Ledger::from_unlocked_row`), a run decided from what was known also by
//! the merchant, product, quote and repeats as known (`Known::open`), and the statement fails
//! whole unless every guard held (`StatementBatch::push_guard`). The group then goes under the
//! lock (group.rs), and for a while so do the writer's next groups: where another server or a
//! refund keeps moving the account, a write without the lock would keep failing. A refusal
//! is never answered from what was known: such a run is read afresh first.

use super::decide::{self, Decided, Decision, Job, run_key};
use super::run::{self, Claims, Known, Lock};
use crate::orders::counters::CounterChanges;
use crate::platform::config::Deadlines;
use crate::platform::db::{DatabaseKind, SqliteWrite};
use crate::platform::sql::StatementBatch;
use sqlx::AnyConnection;
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// How long a writer writes under the lock only after a write without it failed.
const LOCKED_AFTER_FAILURE: Duration = Duration::from_secs(1);
/// Ids drawn beyond a run's own when a group of one run reads its account, for the runs
/// decided from what it leaves known (a read every this many orders for one client).
const SPARE_IDS: usize = 32;

/// A writer's state for writing without the lock.
#[derive(Default)]
pub struct Unlocked {
    known: Option<Known>,
    locked_until: Option<Instant>,
}

/// Where a group is read and written: on PostgreSQL a connection outside any transaction,
/// every write one statement; on SQLite the writer's connection, every write one transaction
/// in one hop (`SqliteWrite::run_in_one_hop`).
pub enum Target<'a> {
    Postgres(&'a mut AnyConnection),
    Sqlite(&'a mut SqliteWrite),
}

impl Target<'_> {
    fn engine(&self) -> DatabaseKind {
        match self {
            Target::Postgres(_) => DatabaseKind::Postgres,
            Target::Sqlite(_) => DatabaseKind::Sqlite,
        }
    }
}

/// Why a group was not written: its orders, none answered yet, and whether the connection may
/// be broken (anything but the database refusing the statement).
pub struct NotWritten {
    pub jobs: Vec<Job>,
    pub connection_suspect: bool,
}

impl Unlocked {
    /// Whether the (sorted) group is tried without the lock: not while the last failure is
    /// recent, and only if no merchant has two runs (its account would be updated twice in one
    /// statement, the second time from figures the first changed).
    pub fn applies(&self, jobs: &[Job]) -> bool {
        let one_run_per_merchant = jobs.windows(2).all(|pair| {
            pair[0].intent.merchant_id != pair[1].intent.merchant_id || run_key(&pair[0]) == run_key(&pair[1])
        });
        one_run_per_merchant && self.locked_until.is_none_or(|until| Instant::now() >= until)
    }

    /// Writes the group and answers its orders, or gives them all back unanswered.
    pub async fn write(
        &mut self,
        connection: Target<'_>,
        deadline: Deadlines,
        jobs: Vec<Job>,
    ) -> Result<(), NotWritten> {
        let written = self.try_write(connection, deadline, jobs).await;
        if written.is_err() {
            self.known = None;
            self.locked_until = Some(Instant::now() + LOCKED_AFTER_FAILURE);
        }
        written
    }

    async fn try_write(
        &mut self,
        mut connection: Target<'_>,
        deadline: Deadlines,
        jobs: Vec<Job>,
    ) -> Result<(), NotWritten> {
        let one_run = jobs.first().map(run_key) == jobs.last().map(run_key);
        let mut batch = StatementBatch::one_statement();
        let mut counters = CounterChanges::default();
        let known = match self.known.take() {
            Some(known) if one_run && fits(&known, &jobs) => Some(known),
            // Still true of its merchant if this group places nothing for it.
            Some(known) => {
                let touched = jobs.iter().any(|job| job.intent.merchant_id == known.merchant_id());
                self.known = (!touched).then_some(known);
                None
            }
            None => None,
        };
        let jobs = match known {
            Some(known) => {
                let claims = Claims::of(jobs.iter().map(|job| &job.intent));
                let (opened, (guard, binds)) = known.open(&claims, connection.engine());
                let decided = decide::decide_run(deadline, jobs, opened, &mut counters, &mut batch);
                if !refuses(&decided) {
                    batch.push_guard(guard, binds);
                    return self.commit(connection, batch, counters, vec![decided]).await;
                }
                // Read afresh before refusing anyone: what was known may be out of date.
                batch = StatementBatch::one_statement();
                counters = CounterChanges::default();
                decided.jobs.into_iter().map(|(job, _)| job).collect()
            }
            None => jobs,
        };
        let mut runs = Vec::new();
        let mut waiting: VecDeque<Job> = jobs.into();
        while let Some(head) = waiting.front() {
            let length = waiting.iter().take_while(|job| run_key(job) == run_key(head)).count();
            let run: Vec<Job> = waiting.drain(..length).collect();
            let (merchant_id, key, actor) = (run[0].intent.merchant_id, &run[0].intent.line.product_key, &run[0].actor);
            let claims = Claims::of(run.iter().map(|job| &job.intent));
            let drawn = run.len() + if one_run { SPARE_IDS } else { 0 };
            let read = match &mut connection {
                Target::Postgres(connection) => {
                    run::open_run_on_postgres(connection, Lock::None, merchant_id, actor.clone(), key, drawn, &claims)
                        .await
                }
                Target::Sqlite(write) => {
                    run::read_run_on_sqlite(write.connection(), merchant_id, actor.clone(), key, &claims).await
                }
            };
            match read {
                Ok(Some(opened)) => runs.push(decide::decide_run(deadline, run, opened, &mut counters, &mut batch)),
                // No account yet: placing alone creates it (group.rs).
                read => {
                    let jobs = runs.into_iter().flat_map(|run| run.jobs).map(|(job, _)| job);
                    return Err(NotWritten {
                        jobs: jobs.chain(run).chain(waiting).collect(),
                        connection_suspect: read.is_err(),
                    });
                }
            }
        }
        self.commit(connection, batch, counters, runs).await
    }

    /// The group's one statement; then every order is answered, and what a group of one run
    /// that refused none of its orders leaves is known.
    async fn commit(
        &mut self,
        connection: Target<'_>,
        mut batch: StatementBatch,
        counters: CounterChanges,
        runs: Vec<Decided>,
    ) -> Result<(), NotWritten> {
        counters.add_to(&mut batch);
        let written = match connection {
            Target::Postgres(connection) => batch.execute(connection).await,
            Target::Sqlite(write) => write.run_in_one_hop(batch).await,
        };
        if let Err(error) = written {
            let jobs: Vec<Job> = runs.into_iter().flat_map(|run| run.jobs).map(|(job, _)| job).collect();
            // No answer came (the connection broke with the statement on its way): it may
            // have been written, and writing the orders again could place them twice.
            if crate::http::unavailable::outcome_unknown(&error) {
                decide::answer_outcome_unknown(jobs.into_iter(), &error);
                return Err(NotWritten { jobs: Vec::new(), connection_suspect: true });
            }
            // The database refused the statement (a guard, a unique key) and rolled it back;
            // the connection is as good as before. Anything else may have broken it.
            return Err(NotWritten { jobs, connection_suspect: error.as_database_error().is_none() });
        }
        let one_run = runs.len() == 1;
        for run in runs {
            let whole = !refuses(&run);
            let Decided { jobs, account, ids_left, offer } = run;
            if let (true, true, Some((job, _))) = (one_run, whole, jobs.first()) {
                let (merchant_id, actor) = (job.intent.merchant_id, job.actor.clone());
                self.known = Known::after(merchant_id, actor, account, offer, ids_left.into_left());
            }
            decide::answer_committed(jobs);
        }
        Ok(())
    }
}

fn fits(known: &Known, jobs: &[Job]) -> bool {
    jobs.first()
        .is_some_and(|job| known.fits(job.intent.merchant_id, &job.intent.line.product_key, &job.actor, jobs.len()))
}

/// Whether the run refuses any of its orders.
fn refuses(run: &Decided) -> bool {
    run.jobs.iter().any(|(_, decision)| matches!(decision, Decision::Refused(_)))
}
