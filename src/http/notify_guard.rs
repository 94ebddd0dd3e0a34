//! The SSRF guard: a notify URL must not make the server call into its own network.
//!
//! Checked three times: when a profile's notify URL is saved, when an order is given one
//! (the open API calls [`check_notify_url`]), and at connect time against every address
//! the host name resolves to ([`GuardedResolver`]): a name that resolved to a public
//! address when saved and to 127.0.0.1 later (DNS rebinding) is still refused, because
//! the client connects only to addresses that passed. `--allow-private-notify` turns the
//! address checks off (tests, on-premises set-ups); the scheme and form are always checked.

use crate::http::error::AppError;
use crate::i18n::NotifyMessage;
use crate::platform::state::AppState;
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
/// An empty URL (none) passes. The console's 422 (`Unprocessable`): what an address resolves
/// to is beyond what the OpenAPI document can state, so a request it calls valid may meet it.
pub fn check_url_field(state: &AppState, field: &str, url: &str) -> Result<(), AppError> {
    if url.trim().is_empty() {
        return Ok(());
    }
    check_notify_url_with(url, state.config.notify.allow_private).map(|_| ()).map_err(|error| {
        let message = match error {
            NotifyUrlError::Invalid => NotifyMessage::UrlInvalid,
            NotifyUrlError::PrivateDestination(host) => NotifyMessage::UrlPrivate { host },
        };
        AppError::unprocessable(field, message)
    })
}

/// Whether a destination address is refused: every block of the IANA IPv4 and IPv6
/// Special-Purpose Address Registries that is not globally reachable or is not meant to
/// be connected to (loopback, private, shared, link-local, documentation, benchmarking,
/// translation prefixes for local use, discard-only, SRv6, ...), multicast and reserved
/// space, and every IPv6 spelling that carries an IPv4 address (mapped, compatible,
/// translated, NAT64, 6to4) by that IPv4 address. Outside those embedded forms an IPv6
/// address must be global unicast (2000::/3) to pass, so a block assigned tomorrow
/// elsewhere is refused until it is understood.
pub fn is_forbidden(address: IpAddr) -> bool {
    match address {
        IpAddr::V4(v4) => is_forbidden_v4(v4),
        IpAddr::V6(v6) => is_forbidden_v6(v6),
    }
}

/// The IPv4 blocks refused (the registry's, plus multicast), as (network, prefix length).
const REFUSED_V4: &[(Ipv4Addr, u8)] = &[
    (Ipv4Addr::new(0, 0, 0, 0), 8),       // "this network"
    (Ipv4Addr::new(10, 0, 0, 0), 8),      // private
    (Ipv4Addr::new(100, 64, 0, 0), 10),   // shared (carrier-grade NAT)
    (Ipv4Addr::new(127, 0, 0, 0), 8),     // loopback
    (Ipv4Addr::new(169, 254, 0, 0), 16),  // link-local (cloud metadata 169.254.169.254)
    (Ipv4Addr::new(172, 16, 0, 0), 12),   // private
    (Ipv4Addr::new(192, 0, 0, 0), 24),    // IETF protocol assignments
    (Ipv4Addr::new(192, 0, 2, 0), 24),    // documentation TEST-NET-1
    (Ipv4Addr::new(192, 88, 99, 0), 24),  // deprecated 6to4 relay anycast
    (Ipv4Addr::new(192, 168, 0, 0), 16),  // private
    (Ipv4Addr::new(198, 18, 0, 0), 15),   // benchmarking
    (Ipv4Addr::new(198, 51, 100, 0), 24), // documentation TEST-NET-2
    (Ipv4Addr::new(203, 0, 113, 0), 24),  // documentation TEST-NET-3
    (Ipv4Addr::new(224, 0, 0, 0), 4),     // multicast
    (Ipv4Addr::new(240, 0, 0, 0), 4),     // reserved, and the limited broadcast 255.255.255.255
];

fn is_forbidden_v4(address: Ipv4Addr) -> bool {
    let address = u32::from(address);
    REFUSED_V4.iter().any(|(network, length)| {
        let mask = u32::MAX << (32 - u32::from(*length));
        address & mask == u32::from(*network)
    })
}

/// The IPv6 blocks inside global unicast (2000::/3) that are refused outright.
const REFUSED_V6: &[(Ipv6Addr, u8)] = &[
    (Ipv6Addr::new(0x2001, 0, 0, 0, 0, 0, 0, 0), 23), // IETF protocol assignments, Teredo 2001::/32 among them
    (Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 0), 32), // documentation
    (Ipv6Addr::new(0x3fff, 0, 0, 0, 0, 0, 0, 0), 20), // documentation
];

fn in_block(address: Ipv6Addr, network: Ipv6Addr, length: u8) -> bool {
    let mask = u128::MAX.checked_shl(128 - u32::from(length)).unwrap_or(0);
    u128::from(address) & mask == u128::from(network)
}

