//! The merchant developer's guides, served by the console's server in the reader's language:
//! `/guide/merchant-api` and `/guide/merchant-api-callbacks` as HTML pages, and the Python
//! example they point to. The source is the repository's own docs (docs/merchant-api*.md),
//! embedded at build time, so the served guide and the repository's never differ.
//!
//! Each document holds a Chinese section (`## 中文`) and an English one (`## English`); a page
//! shows one, chosen by `?lang=` (the console passes its language), else `Accept-Language`.
//! The docs are ours, but raw HTML in them is still written out as text: a page that can only
//! ever contain what Markdown produces needs no review of what an edit smuggles in.

use crate::http::error::AppError;
use crate::i18n::Locale;
use axum::{
    Router,
    extract::{Path, Query},
    http::{HeaderMap, HeaderValue, header},
    response::{IntoResponse, Response},
    routing::get,
};
use pulldown_cmark::{Event, Options, Parser, html};
use serde::Deserialize;
use std::sync::LazyLock;

/// The guides: the name in the address and the Markdown source.
const GUIDES: [(&str, &str); 2] = [
    ("merchant-api", include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/merchant-api.md"))),
    ("merchant-api-callbacks", include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/merchant-api-callbacks.md"))),
];

/// The example client the guide links to, served as text so it can be saved and run.
const EXAMPLE: (&str, &str) =
    ("merchant_api.py", include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/examples/merchant_api.py")));

pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new().route("/guide/examples/{file}", get(example)).route("/guide/{name}", get(page))
}

#[derive(Debug, Deserialize)]
struct GuideQuery {
    lang: Option<String>,
}

/// The language a page is shown in: the console's `lang` when given, else the browser's.
fn locale(query: &GuideQuery, headers: &HeaderMap) -> Locale {
    match query.lang.as_deref().map(str::to_ascii_lowercase).as_deref() {
        Some(lang) if lang.starts_with("zh") => Locale::ZhCn,
        Some(lang) if lang.starts_with("en") => Locale::EnUs,
        _ => Locale::from_headers(headers),
    }
}

async fn page(
    Path(name): Path<String>,
    Query(query): Query<GuideQuery>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    static PAGES: LazyLock<Vec<(&'static str, Locale, String)>> = LazyLock::new(|| {
        GUIDES
            .iter()
            .flat_map(|(name, source)| {
                [Locale::ZhCn, Locale::EnUs].map(|locale| (*name, locale, render(name, source, locale)))
            })
            .collect()
    });
    let locale = locale(&query, &headers);
    let (_, _, html) =
        PAGES.iter().find(|(known, shown, _)| *known == name && *shown == locale).ok_or(AppError::NotFound)?;
    Ok(([(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"))], html.clone()).into_response())
}

async fn example(Path(file): Path<String>) -> Result<Response, AppError> {
    if file != EXAMPLE.0 {
        return Err(AppError::NotFound);
    }
    let disposition = HeaderValue::from_static("attachment; filename=\"merchant_api.py\"");
    Ok((
        [
            (header::CONTENT_TYPE, HeaderValue::from_static("text/x-python; charset=utf-8")),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        EXAMPLE.1,
    )
        .into_response())
}

/// The section of `source` in `locale`'s language, with the title in that language.
fn section(source: &str, locale: Locale) -> (String, String) {
    let (zh_heading, en_heading) = ("\n## 中文\n", "\n## English\n");
    let title_line = source.lines().next().unwrap_or_default().trim_start_matches("# ");
    let (zh_title, en_title) = title_line.split_once(" / ").unwrap_or((title_line, title_line));
    let zh_start = source.find(zh_heading).map_or(0, |at| at + zh_heading.len());
    let en_at = source.find(en_heading).unwrap_or(source.len());
    let body = match locale {
        Locale::ZhCn => &source[zh_start.min(en_at)..en_at],
        Locale::EnUs => &source[(en_at + en_heading.len()).min(source.len())..],
    };
    // The rule that closed the Chinese section belongs to the two-language file only.
    let body = body.trim_end().trim_end_matches("---").trim_end();
    let title = if locale == Locale::ZhCn { zh_title } else { en_title };
    (title.to_string(), body.to_string())
}

/// A link inside the docs, pointed at where the served guide keeps it.
fn served_link(target: &str, locale: Locale) -> String {
    let lang = if locale == Locale::ZhCn { "zh-CN" } else { "en-US" };
    if let Some(name) = target.strip_suffix(".md").filter(|name| !name.contains('/')) {
        return format!("/guide/{name}?lang={lang}");
    }
    if target == format!("examples/{}", EXAMPLE.0) {
        return format!("/guide/examples/{}", EXAMPLE.0);
    }
    target.to_string()
}

fn render(name: &str, source: &str, locale: Locale) -> String {
    let (title, body) = section(source, locale);
    let events = Parser::new_ext(&body, Options::ENABLE_TABLES).map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Event::Text(raw),
        Event::Start(pulldown_cmark::Tag::Link { link_type, dest_url, title, id }) => {
            let dest_url = served_link(&dest_url, locale).into();
            Event::Start(pulldown_cmark::Tag::Link { link_type, dest_url, title, id })
        }
        other => other,
    });
    let mut content = String::new();
    html::push_html(&mut content, events);
    let other = match locale {
        Locale::ZhCn => Locale::EnUs,
        Locale::EnUs => Locale::ZhCn,
    };
    let (lang, other_lang, other_label) = (locale.tag(), other.tag(), crate::i18n::guide::language_name(other));
    let other_guide = if name == "merchant-api" { "merchant-api-callbacks" } else { "merchant-api" };
    let other_title = crate::i18n::guide::title(other_guide, locale);
    let title = escape(&title);
    format!(
        "<!doctype html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><link rel=\"icon\" type=\"image/svg+xml\" href=\"/web/favicon.svg\">\
         <title>{title}</title><style>{STYLE}</style></head><body>\
         <header><nav aria-label=\"guide\"><a href=\"/guide/{other_guide}?lang={lang}\">{other_title}</a> · \
         <a href=\"/guide/{name}?lang={other_lang}\" lang=\"{other_lang}\">{other_label}</a></nav></header>\
         <main><h1>{title}</h1>\n{content}</main></body></html>\n"
    )
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('`', "")
}

/// Readable on a phone and on a wide screen; code blocks scroll rather than overflow.
const STYLE: &str = "body{margin:0;font:15px/1.7 -apple-system,'PingFang SC','Microsoft YaHei','WenQuanYi Zen Hei',sans-serif;color:#1f1f1f;background:#fff}\
header{border-bottom:1px solid #e5e5e5;padding:10px 16px;text-align:right}\
main{max-width:920px;margin:0 auto;padding:8px 16px 48px;overflow-wrap:anywhere}\
a{color:#0958d9}h1{font-size:26px}h2,h3,h4{margin-top:1.6em}\
pre{background:#f5f5f5;padding:12px;overflow-x:auto;border-radius:6px}\
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px}\
table{border-collapse:collapse;display:block;overflow-x:auto}th,td{border:1px solid #d9d9d9;padding:6px 10px;text-align:left;vertical-align:top}";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_language_gets_its_own_section_and_links_stay_inside_the_guide() {
        let (name, source) = GUIDES[0];
        let zh = render(name, source, Locale::ZhCn);
        let en = render(name, source, Locale::EnUs);
        assert!(zh.contains("<h1>商户开放接口</h1>") && zh.contains("<h3>2. 签名</h3>"), "{zh:.400}");
        assert!(!zh.contains("<h3>2. Signature</h3>"));
        assert!(en.contains("<h1>Merchant open API (/openapi/v1)</h1>") && en.contains("<h3>2. Signature</h3>"));
        assert!(!en.contains("<h3>2. 签名</h3>"));
        assert!(en.contains("href=\"/guide/examples/merchant_api.py\""));
        assert!(!en.contains(".md\""), "a link to a file the reader does not have");
        let callbacks = render(GUIDES[1].0, GUIDES[1].1, Locale::EnUs);
        assert!(callbacks.contains("<h1>Order result callbacks</h1>") && callbacks.contains("Standard Webhooks"));
    }

    #[test]
    fn raw_html_in_the_docs_is_shown_as_text() {
        let page = render(
            "x",
            "# T / T\n\n## 中文\n\n<script>alert(1)</script>\n\n## English\n\ntext <b>b</b>\n",
            Locale::EnUs,
        );
        assert!(!page.contains("<b>") && page.contains("&lt;b&gt;"), "{page}");
        let page = render("x", "# T / T\n\n## 中文\n\n<script>alert(1)</script>\n\n## English\n\n", Locale::ZhCn);
        assert!(!page.contains("<script>"), "{page}");
    }
}
