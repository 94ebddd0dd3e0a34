//! Province and speed names as people read them, by the GB/T 2260 code and the speed the
//! domain keeps (`domain::product_scope`).

use super::Locale;
use crate::domain::Speed;
use crate::domain::product_scope::PROVINCE_CODES;

/// Short names (without 省/市/自治区) in the order of [`PROVINCE_CODES`].
const NAMES: [(&str, &str); 34] = [
    ("北京", "Beijing"),
    ("天津", "Tianjin"),
    ("河北", "Hebei"),
    ("山西", "Shanxi"),
    ("内蒙古", "Inner Mongolia"),
    ("辽宁", "Liaoning"),
    ("吉林", "Jilin"),
    ("黑龙江", "Heilongjiang"),
    ("上海", "Shanghai"),
    ("江苏", "Jiangsu"),
    ("浙江", "Zhejiang"),
    ("安徽", "Anhui"),
    ("福建", "Fujian"),
    ("江西", "Jiangxi"),
    ("山东", "Shandong"),
    ("河南", "Henan"),
    ("湖北", "Hubei"),
    ("湖南", "Hunan"),
    ("广东", "Guangdong"),
    ("广西", "Guangxi"),
    ("海南", "Hainan"),
    ("重庆", "Chongqing"),
    ("四川", "Sichuan"),
    ("贵州", "Guizhou"),
    ("云南", "Yunnan"),
    ("西藏", "Tibet"),
    ("陕西", "Shaanxi"),
    ("甘肃", "Gansu"),
    ("青海", "Qinghai"),
    ("宁夏", "Ningxia"),
    ("新疆", "Xinjiang"),
    ("台湾", "Taiwan"),
    ("香港", "Hong Kong"),
    ("澳门", "Macao"),
];

/// A province's name by its code; None for a code that is not a province's.
pub fn province_name(code: u32, locale: Locale) -> Option<&'static str> {
    let index = PROVINCE_CODES.iter().position(|known| *known == code)?;
    let (zh, en) = NAMES[index];
    Some(match locale {
        Locale::ZhCn => zh,
        Locale::EnUs => en,
    })
}

/// A province's code by its Chinese short name (as the segment table stores it).
pub fn province_code(name: &str) -> Option<u32> {
    NAMES.iter().position(|(zh, _)| *zh == name).map(|index| PROVINCE_CODES[index])
}

/// A province's name as orders store it (广东) in `locale`; None for a name that is no
/// province's.
pub fn stored_province_in(stored: &str, locale: Locale) -> Option<&'static str> {
    province_name(province_code(stored)?, locale)
}

/// The code of a province as orders store it (广东), as the live monitor counts it: 0 for
/// no province or a name that is no province's.
pub fn live_code(stored: Option<&str>) -> u32 {
    stored.and_then(province_code).unwrap_or(0)
}

/// A province's code by its Chinese short name or its English name (any case), as
/// uploaded segment files write them.
pub fn province_code_in_any_language(name: &str) -> Option<u32> {
    province_code(name).or_else(|| {
        let index = NAMES.iter().position(|(_, en)| en.eq_ignore_ascii_case(name))?;
        Some(PROVINCE_CODES[index])
    })
}

/// Provinces of a scope, named, joined for a message or a file cell.
pub fn province_list(codes: &[u32], locale: Locale) -> String {
    let separator = match locale {
        Locale::ZhCn => "、",
        Locale::EnUs => ", ",
    };
    codes.iter().filter_map(|code| province_name(*code, locale)).collect::<Vec<_>>().join(separator)
}

pub fn speed_name(speed: Speed, locale: Locale) -> &'static str {
    match (speed, locale) {
        (Speed::Fast, Locale::ZhCn) => "快充",
        (Speed::Fast, Locale::EnUs) => "fast",
        (Speed::Slow, Locale::ZhCn) => "慢充",
        (Speed::Slow, Locale::EnUs) => "slow",
    }
}

/// Why a product was refused for a number: it names the number's province and carrier.
pub fn out_of_scope(carrier: crate::domain::Carrier, province: Option<u32>, locale: Locale) -> String {
    let carrier = super::files::carrier_name(carrier, locale);
    match (province.and_then(|code| province_name(code, locale)), locale) {
        (Some(province), Locale::ZhCn) => {
            format!("该号码归属{province}{carrier}，此商品不在{province}销售，请选择适用于该号码归属地的商品")
        }
        (Some(province), Locale::EnUs) => format!(
            "this number is {carrier} in {province}, and the product is not sold in {province}; \
             choose a product for the number's province"
        ),
        (None, Locale::ZhCn) => {
            format!("该号码为{carrier}号码，但号段归属地未知，此商品只在指定省份销售，请选择全国商品")
        }
        (None, Locale::EnUs) => format!(
            "this {carrier} number's province is not known from its segment, and the product is sold only in \
             some provinces; choose a national product"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_province_has_both_names_and_round_trips() {
        for code in PROVINCE_CODES {
            let zh = province_name(code, Locale::ZhCn).unwrap();
            assert!(province_name(code, Locale::EnUs).is_some_and(|en| en.is_ascii()));
            assert_eq!(province_code(zh), Some(code));
        }
        assert_eq!(province_name(440100, Locale::ZhCn), None);
        assert_eq!(province_list(&[440000, 330000], Locale::ZhCn), "广东、浙江");
        assert_eq!(province_list(&[440000, 330000], Locale::EnUs), "Guangdong, Zhejiang");
    }

    #[test]
    fn a_refusal_names_the_province_and_carrier_or_says_it_is_unknown() {
        use crate::domain::Carrier;
        let known = out_of_scope(Carrier::Mobile, Some(110000), Locale::ZhCn);
        assert!(known.contains("北京中国移动"), "{known}");
        let english = out_of_scope(Carrier::Unicom, None, Locale::EnUs);
        assert!(english.contains("China Unicom") && english.contains("not known"), "{english}");
        assert!(!out_of_scope(Carrier::Unicom, None, Locale::ZhCn).is_ascii());
    }
}
