//! The server's top-level modules (`src/<name>.rs` or `src/<name>/`) must not import each
//! other in a circle: a circle means neither side can be read, changed or tested without
//! the other. This test reads every `crate::<module>` path under `src/` (in `use` lines,
//! brace groups and inline paths), builds the graph between top-level modules and fails
//! printing each circle with the lines that close it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// `from` → `to` → the places (`file:line`) where `from` names `to`.
type Graph = BTreeMap<String, BTreeMap<String, Vec<String>>>;

#[test]
fn top_level_modules_import_each_other_without_circles() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = module_graph(&src);
    assert!(graph.len() > 10, "the scan found too few modules under {}: {:?}", src.display(), graph.keys());
    let circles = strongly_connected(&graph);
    let report: Vec<String> = circles.iter().map(|members| describe(&graph, members)).collect();
    assert!(report.is_empty(), "modules that import each other in a circle:\n{}", report.join("\n"));
}

/// Money code moves money and nothing else: it is handed who acts (an `Actor` value) and
/// which order a record belongs to, and knows nothing of sign-in, sessions or orders.
#[test]
fn the_ledger_imports_nothing_from_orders_or_sign_in() {
    let ledger = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/finance/ledger.rs");
    let text = std::fs::read_to_string(&ledger).unwrap();
    let forbidden: Vec<(String, usize)> = referenced_modules(&text)
        .into_iter()
        .filter(|(name, _)| ["orders", "auth", "session", "users", "two_factor"].contains(&name.as_str()))
        .collect();
    assert!(forbidden.is_empty(), "src/finance/ledger.rs imports (module, line): {forbidden:?}");
}

#[test]
fn the_scan_sees_every_way_a_path_is_written() {
    let text = "use crate::{a::X, b::{Y, Z}, c};\nuse crate::d::E;\nfn f() { crate::e::g(); }\n\
                // crate::f::commented_out\nuse crate::{\n    g::H,\n};";
    let names: Vec<String> = referenced_modules(text).into_iter().map(|(name, _)| name).collect();
    assert_eq!(names, ["a", "b", "c", "d", "e", "g"]);

    let graph: Graph =
        [("x", "y"), ("y", "z"), ("z", "x"), ("z", "w")].into_iter().fold(Graph::new(), |mut graph, (from, to)| {
            graph.entry(from.into()).or_default().entry(to.into()).or_default().push(format!("{from}.rs:1"));
            graph.entry(to.into()).or_default();
            graph
        });
    assert_eq!(strongly_connected(&graph), vec![vec!["x".to_string(), "y".to_string(), "z".to_string()]]);
}

fn module_graph(src: &Path) -> Graph {
    let mut files = Vec::new();
    collect_rust_files(src, &mut files);
    let top_level: BTreeSet<String> = files.iter().filter_map(|file| top_level_module(src, file)).collect();
    let mut graph = Graph::new();
    for file in &files {
        let Some(from) = top_level_module(src, file) else { continue };
        let text = std::fs::read_to_string(file).unwrap();
        let edges = graph.entry(from.clone()).or_default();
        for (to, line) in referenced_modules(&text) {
            if to != from && top_level.contains(&to) {
                let place = format!("{}:{line}", file.strip_prefix(src).unwrap().display());
                edges.entry(to).or_default().push(place);
            }
        }
    }
    graph
}

fn collect_rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|entry| entry.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect_rust_files(&path, files);
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            files.push(path);
        }
    }
}

/// `src/orders/place.rs` → `orders`; the crate roots (`lib.rs`, `main.rs`) belong to no module.
fn top_level_module(src: &Path, file: &Path) -> Option<String> {
    let relative = file.strip_prefix(src).ok()?;
    let first = relative.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (name != "lib" && name != "main").then(|| name.to_string())
}

