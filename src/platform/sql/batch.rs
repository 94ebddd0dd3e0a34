//! Statements written together (`StatementBatch`): in one round trip on SQLite, and as one
//! statement on PostgreSQL where they touch different rows, with guards that undo the whole
//! statement when rows read without their locks have changed.

use super::{Bind, bind_all, for_engine};
use std::fmt::Write as _;

/// Statements that return nothing, run in order on one connection: in one round trip on
/// SQLite (sqlx runs a text of several statements one after the other, numbering the `?`
/// of each on from the previous ones), one statement at a time on PostgreSQL, whose
/// protocol binds values to one statement only. Every hop to SQLite's connection thread
/// costs two thread switches, which is most of the cost of a small write.
///
/// A batch made with `one_statement` also goes in one round trip to PostgreSQL, as one
/// statement whose data-modifying WITH clauses run the others. There they all see the
/// database as it was before the statement, so its statements must touch different rows
/// and none may read what another writes (foreign keys are checked at the end, so an
/// INSERT may still refer to a row another one inserts). PostgreSQL runs those parts in an
/// order of its choosing; a statement added with `push_after_all` runs after all before it.
///
/// A statement added with `push_guard` must return exactly one row, or the batch fails and,
/// run as one statement or in a transaction, writes nothing: a write computed from rows read
/// without their locks is guarded by those rows as they were read (an UPDATE … RETURNING of
/// the row as read, `finance::ledger`; a SELECT of what must still hold, `orders/placement/run.rs`).
#[derive(Debug, Default)]
pub struct StatementBatch {
    statements: Vec<Statement>,
    one_statement: bool,
}

#[derive(Debug)]
struct Statement {
    sql: String,
    binds: Vec<Bind>,
    /// Waits for every statement before it (`push_after_all`).
    after_all: bool,
    /// Must return exactly one row (`push_guard`).
    guard: bool,
}

/// Where a statement added with `push_after_all` has its barrier.
pub const AFTER_ALL: &str = "{after_all}";

impl Statement {
    /// The text run one statement after another, where order is given.
    fn alone(self) -> (String, Vec<Bind>) {
        let sql = if self.after_all { self.sql.replace(AFTER_ALL, "TRUE") } else { self.sql };
        (sql, self.binds)
    }
}

/// `sql` with each placeholder `$n` renumbered `$(n + offset)`.
pub fn shift_placeholders(sql: &str, offset: usize) -> String {
    let mut text = String::with_capacity(sql.len() + 16);
    push_shifted(&mut text, sql, offset);
    text
}

/// Appends `sql` to `text` with each placeholder renumbered as [`shift_placeholders`]
/// does. It runs for every part of a lone order's statement and of a list's query, so it
/// copies the text between placeholders whole and writes each number in place.
fn push_shifted(text: &mut String, sql: &str, offset: usize) {
    let mut rest = sql;
    while let Some(at) = rest.find('$') {
        text.push_str(&rest[..=at]);
        rest = &rest[at + 1..];
        let (number, after) = rest.split_at(rest.bytes().take_while(u8::is_ascii_digit).count());
        match number.parse::<usize>() {
            Ok(n) => write!(text, "{}", n + offset).expect("writing to a String cannot fail"),
            Err(_) => text.push_str(number),
        }
        rest = after;
    }
    text.push_str(rest);
}

/// What a failed guard gives SQLite's `json()` to fail on ([`StatementBatch::execute_sqlite_transaction`]).
const GUARD_FAILED: &str = "guard failed";

/// The error of a batch whose guarded statement found its row changed, run one statement
/// at a time (as one statement, PostgreSQL raises `serialization_failure`, migration 0024).
pub fn guard_failed() -> sqlx::Error {
    sqlx::Error::RowNotFound
}

