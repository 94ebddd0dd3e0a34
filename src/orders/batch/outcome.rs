//! Row outcomes. A placed line keeps 0 (valid) and is shown as 2 when its order exists;
//! versions before that stored 2, which is still read as placed.

pub const VALID: i64 = 0;
pub const INVALID: i64 = 1;
pub const PLACED: i64 = 2;
pub const REFUSED: i64 = 3;
