//! `make test` builds the release binary (`cargo build --release`), then the tests
//! (`cargo test --release --workspace`). Cargo turns on, for a test build, every feature
//! the dev-dependencies (this package's and tests/api/'s) ask of a shared dependency. When
//! one of them asks for a feature the server itself does not (tokio's `test-util`, or
//! calamine's `byteorder/default`), that dependency, everything built on it (sqlx, axum,
//! tracing-subscriber) and this crate are compiled twice, once for each command: on a
//! clean clone that was several minutes of `make test` spent building a second copy of the
//! same code. It also meant the tests ran a differently built server from the one shipped.
//! This test fails naming the package and both feature sets whenever a dev-dependency
//! splits a build again; the fix is to ask for the same features in `[dependencies]`
//! (Cargo.toml says which entries are there for that alone).

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

/// "name vX.Y.Z" → every feature set it is built with (a proc-macro's dependencies are
/// built a second time for the host, and may differ from the target's).
type Features = BTreeMap<String, BTreeSet<String>>;

#[test]
fn the_tests_build_every_shared_dependency_with_the_servers_features() {
    let server = feature_sets(&["--package", "backoffice", "--edges", "normal,build"]);
    let tests = feature_sets(&["--workspace", "--edges", "normal,build,dev"]);
    assert!(server.len() > 100, "cargo tree listed too few packages: {:?}", server.keys());
    let split: Vec<String> = server
        .iter()
        .filter(|(package, sets)| tests.get(*package) != Some(sets))
        .map(|(package, sets)| format!("{package}: server {sets:?}, tests {:?}", tests.get(package)))
        .collect();
    assert!(split.is_empty(), "built twice, with other features for the tests:\n{}", split.join("\n"));
}

/// Cargo.toml lists the test targets (`autotests = false`, so that tests/api/ is not also
/// built as this package's test): a file added under tests/ without a `[[test]]` entry
/// would never run.
#[test]
fn every_test_file_is_a_test_target() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let files: Vec<String> = std::fs::read_dir(root.join("tests"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".rs"))
        .collect();
    assert!(files.contains(&"build_features.rs".to_string()), "tests/ read wrongly: {files:?}");
    let missing: Vec<&String> =
        files.iter().filter(|name| !manifest.contains(&format!("path = \"tests/{name}\""))).collect();
    assert!(missing.is_empty(), "files under tests/ that Cargo.toml does not list as [[test]]: {missing:?}");
    let api = std::fs::read_to_string(root.join("tests/api/Cargo.toml")).unwrap();
    assert!(api.contains("path = \"main.rs\""), "tests/api/Cargo.toml does not build tests/api/main.rs");
}

#[test]
fn the_parser_keeps_every_feature_set_of_a_package() {
    let text = "tokio v1.0.0 full,rt\nserde v1.0.0 default\ntokio v1.0.0 full,rt (*)\nregex-syntax v0.8.0 std\n\
                regex-syntax v0.8.0 default,std\nwith-none v0.1.0 \n\n";
    let parsed = parse(text);
    assert_eq!(parsed.len(), 4);
    assert_eq!(parsed["tokio v1.0.0"], BTreeSet::from(["full,rt".to_string()]));
    assert_eq!(parsed["regex-syntax v0.8.0"], BTreeSet::from(["std".to_string(), "default,std".to_string()]));
    assert_eq!(parsed["with-none v0.1.0"], BTreeSet::from([String::new()]));
}

fn feature_sets(selection: &[&str]) -> Features {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["tree", "--frozen", "--prefix", "none", "--format", "{p} {f}"])
        .args(selection)
        .output()
        .expect("cargo tree runs");
    assert!(output.status.success(), "cargo tree failed: {}", String::from_utf8_lossy(&output.stderr));
    parse(&String::from_utf8(output.stdout).expect("cargo tree prints UTF-8"))
}

/// Lines of `{p} {f}`: "name vX.Y.Z[ (path)] feature,feature[ (*)]".
fn parse(text: &str) -> Features {
    let mut packages = Features::new();
    for line in text.lines().map(|line| line.trim_end_matches(" (*)")) {
        let mut words = line.splitn(3, ' ');
        let (Some(name), Some(version)) = (words.next(), words.next()) else { continue };
        let rest = words.next().unwrap_or("");
        // A path dependency prints "(/its/path)" before its features.
        let features = if rest.starts_with('(') { rest.split_once(") ").map_or("", |(_, f)| f) } else { rest };
        packages.entry(format!("{name} {version}")).or_default().insert(features.trim().to_string());
    }
    packages
}
