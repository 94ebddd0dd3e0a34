//! Reconciliation (对账) of one channel and one Beijing day: our successful attempts
//! against the supplier's statement, line by line by upstream order id.
//!
//! Our side is the attempts of the channel that succeeded on that day (by the time we
//! learned it, `answered_at`; the supplier dates a line by when it finished, so an order
//! finishing around midnight can fall on neighbouring days on the two sides: it then shows
//! as missing on one side of each day, which is what an administrator should look at).
//! Matching is pure ([`reconcile`]); reading is [`our_lines`] and the channel adapter's
//! `statement`.

use crate::domain::OrderStatus;
use crate::money::statements::Period;
use crate::platform::channel::statement::StatementLine;
use serde::Serialize;
use std::collections::HashMap;
use utoipa::ToSchema;

/// Differences listed in the JSON answer at most (the export has every line).
pub const MAX_LISTED_DIFFERENCES: usize = 5_000;
/// Lines missing on our side whose attempt we look up (to show its outcome) at most.
pub const MAX_OUTCOME_LOOKUPS: usize = 1_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = ReconcileKind)]
pub enum Kind {
    /// Both sides agree.
    Matched,
    /// The supplier lists a success we do not have as a success that day.
    MissingOurs,
    /// We have a success the supplier does not list.
    MissingTheirs,
    /// Both have it, with another face value or price.
    AmountMismatch,
    /// The supplier lists it as not successful; we have it as a success.
    StatusMismatch,
    /// The supplier lists our success as reversed (冲正): running the reconciliation
    /// reverses the order and refunds it (once).
    Reversed,
}

impl Kind {
    pub const ALL: [Kind; 6] = [
        Kind::Matched,
        Kind::MissingOurs,
        Kind::MissingTheirs,
        Kind::AmountMismatch,
        Kind::StatusMismatch,
        Kind::Reversed,
    ];

    pub fn index(self) -> usize {
        Kind::ALL.iter().position(|kind| *kind == self).unwrap_or(0)
    }
}

/// One of our successful attempts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OurLine {
    pub upstream_order_id: String,
    pub system_order_id: String,
    pub account: String,
    pub face_value_fen: i64,
    pub cost_fen: i64,
    pub serial_no: Option<String>,
    /// The order was reversed since (by the supplier's report or an administrator). The
    /// supplier's charge stands while its statement lists a success; a line it lists as
    /// reversed, or not at all, agrees with ours and is no difference.
    pub reversed: bool,
}

/// A line of the comparison: ours, theirs, or both.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[schema(as = ReconcileLine)]
pub struct Line {
    pub kind: Kind,
    pub upstream_order_id: String,
    /// Our order (null when we have no success for it).
    pub system_order_id: Option<String>,
    pub account: String,
    pub our_face_value_fen: Option<i64>,
    pub our_cost_fen: Option<i64>,
    pub their_face_value_fen: Option<i64>,
    pub their_price_fen: Option<i64>,
    /// The statement's status of the line (`success`, `failed`, ...).
    pub their_status: Option<String>,
    /// A reversed line: `reversed` once the order is. Missing on our side: what our attempt with that upstream id says (`pending`,
    /// `unknown`, `failed`, or `success` on another day); null when we never sent it.
    pub our_outcome: Option<String>,
    pub our_serial_no: Option<String>,
    pub their_serial_no: Option<String>,
}

/// Count and sums of one side (or of the matched lines).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, ToSchema)]
#[schema(as = ReconcileTotals)]
pub struct Totals {
    pub count: i64,
    pub face_value_fen: i64,
    /// Our cost, or the supplier's price, fen.
    pub amount_fen: i64,
}

