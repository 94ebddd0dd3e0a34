//! The city column of the order export in the reader's language. Orders store the city as
//! the segment table names it in Chinese (深圳), like product names; an English reader gets
//! the table's English name (Shenzhen), looked up by province and city, since two provinces
//! can each have a city of one name. A city the table no longer knows (the table was
//! refreshed since) stays as stored.

use crate::domain::segments::{Place, SegmentTable};
use crate::http::export::FORMULA_TRIGGERS;
use std::collections::BTreeMap;

/// The city of an order (stored province and city) for the xlsx export.
pub fn city_text<'a>(table: &'a SegmentTable, province: Option<&str>, city: &'a str, zh: bool) -> &'a str {
    if zh {
        return city;
    }
    province.and_then(|province| table.city_en(province, city)).filter(|english| !english.is_empty()).unwrap_or(city)
}

/// Whether a name can go into the CSV statement as a literal: no quote of either kind to
/// escape, no formula character first. Names of the shipped table all can; an uploaded
/// table's odd one falls back to the stored Chinese name, checked like any text.
fn literal_safe(name: &str) -> bool {
    !name.is_empty() && !name.contains(['\'', '"', '\\']) && !name.starts_with(FORMULA_TRIGGERS)
}

/// The CSV statement's city field: `stored` (the field's expression for the stored city)
/// for a Chinese reader; for an English one a `CASE` on the province, then on the city
/// within it (a few comparisons a row, not one per city of the country), `stored` where the
/// table has no English name.
pub fn city_sql(places: &[Place], zh: bool, stored: &str) -> String {
    if zh {
        return stored.to_string();
    }
    let mut by_province: BTreeMap<&str, BTreeMap<&str, &str>> = BTreeMap::new();
    for place in places {
        if [place.province.as_str(), place.city.as_str(), place.city_en.as_str()].into_iter().all(literal_safe) {
            by_province.entry(&place.province).or_default().insert(&place.city, &place.city_en);
        }
    }
    if by_province.is_empty() {
        return stored.to_string();
    }
    let mut sql = String::from("CASE province");
    for (province, cities) in by_province {
        sql.push_str(&format!(" WHEN '{province}' THEN CASE city"));
        for (city, english) in cities {
            sql.push_str(&format!(" WHEN '{city}' THEN '\"{english}\"'"));
        }
        sql.push_str(&format!(" ELSE {stored} END"));
    }
    sql.push_str(&format!(" ELSE {stored} END"));
    sql
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::segments::SegmentRow;

    fn place(province: &str, city: &str, city_en: &str) -> Place {
        Place {
            province_code: "440000".into(),
            province: province.into(),
            city: city.into(),
            province_en: "Guangdong".into(),
            city_en: city_en.into(),
        }
    }

    #[test]
    fn english_readers_get_the_tables_english_name_and_unknown_cities_stay() {
        let table = SegmentTable::new([SegmentRow {
            prefix: 1_380_000,
            place: place("广东", "深圳", "Shenzhen"),
            carrier: None,
        }]);
        assert_eq!(city_text(&table, Some("广东"), "深圳", false), "Shenzhen");
        assert_eq!(city_text(&table, Some("广东"), "深圳", true), "深圳");
        assert_eq!(city_text(&table, Some("浙江"), "深圳", false), "深圳");
        assert_eq!(city_text(&table, None, "深圳", false), "深圳");
    }

    #[test]
    fn the_statement_names_safe_cities_and_keeps_the_stored_text_otherwise() {
        let places = [
            place("广东", "深圳", "Shenzhen"),
            place("广东", "广州", "=HYPERLINK()"),
            place("浙江", "杭州", "Hang'zhou"),
        ];
        assert_eq!(city_sql(&places, true, "S"), "S");
        assert_eq!(
            city_sql(&places, false, "S"),
            "CASE province WHEN '广东' THEN CASE city WHEN '深圳' THEN '\"Shenzhen\"' ELSE S END ELSE S END"
        );
        assert_eq!(city_sql(&[], false, "S"), "S");
    }
}