fn is_forbidden_v6(address: Ipv6Addr) -> bool {
    let segments = address.segments();
    let v4_at = |index: usize| Ipv4Addr::from((u32::from(segments[index]) << 16) | u32::from(segments[index + 1]));
    let zero = |range: std::ops::Range<usize>| segments[range].iter().all(|part| *part == 0);
    // The spellings that carry an IPv4 address reach that address: judge it instead.
    // ::a.b.c.d (compatible, ::/96; :: and ::1 fall here as 0.0.0.0 and 0.0.0.1),
    // ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (translated), 64:ff9b::a.b.c.d (NAT64).
    let compatible = zero(0..6);
    let mapped = zero(0..5) && segments[5] == 0xffff;
    let translated = zero(0..4) && segments[4] == 0xffff && segments[5] == 0;
    let nat64 = segments[0] == 0x64 && segments[1] == 0xff9b && zero(2..6);
    if compatible || mapped || translated || nat64 {
        return is_forbidden_v4(v4_at(6));
    }
    // 6to4 (2002::/16) carries its relay's IPv4 address in the next 32 bits.
    if segments[0] == 0x2002 {
        return is_forbidden_v4(v4_at(1));
    }
    // Everything outside global unicast is special or unassigned: loopback and unspecified
    // (above), the local-use NAT64 prefix 64:ff9b:1::/48, discard-only 100::/64, SRv6
    // 5f00::/16, unique-local fc00::/7, link-local fe80::/10, site-local fec0::/10,
    // multicast ff00::/8.
    let global_unicast = segments[0] & 0xe000 == 0x2000;
    !global_unicast || REFUSED_V6.iter().any(|(network, length)| in_block(address, *network, *length))
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

    /// Every special-purpose block, in the spellings an attacker would try, against public
    /// addresses next to them that must still pass.
    #[test]
    fn the_special_purpose_registries_are_refused_in_every_spelling() {
        let refused = [
            // IPv4: the registry's blocks, at their edges.
            "0.1.2.3",
            "10.255.255.255",
            "100.64.0.0",
            "100.127.255.255",
            "127.0.0.1",
            "169.254.0.1",
            "172.16.0.0",
            "172.31.255.255",
            "192.0.0.8",
            "192.0.2.1",
            "192.88.99.1",
            "192.168.0.1",
            "198.18.0.1",
            "198.19.255.255",
            "198.51.100.7",
            "203.0.113.9",
            "224.0.0.1",
            "239.255.255.255",
            "240.0.0.1",
            "255.255.255.255",
            // IPv6 blocks.
            "::1",
            "::",
            "64:ff9b:1::7f00:1",
            "64:ff9b:1:ffff::808:808",
            "100::1",
            "100::ffff:ffff:ffff:ffff",
            "2001::1",
            "2001:0:4136:e378:8000:63bf:3fff:fdd2",
            "2001:1ff:ffff::1",
            "2001:2::1",
            "2001:db8::1",
            "2001:db8:ffff::1",
            "3fff::1",
            "3fff:fff:ffff::1",
            "5f00::1",
            "fc00::1",
            "fdff::1",
            "fe80::1",
            "febf::1",
            "fec0::1",
            "feff::1",
            "ff02::1",
            "ff0e::1",
            // Unassigned space outside global unicast.
            "4000::1",
            "1::1",
            "::1:0:0:1",
            // Embedded IPv4 whose address is refused.
            "::ffff:127.0.0.1",
            "::ffff:10.1.2.3",
            "::ffff:0:127.0.0.1",
            "::ffff:0:169.254.169.254",
            "64:ff9b::a9fe:a9fe",
            "64:ff9b::127.0.0.1",
            "::127.0.0.1",
            "::192.168.1.1",
            "::0.0.0.1",
            "2002:7f00:1::",
            "2002:a00:1::1",
            "2002:c0a8:101::1",
            "2002:a9fe:a9fe::",
        ];
        for text in refused {
            let address: IpAddr = text.parse().unwrap();
            assert!(is_forbidden(address), "{text} must be refused");
        }
        let allowed = [
            "1.1.1.1",
            "8.8.8.8",
            "9.255.255.255",
            "11.0.0.1",
            "100.63.255.255",
            "100.128.0.0",
            "126.255.255.255",
            "128.0.0.1",
            "169.253.255.255",
            "172.15.255.255",
            "172.32.0.1",
            "192.0.1.1",
            "192.0.3.1",
            "192.88.98.1",
            "192.169.0.1",
            "198.17.255.255",
            "198.20.0.1",
            "198.51.101.1",
            "203.0.114.1",
            "223.255.255.255",
            "2400:cb00::1",
            "2606:4700::1111",
            "2001:200::1",
            "2001:4860:4860::8888",
            "2a00:1450:4001::200e",
            "3fff:1000::1",
            "::ffff:8.8.8.8",
            "::ffff:0:8.8.8.8",
            "64:ff9b::808:808",
            "2002:808:808::1",
        ];
        for text in allowed {
            let address: IpAddr = text.parse().unwrap();
            assert!(!is_forbidden(address), "{text} must pass");
        }
        for url in [
            "http://[64:ff9b:1::7f00:1]/cb",
            "http://[2002:7f00:1::]/cb",
            "http://[::ffff:0:127.0.0.1]/cb",
            "http://[100::1]/cb",
            "http://[2001:db8::1]:8443/cb",
            "http://192.0.2.10/cb",
        ] {
            assert!(matches!(check_notify_url(url), Err(NotifyUrlError::PrivateDestination(_))), "{url}");
        }
        assert!(check_notify_url("http://[2400:cb00::1]/cb").is_ok());
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