/// SQLite: the statements as one text, each ended by `;`, run one after the other in one hop.
/// SQLite has no statement that fails by the row count of another, so each guard is followed
/// by a check that raises an error (malformed JSON) unless the guard found exactly one row: a
/// SELECT guard is counted, an UPDATE … RETURNING guard is checked by `changes()`.
fn sqlite_text(statements: Vec<Statement>, connection: &sqlx::AnyConnection) -> (String, Vec<Bind>) {
    let mut text = String::new();
    let mut all_binds = Vec::new();
    for statement in statements {
        let guard = statement.guard;
        let (sql, binds) = statement.alone();
        let sql = for_engine(connection, sql).0;
        if guard && sql.trim_start().starts_with("SELECT") {
            text.push_str(&format!(
                "SELECT json(CASE WHEN (SELECT COUNT(*) FROM ({sql})) = 1 THEN '1' ELSE '{GUARD_FAILED}' END);\n"
            ));
        } else {
            text.push_str(&sql);
            text.push_str(";\n");
            if guard {
                text.push_str(&format!("SELECT json(CASE WHEN changes() = 1 THEN '1' ELSE '{GUARD_FAILED}' END);\n"));
            }
        }
        all_binds.extend(binds);
    }
    (text, all_binds)
}

/// PostgreSQL: the statements as one, every one but the last in a WITH clause.
/// A statement added with `push_after_all` gets, in place of [`AFTER_ALL`], a condition on
/// the row count of every part before it (each returning a row per row it writes): the
/// condition is evaluated before its first row, and evaluating it runs those parts to
/// their end. With guards, every statement is a WITH clause, and the statement's own query
/// counts the guards' rows: `guarded_rows_unchanged` (migration 0024) raises unless each
/// returned one, which fails the statement and so undoes every part of it.
fn as_one_statement(statements: Vec<Statement>) -> (String, Vec<Bind>) {
    let count = statements.len();
    let guards: Vec<usize> = (0..count).filter(|&index| statements[index].guard).collect();
    let last_clause = if guards.is_empty() { count - 1 } else { count };
    // Guards return their rows themselves.
    let returning: Vec<bool> = (0..count)
        .map(|index| !statements[index].guard && statements[index + 1..].iter().any(|s| s.after_all))
        .collect();
    // Sized for the parts and what joins them, so the text is not copied as it grows.
    let mut text = String::with_capacity(statements.iter().map(|s| s.sql.len() + 80).sum::<usize>() + 96 * count);
    let mut all_binds = Vec::with_capacity(statements.iter().map(|s| s.binds.len()).sum());
    for (index, Statement { mut sql, binds, after_all, .. }) in statements.into_iter().enumerate() {
        if after_all {
            let counts: Vec<String> = (0..index).map(|step| format!("(SELECT COUNT(*) FROM step_{step})")).collect();
            let barrier = if counts.is_empty() { "TRUE".to_string() } else { format!("{} >= 0", counts.join(" + ")) };
            sql = sql.replace(AFTER_ALL, &barrier);
        }
        if returning[index] {
            sql.push_str(" RETURNING 1");
        }
        if index < last_clause {
            text.push_str(if index == 0 { "WITH " } else { ",\n" });
            write!(text, "step_{index} AS (").expect("writing to a String cannot fail");
            push_shifted(&mut text, &sql, all_binds.len());
            text.push(')');
        } else {
            text.push('\n');
            push_shifted(&mut text, &sql, all_binds.len());
        }
        all_binds.extend(binds);
    }
    if !guards.is_empty() {
        let counts: Vec<String> = guards.iter().map(|step| format!("(SELECT COUNT(*) FROM step_{step})")).collect();
        text.push_str(&format!("\nSELECT guarded_rows_unchanged({}, {})", counts.join(" + "), guards.len()));
    }
    (text, all_binds)
}

impl StatementBatch {
    /// A batch whose statements are independent (see the type's comment).
    pub fn one_statement() -> Self {
        Self { statements: Vec::new(), one_statement: true }
    }

    /// Adds a statement whose placeholders appear once each and in order.
    pub fn push(&mut self, sql: String, binds: Vec<Bind>) {
        self.statements.push(Statement { sql, binds, after_all: false, guard: false });
    }

