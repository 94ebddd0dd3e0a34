//! The SSRF guard: a notify URL must not make the server call into its own network.
//!
//! Checked three times: when a profile's notify URL is saved, when an order is given one
//! (the open API calls [`check_notify_url`]), and at connect time against every address
//! the host name resolves to ([`GuardedResolver`]): a name that resolved to a public
//! address when saved and to 127.0.0.1 later (DNS rebinding) is still refused, because
//! the client connects only to addresses that passed. `--allow-private-notify` turns the
//! address checks off (tests, on-premises set-ups); the scheme and form are always checked.

use crate::error::AppError;
use crate::i18n::NotifyMessage;
use crate::state::AppState;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use url::{Host, Url};

/// Why a notify URL is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotifyUrlError {
    /// Not an absolute `http://` or `https://` URL with a host (or it carries a user name
    /// or password, which would be sent to the merchant's server in the clear).
    #[error("not an http(s) URL with a host")]
    Invalid,
    /// The host is, or resolves to, an address inside a private network.
    #[error("the destination {0} is a loopback, private, link-local, multicast or reserved address")]
    PrivateDestination(String),
}

/// Checks a notify URL strictly (internal destinations refused) and returns it parsed.
/// Host names are checked again when they are resolved, at every attempt.
pub fn check_notify_url(text: &str) -> Result<Url, NotifyUrlError> {
    check_notify_url_with(text, false)
}

/// [`check_notify_url`], or only its form when `allow_private` (the server's
/// `--allow-private-notify`).
pub fn check_notify_url_with(text: &str, allow_private: bool) -> Result<Url, NotifyUrlError> {
    let url = Url::parse(text.trim()).map_err(|_| NotifyUrlError::Invalid)?;
    if !matches!(url.scheme(), "http" | "https") || !url.username().is_empty() || url.password().is_some() {
        return Err(NotifyUrlError::Invalid);
    }
    let refused = |host: String| Err(NotifyUrlError::PrivateDestination(host));
    match url.host() {
        None => return Err(NotifyUrlError::Invalid),
        Some(_) if allow_private => {}
        Some(Host::Ipv4(address)) if is_forbidden(IpAddr::V4(address)) => return refused(address.to_string()),
        Some(Host::Ipv6(address)) if is_forbidden(IpAddr::V6(address)) => return refused(address.to_string()),
        Some(Host::Domain(name)) => {
            let name = name.trim_end_matches('.').to_ascii_lowercase();
            // Names that always mean this machine or the local network, whatever DNS says.
            if name == "localhost" || name.ends_with(".localhost") || name.ends_with(".local") {
                return refused(name);
            }
        }
        Some(_) => {}
    }
    Ok(url)
}

/// The save-time check of a notify URL (`field` names it in the error), with the server's
/// `--allow-private-notify`: a clear field error for a bad form or an internal destination.
/// An empty URL (none) passes.
pub fn check_url_field(state: &AppState, field: &str, url: &str) -> Result<(), AppError> {
    if url.trim().is_empty() {
        return Ok(());
    }
    check_notify_url_with(url, state.config.notify.allow_private).map(|_| ()).map_err(|error| {
        let message = match error {
            NotifyUrlError::Invalid => NotifyMessage::UrlInvalid,
            NotifyUrlError::PrivateDestination(host) => NotifyMessage::UrlPrivate { host },
        };
        AppError::field(field, message)
    })
}

/// Whether a destination address is refused: loopback, private (RFC 1918, unique local),
/// carrier-grade NAT, link-local, multicast, unspecified, broadcast and other reserved
/// ranges, also when written as an IPv4-mapped, IPv4-compatible or NAT64 IPv6 address.
pub fn is_forbidden(address: IpAddr) -> bool {
    match address {
        IpAddr::V4(v4) => is_forbidden_v4(v4),
        IpAddr::V6(v6) => is_forbidden_v6(v6),
    }
}

fn is_forbidden_v4(address: Ipv4Addr) -> bool {
    let [a, b, c, _] = address.octets();
    a == 0                                   // "this network", 0.0.0.0
        || a == 10                           // private
        || a == 127                          // loopback
        || (a == 100 && (64..128).contains(&b)) // carrier-grade NAT 100.64/10
        || (a == 169 && b == 254)            // link-local (cloud metadata 169.254.169.254)
        || (a == 172 && (16..32).contains(&b)) // private
        || (a == 192 && b == 168)            // private
        || (a == 192 && b == 0 && c == 0)    // IETF protocol assignments
        || (a == 198 && (b == 18 || b == 19)) // benchmarking
        || a >= 224 // multicast 224/4, reserved 240/4, broadcast
}

