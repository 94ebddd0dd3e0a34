//! The client's address behind reverse proxies (`--trust-forwarded-for`).
//!
//! Every proxy appends the address it received the request from to `X-Forwarded-For`;
//! whatever the client wrote stays on the left. So the left-most entry is the client's
//! own claim and worthless for throttling: the address that counts is the right-most one
//! not added by a proxy we trust. The proxies are named by address or network: the header
//! is read only when the TCP peer is one of them (anyone else could write it), and then
//! walked from the right past every named hop. A hop count alone would believe whatever a
//! client connecting directly wrote, so it is not accepted.

use std::net::{IpAddr, Ipv6Addr};
use std::str::FromStr;

/// The proxies in front of the server whose `X-Forwarded-For` entries are honest: their
/// addresses or networks. Empty: none named (the header is then never read).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<Network>);

impl TrustedProxies {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn contains(&self, address: IpAddr) -> bool {
        self.0.iter().any(|network| network.contains(address))
    }
}

impl FromStr for TrustedProxies {
    type Err = String;

    /// `10.0.0.0/8,192.0.2.7,2001:db8::/32`.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim();
        if text.parse::<usize>().is_ok() {
            return Err(format!(
                "{text:?} is a hop count: name the proxies' addresses or networks instead (e.g. 10.0.0.0/8,192.0.2.7)"
            ));
        }
        if text.is_empty() {
            return Err("name the proxies' addresses or networks (e.g. 10.0.0.0/8,192.0.2.7)".into());
        }
        let networks = text.split(',').map(|part| part.trim().parse()).collect::<Result<Vec<Network>, _>>()?;
        Ok(TrustedProxies(networks))
    }
}

/// An address with a prefix length, e.g. `10.0.0.0/8`; a bare address is a /32 or /128.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Network {
    address: IpAddr,
    prefix: u8,
}

impl FromStr for Network {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let invalid = || format!("{text:?} is not an IP address or CIDR network");
        let (address, prefix) = match text.split_once('/') {
            Some((address, prefix)) => (address, Some(prefix.parse::<u8>().map_err(|_| invalid())?)),
            None => (text, None),
        };
        let address = canonical(address.parse::<IpAddr>().map_err(|_| invalid())?);
        let max = if address.is_ipv4() { 32 } else { 128 };
        let prefix = prefix.unwrap_or(max);
        if prefix > max {
            return Err(invalid());
        }
        Ok(Network { address, prefix })
    }
}

impl Network {
    pub fn contains(&self, candidate: IpAddr) -> bool {
        match (self.address, canonical(candidate)) {
            (IpAddr::V4(network), IpAddr::V4(candidate)) => {
                let mask = u32::MAX.checked_shl(32 - u32::from(self.prefix)).unwrap_or(0);
                u32::from(network) & mask == u32::from(candidate) & mask
            }
            (IpAddr::V6(network), IpAddr::V6(candidate)) => {
                let mask = u128::MAX.checked_shl(128 - u32::from(self.prefix)).unwrap_or(0);
                u128::from(network) & mask == u128::from(candidate) & mask
            }
            _ => false,
        }
    }
}

/// IPv4 written as IPv6 (`::ffff:1.2.3.4`) is the IPv4 address.
pub fn canonical(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(address, IpAddr::V4),
        v4 => v4,
    }
}

/// One `X-Forwarded-For` entry: an address, possibly with a port (`1.2.3.4:80`, `[::1]:80`).
fn parse_entry(entry: &str) -> Option<IpAddr> {
    let entry = entry.trim();
    entry
        .parse::<IpAddr>()
        .ok()
        .or_else(|| entry.parse::<std::net::SocketAddr>().ok().map(|socket| socket.ip()))
        .map(canonical)
}

/// The client's address, given the TCP peer and the `X-Forwarded-For` values (all of
/// them, in order): the peer itself unless it is a named proxy; else, walking from the
/// right past every named proxy, the first address that is not one. Falls back to the
/// last trusted address when the header is absent or unusable.
pub fn client_address(peer: IpAddr, forwarded_for: &[&str], trusted: &TrustedProxies) -> IpAddr {
    let mut client = canonical(peer);
    let entries = forwarded_for.iter().flat_map(|value| value.split(',')).rev();
    for entry in entries {
        if !trusted.contains(client) {
            break;
        }
        // Past a trusted hop: the entry it wrote. Garbage there means a proxy we trust
        // did not write it; keep the last trusted address.
        match parse_entry(entry) {
            Some(address) => client = address,
            None => break,
        }
    }
    client
}

