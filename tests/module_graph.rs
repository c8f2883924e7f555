//! The crate's modules form no cycle: at every level of the module tree, the sibling
//! modules' uses of each other (`crate::a::b`, `super::b`, and the paths inside a
//! `super::{…}` group) make an acyclic graph. A child's use of what its parent defines,
//! and a parent's of its children, are not between siblings and are not counted; nor are
//! the unit tests at the end of a file, nor comments.
//!
//! The check reads the source files themselves, so it needs nothing beside the checkout.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A module's path from the crate root, e.g. `["floodit", "solver"]`.
type ModPath = Vec<String>;

/// Every module file under `src/` (the crate roots `lib.rs` and `main.rs` aside) with its
/// source.
fn module_files(dir: &Path, prefix: &[String], out: &mut BTreeMap<ModPath, String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            let mut p = prefix.to_vec();
            p.push(name);
            module_files(&path, &p, out);
        } else if let Some(stem) = name.strip_suffix(".rs") {
            if prefix.is_empty() && (stem == "lib" || stem == "main") {
                continue;
            }
            let mut p = prefix.to_vec();
            if stem != "mod" {
                p.push(stem.to_string());
            }
            out.insert(p, std::fs::read_to_string(&path).expect("a source file"));
        }
    }
}

/// The source without its unit tests (a `#[cfg(test)] mod tests` at the end) and without
/// comments (each line cut at `//`).
fn code_of(source: &str) -> String {
    let end = source
        .find("#[cfg(test)]\nmod tests")
        .unwrap_or(source.len());
    source[..end]
        .lines()
        .map(|l| l.find("//").map_or(l, |i| &l[..i]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every path the code names from `crate`, `super` or `self`, with the paths inside a
/// `{…}` group after one each named on its own (`super::{a, b::c}` gives `super::a` and
/// `super::b::c`).
fn paths_in(code: &str) -> Vec<Vec<String>> {
    let b = code.as_bytes();
    let ident = |i: usize| {
        let mut j = i;
        while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
            j += 1;
        }
        j
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts_word = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        let j = ident(i);
        if j == i {
            i += 1;
            continue;
        }
        let word = &code[i..j];
        if !starts_word || !matches!(word, "crate" | "super" | "self") {
            i = j;
            continue;
        }
        let mut path = vec![word.to_string()];
        let mut k = j;
        while code[k..].starts_with("::") {
            let m = ident(k + 2);
            if m == k + 2 {
                break;
            }
            path.push(code[k + 2..m].to_string());
            k = m;
        }
        if code[k..].starts_with("::{") {
            // the group's items, split at the commas of its own level
            let (mut depth, mut item_start, mut m) = (0usize, k + 3, k + 3);
            while m < b.len() {
                match b[m] {
                    b'{' => depth += 1,
                    b'}' if depth == 0 => break,
                    b'}' => depth -= 1,
                    b',' if depth == 0 => {
                        out.push(joined(&path, &code[item_start..m]));
                        item_start = m + 1;
                    }
                    _ => {}
                }
                m += 1;
            }
            out.push(joined(&path, &code[item_start..m.min(b.len())]));
            k = m;
        } else {
            out.push(path);
        }
        i = k.max(j);
    }
    out
}

/// `base` followed by the leading path of a group's `item` (`b::{c, d}` gives `b`).
fn joined(base: &[String], item: &str) -> Vec<String> {
    let mut path = base.to_vec();
    for part in item.trim().split("::") {
        let name: String = part
            .trim()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            break;
        }
        path.push(name);
    }
    path
}

/// The edges between sibling modules: for a use in module `from` of the module a path
/// names (its longest prefix that is a module), the pair of their ancestors just below
/// where they part.
fn sibling_edges(files: &BTreeMap<ModPath, String>) -> BTreeSet<(ModPath, ModPath)> {
    let mut edges = BTreeSet::new();
    for (from, source) in files {
        for path in paths_in(&code_of(source)) {
            let mut to: ModPath = Vec::new();
            let mut rest = path.as_slice();
            if rest[0] == "crate" {
                rest = &rest[1..];
            } else {
                to = from.clone();
                while let Some(first) = rest.first() {
                    match first.as_str() {
                        "super" => {
                            to.pop();
                        }
                        "self" => {}
                        _ => break,
                    }
                    rest = &rest[1..];
                }
            }
            for part in rest {
                to.push(part.clone());
                if !files.contains_key(&to) {
                    to.pop();
                    break;
                }
            }
            let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
            if common < from.len() && common < to.len() {
                edges.insert((from[..=common].to_vec(), to[..=common].to_vec()));
            }
        }
    }
    edges
}

/// A cycle of `edges`, if there is one (depth-first search, grey and black marks).
fn a_cycle(edges: &BTreeSet<(ModPath, ModPath)>) -> Option<Vec<ModPath>> {
    let mut next: BTreeMap<&ModPath, Vec<&ModPath>> = BTreeMap::new();
    for (a, b) in edges {
        next.entry(a).or_default().push(b);
    }
    fn visit<'a>(
        v: &'a ModPath,
        next: &BTreeMap<&'a ModPath, Vec<&'a ModPath>>,
        state: &mut BTreeMap<&'a ModPath, u8>,
        stack: &mut Vec<&'a ModPath>,
    ) -> Option<Vec<ModPath>> {
        state.insert(v, 1);
        stack.push(v);
        for &w in next.get(v).into_iter().flatten() {
            match state.get(w).copied().unwrap_or(0) {
                1 => {
                    let at = stack.iter().position(|&x| x == w).unwrap();
                    return Some(stack[at..].iter().map(|&x| x.clone()).collect());
                }
                0 => {
                    if let Some(c) = visit(w, next, state, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(v, 2);
        None
    }
    let mut state = BTreeMap::new();
    for &v in next.keys() {
        if state.get(v).copied().unwrap_or(0) == 0 {
            if let Some(c) = visit(v, &next, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

fn path(s: &str) -> ModPath {
    s.split("::").map(str::to_string).collect()
}

#[test]
fn the_modules_form_no_cycle() {
    let mut files = BTreeMap::new();
    module_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &[],
        &mut files,
    );
    let edges = sibling_edges(&files);
    assert!(
        files.len() > 60 && edges.len() > 150,
        "only {} modules and {} edges read",
        files.len(),
        edges.len()
    );
    // edges the crate is known to have, at the top and inside a module
    for (a, b) in [("solve", "search"), ("floodit::solver", "floodit::moves")] {
        assert!(edges.contains(&(path(a), path(b))), "{a} → {b} not found");
    }
    if let Some(cycle) = a_cycle(&edges) {
        let names: Vec<String> = cycle.iter().map(|p| p.join("::")).collect();
        panic!(
            "the modules {} use each other in a cycle",
            names.join(" → ")
        );
    }
}

/// The reading finds a cycle where there is one: two sibling files using each other, one
/// through a `super::{…}` group with a nested group, the other by a `crate::` path, with a
/// comment and a unit test that would add a third use left out.
#[test]
fn a_cycle_between_siblings_is_found() {
    let files: BTreeMap<ModPath, String> = [
        (
            path("m"),
            "pub mod a;\npub mod b;\npub mod c;\n".to_string(),
        ),
        (
            path("m::a"),
            "use super::{b::{X, Y}, Z};\n// use super::c::W;\n".to_string(),
        ),
        (path("m::b"), "fn f() { crate::m::a::g(); }\n".to_string()),
        (
            path("m::c"),
            "#[cfg(test)]\nmod tests {\n    use super::super::a;\n}\n".to_string(),
        ),
    ]
    .into_iter()
    .collect();
    let edges = sibling_edges(&files);
    let expected: BTreeSet<_> = [(path("m::a"), path("m::b")), (path("m::b"), path("m::a"))]
        .into_iter()
        .collect();
    assert_eq!(edges, expected);
    let cycle = a_cycle(&edges).expect("a → b → a");
    assert_eq!(cycle.len(), 2);
    let acyclic: BTreeSet<_> = edges.into_iter().take(1).collect();
    assert_eq!(a_cycle(&acyclic), None);
}
