//! One life-cycle event of the live figures, and the compact text that carries a batch of
//! them from one server to the others through PostgreSQL's `NOTIFY` (`share.rs`).
//!
//! A payload is `<server>|<event>;<event>;...`, each event a letter and its numbers in
//! decimal (`p,id,merchant,price,created,province`, `m,id,created,status`,
//! `f,id,carrier,created,finished,success,province`, `r,id,carrier,created,finished,province`
//! for a reversed success): about 50 bytes an event, so some 150
//! fit in one notification, far below PostgreSQL's 8000-byte limit per payload. A server
//! of the previous version writes `p` and `f` without the province (read as unknown), so
//! that servers of both versions share figures during a rolling upgrade. A server older than
//! `r` skips a payload holding one (rare: reversals are); its figures catch up at its next
//! re-read.

use crate::domain::OrderStatus;

/// Bytes of one payload at most (PostgreSQL refuses a payload of 8000 bytes or more).
pub const MAX_PAYLOAD: usize = 7_900;

/// A new order, as the life cycle reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placed {
    pub id: i64,
    pub merchant_id: i64,
    pub price_fen: i64,
    pub created_at: i64,
    /// The number's province (GB/T 2260 code) when it was placed; 0 when unknown.
    pub province: u32,
}

/// A final result, as the life cycle reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Finished {
    pub id: i64,
    pub carrier: i64,
    pub created_at: i64,
    pub finished_at: i64,
    pub success: bool,
    /// As [`Placed::province`].
    pub province: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LiveEvent {
    Placed(Placed),
    Moved {
        id: i64,
        created_at: i64,
        status: OrderStatus,
    },
    Finished(Finished),
    /// A success reversed by its supplier or an administrator (冲正): `finished_at` is the
    /// success's own time, where it was counted; it counts as a failure from now on.
    Reversed(Finished),
}

impl LiveEvent {
    fn write(&self, out: &mut String) {
        use std::fmt::Write;
        // Writing to a String cannot fail.
        let _ = match self {
            LiveEvent::Placed(order) => {
                let Placed { id, merchant_id, price_fen, created_at, province } = order;
                write!(out, "p,{id},{merchant_id},{price_fen},{created_at},{province}")
            }
            LiveEvent::Moved { id, created_at, status } => write!(out, "m,{id},{created_at},{}", status.code()),
            LiveEvent::Reversed(order) => write!(
                out,
                "r,{},{},{},{},{}",
                order.id, order.carrier, order.created_at, order.finished_at, order.province
            ),
            LiveEvent::Finished(order) => write!(
                out,
                "f,{},{},{},{},{},{}",
                order.id,
                order.carrier,
                order.created_at,
                order.finished_at,
                u8::from(order.success),
                order.province
            ),
        };
    }

    fn parse(text: &str) -> Option<Self> {
        let mut fields = text.split(',');
        let kind = fields.next()?;
        let numbers: Vec<i64> = fields.map(|field| field.parse().ok()).collect::<Option<_>>()?;
        let province = |code: Option<&i64>| code.map_or(Some(0), |code| u32::try_from(*code).ok());
        match (kind, numbers.as_slice()) {
            ("p", &[id, merchant_id, price_fen, created_at, ref rest @ ..]) if rest.len() <= 1 => {
                let province = province(rest.first())?;
                Some(LiveEvent::Placed(Placed { id, merchant_id, price_fen, created_at, province }))
            }
            ("m", &[id, created_at, status]) => {
                Some(LiveEvent::Moved { id, created_at, status: OrderStatus::from_code(status)? })
            }
            ("f", &[id, carrier, created_at, finished_at, success @ (0 | 1), ref rest @ ..]) if rest.len() <= 1 => {
                let province = province(rest.first())?;
                let success = success == 1;
                Some(LiveEvent::Finished(Finished { id, carrier, created_at, finished_at, success, province }))
            }
            ("r", &[id, carrier, created_at, finished_at, province]) => {
                let province = u32::try_from(province).ok()?;
                Some(LiveEvent::Reversed(Finished { id, carrier, created_at, finished_at, success: false, province }))
            }
            _ => None,
        }
    }
}