    /// Adds a statement that must return exactly one row (an UPDATE … RETURNING whose WHERE
    /// clause names the row as it was read, or a SELECT of what must still hold); else the
    /// batch fails. Run one statement at a time, the statements before it have run by then:
    /// such a batch belongs in a transaction, whose rollback undoes them.
    pub fn push_guard(&mut self, sql: String, binds: Vec<Bind>) {
        self.statements.push(Statement { sql, binds, after_all: false, guard: true });
    }

    /// Adds a statement that writes nothing before every statement added before it has
    /// finished (two transactions that take the same row locks in different orders can
    /// deadlock). `sql` has [`AFTER_ALL`] as a condition of its WHERE clause (an `INSERT …
    /// SELECT`); run one after another it is TRUE.
    pub fn push_after_all(&mut self, sql: String, binds: Vec<Bind>) {
        self.statements.push(Statement { sql, binds, after_all: true, guard: false });
    }

    /// SQLite: the batch as a whole transaction in one hop to the connection thread, from
    /// `begin` (`BEGIN IMMEDIATE`) to `COMMIT` ([`sqlite_text`] in between). Any error stops
    /// the text where it is, with the transaction still open: the caller rolls it back
    /// (`SqliteWrite::run_in_one_hop`).
    pub async fn execute_sqlite_transaction(
        self,
        connection: &mut sqlx::AnyConnection,
        begin: &str,
    ) -> Result<(), sqlx::Error> {
        let (statements, all_binds) = sqlite_text(self.statements, connection);
        let text = format!("{begin};\n{statements}COMMIT;");
        bind_all(sqlx::query(sqlx::AssertSqlSafe(text)), all_binds).execute(&mut *connection).await?;
        Ok(())
    }

