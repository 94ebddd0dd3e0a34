//! The group-commit engine behind `orders::place`, whose files only call
//! downwards: `group` queues the orders that arrive together and commits them as one
//! transaction (`run` reads and writes a group, `decide` builds and charges each order of
//! it, `unlocked` runs a group without the account lock when it can), falling back to
//! `alone` (one order, one transaction) when a group cannot commit; `intent` is what an
//! order must be to be placed.

pub mod alone;
pub(crate) mod decide;
pub mod group;
pub mod intent;
pub mod run;
pub(crate) mod unlocked;
