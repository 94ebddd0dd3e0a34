//! The one place money moves. A [`Ledger`] is a merchant's account locked for the rest
//! of a transaction: changes are applied in memory, each writing one log record with
//! the balance and available credit before and after, and [`Ledger::flush`] stores the
//! new figures and the records. Nothing else updates `merchant_accounts` or writes
//! `account_log`, so the log always sums to the account.
//!
//! Sign convention: a record's `amount_fen` is the change of its account as the merchant
//! sees it. For the balance account that is the balance; for the credit account it is
//! the available credit (limit minus credit in use). So the balance records sum to the
//! balance, and the credit records sum to the available credit.

use crate::platform::db::now_millis;
use crate::platform::sql::{Bind, StatementBatch};
use sqlx::{AnyConnection, Row};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccountType {
    Balance = 1,
    Credit = 2,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeType {
    OrderDebit = 1,
    Refund = 2,
    TopUp = 3,
    CreditGranted = 4,
    Repayment = 5,
    Adjustment = 6,
    /// The price of a reversed success (冲正) given back.
    ReversalRefund = 7,
}

pub const ACCOUNT_TYPES: [(&str, i64); 2] = [("balance", 1), ("credit", 2)];
pub const CHANGE_TYPES: [(&str, i64); 7] = [
    ("order_debit", 1),
    ("refund", 2),
    ("topup", 3),
    ("credit_granted", 4),
    ("repayment", 5),
    ("adjustment", 6),
    ("reversal_refund", 7),
];

/// Who moved the money: a signed-in user, or the system (the worker).
#[derive(Debug, Clone)]
pub struct Actor {
    pub id: Option<i64>,
    pub name: String,
}

impl Actor {
    pub fn system() -> Self {
        Self { id: None, name: "system".to_string() }
    }

    /// A signed-in user: the handler passes who called, so that money code needs nothing
    /// from sign-in or sessions.
    pub fn user(user_id: i64, username: &str) -> Self {
        Self { id: Some(user_id), name: username.to_string() }
    }
}

#[derive(Debug, Clone, Copy, Default, serde::Serialize, utoipa::ToSchema)]
pub struct Account {
    pub balance_fen: i64,
    pub credit_limit_fen: i64,
    pub credit_used_fen: i64,
    pub total_topup_fen: i64,
}

impl Account {
    pub fn credit_available(&self) -> i64 {
        self.credit_limit_fen - self.credit_used_fen
    }

    /// What the merchant can spend: balance first, then credit.
    pub fn spendable(&self) -> i64 {
        self.balance_fen + self.credit_available()
    }

    /// Takes a price from these figures, balance first, then credit: the split, or
    /// `None` (and no change) when both together fall short.
    pub fn take(&mut self, price: i64) -> Option<(i64, i64)> {
        let from_balance = price.min(self.balance_fen);
        let from_credit = price - from_balance;
        if from_credit > self.credit_available() {
            return None;
        }
        self.balance_fen -= from_balance;
        self.credit_used_fen += from_credit;
        Some((from_balance, from_credit))
    }
}

/// The order a log record belongs to.
#[derive(Debug, Clone, Copy)]
pub struct OrderRef<'a> {
    pub id: i64,
    pub order_no: &'a str,
}

struct Record {
    account_type: AccountType,
    change_type: ChangeType,
    amount: i64,
    balance_before: i64,
    balance_after: i64,
    credit_before: i64,
    credit_after: i64,
    order_id: Option<i64>,
    order_no: Option<String>,
    remark: String,
    at: i64,
}

pub struct Ledger {
    merchant_id: i64,
    account: Account,
    actor: Actor,
    records: Vec<Record>,
    now: i64,
    /// The figures as read without the row lock ([`Ledger::from_unlocked_row`]): the
    /// account is then stored only if its row still holds them, else the caller's whole
    /// write fails ([`StatementBatch::push_guard`]).
    read_unlocked: Option<Account>,
}

