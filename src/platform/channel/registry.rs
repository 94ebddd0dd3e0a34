//! The adapters of the configured channels, built from their rows and kept while the row
//! is unchanged (`updated_at`), so every order does not unseal a secret again.

use super::deliverable::Deliverable;
use super::model::{ChannelRow, secret_context};
use super::{Channel, http_json::HttpJsonChannel};
use crate::platform::crypto::Secrets;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub struct Registry {
    sandbox: Arc<dyn Channel>,
    client: reqwest::Client,
    secrets: Arc<Secrets>,
    /// Where suppliers post results: `{callback_base}/channel/callback/{code}`.
    callback_base: String,
    cache: Mutex<HashMap<i64, Cached>>,
}

/// A channel's adapter and the row version it was built from.
type Cached = (i64, Arc<dyn Channel>);

impl Registry {
    pub fn new(
        sandbox: Arc<dyn Channel>,
        secrets: Arc<Secrets>,
        client: reqwest::Client,
        callback_base: String,
    ) -> anyhow::Result<Self> {
        Ok(Self {
            client,
            secrets,
            callback_base: callback_base.trim_end_matches('/').to_string(),
            cache: Mutex::default(),
            sandbox: Arc::new(Deliverable(sandbox)),
        })
    }

    /// The adapter of a channel row; its answers about an order are judged against that
    /// order (`deliverable.rs`), whatever the protocol.
    pub fn adapter(&self, row: &ChannelRow) -> anyhow::Result<Arc<dyn Channel>> {
        if row.adapter == "sandbox" {
            return Ok(self.sandbox.clone());
        }
        let mut cache = self.cache.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((updated_at, adapter)) = cache.get(&row.id)
            && *updated_at == row.updated_at
        {
            return Ok(adapter.clone());
        }
        let adapter: Arc<dyn Channel> = match row.adapter.as_str() {
            "http-json" => {
                let secret = match &row.secret_sealed {
                    Some(sealed) => self.secrets.decrypt(sealed, &secret_context(&row.code))?,
                    None => Vec::new(),
                };
                Arc::new(Deliverable(Arc::new(HttpJsonChannel::new(
                    self.client.clone(),
                    &row.base_url,
                    secret,
                    Duration::from_millis(row.timeout_ms.clamp(100, 120_000) as u64),
                    Some(format!("{}/channel/callback/{}", self.callback_base, row.code)),
                ))))
            }
            other => anyhow::bail!("unknown channel adapter {other}"),
        };
        cache.insert(row.id, (row.updated_at, adapter.clone()));
        Ok(adapter)
    }
}
