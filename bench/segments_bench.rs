//! Segment lookup benchmark: the shipped table (data/segments/) in memory, as placing an
//! order reads it (`platform::segments::Segments::region`: parse the number, look its prefix
//! up, copy province and city), and the bare table lookup. Prints nanoseconds per lookup;
//! the target is well under 1 µs (issue 51).
//!
//! usage: cargo run --release --example segments_bench [LOOKUPS]

use backoffice::domain::PhoneNumber;
use backoffice::domain::segments::SegmentTable;
use backoffice::platform::segments::{Segments, default_rows};
use std::hint::black_box;
use std::time::Instant;

fn main() -> anyhow::Result<()> {
    let lookups: usize = std::env::args().nth(1).map(|n| n.parse()).transpose()?.unwrap_or(2_000_000);
    let started = Instant::now();
    let table = SegmentTable::new(default_rows()?);
    println!("table: {} prefixes, built in {} ms", table.len(), started.elapsed().as_millis());
    // Numbers spread over the whole range of segments, known and unknown, in a fixed order.
    let numbers: Vec<String> =
        (0..4096u64).map(|i| format!("1{}{:09}", 3 + i % 7, (i * 2_654_435_761) % 1_000_000_000)).collect();
    let parsed: Vec<PhoneNumber> = numbers.iter().filter_map(|text| PhoneNumber::parse(text)).collect();

    let started = Instant::now();
    let mut found = 0usize;
    for i in 0..lookups {
        found += usize::from(black_box(table.lookup(&parsed[i % parsed.len()])).place.is_some());
    }
    let bare = started.elapsed().as_nanos() as f64 / lookups as f64;

    let segments = Segments::default();
    segments.install(table);
    let started = Instant::now();
    for i in 0..lookups {
        black_box(segments.region(&numbers[i % numbers.len()]));
    }
    let region = started.elapsed().as_nanos() as f64 / lookups as f64;
    println!("lookup (parsed number): {bare:.0} ns; region of an order's account: {region:.0} ns");
    println!("({lookups} lookups, {:.0} % of the numbers known)", 100.0 * found as f64 / lookups as f64);
    Ok(())
}