/// The events in payloads of at most [`MAX_PAYLOAD`] bytes, each naming `server`.
pub fn payloads(server: &str, events: &[LiveEvent]) -> Vec<String> {
    let mut payloads = Vec::new();
    let mut current = String::new();
    let mut event = String::new();
    for item in events {
        event.clear();
        item.write(&mut event);
        if !current.is_empty() && current.len() + 1 + event.len() > MAX_PAYLOAD {
            payloads.push(std::mem::take(&mut current));
        }
        if current.is_empty() {
            current.push_str(server);
            current.push('|');
        } else {
            current.push(';');
        }
        current.push_str(&event);
    }
    if !current.is_empty() {
        payloads.push(current);
    }
    payloads
}

/// The sending server and its events; None for a payload not written by [`payloads`].
pub fn parse(payload: &str) -> Option<(&str, Vec<LiveEvent>)> {
    let (server, events) = payload.split_once('|')?;
    let events = events.split(';').map(LiveEvent::parse).collect::<Option<Vec<_>>>()?;
    Some((server, events))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(id: i64) -> [LiveEvent; 4] {
        let at = 1_800_000_000_000 + id;
        [
            LiveEvent::Placed(Placed { id, merchant_id: 7, price_fen: 9_850, created_at: at, province: 440000 }),
            LiveEvent::Moved { id, created_at: at, status: OrderStatus::ManualReview },
            LiveEvent::Finished(Finished {
                id,
                carrier: 3,
                created_at: at,
                finished_at: at + 1_234,
                success: false,
                province: 440000,
            }),
            LiveEvent::Reversed(Finished {
                id,
                carrier: 1,
                created_at: at,
                finished_at: at + 2_000,
                success: false,
                province: 0,
            }),
        ]
    }

    #[test]
    fn events_read_back_as_written() {
        let events: Vec<LiveEvent> = (1..4).flat_map(sample).collect();
        let written = payloads("server-a", &events);
        assert_eq!(written.len(), 1);
        let (server, read) = parse(&written[0]).unwrap();
        assert_eq!((server, read), ("server-a", events));
    }

    #[test]
    fn a_large_batch_is_split_below_the_limit_and_loses_nothing() {
        let events: Vec<LiveEvent> = (10_000_000_000..10_000_001_000).flat_map(sample).collect();
        let written = payloads("0123456789abcdef0123456789abcdef", &events);
        assert!(written.len() > 10, "{} payloads", written.len());
        assert!(written.iter().all(|payload| payload.len() <= MAX_PAYLOAD));
        let read: Vec<LiveEvent> = written.iter().flat_map(|payload| parse(payload).unwrap().1).collect();
        assert_eq!(read, events);
    }

    #[test]
    fn a_foreign_or_damaged_payload_is_refused() {
        for bad in [
            "",
            "no separator",
            "a|x,1,2",
            "a|p,1,2,3",
            "a|m,1,2,99",
            "a|f,1,2,3,4,2",
            "a|p,1,2,3,x",
            "a|p,1,2,3,4,-1",
            "a|p,1,2,3,4,5,6",
            "a|f,1,2,3,4,1,5,6",
            "a|r,1,2,3,4",
            "a|r,1,2,3,4,-5",
        ] {
            assert!(parse(bad).is_none(), "{bad}");
        }
        assert!(payloads("a", &[]).is_empty());
    }

    #[test]
    fn a_payload_of_the_previous_version_reads_with_an_unknown_province() {
        let (_, read) = parse("old|p,5,7,100,1800000000000;f,5,1,1800000000000,1800000001000,1").unwrap();
        assert_eq!(
            read,
            [
                LiveEvent::Placed(Placed {
                    id: 5,
                    merchant_id: 7,
                    price_fen: 100,
                    created_at: 1_800_000_000_000,
                    province: 0
                }),
                LiveEvent::Finished(Finished {
                    id: 5,
                    carrier: 1,
                    created_at: 1_800_000_000_000,
                    finished_at: 1_800_000_001_000,
                    success: true,
                    province: 0,
                }),
            ]
        );
    }
}
