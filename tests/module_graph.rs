//! Inside every folder of the server (`src/` itself, `src/orders/`, `src/orders/batch/`, …) the
//! modules must not import each other in a circle: a circle means neither side can be read,
//! changed or tested without the other. A folder's own `mod.rs` is its face, not one of its
//! modules: children may use what it declares, and it may wire its children together. This
//! test reads every path the code writes (`use` trees spelled out, and paths inline) that
//! leads through `crate::`, `super::`, `self::` or a child module's name, builds for each
//! folder the graph between its modules, and fails printing each circle with the lines that
//! close it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// `from` → `to` → the places (`file:line`) where `from` names `to`.
type Graph = BTreeMap<String, BTreeMap<String, Vec<String>>>;

#[test]
fn no_folder_has_modules_that_import_each_other_in_a_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let folders = folder_graphs(&src);
    assert!(folders[""].len() > 8, "the scan found too few top-level modules: {:?}", folders[""].keys());
    assert!(folders.len() > 20, "the scan found too few folders: {:?}", folders.keys());
    let mut report = Vec::new();
    for (folder, graph) in &folders {
        for members in strongly_connected(graph) {
            let name = if folder.is_empty() { "src".to_string() } else { format!("src/{folder}") };
            report.push(format!("in {name}:\n{}", describe(graph, &members)));
        }
    }
    assert!(report.is_empty(), "modules that import each other in a circle:\n{}", report.join("\n"));
}

/// Money code moves money and nothing else: it is handed who acts (an `Actor` value) and
/// which order a record belongs to, and knows nothing of sign-in, sessions or orders.
#[test]
fn the_ledger_imports_nothing_from_orders_or_sign_in() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let ledger = src.join("money/finance/ledger.rs");
    let text = std::fs::read_to_string(&ledger).unwrap();
    let module = module_of(&src, &ledger);
    let forbidden: Vec<(Vec<String>, usize)> = written_paths(&text)
        .into_iter()
        .filter_map(|(path, line)| Some((resolve(&src, &module, &path)?, line)))
        .filter(|(target, _)| ["orders", "identity"].contains(&target[0].as_str()))
        .collect();
    assert!(forbidden.is_empty(), "src/money/finance/ledger.rs imports (path, line): {forbidden:?}");
}

#[test]
fn the_scan_sees_every_way_a_path_is_written() {
    let text = "use crate::{a::X, b::{Y, z::W}, c};\nuse crate::d::E as F;\nfn f() { crate::e::g(); }\n\
                // crate::f::commented_out\nuse crate::{\n    g::H,\n};\npub(crate) use super::h::I;\n\
                fn k() { super::super::i::j(); self::l::m(); }";
    let paths: Vec<String> = written_paths(text).into_iter().map(|(path, _)| path.join("::")).collect();
    assert_eq!(
        paths,
        [
            "crate::a::X",
            "crate::b::Y",
            "crate::b::z::W",
            "crate::c",
            "crate::d::E",
            "crate::g::H",
            "super::h::I",
            "crate::e::g",
            "super::super::i::j",
            "self::l::m"
        ]
    );

    let graph: Graph =
        [("x", "y"), ("y", "z"), ("z", "x"), ("z", "w")].into_iter().fold(Graph::new(), |mut graph, (from, to)| {
            graph.entry(from.into()).or_default().entry(to.into()).or_default().push(format!("{from}.rs:1"));
            graph.entry(to.into()).or_default();
            graph
        });
    assert_eq!(strongly_connected(&graph), vec![vec!["x".to_string(), "y".to_string(), "z".to_string()]]);
}

#[test]
fn paths_resolve_to_the_modules_of_this_tree() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let from_place = module_of(&src, &src.join("orders/add.rs"));
    assert_eq!(from_place, ["orders", "add"]);
    let path = |text: &str| text.split("::").map(str::to_string).collect::<Vec<_>>();
    assert_eq!(resolve(&src, &from_place, &path("super::model::Order")).unwrap(), path("orders::model::Order"));
    assert_eq!(resolve(&src, &from_place, &path("crate::money::finance")).unwrap(), path("money::finance"));
    assert_eq!(resolve(&src, &from_place, &path("serde::Serialize")), None);
    let face = module_of(&src, &src.join("orders/mod.rs"));
    assert_eq!(resolve(&src, &face, &path("add::router")).unwrap(), path("orders::add::router"));
}