impl Totals {
    fn add(&mut self, face_value_fen: i64, amount_fen: i64) {
        self.count += 1;
        self.face_value_fen += face_value_fen;
        self.amount_fen += amount_fen;
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Differences first (in the order of [`Kind::ALL`]), then the matched lines, each by
    /// upstream id.
    pub lines: Vec<Line>,
    pub ours: Totals,
    pub theirs: Totals,
    /// Lines both sides agree on, at our figures.
    pub matched: Totals,
    /// Lines of each kind, indexed like [`Kind::ALL`].
    pub counts: [i64; 6],
}

fn line(kind: Kind, our: Option<&OurLine>, their: Option<&StatementLine>) -> Line {
    Line {
        kind,
        upstream_order_id: our.map_or_else(
            || their.map(|t| t.upstream_order_id.clone()).unwrap_or_default(),
            |o| o.upstream_order_id.clone(),
        ),
        system_order_id: our.map(|o| o.system_order_id.clone()),
        account: our.map_or_else(|| their.map(|t| t.account.clone()).unwrap_or_default(), |o| o.account.clone()),
        our_face_value_fen: our.map(|o| o.face_value_fen),
        our_cost_fen: our.map(|o| o.cost_fen),
        their_face_value_fen: their.map(|t| t.face_value_fen),
        their_price_fen: their.map(|t| t.price_fen),
        their_status: their.map(|t| t.status.clone()),
        our_outcome: None,
        our_serial_no: our.and_then(|o| o.serial_no.clone()),
        their_serial_no: their.map(|t| t.serial_no.clone()).filter(|serial| !serial.is_empty()),
    }
}

/// Compares our successes with the supplier's lines by upstream order id.
pub fn reconcile(ours: &[OurLine], theirs: &[StatementLine]) -> Outcome {
    let mut outcome = Outcome::default();
    let mut open: HashMap<&str, &OurLine> = HashMap::with_capacity(ours.len());
    for our in ours {
        open.insert(our.upstream_order_id.as_str(), our);
    }
    for their in theirs {
        let our = open.remove(their.upstream_order_id.as_str());
        let kind = if their.succeeded() {
            outcome.theirs.add(their.face_value_fen, their.price_fen);
            match our {
                None => Kind::MissingOurs,
                Some(our) if our.face_value_fen != their.face_value_fen || our.cost_fen != their.price_fen => {
                    Kind::AmountMismatch
                }
                Some(our) => {
                    outcome.matched.add(our.face_value_fen, our.cost_fen);
                    Kind::Matched
                }
            }
        } else {
            // Both say it is not a success (a reversal already applied counts as ours
            // saying so): nothing to reconcile.
            if our.is_none_or(|our| our.reversed) {
                continue;
            }
            if their.reversed() { Kind::Reversed } else { Kind::StatusMismatch }
        };
        outcome.lines.push(line(kind, our, Some(their)));
    }
    for our in ours {
        if !our.reversed && open.contains_key(our.upstream_order_id.as_str()) {
            outcome.lines.push(line(Kind::MissingTheirs, Some(our), None));
        }
    }
    outcome.lines.sort_by(|a, b| {
        let rank = |kind: Kind| if kind == Kind::Matched { Kind::ALL.len() } else { kind.index() };
        rank(a.kind).cmp(&rank(b.kind)).then_with(|| a.upstream_order_id.cmp(&b.upstream_order_id))
    });
    for line in &outcome.lines {
        outcome.counts[line.kind.index()] += 1;
        // Ours: every line with our side (a reversal both sides agree on has no line).
        if let (Some(face_value_fen), Some(cost_fen)) = (line.our_face_value_fen, line.our_cost_fen) {
            outcome.ours.add(face_value_fen, cost_fen);
        }
    }
    outcome
}

/// Our successful attempts of a channel learned within the period: the successes that
/// `channel::results::tally` counts for the same span (the live monitor's and the channels
/// list's "today").
pub async fn our_lines(pool: &sqlx::AnyPool, channel_id: i64, period: Period) -> Result<Vec<OurLine>, sqlx::Error> {
    type Row = (String, String, String, i64, i64, Option<String>, i64);
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT a.upstream_order_id, o.system_order_id, o.account, o.face_value_fen, a.cost_fen, a.serial_no, o.status
         FROM order_attempts a JOIN orders o ON o.id = a.order_id
         WHERE a.channel_id = $1 AND a.outcome = 'success' AND a.answered_at >= $2 AND a.answered_at < $3",
    )
    .bind(channel_id)
    .bind(period.start)
    .bind(period.end)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(upstream_order_id, system_order_id, account, face_value_fen, cost_fen, serial_no, status)| OurLine {
            upstream_order_id,
            system_order_id,
            account,
            face_value_fen,
            cost_fen,
            serial_no,
            reversed: status == OrderStatus::Reversed.code(),
        })
        .collect())
}