/// Every `crate::<name>` in the code (comments skipped), with its 1-based line; a brace
/// group `crate::{a::b, c}` names each of its members.
fn referenced_modules(text: &str) -> Vec<(String, usize)> {
    let code: String = text
        .lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n");
    let line_of = |at: usize| code[..at].matches('\n').count() + 1;
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(offset) = code[from..].find("crate::") {
        let start = from + offset + "crate::".len();
        from = start;
        // `backoffice_crate::x` or `my_crate::x` are not this crate.
        let before = code[..start - "crate::".len()].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &code[start..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut member_start = true;
            for (index, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => member_start = true,
                    c if member_start && (c.is_alphabetic() || c == '_') => {
                        member_start = false;
                        let name = identifier(&group[index..]);
                        found.push((name.to_string(), line_of(start + 1 + index)));
                    }
                    _ => {}
                }
            }
        } else {
            let name = identifier(rest);
            if !name.is_empty() {
                found.push((name.to_string(), line_of(start)));
            }
        }
    }
    found
}

fn identifier(text: &str) -> &str {
    let end = text.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(text.len());
    &text[..end]
}

/// The strongly connected components with more than one module (Tarjan), each sorted.
fn strongly_connected(graph: &Graph) -> Vec<Vec<String>> {
    struct Search<'a> {
        graph: &'a Graph,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        components: Vec<Vec<String>>,
    }
    impl<'a> Search<'a> {
        fn visit(&mut self, node: &'a str) {
            let number = self.index.len();
            self.index.insert(node, number);
            self.low.insert(node, number);
            self.stack.push(node);
            self.on_stack.insert(node);
            for next in self.graph.get(node).into_iter().flat_map(|edges| edges.keys()) {
                let next = next.as_str();
                if !self.index.contains_key(next) {
                    self.visit(next);
                    let low = self.low[node].min(self.low[next]);
                    self.low.insert(node, low);
                } else if self.on_stack.contains(next) {
                    let low = self.low[node].min(self.index[next]);
                    self.low.insert(node, low);
                }
            }
            if self.low[node] == self.index[node] {
                let mut component = Vec::new();
                while let Some(member) = self.stack.pop() {
                    self.on_stack.remove(member);
                    component.push(member.to_string());
                    if member == node {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.components.push(component);
                }
            }
        }
    }
    let mut search = Search {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        components: Vec::new(),
    };
    for node in graph.keys() {
        if !search.index.contains_key(node.as_str()) {
            search.visit(node);
        }
    }
    search.components.sort();
    search.components
}

/// One group of modules tied in circles: the shortest circle through each of them, each
/// import with the first place it is written.
fn describe(graph: &Graph, members: &[String]) -> String {
    let mut lines = vec![format!("  {} modules tied together: {}", members.len(), members.join(", "))];
    let mut seen = BTreeSet::new();
    for start in members {
        let Some(circle) = shortest_circle(graph, members, start) else { continue };
        let mut key = circle.clone();
        key.sort();
        if !seen.insert(key) {
            continue;
        }
        let steps: Vec<String> = circle
            .iter()
            .zip(circle.iter().cycle().skip(1))
            .map(|(from, to)| format!("{from} -> {to} ({})", graph[from][to][0]))
            .collect();
        lines.push(format!("    {}", steps.join(", ")));
    }
    lines.join("\n")
}

/// Breadth first from `start` back to itself, inside `members`.
fn shortest_circle(graph: &Graph, members: &[String], start: &String) -> Option<Vec<String>> {
    let mut came_from: BTreeMap<&String, &String> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(node) = queue.pop_front() {
        for next in graph[node].keys().filter(|next| members.contains(next)) {
            if next == start {
                let mut circle = vec![node.clone()];
                let mut at = node;
                while at != start {
                    at = came_from[at];
                    circle.push(at.clone());
                }
                circle.reverse();
                return Some(circle);
            }
            if !came_from.contains_key(next) {
                came_from.insert(next, node);
                queue.push_back(next);
            }
        }
    }
    None
}
