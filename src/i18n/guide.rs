//! Texts of the guide pages served at `/guide/*` (the guides themselves are the Markdown
//! files under `docs/`, each with a Chinese and an English half).

use super::Locale;

/// A guide's title in `locale`, by its name in the address.
pub fn title(name: &str, locale: Locale) -> &'static str {
    let (zh, en) = match name {
        "merchant-api-callbacks" => ("订单结果回调", "Order result callbacks"),
        _ => ("商户开放接口", "Merchant open API"),
    };
    if locale == Locale::ZhCn { zh } else { en }
}

/// The name of a language in that language, for the link that switches to it.
pub fn language_name(locale: Locale) -> &'static str {
    match locale {
        Locale::ZhCn => "中文",
        Locale::EnUs => "English",
    }
}