/// Locks a merchant's account row and reads its figures: `$1` is the merchant id, `$2`
/// the time; the first four columns are the figures. Callers that need more in the same
/// round trip wrap it (a CTE on PostgreSQL, a statement beside it on SQLite) and pass the
/// result to [`Ledger::open_with`] or [`Ledger::from_locked_row`].
pub const LOCK_ACCOUNT: &str = "UPDATE merchant_accounts SET updated_at = $2 WHERE merchant_id = $1
     RETURNING balance_fen, credit_limit_fen, credit_used_fen, total_topup_fen";

/// The account's figures as [`LOCK_ACCOUNT`] returns them, read without a lock. A macro so
/// that the locking form below is a constant too.
macro_rules! read_account {
    () => {
        "SELECT balance_fen, credit_limit_fen, credit_used_fen, total_topup_fen
     FROM merchant_accounts WHERE merchant_id = $1 AND $2::bigint IS NOT NULL"
    };
}

/// [`LOCK_ACCOUNT`] for PostgreSQL statements that only read the account under the lock:
/// `FOR UPDATE` takes the row lock without writing a row version. The account row is the
/// hottest row of a merchant's orders; with the UPDATE every transaction left two versions of
/// it (the lock's and the balance's), and each next lock walked the chain of dead ones
/// (bench/README.md). `$2` (the time) is bound as for `LOCK_ACCOUNT` and not needed.
pub const LOCK_ACCOUNT_FOR_UPDATE: &str = concat!(read_account!(), " FOR UPDATE");

/// [`LOCK_ACCOUNT_FOR_UPDATE`] without the lock, for a ledger made by
/// [`Ledger::from_unlocked_row`], which writes only if the figures are still these.
pub const READ_ACCOUNT: &str = read_account!();

/// [`READ_ACCOUNT`] in SQLite's words, for a read outside the write transaction (where
/// [`LOCK_ACCOUNT`] would commit a write of its own).
pub const READ_ACCOUNT_SQLITE: &str = "SELECT balance_fen, credit_limit_fen, credit_used_fen, total_topup_fen
     FROM merchant_accounts WHERE merchant_id = $1 AND $2 IS NOT NULL";

impl Ledger {
    /// Locks the merchant's account (creating it empty if it never existed). On
    /// PostgreSQL the UPDATE takes the row lock, so every money movement of one merchant
    /// runs one after the other; on SQLite the caller's `BEGIN IMMEDIATE` already did.
    pub async fn open(connection: &mut AnyConnection, merchant_id: i64, actor: Actor) -> Result<Self, sqlx::Error> {
        Ok(Self::open_with(connection, merchant_id, actor, LOCK_ACCOUNT, None).await?.0)
    }

    /// The ledger of an account locked by a statement built on [`LOCK_ACCOUNT`] whose row
    /// starts with the account's four columns.
    pub fn from_locked_row(merchant_id: i64, actor: Actor, row: &sqlx::any::AnyRow) -> Result<Self, sqlx::Error> {
        let account = Account {
            balance_fen: row.try_get(0)?,
            credit_limit_fen: row.try_get(1)?,
            credit_used_fen: row.try_get(2)?,
            total_topup_fen: row.try_get(3)?,
        };
        Ok(Self { merchant_id, account, actor, records: Vec::new(), now: now_millis(), read_unlocked: None })
    }

    /// The ledger of an account read by a statement built on [`READ_ACCOUNT`], without the
    /// lock: every change is computed as under the lock, and storing it is guarded by the
    /// figures read, so a write that raced another money movement writes nothing at all.
    pub fn from_unlocked_row(merchant_id: i64, actor: Actor, row: &sqlx::any::AnyRow) -> Result<Self, sqlx::Error> {
        let ledger = Self::from_locked_row(merchant_id, actor.clone(), row)?;
        Ok(Self::from_unlocked_figures(merchant_id, actor, ledger.account))
    }