/// The part of an address that throttling counts: IPv4 whole, IPv6 by its /64 (one
/// subscriber usually holds a whole /64 and can pick any address in it).
pub fn throttle_scope(address: IpAddr) -> String {
    match canonical(address) {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => {
            let network = Ipv6Addr::from(u128::from(v6) & (u128::MAX << 64));
            format!("{network}/64")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn the_header_is_read_only_from_a_named_proxy() {
        let proxy: TrustedProxies = "127.0.0.1".parse().unwrap();
        // Our proxy appended what it saw; the client wrote 1.1.1.1 itself.
        assert_eq!(client_address(ip("127.0.0.1"), &["1.1.1.1, 203.0.113.9"], &proxy), ip("203.0.113.9"));
        assert_eq!(client_address(ip("127.0.0.1"), &["1.1.1.1", "203.0.113.9"], &proxy), ip("203.0.113.9"));
        assert_eq!(client_address(ip("127.0.0.1"), &[], &proxy), ip("127.0.0.1"));
        assert_eq!(client_address(ip("127.0.0.1"), &["not an address"], &proxy), ip("127.0.0.1"));
        // A client connecting directly, next to the proxy, forges the header: its own address.
        assert_eq!(client_address(ip("127.0.0.2"), &["127.0.0.1"], &proxy), ip("127.0.0.2"));
        assert_eq!(client_address(ip("127.0.0.2"), &["198.51.100.4, 127.0.0.1"], &proxy), ip("127.0.0.2"));
        assert_eq!(client_address(ip("::ffff:127.0.0.1"), &["203.0.113.9"], &proxy), ip("203.0.113.9"));
        // None named: the header is never read.
        let none = TrustedProxies::default();
        assert_eq!(client_address(ip("127.0.0.1"), &["203.0.113.9"], &none), ip("127.0.0.1"));
    }

    #[test]
    fn trusted_networks_are_walked_from_the_right() {
        let trusted: TrustedProxies = "10.0.0.0/8, 2001:db8::/32".parse().unwrap();
        let peer = ip("10.0.0.2");
        assert_eq!(client_address(peer, &["9.9.9.9, 198.51.100.4, 10.1.2.3"], &trusted), ip("198.51.100.4"));
        // A peer we do not trust: its header means nothing.
        assert_eq!(client_address(ip("198.51.100.1"), &["9.9.9.9"], &trusted), ip("198.51.100.1"));
        // Every hop trusted: the left-most address.
        assert_eq!(client_address(peer, &["10.9.9.9, 10.1.1.1"], &trusted), ip("10.9.9.9"));
        // Garbage behind a trusted hop: the last trusted address.
        assert_eq!(client_address(peer, &["x, 10.1.1.1"], &trusted), ip("10.1.1.1"));
        assert_eq!(client_address(peer, &["[2001:db9::1]:443"], &trusted), ip("2001:db9::1"));
        assert_eq!(client_address(peer, &["198.51.100.4:5000"], &trusted), ip("198.51.100.4"));
    }

    #[test]
    fn proxy_lists_parse_or_say_why_not() {
        // A hop count would trust any peer: refused, saying what to give instead.
        for text in ["1", "3", "0", "", " "] {
            let error = text.parse::<TrustedProxies>().unwrap_err();
            assert!(error.contains("addresses or networks"), "{text:?}: {error}");
        }
        let listed: TrustedProxies = "10.0.0.0/8, 192.0.2.7".parse().unwrap();
        assert!(
            listed.contains(ip("10.1.2.3")) && listed.contains(ip("192.0.2.7")) && !listed.contains(ip("192.0.2.8"))
        );
        assert!("10.0.0.0/33".parse::<TrustedProxies>().is_err());
        assert!("10.0.0.0/8,banana".parse::<TrustedProxies>().is_err());
        let network: Network = "192.168.0.0/16".parse().unwrap();
        assert!(network.contains(ip("192.168.44.1")) && network.contains(ip("::ffff:192.168.1.1")));
        assert!(!network.contains(ip("192.169.0.1")) && !network.contains(ip("::1")));
        assert!("0.0.0.0/0".parse::<Network>().unwrap().contains(ip("8.8.8.8")));
    }

    #[test]
    fn ipv6_is_throttled_per_64() {
        assert_eq!(throttle_scope(ip("2001:db8:1:2:aaaa::1")), "2001:db8:1:2::/64");
        assert_eq!(throttle_scope(ip("2001:db8:1:2:ffff::9")), throttle_scope(ip("2001:db8:1:2::1")));
        assert_ne!(throttle_scope(ip("2001:db8:1:3::1")), throttle_scope(ip("2001:db8:1:2::1")));
        assert_eq!(throttle_scope(ip("::ffff:203.0.113.9")), "203.0.113.9");
        assert_eq!(throttle_scope(ip("203.0.113.9")), "203.0.113.9");
    }
}
