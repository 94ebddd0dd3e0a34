//! Who is calling: sign-in, sessions, passwords' throttles, two-factor, step-up codes, users,
//! the user centre (profile, certification, inbox) and merchants' API keys.

pub mod api_keys;
pub mod auth;
pub mod permissions;
pub mod recent;
pub mod security_history;
pub mod session;
pub mod staff;
pub mod step_up;
pub mod system_info;
pub mod throttle;
pub mod two_factor;
pub mod user_centre;
pub mod users;
pub mod views;