    pub async fn execute(self, connection: &mut sqlx::AnyConnection) -> Result<(), sqlx::Error> {
        if self.statements.is_empty() {
            return Ok(());
        }
        let guarded = self.statements.iter().any(|statement| statement.guard);
        if self.one_statement && connection.backend_name() != "SQLite" && (self.statements.len() > 1 || guarded) {
            let (text, all_binds) = as_one_statement(self.statements);
            bind_all(sqlx::query(sqlx::AssertSqlSafe(text)), all_binds).execute(&mut *connection).await?;
        } else if connection.backend_name() == "SQLite" && !guarded {
            let (text, all_binds) = sqlite_text(self.statements, connection);
            bind_all(sqlx::query(sqlx::AssertSqlSafe(text)), all_binds).execute(&mut *connection).await?;
        } else {
            for statement in self.statements {
                let guard = statement.guard;
                let (sql, binds) = statement.alone();
                let query = bind_all(sqlx::query(for_engine(connection, sql)), binds);
                if !guard {
                    query.execute(&mut *connection).await?;
                } else if query.fetch_all(&mut *connection).await?.len() != 1 {
                    return Err(guard_failed());
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_renumbered_wherever_they_stand() {
        assert_eq!(shift_placeholders("$1", 9), "$10");
        assert_eq!(shift_placeholders("x = $99", 1), "x = $100");
        assert_eq!(shift_placeholders("'中$2文', $", 2), "'中$4文', $");
        assert_eq!(shift_placeholders("$$1$", 1), "$$2$");
        assert_eq!(shift_placeholders("no placeholder", 5), "no placeholder");
        // Too long to be a number: left as it was.
        assert_eq!(shift_placeholders("$99999999999999999999999", 1), "$99999999999999999999999");
    }

    #[test]
    fn one_statement_chains_writes_and_numbers_their_values_on() {
        assert_eq!(shift_placeholders("a = $1, b = $12, c = '$'", 3), "a = $4, b = $15, c = '$'");
        let statement = |sql: &str, binds: Vec<i64>| Statement {
            sql: sql.to_string(),
            binds: binds.into_iter().map(Bind::Int).collect(),
            after_all: false,
            guard: false,
        };
        let (text, binds) = as_one_statement(vec![
            statement("UPDATE t SET a = $1 WHERE id = $2", vec![1, 2]),
            statement("INSERT INTO u (a) VALUES ($1)", vec![3]),
            statement("INSERT INTO v (a, b) VALUES ($1, $2)", vec![4, 5]),
        ]);
        assert_eq!(
            text,
            "WITH step_0 AS (UPDATE t SET a = $1 WHERE id = $2),\nstep_1 AS (INSERT INTO u (a) VALUES ($3))\n\
             INSERT INTO v (a, b) VALUES ($4, $5)"
        );
        assert_eq!(binds.len(), 5);
    }

    #[test]
    fn a_statement_after_all_waits_for_the_row_counts_of_the_parts_before_it() {
        let mut batch = StatementBatch::one_statement();
        batch.push("UPDATE t SET a = $1".to_string(), vec![Bind::Int(1)]);
        batch.push("INSERT INTO u (a) VALUES ($1)".to_string(), vec![Bind::Int(2)]);
        batch.push_after_all(
            format!("INSERT INTO v (a) SELECT * FROM (VALUES ($1)) AS x WHERE {AFTER_ALL}"),
            vec![Bind::Int(3)],
        );
        let (text, _) = as_one_statement(batch.statements);
        assert_eq!(
            text,
            "WITH step_0 AS (UPDATE t SET a = $1 RETURNING 1),\nstep_1 AS (INSERT INTO u (a) VALUES ($2) RETURNING 1)\n\
             INSERT INTO v (a) SELECT * FROM (VALUES ($3)) AS x \
             WHERE (SELECT COUNT(*) FROM step_0) + (SELECT COUNT(*) FROM step_1) >= 0"
        );
        let alone =
            Statement { sql: format!("SELECT 1 WHERE {AFTER_ALL}"), binds: vec![], after_all: true, guard: false };
        assert_eq!(alone.alone().0, "SELECT 1 WHERE TRUE");
    }

    #[test]
    fn guards_return_their_rows_and_the_statement_counts_them_last() {
        let mut batch = StatementBatch::one_statement();
        batch.push("INSERT INTO u (a) VALUES ($1)".to_string(), vec![Bind::Int(1)]);
        batch.push_guard("UPDATE t SET a = $1 WHERE id = $2 AND a = $3 RETURNING 1".to_string(), vec![Bind::Int(2); 3]);
        batch.push("INSERT INTO v (a) VALUES ($1)".to_string(), vec![Bind::Int(4)]);
        let (text, binds) = as_one_statement(batch.statements);
        assert_eq!(
            text,
            "WITH step_0 AS (INSERT INTO u (a) VALUES ($1)),\n\
             step_1 AS (UPDATE t SET a = $2 WHERE id = $3 AND a = $4 RETURNING 1),\n\
             step_2 AS (INSERT INTO v (a) VALUES ($5))\n\
             SELECT guarded_rows_unchanged((SELECT COUNT(*) FROM step_1), 1)"
        );
        assert_eq!(binds.len(), 5);
        // A guard alone is a WITH clause too, so that its row count can be checked.
        let mut alone = StatementBatch::one_statement();
        alone.push_guard("UPDATE t SET a = $1 RETURNING 1".to_string(), vec![Bind::Int(1)]);
        alone.push_guard("SELECT 1 WHERE EXISTS (SELECT 1 FROM w WHERE a = $1)".to_string(), vec![Bind::Int(1)]);
        alone.push_after_all(format!("INSERT INTO v (a) SELECT 1 WHERE {AFTER_ALL}"), vec![]);
        assert_eq!(
            as_one_statement(alone.statements).0,
            "WITH step_0 AS (UPDATE t SET a = $1 RETURNING 1),\n\
             step_1 AS (SELECT 1 WHERE EXISTS (SELECT 1 FROM w WHERE a = $2)),\n\
             step_2 AS (INSERT INTO v (a) SELECT 1 WHERE (SELECT COUNT(*) FROM step_0) + (SELECT COUNT(*) FROM step_1) >= 0)\n\
             SELECT guarded_rows_unchanged((SELECT COUNT(*) FROM step_0) + (SELECT COUNT(*) FROM step_1), 2)"
        );
    }
}
