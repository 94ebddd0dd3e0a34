//! The message center: messages, notices and to-dos per user,
//! unread (0) or read (1). Other modules call [`notify`] when something happens that
//! the user should hear about (password changed, certification decided, ...).

use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::extract::JsonBody;
use crate::i18n::Message;
use crate::i18n::UserCentreMessage as Text;
use crate::identity::session::CurrentUser;
use crate::platform::db::{millis_to_rfc3339, now_millis};
use crate::platform::state::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::{AnyPool, Row};
use utoipa::ToSchema;

/// The three tabs of the message center.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum MessageKind {
    Message,
    Notice,
    Todo,
}

impl MessageKind {
    pub fn as_str(self) -> &'static str {
        match self {
            MessageKind::Message => "message",
            MessageKind::Notice => "notice",
            MessageKind::Todo => "todo",
        }
    }
}

/// Something to tell a user. Titles are stored in the language they were written in;
/// events write both languages into title and sub-title (zh first, the console's default).
#[derive(Debug, Clone, Copy)]
pub struct Notification<'a> {
    pub kind: MessageKind,
    pub title: &'a str,
    pub sub_title: &'a str,
    pub content: &'a str,
    /// 0 to 3 on notices and to-dos: 0 info, 1 success, 2 warning, 3 urgent.
    pub message_type: i64,
}

impl<'a> Notification<'a> {
    /// A notice (the message center's first tab) of `message_type` 0 to 3.
    pub fn notice(title: &'a str, sub_title: &'a str, content: &'a str, message_type: i64) -> Self {
        Self { kind: MessageKind::Notice, title, sub_title, content, message_type }
    }
}

/// Where a notice leads and what makes it one of a kind.
#[derive(Debug, Clone, Copy, Default)]
pub struct Extras<'a> {
    /// A console route the message center opens (`/finance/account`, `/order/allAddList`, ...).
    pub link: Option<&'a str>,
    /// Names the event told of: a second notice with the same key for the same user is
    /// not written, so a retried call, a replayed attempt or two servers tell it once.
    pub dedupe_key: Option<&'a str>,
}

impl<'a> Extras<'a> {
    pub fn new(link: &'a str, dedupe_key: Option<&'a str>) -> Self {
        Self { link: Some(link), dedupe_key }
    }
}

/// Puts a message in a user's inbox: through a transaction's connection, it commits with the
/// change it tells of.
pub async fn notify<'c>(
    executor: impl sqlx::Executor<'c, Database = sqlx::Any>,
    user_id: i64,
    notification: Notification<'_>,
) -> Result<(), sqlx::Error> {
    notify_with(executor, user_id, notification, Extras::default()).await.map(|_| ())
}

/// [`notify`] with a link and a key against duplicates; false when the key was told already.
pub async fn notify_with<'c>(
    executor: impl sqlx::Executor<'c, Database = sqlx::Any>,
    user_id: i64,
    notification: Notification<'_>,
    extras: Extras<'_>,
) -> Result<bool, sqlx::Error> {
    let written = sqlx::query(
        "INSERT INTO inbox_messages (user_id, kind, title, sub_title, content, message_type, status, created_at,
                                     link, dedupe_key)
         VALUES ($1, $2, $3, $4, $5, $6, 0, $7, $8, $9)
         ON CONFLICT (user_id, dedupe_key) DO NOTHING",
    )
    .bind(user_id)
    .bind(notification.kind.as_str())
    .bind(notification.title)
    .bind(notification.sub_title)
    .bind(notification.content)
    .bind(notification.message_type)
    .bind(now_millis())
    .bind(extras.link)
    .bind(extras.dedupe_key)
    .execute(executor)
    .await?;
    Ok(written.rows_affected() == 1)
}

/// Puts the same message in the inbox of every user of a merchant, through the change's
/// transaction.
pub async fn notify_merchant(
    connection: &mut sqlx::AnyConnection,
    merchant_id: i64,
    notification: Notification<'_>,
) -> Result<(), sqlx::Error> {
    notify_merchant_with(connection, merchant_id, notification, Extras::default()).await
}

/// [`notify_merchant`] with a link and a key against duplicates.
pub async fn notify_merchant_with(
    connection: &mut sqlx::AnyConnection,
    merchant_id: i64,
    notification: Notification<'_>,
    extras: Extras<'_>,
) -> Result<(), sqlx::Error> {
    let users: Vec<i64> = sqlx::query_scalar("SELECT id FROM users WHERE merchant_id = $1")
        .bind(merchant_id)
        .fetch_all(&mut *connection)
        .await?;
    for user_id in users {
        notify_with(&mut *connection, user_id, notification, extras).await?;
    }
    Ok(())
}

