//! Number segments: the province, city and carrier a 7-digit mobile prefix was allocated
//! to, held in memory so that placing an order looks its number up without a query.
//!
//! The table is a sorted vector of prefixes beside their entries (a binary search over
//! ~330,000 `u32`s, about 19 steps), with each distinct place stored once: a few hundred
//! places are shared by all the prefixes, so the table is a few megabytes, not one string
//! per row. Loading and reloading it is `platform::segments`' work; this file has no I/O.

use super::{Carrier, PhoneNumber};

/// A place a segment belongs to: GB/T 2260 province code, names in Chinese and English.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Place {
    /// GB/T 2260, six digits (440000 Guangdong).
    pub province_code: String,
    /// 广东 (without 省/市/自治区)
    pub province: String,
    /// 深圳 (without 市); a municipality is its own city (北京 北京).
    pub city: String,
    pub province_en: String,
    pub city_en: String,
}

/// Where a number belongs, as an order stores it and placing checks a product's scope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Region {
    /// GB/T 2260 (440000).
    pub province_code: u32,
    pub province: String,
    pub city: String,
}

impl Place {
    /// The province's GB/T 2260 code as a number (440000), as scopes hold it.
    pub fn province_number(&self) -> u32 {
        self.province_code.parse().unwrap_or_default()
    }

    pub fn region(&self) -> Region {
        Region { province_code: self.province_number(), province: self.province.clone(), city: self.city.clone() }
    }
}

/// One row of the table as stored and shipped (`data/segments/cn-segments.csv.gz`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SegmentRow {
    pub prefix: u32,
    pub place: Place,
    /// None: the source names no carrier; the segment rule of `phone.rs` decides.
    pub carrier: Option<Carrier>,
}

/// What a number's segment says about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Found<'a> {
    pub prefix: u32,
    /// None: the prefix is not in the table.
    pub place: Option<&'a Place>,
    /// The table's carrier, or the segment rule's when the table has none.
    pub carrier: Carrier,
}

/// The segment table in memory.
#[derive(Debug, Default)]
pub struct SegmentTable {
    prefixes: Vec<u32>,
    /// Per prefix: index into `places`, and the carrier if the table names one.
    entries: Vec<(u32, Option<Carrier>)>,
    places: Vec<Place>,
    /// A place by its Chinese province and city names, as orders store them (the first
    /// place of those names): exports name the city in English per row.
    by_names: std::collections::HashMap<String, std::collections::HashMap<String, u32>>,
}

/// The 7-digit prefix of a number as an integer (1380013 for 13800138000); None unless
/// `text` is exactly seven ASCII digits starting with 1.
pub fn parse_prefix(text: &str) -> Option<u32> {
    let valid = text.len() == 7 && text.starts_with('1') && text.bytes().all(|b| b.is_ascii_digit());
    valid.then(|| text.parse().ok()).flatten()
}

impl SegmentTable {
    /// The table of `rows`, in any order; a prefix given twice keeps its last row.
    pub fn new(rows: impl IntoIterator<Item = SegmentRow>) -> Self {
        let mut place_index: std::collections::HashMap<Place, u32> = std::collections::HashMap::new();
        let mut places = Vec::new();
        let mut keyed: Vec<(u32, (u32, Option<Carrier>))> = Vec::new();
        for row in rows {
            // Looked up before inserting: a place is cloned once, not once per prefix.
            let index = match place_index.get(&row.place) {
                Some(index) => *index,
                None => {
                    places.push(row.place.clone());
                    place_index.insert(row.place, (places.len() - 1) as u32);
                    (places.len() - 1) as u32
                }
            };
            keyed.push((row.prefix, (index, row.carrier)));
        }
        // Stable: of two rows for one prefix, the later stays last and wins the dedup.
        keyed.sort_by_key(|(prefix, _)| *prefix);
        keyed.reverse();
        keyed.dedup_by_key(|(prefix, _)| *prefix);
        keyed.reverse();
        let (prefixes, entries) = keyed.into_iter().unzip();
        let mut by_names: std::collections::HashMap<String, std::collections::HashMap<String, u32>> =
            std::collections::HashMap::new();
        for (index, place) in places.iter().enumerate() {
            let cities = by_names.entry(place.province.clone()).or_default();
            cities.entry(place.city.clone()).or_insert(index as u32);
        }
        Self { prefixes, entries, places, by_names }
    }

    pub fn len(&self) -> usize {
        self.prefixes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.prefixes.is_empty()
    }

    /// Every prefix with its place and carrier, in prefix order.
    pub fn rows(&self) -> impl Iterator<Item = (u32, &Place, Option<Carrier>)> {
        self.prefixes
            .iter()
            .zip(&self.entries)
            .map(|(prefix, (place, carrier))| (*prefix, &self.places[*place as usize], *carrier))
    }

    /// A city's English name by its Chinese province and city names, as orders store them.
    pub fn city_en(&self, province: &str, city: &str) -> Option<&str> {
        let index = self.by_names.get(province)?.get(city)?;
        Some(self.places.get(*index as usize)?.city_en.as_str())
    }

    /// The distinct places of the table.
    pub fn places(&self) -> &[Place] {
        &self.places
    }

