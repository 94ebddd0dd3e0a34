//! The message-key tables of `docs/api.md` list each key once, exactly as the server
//! sends it: a client matching `data.keys` against the reference must find every key there
//! real, and never two different texts for one key.

use super::coverage::messages;
use std::collections::HashSet;

/// The keys of the table rows (`| \`key\` | English | 中文 |`) under "## Message keys".
fn documented_keys(reference: &str) -> Vec<String> {
    let section = reference.split("\n## Message keys").nth(1).unwrap_or_default();
    let section = section.split("\n## ").next().unwrap_or_default();
    section
        .lines()
        .filter(|line| line.starts_with("| `"))
        .filter_map(|line| line.split('`').nth(1))
        .map(str::to_string)
        .collect()
}

#[test]
fn every_documented_key_is_sent_by_the_server_and_listed_once() {
    let reference = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/api.md")).unwrap();
    let documented = documented_keys(&reference);
    assert!(documented.len() > 50, "the tables were not found: {documented:?}");
    let sent: HashSet<&str> = messages().iter().map(|message| message.key()).collect();
    let mut seen = HashSet::new();
    for key in &documented {
        assert!(seen.insert(key), "docs/api.md lists the key {key} twice");
        assert!(sent.contains(key.as_str()), "docs/api.md lists {key}, which the server never sends");
    }
}

#[test]
fn the_table_reader_finds_rows_of_its_section_only() {
    let text = "intro\n## Message keys\n| key | English |\n|---|---|\n| `a.b` | A |\n| `c` (40900) | C |\n## Next\n| `d` | D |";
    assert_eq!(documented_keys(text), ["a.b", "c"]);
}