/// Puts the same message in the inbox of every administrator but `except` (the one who
/// did what it tells of), through the change's transaction.
pub async fn notify_administrators(
    connection: &mut sqlx::AnyConnection,
    except: Option<i64>,
    notification: Notification<'_>,
    extras: Extras<'_>,
) -> Result<(), sqlx::Error> {
    let administrators: Vec<i64> = sqlx::query_scalar("SELECT id FROM users WHERE role = 'admin' AND id <> $1")
        .bind(except.unwrap_or(0))
        .fetch_all(&mut *connection)
        .await?;
    for administrator in administrators {
        notify_with(&mut *connection, administrator, notification, extras).await?;
    }
    Ok(())
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct MessageListRequest {
    /// Only this tab; omitted: all three.
    #[serde(rename = "type")]
    pub kind: Option<MessageKind>,
}

/// One message as the message center lists it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MessageItem {
    pub id: i64,
    #[serde(rename = "type")]
    #[schema(value_type = MessageKind)]
    pub kind: String,
    pub title: String,
    pub sub_title: String,
    pub avatar: String,
    pub content: String,
    pub time: String,
    pub message_type: i64,
    /// 0 unread, 1 read.
    pub status: i64,
    /// A console route (hash path, e.g. `/finance/account`) the message leads to; null: none.
    pub link: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct UnreadCounts {
    pub message: i64,
    pub notice: i64,
    pub todo: i64,
    pub total: i64,
}

/// The caller's messages, newest first (at most 200 per tab).
#[utoipa::path(post, path = "/adminapi/message/list", tag = "message", request_body = MessageListRequest,
    responses((status = 200, description = "`data` is a list of MessageItem", body = [MessageItem])), security(("token" = [])))]
pub async fn list(
    State(state): State<AppState>,
    caller: CurrentUser,
    JsonBody(request): JsonBody<MessageListRequest>,
) -> ApiResult<Vec<MessageItem>> {
    let rows = match request.kind {
        Some(kind) => {
            sqlx::query("SELECT * FROM inbox_messages WHERE user_id = $1 AND kind = $2 ORDER BY id DESC LIMIT 200")
                .bind(caller.user_id)
                .bind(kind.as_str())
                .fetch_all(&state.db.pool)
                .await?
        }
        None => {
            sqlx::query("SELECT * FROM inbox_messages WHERE user_id = $1 ORDER BY id DESC LIMIT 600")
                .bind(caller.user_id)
                .fetch_all(&state.db.pool)
                .await?
        }
    };
    let items = rows
        .iter()
        .map(|row| {
            Ok(MessageItem {
                id: row.try_get("id")?,
                kind: row.try_get("kind")?,
                title: row.try_get("title")?,
                sub_title: row.try_get("sub_title")?,
                avatar: row.try_get("avatar")?,
                content: row.try_get("content")?,
                time: millis_to_rfc3339(row.try_get("created_at")?),
                message_type: row.try_get("message_type")?,
                status: row.try_get("status")?,
                link: row.try_get("link")?,
            })
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
    Ok(ApiOk(items))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct MarkReadRequest {
    /// Ids of the caller's messages (at most 1,000); ids of other users' messages are ignored.
    #[schema(schema_with = message_ids)]
    pub ids: Value,
}

/// What `parse_ids` takes: at most 1,000 positive ids.
fn message_ids() -> utoipa::openapi::schema::Schema {
    use utoipa::openapi::schema::{ArrayBuilder, KnownFormat, ObjectBuilder, Schema, SchemaFormat, SchemaType, Type};
    let id = ObjectBuilder::new()
        .schema_type(SchemaType::new(Type::Integer))
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
        .minimum(Some(1.0));
    Schema::Array(ArrayBuilder::new().items(id).max_items(Some(1000)).build())
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MarkReadResult {
    /// How many messages went from unread to read.
    pub marked: u64,
    pub unread: UnreadCounts,
}

fn parse_ids(value: Value) -> Result<Vec<i64>, AppError> {
    let invalid = || AppError::field("ids", Message::UserCentre(Text::IdsInvalid));
    let Value::Array(items) = value else { return Err(invalid()) };
    if items.len() > 1000 {
        return Err(invalid());
    }
    items.into_iter().map(|item| item.as_i64().filter(|id| *id > 0).ok_or_else(invalid)).collect()
}

/// Marks the given messages read (status 0 becomes 1).
#[utoipa::path(post, path = "/adminapi/message/read", tag = "message", request_body = MarkReadRequest,
    responses((status = 200, description = "`data` is a MarkReadResult", body = MarkReadResult)), security(("token" = [])))]
pub async fn mark_read(
    State(state): State<AppState>,
    caller: CurrentUser,
    JsonBody(request): JsonBody<MarkReadRequest>,
) -> ApiResult<MarkReadResult> {
    let ids = parse_ids(request.ids)?;
    let now = now_millis();
    let mut marked = 0;
    // The user id in the condition is what keeps one user from touching another's messages.
    for id in ids {
        marked += sqlx::query(
            "UPDATE inbox_messages SET status = 1, read_at = $1 WHERE id = $2 AND user_id = $3 AND status = 0",
        )
        .bind(now)
        .bind(id)
        .bind(caller.user_id)
        .execute(&state.db.pool)
        .await?
        .rows_affected();
    }
    Ok(ApiOk(MarkReadResult { marked, unread: unread_counts(&state.db.pool, caller.user_id).await? }))
}

/// Marks every unread message of the caller read, or those of one tab.
#[utoipa::path(post, path = "/adminapi/message/readAll", tag = "message", request_body = MessageListRequest,
    responses((status = 200, description = "`data` is a MarkReadResult", body = MarkReadResult)), security(("token" = [])))]