/// Fills in, for lines missing on our side, what our attempt with that id says (an
/// unresolved or manual-review order the supplier did top up is the one to act on).
pub async fn add_our_outcomes(pool: &sqlx::AnyPool, channel_id: i64, lines: &mut [Line]) -> Result<(), sqlx::Error> {
    for line in lines.iter_mut().filter(|line| line.kind == Kind::MissingOurs).take(MAX_OUTCOME_LOOKUPS) {
        let found: Option<(String, String)> = sqlx::query_as(
            "SELECT a.outcome, o.system_order_id FROM order_attempts a JOIN orders o ON o.id = a.order_id
             WHERE a.channel_id = $1 AND a.upstream_order_id = $2",
        )
        .bind(channel_id)
        .bind(&line.upstream_order_id)
        .fetch_optional(pool)
        .await?;
        if let Some((outcome, system_order_id)) = found {
            line.our_outcome = Some(outcome);
            line.system_order_id = Some(system_order_id);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn our(id: &str, face: i64, cost: i64) -> OurLine {
        OurLine {
            upstream_order_id: id.into(),
            system_order_id: id.into(),
            account: "13800138000".into(),
            face_value_fen: face,
            cost_fen: cost,
            serial_no: None,
            reversed: false,
        }
    }

    fn their(id: &str, face: i64, price: i64, status: &str) -> StatementLine {
        StatementLine {
            upstream_order_id: id.into(),
            account: "13800138000".into(),
            face_value_fen: face,
            price_fen: price,
            serial_no: "S".into(),
            status: status.into(),
            reason: String::new(),
        }
    }

    #[test]
    fn every_kind_of_difference_is_found_and_totals_add_up() {
        let ours =
            [our("A", 1000, 980), our("B", 1000, 980), our("C", 1000, 980), our("D", 1000, 980), our("G", 1000, 980)];
        let theirs = [
            their("A", 1000, 980, "success"),
            their("B", 1000, 990, "success"),
            their("D", 1000, 980, "failed"),
            their("E", 5000, 4900, "success"),
            their("F", 5000, 4900, "failed"),
            their("G", 1000, 980, "reversed"),
            their("H", 1000, 980, "reversed"),
        ];
        let outcome = reconcile(&ours, &theirs);
        let kinds: Vec<(Kind, &str)> =
            outcome.lines.iter().map(|line| (line.kind, line.upstream_order_id.as_str())).collect();
        assert_eq!(
            kinds,
            [
                (Kind::MissingOurs, "E"),
                (Kind::MissingTheirs, "C"),
                (Kind::AmountMismatch, "B"),
                (Kind::StatusMismatch, "D"),
                (Kind::Reversed, "G"),
                (Kind::Matched, "A"),
            ]
        );
        assert_eq!(outcome.ours, Totals { count: 5, face_value_fen: 5000, amount_fen: 4900 });
        assert_eq!(outcome.theirs, Totals { count: 3, face_value_fen: 7000, amount_fen: 6870 });
        assert_eq!(outcome.matched, Totals { count: 1, face_value_fen: 1000, amount_fen: 980 });
        assert_eq!(outcome.counts, [1, 1, 1, 1, 1, 1]);
        assert_eq!(outcome.lines[2].our_cost_fen, Some(980));
        assert_eq!(outcome.lines[2].their_price_fen, Some(990));
    }

    #[test]
    fn a_reversal_already_applied_is_no_difference() {
        let reversed = |id: &str| OurLine { reversed: true, ..our(id, 1000, 980) };
        // R: reversed by the supplier and by us; S: we reversed, its statement leaves it out;
        // T: an administrator reversed it, the supplier's success (and charge) stands.
        let ours = [our("A", 1000, 980), reversed("R"), reversed("S"), reversed("T")];
        let theirs =
            [their("A", 1000, 980, "success"), their("R", 1000, 980, "reversed"), their("T", 1000, 980, "success")];
        let outcome = reconcile(&ours, &theirs);
        assert_eq!(outcome.counts, [2, 0, 0, 0, 0, 0]);
        assert_eq!(outcome.ours, Totals { count: 2, face_value_fen: 2000, amount_fen: 1960 });
        assert_eq!(outcome.matched, outcome.ours);
        assert_eq!(outcome.theirs, outcome.ours);
    }

    #[test]
    fn a_clean_day_has_no_differences() {
        let ours = [our("A", 1000, 980), our("B", 2000, 1960)];
        let theirs = [their("B", 2000, 1960, "success"), their("A", 1000, 980, "success")];
        let outcome = reconcile(&ours, &theirs);
        assert_eq!(outcome.counts, [2, 0, 0, 0, 0, 0]);
        assert_eq!(outcome.ours, outcome.theirs);
        assert_eq!(outcome.matched, outcome.ours);
    }
}
