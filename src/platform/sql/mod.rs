//! Helpers for the few statements whose text is assembled at run time: filtered lists
//! and multi-row inserts. The text is only ever put together from constants of our own
//! (column lists, conditions, placeholders); input travels as bound values, never as SQL.

use sqlx::Any;
use sqlx::any::AnyArguments;
use sqlx::query::Query;
use std::fmt::Write as _;

mod batch;
pub use batch::{AFTER_ALL, StatementBatch, guard_failed, shift_placeholders};

/// Bound values per statement: under SQLite's 32,766 and PostgreSQL's 65,535.
pub const MAX_BINDS: usize = 30_000;

/// Rows a PostgreSQL statement of [`insert_rows`] writes, bound as one array per column.
pub const POSTGRES_ROWS_PER_STATEMENT: usize = 10_000;

/// A value to bind, so that a statement's values can be collected before it is built.
#[derive(Debug, Clone)]
pub enum Bind {
    Int(i64),
    OptInt(Option<i64>),
    Text(String),
    OptText(Option<String>),
}

pub type AnyQuery<'q> = Query<'q, Any, AnyArguments>;

pub fn bind_all(mut query: AnyQuery<'_>, binds: Vec<Bind>) -> AnyQuery<'_> {
    for value in binds {
        query = match value {
            Bind::Int(value) => query.bind(value),
            Bind::OptInt(value) => query.bind(value),
            Bind::Text(value) => query.bind(value),
            Bind::OptText(value) => query.bind(value),
        };
    }
    query
}

/// `($1, $2), ($3, $4)` for `rows` rows of `columns` values.
pub fn values_list(rows: usize, columns: usize) -> String {
    let mut text = String::with_capacity(rows * columns * 6);
    for row in 0..rows {
        if row > 0 {
            text.push_str(", ");
        }
        text.push('(');
        for column in 0..columns {
            if column > 0 {
                text.push_str(", ");
            }
            text.push('$');
            text.push_str(&(row * columns + column + 1).to_string());
        }
        text.push(')');
    }
    text
}

/// Statement text for the connection's engine, for statements whose placeholders
/// appear once each and in order (multi-row inserts). SQLite keeps `$N` and `?N` in a
/// list of named parameters searched one by one, so preparing a statement with
/// thousands of values takes quadratic time (1.4 s for 30,000); plain `?` parameters are
/// numbered as they come, in no time.
pub fn for_engine(connection: &sqlx::AnyConnection, sql: String) -> sqlx::AssertSqlSafe<String> {
    if connection.backend_name() != "SQLite" {
        return sqlx::AssertSqlSafe(sql);
    }
    let mut text = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '$' {
            text.push('?');
            while chars.peek().is_some_and(char::is_ascii_digit) {
                chars.next();
            }
        } else {
            text.push(c);
        }
    }
    sqlx::AssertSqlSafe(text)
}

/// A WHERE clause under construction: conditions joined by AND, each with its values.
#[derive(Debug, Default, Clone)]
pub struct Conditions {
    parts: Vec<String>,
    pub binds: Vec<Bind>,
}

impl Conditions {
    /// Adds `template`, in which each `?` stands for the next of `values`.
    pub fn push(&mut self, template: &'static str, values: Vec<Bind>) {
        let mut text = String::new();
        let mut values = values.into_iter();
        for piece in template.split_inclusive('?') {
            if let Some(head) = piece.strip_suffix('?') {
                text.push_str(head);
                let value = values.next().expect("a value for every placeholder");
                self.binds.push(value);
                text.push('$');
                text.push_str(&self.binds.len().to_string());
            } else {
                text.push_str(piece);
            }
        }
        self.parts.push(text);
    }

    /// The next placeholder number, for values added after the conditions.
    pub fn next_placeholder(&self) -> usize {
        self.binds.len() + 1
    }

    pub fn where_clause(&self) -> String {
        if self.parts.is_empty() { String::new() } else { format!(" WHERE {}", self.parts.join(" AND ")) }
    }
}

/// `head` (`INSERT INTO t (a, b)`) for `rows`, then `tail` (`RETURNING …` or nothing), as
/// the statements that write them: on PostgreSQL one per 10,000 rows, its values bound as
/// arrays ([`unnest_rows`]); on SQLite VALUES lists of up to [`MAX_BINDS`] values.
pub fn insert_rows(postgres: bool, head: &str, rows: Vec<Vec<Bind>>, tail: &str) -> Vec<(String, Vec<Bind>)> {
    let columns = rows.first().map_or(1, Vec::len).max(1);
    let per_statement = if postgres { POSTGRES_ROWS_PER_STATEMENT } else { MAX_BINDS / columns };
    let tail = if tail.is_empty() { String::new() } else { format!(" {tail}") };
    let mut statements = Vec::new();
    let mut rows = rows.into_iter().peekable();
    while rows.peek().is_some() {
        let chunk: Vec<Vec<Bind>> = rows.by_ref().take(per_statement).collect();
        if postgres {
            if let Some((unnest, binds)) = unnest_rows(&chunk) {
                statements.push((format!("{head} SELECT {unnest}{tail}"), binds));
            }
        } else {
            let sql = format!("{head} VALUES {}{tail}", values_list(chunk.len(), columns));
            statements.push((sql, chunk.into_iter().flatten().collect()));
        }
    }
    statements
}

