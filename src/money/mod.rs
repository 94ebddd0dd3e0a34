//! Merchants' money: the ledger (the only code that moves money), balances and credit,
//! statements, and the administrators' merchant management.

pub mod finance;
pub mod funding;
pub mod merchant_admin;
pub mod statements;
