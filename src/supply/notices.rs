//! Message-center notices about channels to administrators, each leading to the channels
//! page.

use crate::i18n::notices::Notice;
use crate::identity::session::CurrentUser;
use crate::identity::user_centre::inbox::{Extras, MessageKind, Notification, notify_administrators};

/// The console's channels page.
pub const CHANNELS_PAGE: &str = "/qoute/channels";

/// A person switched a channel off: the other administrators hear of it, in the switch's
/// transaction.
pub async fn switched_off(
    connection: &mut sqlx::AnyConnection,
    channel_id: i64,
    name: &str,
    by: &CurrentUser,
) -> Result<(), sqlx::Error> {
    let detail = Notice::ChannelSwitchedOffDetail { name: name.to_string(), by: by.username.clone() };
    let (title, sub_title, content) = (Notice::ChannelSwitchedOff.stored(), Notice::Channels.stored(), detail.stored());
    let notification = Notification {
        kind: MessageKind::Notice,
        title: &title,
        sub_title: &sub_title,
        content: &content,
        message_type: 2,
    };
    tracing::info!(channel_id, by = %by.username, "channel switched off by a person");
    notify_administrators(connection, Some(by.user_id), notification, Extras::new(CHANNELS_PAGE, None)).await
}