    /// [`Ledger::from_unlocked_row`] from figures known otherwise (the figures a write of
    /// the caller's own left): stored only if the account still holds them.
    pub fn from_unlocked_figures(merchant_id: i64, actor: Actor, account: Account) -> Self {
        Self { merchant_id, account, actor, records: Vec::new(), now: now_millis(), read_unlocked: Some(account) }
    }

    /// Runs `sql`, which locks and reads the account (built on [`LOCK_ACCOUNT`]; `$3`, if
    /// any, is `third_value`), and again after creating an account that did not exist.
    /// Returns the ledger and the whole row, for what else `sql` read with the lock.
    pub async fn open_with(
        connection: &mut AnyConnection,
        merchant_id: i64,
        actor: Actor,
        sql: &str,
        third_value: Option<&str>,
    ) -> Result<(Self, sqlx::any::AnyRow), sqlx::Error> {
        let now = now_millis();
        let query = || {
            let query = sqlx::query(sqlx::AssertSqlSafe(sql.to_string())).bind(merchant_id).bind(now);
            match third_value {
                Some(value) => query.bind(value.to_string()),
                None => query,
            }
        };
        let mut row = query().fetch_optional(&mut *connection).await?;
        if row.is_none() {
            sqlx::query(
                "INSERT INTO merchant_accounts (merchant_id, updated_at) VALUES ($1, $2) ON CONFLICT DO NOTHING",
            )
            .bind(merchant_id)
            .bind(now)
            .execute(&mut *connection)
            .await?;
            row = query().fetch_optional(&mut *connection).await?;
        }
        let row = row.ok_or(sqlx::Error::RowNotFound)?;
        let mut ledger = Self::from_locked_row(merchant_id, actor, &row)?;
        ledger.now = now;
        Ok((ledger, row))
    }

    pub fn account(&self) -> Account {
        self.account
    }

    /// The time of the records that follow (the generator writes history).
    pub fn set_time(&mut self, millis: i64) {
        self.now = millis;
    }

    /// How a price would be paid: from the balance first, the rest from credit.
    /// `None` when balance and available credit together fall short.
    pub fn split(&self, price: i64) -> Option<(i64, i64)> {
        let mut figures = self.account;
        figures.take(price)
    }

    fn push(
        &mut self,
        account_type: AccountType,
        change_type: ChangeType,
        amount: i64,
        order: Option<OrderRef>,
        remark: &str,
        change: impl FnOnce(&mut Account),
    ) {
        let before = self.account;
        change(&mut self.account);
        self.records.push(Record {
            account_type,
            change_type,
            amount,
            balance_before: before.balance_fen,
            balance_after: self.account.balance_fen,
            credit_before: before.credit_available(),
            credit_after: self.account.credit_available(),
            order_id: order.map(|order| order.id),
            order_no: order.map(|order| order.order_no.to_string()),
            remark: remark.to_string(),
            at: self.now,
        });
    }

    /// Charges an order as [`Ledger::split`] said: one record per account touched.
    pub fn debit_order(&mut self, (from_balance, from_credit): (i64, i64), order: OrderRef) {
        if from_balance > 0 {
            self.push(AccountType::Balance, ChangeType::OrderDebit, -from_balance, Some(order), "", |a| {
                a.balance_fen -= from_balance
            });
        }
        if from_credit > 0 {
            self.push(AccountType::Credit, ChangeType::OrderDebit, -from_credit, Some(order), "", |a| {
                a.credit_used_fen += from_credit
            });
        }
    }

    /// Gives a failed order's price back where it came from. Credit repaid since the
    /// order was placed cannot be "un-used" below zero: that part goes to the balance.
    pub fn refund_order(&mut self, paid: (i64, i64), order: OrderRef) {
        self.give_back(ChangeType::Refund, paid, order);
    }

