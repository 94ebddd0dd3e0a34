//! A certification's states, shared by the merchant's form, the review queue and the licence
//! image (which can be replaced only while the certification is being audited).

pub const AUDITING: i64 = 0;
pub const PASSED: i64 = 1;
pub const REJECTED: i64 = 2;
pub const WITHDRAWN: i64 = 3;
