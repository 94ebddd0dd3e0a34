//! What a change of the notify URL or the IP whitelist leaves in the security history; both
//! forms that save them (`integration.rs`, `profile.rs`) come here.

use crate::i18n::security::SecurityDetail;
use crate::identity::security_history as history;
use crate::identity::session::CurrentUser;

/// The notify URL and IP whitelist before a change, read in the change's transaction.
pub async fn settings_before(
    connection: &mut sqlx::AnyConnection,
    user_id: i64,
) -> Result<(String, String), sqlx::Error> {
    let (notify_url, ip_whitelist): (Option<String>, Option<String>) =
        sqlx::query_as("SELECT notify_url, ip_whitelist FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_one(&mut *connection)
            .await?;
    Ok((notify_url.unwrap_or_default(), ip_whitelist.unwrap_or_default()))
}

/// Records in the security history which of the settings a save changed (`None`: left as it
/// was); saving the same settings again is no event. Both forms that save them come here.
pub async fn record_change(
    connection: &mut sqlx::AnyConnection,
    caller: &CurrentUser,
    before: &(String, String),
    after: (Option<&str>, Option<&str>),
    address: &str,
) -> Result<(), sqlx::Error> {
    let changed = |before: &str, after: Option<&str>| after.is_some_and(|after| after != before);
    let detail = SecurityDetail::Integration {
        notify_url: changed(&before.0, after.0),
        ip_whitelist: changed(&before.1, after.1),
    };
    if detail == (SecurityDetail::Integration { notify_url: false, ip_whitelist: false }) {
        return Ok(());
    }
    let event = history::Event::by(caller, history::kind::INTEGRATION_CHANGED, detail, address);
    history::record(&mut *connection, &event).await
}
