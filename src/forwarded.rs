//! The client's address behind reverse proxies (`--trust-forwarded-for`).
//!
//! Every proxy appends the address it received the request from to `X-Forwarded-For`;
//! whatever the client wrote stays on the left. So the left-most entry is the client's
//! own claim and worthless for throttling: the address that counts is the right-most one
//! not added by a proxy we trust. Trusted proxies are given either as addresses/CIDRs
//! (walk from the right past every trusted hop) or as a hop count (the n-th entry from the
//! right, n being the number of proxies in front of us).

use std::net::{IpAddr, Ipv6Addr};
use std::str::FromStr;

/// Which proxies in front of the server add honest `X-Forwarded-For` entries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TrustedProxies {
    /// This many proxies in a row, the last one connecting to us.
    Hops(usize),
    /// Proxies at these addresses or networks.
    Networks(Vec<Network>),
}

impl Default for TrustedProxies {
    /// One proxy, the one that connects to us: the right-most entry is the client.
    fn default() -> Self {
        TrustedProxies::Hops(1)
    }
}

impl FromStr for TrustedProxies {
    type Err = String;

    /// `2` (a hop count) or `10.0.0.0/8,192.0.2.7,2001:db8::/32`.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim();
        if let Ok(hops) = text.parse::<usize>() {
            return if hops == 0 {
                Err("the hop count must be at least 1".into())
            } else {
                Ok(TrustedProxies::Hops(hops))
            };
        }
        let networks = text.split(',').map(|part| part.trim().parse()).collect::<Result<Vec<Network>, _>>()?;
        if networks.is_empty() {
            return Err("give a hop count or proxy addresses".into());
        }
        Ok(TrustedProxies::Networks(networks))
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
/// them, in order). Falls back to the peer when the header is absent or unusable.
pub fn client_address(peer: IpAddr, forwarded_for: &[&str], trusted: &TrustedProxies) -> IpAddr {
    let peer = canonical(peer);
    let entries: Vec<&str> = forwarded_for.iter().flat_map(|value| value.split(',')).collect();
    match trusted {
        TrustedProxies::Hops(hops) => {
            // The last `hops` entries were written by our proxies; the first of them is
            // the address the outermost proxy saw.
            let index = entries.len().saturating_sub(*hops);
            entries.get(index).and_then(|entry| parse_entry(entry)).unwrap_or(peer)
        }
        TrustedProxies::Networks(networks) => {
            let trusted = |address: IpAddr| networks.iter().any(|network| network.contains(address));
            let mut client = peer;
            for entry in entries.iter().rev() {
                if !trusted(client) {
                    break;
                }
                // Past a trusted hop: the entry it wrote. Garbage there means a proxy we
                // trust did not write it; keep the last trusted address.
                match parse_entry(entry) {
                    Some(address) => client = address,
                    None => break,
                }
            }
            client
        }
    }
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
    fn one_hop_takes_the_entry_our_proxy_added_not_the_clients_claim() {
        let one = TrustedProxies::default();
        // The client wrote 1.1.1.1 itself; the proxy appended what it saw.
        assert_eq!(client_address(ip("10.0.0.2"), &["1.1.1.1, 203.0.113.9"], &one), ip("203.0.113.9"));
        assert_eq!(client_address(ip("10.0.0.2"), &["1.1.1.1", "203.0.113.9"], &one), ip("203.0.113.9"));
        assert_eq!(client_address(ip("10.0.0.2"), &[], &one), ip("10.0.0.2"));
        let two = TrustedProxies::Hops(2);
        assert_eq!(client_address(ip("10.0.0.2"), &["6.6.6.6, 203.0.113.9, 10.0.0.1"], &two), ip("203.0.113.9"));
        assert_eq!(client_address(ip("10.0.0.2"), &["203.0.113.9"], &two), ip("203.0.113.9"));
        assert_eq!(client_address(ip("10.0.0.2"), &["not an address"], &one), ip("10.0.0.2"));
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
        assert_eq!("3".parse::<TrustedProxies>(), Ok(TrustedProxies::Hops(3)));
        assert!("0".parse::<TrustedProxies>().is_err());
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