fn is_forbidden_v6(address: Ipv6Addr) -> bool {
    let segments = address.segments();
    let embedded_v4 = || {
        let [.., high, low] = segments;
        Ipv4Addr::from((u32::from(high) << 16) | u32::from(low))
    };
    if address.is_unspecified() || address.is_loopback() {
        return true;
    }
    // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible, deprecated), 64:ff9b::a.b.c.d (NAT64).
    let mapped = segments[..5].iter().all(|part| *part == 0) && segments[5] == 0xffff;
    let compatible = segments[..6].iter().all(|part| *part == 0);
    let nat64 = segments[0] == 0x64 && segments[1] == 0xff9b && segments[2..6].iter().all(|part| *part == 0);
    if mapped || compatible || nat64 {
        return is_forbidden_v4(embedded_v4());
    }
    let first = segments[0];
    (first & 0xfe00) == 0xfc00     // unique local fc00::/7
        || (first & 0xffc0) == 0xfe80 // link-local fe80::/10
        || (first & 0xffc0) == 0xfec0 // site-local fec0::/10 (deprecated)
        || (first & 0xff00) == 0xff00 // multicast ff00::/8
        || (first == 0x2001 && segments[1] == 0x0db8) // documentation
}

/// The HTTP client's resolver: resolves with the system resolver and keeps only the
/// addresses that pass [`is_forbidden`], so the connection goes to a checked address.
#[derive(Debug, Clone, Copy, Default)]
pub struct GuardedResolver;

impl reqwest::dns::Resolve for GuardedResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        Box::pin(async move {
            let host = name.as_str().to_string();
            let resolved: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let allowed: Vec<SocketAddr> =
                resolved.iter().copied().filter(|address| !is_forbidden(address.ip())).collect();
            if allowed.is_empty() {
                let shown = resolved.first().map_or(host, |address| address.ip().to_string());
                return Err(
                    Box::new(NotifyUrlError::PrivateDestination(shown)) as Box<dyn std::error::Error + Send + Sync>
                );
            }
            Ok(Box::new(allowed.into_iter()) as reqwest::dns::Addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_destinations_are_refused_in_every_spelling() {
        for url in [
            "http://127.0.0.1/cb",
            "http://127.1.2.3:8080/cb",
            "http://10.0.0.1/",
            "http://172.16.5.4/",
            "http://172.31.255.255/",
            "http://192.168.1.1/",
            "http://169.254.169.254/latest/meta-data",
            "http://100.64.0.1/",
            "http://0.0.0.0/",
            "http://224.0.0.1/",
            "http://255.255.255.255/",
            "http://[::1]/",
            "http://[::]/",
            "http://[fe80::1]/",
            "http://[fd00::1]/",
            "http://[ff02::1]/",
            "http://[::ffff:127.0.0.1]/",
            "http://[::ffff:10.1.2.3]/",
            "http://[64:ff9b::a9fe:a9fe]/",
            "http://localhost:8080/cb",
            "http://api.localhost/cb",
            "http://LOCALHOST./cb",
            "http://2130706433/",
            "http://0x7f.1/",
        ] {
            assert!(matches!(check_notify_url(url), Err(NotifyUrlError::PrivateDestination(_))), "{url}");
            assert!(check_notify_url_with(url, true).is_ok(), "{url} with --allow-private-notify");
        }
    }

    #[test]
    fn public_destinations_pass_and_bad_forms_are_invalid() {
        for url in
            ["https://shop.example.com/cb?x=1", "http://8.8.8.8/", "http://172.32.0.1/", "http://[2606:4700::1111]/"]
        {
            assert!(check_notify_url(url).is_ok(), "{url}");
        }
        for url in [
            "ftp://shop.example.com/",
            "shop.example.com/cb",
            "http://user:pw@shop.example.com/",
            "file:///etc/passwd",
            "",
        ] {
            assert_eq!(check_notify_url(url), Err(NotifyUrlError::Invalid), "{url}");
            assert_eq!(check_notify_url_with(url, true), Err(NotifyUrlError::Invalid), "{url}");
        }
    }

    /// The connect-time check: a name is refused by what it resolves to, not by its spelling.
    #[tokio::test]
    async fn the_resolver_drops_internal_addresses() {
        use reqwest::dns::Resolve;
        let name = |text: &str| text.parse::<reqwest::dns::Name>().unwrap();
        let refused = GuardedResolver.resolve(name("localhost")).await;
        let error = refused.err().expect("localhost resolves only to loopback").to_string();
        assert!(error.contains("loopback, private"), "{error}");
        // And a client built on it never connects there, whatever the URL says.
        let client = reqwest::Client::builder().dns_resolver(std::sync::Arc::new(GuardedResolver)).build().unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let sent = client.get(format!("http://localhost:{port}/")).send().await;
        assert!(sent.is_err());
    }
}