pub async fn mark_all_read(
    State(state): State<AppState>,
    caller: CurrentUser,
    JsonBody(request): JsonBody<MessageListRequest>,
) -> ApiResult<MarkReadResult> {
    let now = now_millis();
    let result =
        match request.kind {
            Some(kind) => sqlx::query(
                "UPDATE inbox_messages SET status = 1, read_at = $1 WHERE user_id = $2 AND kind = $3 AND status = 0",
            )
            .bind(now)
            .bind(caller.user_id)
            .bind(kind.as_str())
            .execute(&state.db.pool)
            .await?,
            None => {
                sqlx::query("UPDATE inbox_messages SET status = 1, read_at = $1 WHERE user_id = $2 AND status = 0")
                    .bind(now)
                    .bind(caller.user_id)
                    .execute(&state.db.pool)
                    .await?
            }
        };
    Ok(ApiOk(MarkReadResult {
        marked: result.rows_affected(),
        unread: unread_counts(&state.db.pool, caller.user_id).await?,
    }))
}

/// Unread counts per tab, for the navbar badge.
#[utoipa::path(get, path = "/adminapi/message/unreadCount", tag = "message",
    responses((status = 200, description = "`data` is UnreadCounts", body = UnreadCounts)), security(("token" = [])))]
pub async fn unread_count(State(state): State<AppState>, caller: CurrentUser) -> ApiResult<UnreadCounts> {
    Ok(ApiOk(unread_counts(&state.db.pool, caller.user_id).await?))
}

async fn unread_counts(pool: &AnyPool, user_id: i64) -> Result<UnreadCounts, sqlx::Error> {
    let rows: Vec<(String, i64)> =
        sqlx::query_as("SELECT kind, COUNT(*) FROM inbox_messages WHERE user_id = $1 AND status = 0 GROUP BY kind")
            .bind(user_id)
            .fetch_all(pool)
            .await?;
    let count = |kind: &str| rows.iter().find(|(name, _)| name == kind).map_or(0, |(_, count)| *count);
    let (message, notice, todo) = (count("message"), count("notice"), count("todo"));
    Ok(UnreadCounts { message, notice, todo, total: message + notice + todo })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ids_are_a_bounded_list_of_positive_integers() {
        assert_eq!(parse_ids(json!([1, 2, 3])).unwrap(), vec![1, 2, 3]);
        assert_eq!(parse_ids(json!([])).unwrap(), Vec::<i64>::new());
        for bad in [json!(1), json!("1"), json!([0]), json!([-1]), json!(["1"]), json!([1.5]), json!(null)] {
            assert!(parse_ids(bad.clone()).is_err(), "{bad}");
        }
        assert!(parse_ids(Value::Array(vec![json!(1); 1001])).is_err());
    }
}
