//! What both readers of a segment file (CSV, phone.dat) share: why a file is refused, the
//! places' English names, and the reading of a province, a city and a carrier as files write
//! them.

use crate::domain::Carrier;
use crate::domain::segments::{Place, SegmentTable};
use crate::i18n::{CatalogueMessage, Locale, SegmentAt, SegmentProblem};
use std::collections::HashMap;

/// Bad segments named in a refusal; the rest are not read further.
pub const MAX_PROBLEMS: usize = 200;

/// Why a file was not taken.
#[derive(Debug, PartialEq)]
pub enum Refusal {
    File(CatalogueMessage),
    Entries(Vec<(SegmentAt, SegmentProblem)>),
}

/// English names of places, for files that give only Chinese ones: provinces from their
/// code, cities from the table in memory (libphonenumber's names); a city it lacks keeps
/// its Chinese name.
pub struct Names {
    cities: HashMap<(String, String), String>,
}

impl Names {
    pub fn of(table: &SegmentTable) -> Self {
        let cities = table
            .places()
            .iter()
            .map(|place| ((place.province.clone(), place.city.clone()), place.city_en.clone()))
            .collect();
        Self { cities }
    }

    /// The place of a province (by code), a city and the English names the file gave.
    pub fn place(&self, code: u32, province: &str, city: &str, english: Option<(&str, &str)>) -> Place {
        let province_en = crate::i18n::provinces::province_name(code, Locale::EnUs).unwrap_or(province);
        let (province_en, city_en) = match english {
            Some((province_en, city_en)) if [province_en, city_en].iter().all(|name| is_name(name)) => {
                (province_en.to_string(), city_en.to_string())
            }
            _ => {
                let known = self.cities.get(&(province.to_string(), city.to_string()));
                (province_en.to_string(), known.cloned().unwrap_or_else(|| city.to_string()))
            }
        };
        Place {
            province_code: format!("{code:06}"),
            province: province.into(),
            city: city.into(),
            province_en,
            city_en,
        }
    }
}

/// Whether an English name given by a file can be kept: words, not empty, no formula.
fn is_name(name: &str) -> bool {
    !name.is_empty() && !name.starts_with(['=', '+', '-', '@']) && !name.chars().any(char::is_control)
}

/// Administrative suffixes a province's full name carries (广西壮族自治区 → 广西).
const PROVINCE_SUFFIXES: [&str; 7] = ["壮族自治区", "回族自治区", "维吾尔自治区", "特别行政区", "自治区", "省", "市"];

/// A province's short name and code, from its name (short or full) or a code given beside it.
pub fn province_of(name: &str, code: Option<&str>) -> Result<(String, u32), SegmentProblem> {
    let mut short = name.trim();
    for suffix in PROVINCE_SUFFIXES {
        if let Some(stripped) = short.strip_suffix(suffix).filter(|rest| !rest.is_empty()) {
            short = stripped;
            break;
        }
    }
    let by_name = crate::i18n::provinces::province_code_in_any_language(short);
    let code = match code {
        Some(text) => {
            text.parse::<u32>().ok().filter(|code| crate::i18n::provinces::province_name(*code, Locale::ZhCn).is_some())
        }
        None => by_name,
    };
    match code {
        Some(code) => {
            Ok((crate::i18n::provinces::province_name(code, Locale::ZhCn).unwrap_or(short).to_string(), code))
        }
        None => Err(SegmentProblem::Province(name.trim().chars().take(20).collect())),
    }
}

/// A city's short name (深圳市 → 深圳); a municipality's own name when the file leaves it empty.
pub fn city_of(name: &str, province: &str) -> Option<String> {
    let name = name.trim();
    let short = name.strip_suffix('市').filter(|rest| rest.chars().count() >= 2).unwrap_or(name);
    // A name is words: one that would start a spreadsheet formula is no city's (and the
    // table's export stays safe to open in Excel).
    if short.starts_with(['=', '+', '-', '@']) || short.chars().any(char::is_control) {
        return None;
    }
    match short {
        "" if ["北京", "天津", "上海", "重庆"].contains(&province) => Some(province.to_string()),
        "" => None,
        short => Some(short.chars().take(40).collect()),
    }
}

/// A carrier from the server's name or the Chinese one (中国移动, 移动虚拟运营商…: a virtual
/// operator's numbers are topped up on its host network); empty: the segment rule decides.
pub fn carrier_of(text: &str) -> Result<Option<Carrier>, SegmentProblem> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    if let Some(carrier) = Carrier::parse(&text.to_lowercase()) {
        return Ok(Some(carrier));
    }
    let by_word =
        [("移动", Carrier::Mobile), ("联通", Carrier::Unicom), ("电信", Carrier::Telecom), ("广电", Carrier::Broadnet)];
    by_word
        .into_iter()
        .find(|(word, _)| text.contains(word))
        .map(|(_, carrier)| Some(carrier))
        .ok_or_else(|| SegmentProblem::Carrier(text.chars().take(20).collect()))
}
