//! Where the live monitor raises its operational alerts (`live::alerts`): the review
//! queue ageing, a merchant's order notifications failing, notifications piling up.

use std::time::Duration;

#[derive(Debug, Clone)]
pub struct AlertLines {
    /// An order waiting in manual review longer than this (since it was placed) raises
    /// `review_aging`.
    pub review_oldest: Duration,
    /// So many orders in manual review raise it too, however young.
    pub review_count: i64,
    /// A merchant's notification deliveries of the last hour raise `callback_failing`
    /// from this many attempts on...
    pub callback_min_attempts: i64,
    /// ...when at least this many per thousand of them failed.
    pub callback_failure_permille: i64,
    /// Notifications waiting to be delivered (pending, or failed and due for a retry)
    /// from this many on raise `notification_backlog`.
    pub notification_backlog: i64,
}

impl Default for AlertLines {
    fn default() -> Self {
        Self {
            review_oldest: Duration::from_secs(3_600),
            review_count: 20,
            callback_min_attempts: 5,
            callback_failure_permille: 500,
            notification_backlog: 100,
        }
    }
}