/// For each folder (relative to `src/`, `""` for `src/` itself) the graph between its
/// modules: an edge wherever a file under one module names a path under another.
fn folder_graphs(src: &Path) -> BTreeMap<String, Graph> {
    let mut files = Vec::new();
    collect_rust_files(src, &mut files);
    let mut folders: BTreeMap<String, Graph> = BTreeMap::new();
    for file in &files {
        let module = module_of(src, file);
        if let Some(folder) = folder_of(src, file) {
            let graph = folders.entry(folder.join("/")).or_default();
            if let Some(name) = module.get(folder.len()) {
                graph.entry(name.clone()).or_default();
            }
        }
        let name = file.file_name().and_then(|name| name.to_str()).unwrap_or_default();
        if module.is_empty() || name == "main.rs" {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        for (path, line) in written_paths(&text) {
            let Some(target) = resolve(src, &module, &path) else { continue };
            let shared = module.iter().zip(&target).take_while(|(a, b)| a == b).count();
            let (Some(from), Some(to)) = (module.get(shared), target.get(shared)) else { continue };
            let folder = &module[..shared];
            if !is_child(src, folder, to) {
                continue;
            }
            let place = format!("{}:{line}", file.strip_prefix(src).unwrap().display());
            let graph = folders.entry(folder.join("/")).or_default();
            graph.entry(from.clone()).or_default().entry(to.clone()).or_default().push(place);
            graph.entry(to.clone()).or_default();
        }
    }
    folders
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

/// `src/orders/add.rs` → `[orders, add]`; `src/orders/mod.rs` → `[orders]`; `src/lib.rs` → `[]`.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src).unwrap().with_extension("");
    let mut module: Vec<String> =
        relative.components().map(|part| part.as_os_str().to_string_lossy().into_owned()).collect();
    if module.last().is_some_and(|last| ["mod", "lib", "main"].contains(&last.as_str())) {
        module.pop();
    }
    module
}

/// The folder whose module a file is (not its face): `src/orders/add.rs` → `[orders]`,
/// `src/orders/batch/mod.rs` → `[orders]`; the crate roots belong to no folder.
fn folder_of(src: &Path, file: &Path) -> Option<Vec<String>> {
    let mut module = module_of(src, file);
    module.pop()?;
    Some(module)
}

fn is_child(src: &Path, folder: &[String], name: &str) -> bool {
    let directory = folder.iter().fold(src.to_path_buf(), |path, part| path.join(part));
    directory.join(format!("{name}.rs")).is_file() || directory.join(name).join("mod.rs").is_file()
}

/// The module path a written path leads to, from the module it is written in; `None` for
/// paths into other crates, the prelude or local names.
fn resolve(src: &Path, module: &[String], path: &[String]) -> Option<Vec<String>> {
    let first = path.first()?;
    let (mut base, rest) = match first.as_str() {
        "crate" => (Vec::new(), &path[1..]),
        "super" | "self" => {
            let mut base = module.to_vec();
            let mut rest = path;
            while let Some(step) = rest.first().filter(|step| *step == "super" || *step == "self") {
                if step == "super" {
                    base.pop()?;
                }
                rest = &rest[1..];
            }
            (base, rest)
        }
        name if is_child(src, module, name) => (module.to_vec(), path),
        _ => return None,
    };
    base.extend(rest.iter().cloned());
    Some(base)
}

/// Every path the code writes (comments skipped), with its 1-based line: each member of a
/// `use` tree spelled out (`use a::{b, c::d}` → `a::b`, `a::c::d`), then each path written
/// inline (`crate::x::f()`, `super::y::Z`).
fn written_paths(text: &str) -> Vec<(Vec<String>, usize)> {
    let mut code: String = text
        .lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n");
    let line_of = |code: &str, at: usize| code[..at].matches('\n').count() + 1;
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(offset) = code[from..].find("use ") {
        let start = from + offset;
        let before = code[..start].chars().next_back();
        let Some(length) = code[start..].find(';') else { break };
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            from = start + 4;
            continue;
        }
        let tree = &code[start + 4..start + length];
        let line = line_of(&code, start);
        found.extend(expand_tree(tree).into_iter().map(|path| (path, line)));
        // Blank the statement (keeping its lines) so the inline scan does not see it again.
        let blank: String = code[start..start + length].chars().map(|c| if c == '\n' { c } else { ' ' }).collect();
        code.replace_range(start..start + length, &blank);
        from = start + length;
    }
    let bytes: Vec<char> = code.chars().collect();
    let mut index = 0;
    let mut offset = 0;
    while index < bytes.len() {
        let c = bytes[index];
        let after_path_char =
            index > 0 && (bytes[index - 1].is_alphanumeric() || matches!(bytes[index - 1], '_' | ':'));
        if (c.is_alphabetic() || c == '_') && !after_path_char {
            let mut end = index;
            while end < bytes.len() && (bytes[end].is_alphanumeric() || matches!(bytes[end], '_' | ':')) {
                end += 1;
            }
            let written: String = bytes[index..end].iter().collect();
            let path: Vec<String> = written.split("::").filter(|part| !part.is_empty()).map(str::to_string).collect();
            if written.contains("::") && path.len() > 1 {
                found.push((path, line_of(&code, offset)));
            }
            offset += bytes[index..end].iter().map(|c| c.len_utf8()).sum::<usize>();
            index = end;
        } else {
            offset += c.len_utf8();
            index += 1;
        }
    }
    found
}

/// `a::{b, c::{d, e as f}}` → `a::b`, `a::c::d`, `a::c::e`.
fn expand_tree(tree: &str) -> Vec<Vec<String>> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        let plain = tree.split(" as ").next().unwrap_or(tree).trim();
        return vec![plain.split("::").map(|part| part.trim().to_string()).filter(|part| !part.is_empty()).collect()];
    };
    let prefix: Vec<String> =
        tree[..open].split("::").map(|part| part.trim().to_string()).filter(|part| !part.is_empty()).collect();
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut members = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (at, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                members.push(&inner[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    members.push(&inner[start..]);
    members
        .into_iter()
        .filter(|member| !member.trim().is_empty())
        .flat_map(expand_tree)
        .map(|member| prefix.iter().cloned().chain(member).collect())
        .collect()
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