/// PostgreSQL: rows of values as one bound array per column, for
/// `INSERT … SELECT unnest($1::bigint[]), unnest($2::text[]), …`. Returns that select list
/// and its binds (each an array literal), or `None` for no rows. A multi-row VALUES list is a
/// bound value per cell that PostgreSQL receives, plans and sets up one by one: for a batch's
/// orders (32 columns, 937 rows a statement) that was a fifth of its database time
/// (bench/README.md); an array literal is parsed in one go. The arrays are unnested in the
/// select list, where PostgreSQL steps them in lockstep as it goes (ProjectSet): `FROM
/// unnest(a, b, …)` first copies every array into a store of its own (Function Scan), 10 ms
/// of an 85 ms insert of 2,500 orders. A column's type is the kind of its value in the first
/// row (every row binds the same kinds).
pub fn unnest_rows(rows: &[Vec<Bind>]) -> Option<(String, Vec<Bind>)> {
    let first = rows.first()?;
    // Sized from the first row: a range's arrays are a megabyte or more together, and each
    // would otherwise be copied again at every doubling as it grows.
    let mut arrays: Vec<String> = first
        .iter()
        .map(|value| {
            let mut array = String::with_capacity(rows.len() * (element_len(value) + 1) + 2);
            array.push('{');
            array
        })
        .collect();
    for (index, row) in rows.iter().enumerate() {
        for (array, value) in arrays.iter_mut().zip(row) {
            if index > 0 {
                array.push(',');
            }
            push_element(array, value);
        }
    }
    let mut types = Vec::with_capacity(first.len());
    for (position, value) in first.iter().enumerate() {
        let kind = match value {
            Bind::Int(_) | Bind::OptInt(_) => "bigint",
            Bind::Text(_) | Bind::OptText(_) => "text",
        };
        types.push(format!("unnest(${}::{kind}[])", position + 1));
    }
    let binds = arrays.into_iter().map(|mut array| {
        array.push('}');
        Bind::Text(array)
    });
    Some((types.join(", "), binds.collect()))
}

/// About how long an element's literal is, for sizing its array ahead (escapes aside).
fn element_len(value: &Bind) -> usize {
    match value {
        Bind::Int(number) | Bind::OptInt(Some(number)) => number.to_string().len() + 2,
        Bind::OptInt(None) | Bind::OptText(None) => 4,
        Bind::Text(text) | Bind::OptText(Some(text)) => text.len() + 2,
    }
}

/// One element of a PostgreSQL array literal: a number, NULL, or a double-quoted text with
/// its backslashes and double quotes escaped (so a text reading NULL stays a text).
fn push_element(array: &mut String, value: &Bind) {
    let text = match value {
        Bind::Int(number) | Bind::OptInt(Some(number)) => {
            // Written in place: no string of its own for each of a range's 50,000 numbers.
            let _ = write!(array, "{number}");
            return;
        }
        Bind::OptInt(None) | Bind::OptText(None) => {
            array.push_str("NULL");
            return;
        }
        Bind::Text(text) | Bind::OptText(Some(text)) => text,
    };
    array.push('"');
    if text.contains(['"', '\\']) {
        for c in text.chars() {
            if c == '"' || c == '\\' {
                array.push('\\');
            }
            array.push(c);
        }
    } else {
        array.push_str(text);
    }
    array.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_number_across_rows_and_conditions() {
        assert_eq!(values_list(2, 2), "($1, $2), ($3, $4)");
        let mut conditions = Conditions::default();
        conditions.push("a = ?", vec![Bind::Int(1)]);
        conditions.push("(b, c) < (?, ?)", vec![Bind::Int(2), Bind::Int(3)]);
        assert_eq!(conditions.where_clause(), " WHERE a = $1 AND (b, c) < ($2, $3)");
        assert_eq!(conditions.next_placeholder(), 4);
        assert_eq!(Conditions::default().where_clause(), "");
    }

    #[test]
    fn rows_become_one_array_literal_per_column() {
        let rows = vec![
            vec![Bind::Int(1), Bind::OptInt(None), Bind::Text("a \"b\" \\ c".into()), Bind::OptText(None)],
            vec![Bind::Int(-2), Bind::OptInt(Some(7)), Bind::Text("NULL".into()), Bind::OptText(Some("{,}".into()))],
        ];
        let (unnest, binds) = unnest_rows(&rows).unwrap();
        assert_eq!(unnest, "unnest($1::bigint[]), unnest($2::bigint[]), unnest($3::text[]), unnest($4::text[])");
        let texts: Vec<String> = binds
            .into_iter()
            .map(|bind| match bind {
                Bind::Text(text) => text,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(texts, ["{1,-2}", "{NULL,7}", r#"{"a \"b\" \\ c","NULL"}"#, r#"{NULL,"{,}"}"#]);
        assert!(unnest_rows(&[]).is_none());
    }

    #[test]
    fn inserted_rows_go_in_statements_each_engine_can_bind() {
        let rows = |count: usize| (0..count).map(|n| vec![Bind::Int(n as i64), Bind::Text(n.to_string())]).collect();
        let sqlite = insert_rows(false, "INSERT INTO t (a, b)", rows(MAX_BINDS / 2 + 1), "");
        assert_eq!(sqlite.len(), 2);
        assert_eq!((sqlite[0].1.len(), sqlite[1].1.len()), (MAX_BINDS, 2));
        assert!(sqlite[1].0.starts_with("INSERT INTO t (a, b) VALUES ($1, $2)"));
        let postgres = insert_rows(true, "INSERT INTO t (a, b)", rows(10_001), "RETURNING a");
        assert_eq!(postgres.len(), 2);
        assert_eq!(postgres[1].0, "INSERT INTO t (a, b) SELECT unnest($1::bigint[]), unnest($2::text[]) RETURNING a");
        assert_eq!(postgres[1].1.len(), 2);
        assert!(insert_rows(true, "INSERT INTO t (a)", Vec::new(), "").is_empty());
    }
}