    /// The place of a 7-digit prefix and the carrier the table names for it, if any.
    pub fn find(&self, prefix: u32) -> Option<(&Place, Option<Carrier>)> {
        let at = self.prefixes.binary_search(&prefix).ok()?;
        let (place, carrier) = self.entries[at];
        Some((self.places.get(place as usize)?, carrier))
    }

    /// The number's segment; a prefix the table lacks still has the rule's carrier.
    pub fn lookup(&self, number: &PhoneNumber) -> Found<'_> {
        let prefix = parse_prefix(&number.as_str()[..7]).unwrap_or_default();
        let found = self.find(prefix);
        Found {
            prefix,
            place: found.map(|(place, _)| place),
            carrier: found.and_then(|(_, carrier)| carrier).unwrap_or(number.carrier()),
        }
    }
}

/// A row of the shipped CSV (`prefix,province_code,province,city,carrier,province_en,city_en`,
/// no quoting: no name has a comma); None for the header or a malformed line.
pub fn parse_row(line: &str) -> Option<SegmentRow> {
    let fields: Vec<&str> = line.trim_end_matches('\r').split(',').collect();
    let [prefix, code, province, city, carrier, province_en, city_en] = fields.as_slice() else { return None };
    let valid_code = code.len() == 6 && code.bytes().all(|b| b.is_ascii_digit());
    if !valid_code || province.is_empty() || city.is_empty() {
        return None;
    }
    let carrier = match *carrier {
        "" => None,
        text => Some(Carrier::parse(text)?),
    };
    let place = Place {
        province_code: code.to_string(),
        province: province.to_string(),
        city: city.to_string(),
        province_en: province_en.to_string(),
        city_en: city_en.to_string(),
    };
    Some(SegmentRow { prefix: parse_prefix(prefix)?, place, carrier })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(province: &str, city: &str) -> Place {
        Place {
            province_code: "000000".into(),
            province: province.into(),
            city: city.into(),
            province_en: String::new(),
            city_en: String::new(),
        }
    }

    fn number(text: &str) -> PhoneNumber {
        PhoneNumber::parse(text).expect("a valid number")
    }

    #[test]
    fn prefixes_are_seven_digits_starting_with_one() {
        assert_eq!(parse_prefix("1380013"), Some(1_380_013));
        for bad in ["", "138001", "13800138", "2380013", "138001a", "+380013", "１３８００１３"] {
            assert_eq!(parse_prefix(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn lookup_finds_the_prefix_and_falls_back_to_the_rule() {
        let table = SegmentTable::new([
            SegmentRow { prefix: 1_380_013, place: place("北京", "北京"), carrier: Some(Carrier::Mobile) },
            // A number ported or re-allocated: the table's carrier wins over the rule's.
            SegmentRow { prefix: 1_300_000, place: place("山东", "济南"), carrier: Some(Carrier::Telecom) },
            SegmentRow { prefix: 1_860_000, place: place("北京", "北京"), carrier: None },
        ]);
        assert_eq!(table.len(), 3);
        assert_eq!(table.places.len(), 2, "a place is stored once");
        let found = table.lookup(&number("13800138000"));
        assert_eq!((found.place.map(|p| p.city.as_str()), found.carrier), (Some("北京"), Carrier::Mobile));
        assert_eq!(table.lookup(&number("13000001234")).carrier, Carrier::Telecom);
        assert_eq!(table.lookup(&number("18600001234")).carrier, Carrier::Unicom, "no carrier: the rule's");
        let unknown = table.lookup(&number("15912345678"));
        assert_eq!((unknown.prefix, unknown.place, unknown.carrier), (1_591_234, None, Carrier::Mobile));
    }

    #[test]
    fn rows_are_read_from_the_shipped_layout() {
        let row = parse_row("1380013,110000,北京,北京,mobile,Beijing,Beijing").expect("a row");
        assert_eq!((row.prefix, row.carrier), (1_380_013, Some(Carrier::Mobile)));
        assert_eq!((row.place.province_code.as_str(), row.place.city_en.as_str()), ("110000", "Beijing"));
        assert_eq!(parse_row("1700000,440000,广东,深圳,,Guangdong,Shenzhen").map(|row| row.carrier), Some(None));
        for bad in [
            "prefix,province_code,province,city,carrier,province_en,city_en",
            "1380013,110000,北京,北京,mobile,Beijing",
            "1380013,11000,北京,北京,mobile,Beijing,Beijing",
            "1380013,110000,北京,北京,satellite,Beijing,Beijing",
            "138001,110000,北京,北京,mobile,Beijing,Beijing",
            "1380013,110000,北京,,mobile,Beijing,Beijing",
        ] {
            assert_eq!(parse_row(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn a_repeated_prefix_keeps_its_last_row() {
        let table = SegmentTable::new([
            SegmentRow { prefix: 1_380_013, place: place("北京", "北京"), carrier: None },
            SegmentRow { prefix: 1_380_013, place: place("广东", "深圳"), carrier: None },
        ]);
        assert_eq!(table.len(), 1);
        assert_eq!(table.lookup(&number("13800138000")).place.map(|p| p.city.as_str()), Some("深圳"));
    }
}