    /// Gives a reversed success's price back, as a failure's (`refund_order`), logged as
    /// a reversal refund. The caller moves the order out of success in the same
    /// transaction, so an order is refunded at most once whichever way it ends.
    pub fn refund_reversal(&mut self, paid: (i64, i64), order: OrderRef) {
        self.give_back(ChangeType::ReversalRefund, paid, order);
    }

    fn give_back(&mut self, change_type: ChangeType, (paid_balance, paid_credit): (i64, i64), order: OrderRef) {
        let to_credit = paid_credit.min(self.account.credit_used_fen);
        let to_balance = paid_balance + (paid_credit - to_credit);
        if to_balance > 0 {
            self.push(AccountType::Balance, change_type, to_balance, Some(order), "", |a| a.balance_fen += to_balance);
        }
        if to_credit > 0 {
            self.push(AccountType::Credit, change_type, to_credit, Some(order), "", |a| a.credit_used_fen -= to_credit);
        }
    }

    pub fn top_up(&mut self, amount: i64, remark: &str) {
        self.push(AccountType::Balance, ChangeType::TopUp, amount, None, remark, |a| {
            a.balance_fen += amount;
            a.total_topup_fen += amount;
        });
    }

    /// Sets the credit limit; the caller has checked it is not below the credit in use.
    pub fn set_credit_limit(&mut self, limit: i64, remark: &str) {
        let delta = limit - self.account.credit_limit_fen;
        if delta != 0 {
            self.push(AccountType::Credit, ChangeType::CreditGranted, delta, None, remark, |a| {
                a.credit_limit_fen = limit
            });
        }
    }

    /// Records that the merchant paid back part of the credit in use.
    pub fn repay(&mut self, amount: i64, remark: &str) {
        self.push(AccountType::Credit, ChangeType::Repayment, amount, None, remark, |a| a.credit_used_fen -= amount);
    }

    /// Corrects the balance by a signed amount; the caller has checked it stays >= 0.
    pub fn adjust(&mut self, amount: i64, remark: &str) {
        self.push(AccountType::Balance, ChangeType::Adjustment, amount, None, remark, |a| a.balance_fen += amount);
    }

    /// Stores the account and appends the records (many rows per statement; on PostgreSQL
    /// their values bound as arrays, see [`crate::platform::sql::insert_rows`]).
    pub async fn flush(self, connection: &mut AnyConnection) -> Result<Account, sqlx::Error> {
        let mut batch = StatementBatch::default();
        let postgres = crate::platform::db::DatabaseKind::of(connection) == crate::platform::db::DatabaseKind::Postgres;
        let account = self.statements(&mut batch, postgres);
        batch.execute(connection).await?;
        Ok(account)
    }

    /// The statements that store the figures and the records, for a batch of statements
    /// run together; returns the account as it will be.
    pub fn add_to(self, batch: &mut StatementBatch) -> Account {
        // VALUES lists: a batch may become one statement of WITH clauses, whose placeholders
        // are renumbered; arrays gain nothing for the few records of a group.
        self.statements(batch, false)
    }

