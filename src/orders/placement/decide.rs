//! A run's orders decided, for both ways a group is written (group.rs under the account
//! lock, unlocked.rs without it): the job a placement waits in, the key that makes runs,
//! each order checked and charged against what the run's first hop read, and the answers
//! once the group is committed.

use crate::orders::counters::CounterChanges;

use super::alone::{self, BalanceChange};
use super::intent::PlaceIntent;
use super::run::{OrderIds, RunOpened};
use crate::http::error::AppError;
use crate::i18n::TradeMessage;
use crate::money::finance::ledger::{Account, Actor};
use crate::orders::store::{self, NewOrder, Offer};
use crate::platform::config::Deadlines;
use crate::platform::sql::StatementBatch;
use tokio::sync::oneshot;

pub type Placed = (NewOrder, i64, BalanceChange);

/// A placement waiting for its group.
pub struct Job {
    pub actor: Actor,
    pub intent: PlaceIntent,
    pub answer: oneshot::Sender<Result<Placed, AppError>>,
}

/// Orders of one merchant and product placed by one actor share a run: the account lock, the
/// offer and the ledger (whose records name the actor). Sorting by it puts a run together and
/// takes the accounts in merchant order.
pub fn run_key(job: &Job) -> (i64, &str, Option<i64>, &str) {
    (job.intent.merchant_id, &job.intent.line.product_key, job.actor.id, &job.actor.name)
}

/// Orders of a merchant that keeps one order in flight per number, for a number an
/// earlier order of the same group is placing: refused here (answered at once), the first
/// one left to be placed. Written together, the second would fail the unique index and with
/// it the whole group's write (`orders::risk`). A repeat of the first (the same merchant
/// order id) is kept: the merchant order id's rules answer it with the first order.
pub fn refuse_repeated_numbers(jobs: Vec<Job>) -> Vec<Job> {
    let mut numbers: std::collections::HashMap<(i64, String), Option<String>> = std::collections::HashMap::new();
    let mut kept = Vec::with_capacity(jobs.len());
    for job in jobs {
        // Read only for a merchant that keeps one order in flight per number: the writer's
        // time is every order's wait.
        let number =
            job.intent.single_flight.then(|| crate::domain::PhoneNumber::parse(&job.intent.line.account)).flatten();
        let repeated = number.is_some_and(|number| {
            let id = job.intent.line.merchant_order_id.clone().filter(|id| !id.trim().is_empty());
            match numbers.entry((job.intent.merchant_id, number.as_str().to_string())) {
                std::collections::hash_map::Entry::Vacant(vacant) => {
                    vacant.insert(id);
                    false
                }
                std::collections::hash_map::Entry::Occupied(first) => id.is_none() || *first.get() != id,
            }
        });
        if repeated {
            let reason = crate::domain::risk::RiskRefusal::NumberInFlight;
            let _ = job.answer.send(Err(crate::orders::risk::refused(reason, &Default::default())));
            continue;
        }
        kept.push(job);
    }
    kept
}

/// What became of one order of a run.
pub enum Decision {
    /// Charged, its row in the batch.
    Placed(Box<Placed>),
    /// Its merchant order id was taken: writes nothing, answered after the commit (its
    /// caller may then read the order that has it).
    Taken,
    /// Refused by its checks, or a replayed open-API nonce: writes nothing.
    Refused(AppError),
}

/// A run decided, its orders in the order they came.
pub struct Decided {
    pub jobs: Vec<(Job, Decision)>,
    /// The account as the run's writes leave it.
    pub account: Account,
    /// The ids the run did not use.
    pub ids_left: OrderIds,
    pub offer: Option<Offer>,
}

impl Decided {
    /// Answers the refused orders now and returns the others, for the commit.
    pub fn answer_refused(self) -> Vec<(Job, Decision)> {
        let mut rest = Vec::with_capacity(self.jobs.len());
        for (job, decision) in self.jobs {
            match decision {
                Decision::Refused(error) => {
                    let _ = job.answer.send(Err(error));
                }
                other => rest.push((job, other)),
            }
        }
        rest
    }
}

/// A run's orders checked one by one against what its first hop read (and the ledger as the
/// orders before them left it); the placed ones go into `batch` (their rows and the ledger)
/// and `counters`. Nothing is answered here.
pub fn decide_run(
    deadline: Deadlines,
    run: Vec<Job>,
    opened: RunOpened,
    counters: &mut CounterChanges,
    batch: &mut StatementBatch,
) -> Decided {
    let RunOpened { mut ledger, mut ids, offer, mut taken, standing } = opened;
    let mut jobs = Vec::with_capacity(run.len());
    for job in run {
        let decision = if let Err(refused) = standing.check() {
            Decision::Refused(refused)
        } else if !taken.take_nonce(&job.intent) {
            Decision::Refused(crate::http::replay::refused())
        } else if !taken.take_merchant_order_id(&job.intent) {
            Decision::Taken
        } else {
            match alone::build_and_charge(deadline, &job.intent, offer.as_ref(), &ledger, &job.actor) {
                Err(refused) => Decision::Refused(refused),
                Ok(order) => {
                    let id = ids.next().expect("an id for every order of the run");
                    let balance = alone::charge_order(&mut ledger, counters, id, &order);
                    Decision::Placed(Box::new((order, id, balance)))
                }
            }
        };
        jobs.push((job, decision));
    }
    let placed: Vec<(i64, &NewOrder)> = jobs
        .iter()
        .filter_map(|(_, decision)| match decision {
            Decision::Placed(placed) => Some((placed.1, &placed.0)),
            _ => None,
        })
        .collect();
    let account = if placed.is_empty() {
        ledger.account()
    } else {
        store::add_orders(batch, placed);
        ledger.add_to(batch)
    };
    Decided { jobs, account, ids_left: ids, offer }
}

/// Answers the orders of a committed group: each placed, or its merchant order id taken.
/// Answers orders whose statement or COMMIT got no answer from the database (the connection
/// broke on the way): they may be written, so none is written again; each caller is told to
/// retry by its key or merchant order id (503), which answers the order if it exists.
pub fn answer_outcome_unknown(jobs: impl ExactSizeIterator<Item = Job>, error: &sqlx::Error) {
    tracing::warn!(error = %error, orders = jobs.len(), "placement outcome unknown");
    for job in jobs {
        let _ = job.answer.send(Err(AppError::DatabaseUnavailable));
    }
}

pub fn answer_committed(jobs: Vec<(Job, Decision)>) {
    for (job, decision) in jobs {
        let answer = match decision {
            Decision::Placed(placed) => Ok(*placed),
            Decision::Taken => Err(AppError::Conflict(TradeMessage::MerchantOrderIdDuplicate.into())),
            Decision::Refused(error) => Err(error),
        };
        let _ = job.answer.send(answer);
    }
}