    fn statements(self, batch: &mut StatementBatch, postgres: bool) -> Account {
        if self.records.is_empty() {
            return self.account;
        }
        let mut update = "UPDATE merchant_accounts SET balance_fen = $1, credit_limit_fen = $2, credit_used_fen = $3,
             total_topup_fen = $4, updated_at = $5 WHERE merchant_id = $6"
            .to_string();
        let mut binds = vec![
            Bind::Int(self.account.balance_fen),
            Bind::Int(self.account.credit_limit_fen),
            Bind::Int(self.account.credit_used_fen),
            Bind::Int(self.account.total_topup_fen),
            Bind::Int(now_millis()),
            Bind::Int(self.merchant_id),
        ];
        match self.read_unlocked {
            None => batch.push(update, binds),
            Some(read) => {
                update.push_str(
                    " AND balance_fen = $7 AND credit_limit_fen = $8 AND credit_used_fen = $9 AND total_topup_fen = $10
                     RETURNING 1",
                );
                binds.extend(
                    [read.balance_fen, read.credit_limit_fen, read.credit_used_fen, read.total_topup_fen]
                        .map(Bind::Int),
                );
                batch.push_guard(update, binds);
            }
        }
        let rows = self.records.iter().map(|record| {
            vec![
                Bind::Int(self.merchant_id),
                Bind::Int(record.account_type as i64),
                Bind::Int(record.change_type as i64),
                Bind::Int(record.amount),
                Bind::Int(record.balance_before),
                Bind::Int(record.balance_after),
                Bind::Int(record.credit_before),
                Bind::Int(record.credit_after),
                Bind::OptInt(record.order_id),
                Bind::OptText(record.order_no.clone()),
                Bind::OptInt(self.actor.id),
                Bind::Text(self.actor.name.clone()),
                Bind::Text(record.remark.clone()),
                Bind::Int(record.at),
            ]
        });
        let head = "INSERT INTO account_log (merchant_id, account_type, change_type, amount_fen, balance_before_fen,
                 balance_after_fen, credit_before_fen, credit_after_fen, order_id, order_no, actor_id, actor_name,
                 remark, created_at)";
        for (sql, binds) in crate::platform::sql::insert_rows(postgres, head, rows.collect(), "") {
            batch.push(sql, binds);
        }
        self.account
    }
}

/// A merchant's balance as stored (0 for a merchant without an account yet).
pub async fn balance_of(pool: &sqlx::AnyPool, merchant_id: i64) -> Result<i64, sqlx::Error> {
    let balance: Option<i64> = sqlx::query_scalar("SELECT balance_fen FROM merchant_accounts WHERE merchant_id = $1")
        .bind(merchant_id)
        .fetch_optional(pool)
        .await?;
    Ok(balance.unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ledger(balance: i64, limit: i64, used: i64) -> Ledger {
        Ledger {
            merchant_id: 1,
            account: Account {
                balance_fen: balance,
                credit_limit_fen: limit,
                credit_used_fen: used,
                total_topup_fen: 0,
            },
            actor: Actor::system(),
            records: Vec::new(),
            now: 0,
            read_unlocked: None,
        }
    }

    #[test]
    fn prices_come_from_the_balance_first_then_credit() {
        let ledger = ledger(300, 500, 100);
        assert_eq!(ledger.split(200), Some((200, 0)));
        assert_eq!(ledger.split(500), Some((300, 200)));
        assert_eq!(ledger.split(700), Some((300, 400)));
        assert_eq!(ledger.split(701), None);
    }

    #[test]
    fn records_sum_to_the_figures() {
        let mut ledger = ledger(0, 0, 0);
        ledger.top_up(1000, "");
        ledger.set_credit_limit(500, "");
        let order = OrderRef { id: 1, order_no: "1" };
        let split = ledger.split(1200).unwrap();
        ledger.debit_order(split, order);
        ledger.repay(100, "");
        ledger.refund_order(split, order);
        let balance: i64 =
            ledger.records.iter().filter(|r| r.account_type == AccountType::Balance).map(|r| r.amount).sum();
        let credit: i64 =
            ledger.records.iter().filter(|r| r.account_type == AccountType::Credit).map(|r| r.amount).sum();
        assert_eq!(balance, ledger.account.balance_fen);
        assert_eq!(credit, ledger.account.credit_available());
        // 200 came from credit, 100 of it was repaid meanwhile: that part returns to the balance.
        assert_eq!(ledger.account.balance_fen, 1100);
        assert_eq!(ledger.account.credit_used_fen, 0);
        for record in &ledger.records {
            assert!(record.balance_after >= 0 && record.credit_after >= 0);
        }
    }
}
