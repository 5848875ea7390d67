//! No import cycles between modules: within every crate of the workspace, the modules
//! that share a parent (the files of one folder, and the folders beside them) use one
//! another in one direction only. A module may use its parent and its children; those
//! edges are left out, as is the crate root, which declares every module.
//!
//! The graph is read from the sources themselves: every path that starts with
//! `crate::` or `super::` (in `use` lines and in code) names the module it reaches;
//! a file's `mod tests` is left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module by its path from the crate root (`["workflows", "alerts"]`).
type ModulePath = Vec<String>;

/// The `.rs` files of a crate's `src`, each with its module path.
fn modules(src: &Path) -> BTreeMap<ModulePath, PathBuf> {
    let mut found = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|ext| ext != "rs") {
                continue;
            }
            let relative = path.strip_prefix(src).unwrap();
            let mut parts: Vec<String> = relative
                .iter()
                .map(|part| part.to_string_lossy().trim_end_matches(".rs").to_owned())
                .collect();
            if parts.last().is_some_and(|last| last == "mod") {
                parts.pop();
            }
            if parts == ["lib"] || parts == ["main"] {
                parts.clear();
            }
            // Binaries under src/bin are crates of their own.
            if parts.first().is_some_and(|first| first == "bin") {
                continue;
            }
            found.insert(parts, path);
        }
    }
    found
}

/// The text of a file without its comments and string literals' contents, so a path
/// in a doc comment or a message is not read as a use.
fn code_of(text: &str) -> String {
    let mut code = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for next in chars.by_ref() {
                    if next == '\n' {
                        code.push('\n');
                        break;
                    }
                }
            }
            '"' => {
                code.push('"');
                let mut escaped = false;
                for next in chars.by_ref() {
                    if escaped {
                        escaped = false;
                    } else if next == '\\' {
                        escaped = true;
                    } else if next == '"' {
                        break;
                    }
                }
                code.push('"');
            }
            _ => code.push(c),
        }
    }
    code
}

/// The module paths a file's code reaches through `crate::` and `super::` paths,
/// `use` groups (`crate::{a, b::c}`) included.
fn references(module: &ModulePath, code: &str) -> Vec<ModulePath> {
    let mut found = Vec::new();
    let bytes = code.as_bytes();
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    for start in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(at) = code[from..].find(start) {
            let at = from + at;
            from = at + start.len();
            if at > 0 && (is_ident(bytes[at - 1]) || bytes[at - 1] == b':') {
                continue;
            }
            // The module the path starts from.
            let mut base: ModulePath = if start == "crate::" {
                Vec::new()
            } else {
                let mut base = module.clone();
                base.pop();
                base
            };
            let mut rest = &code[from..];
            // Further `super::`s.
            while let Some(after) = rest.strip_prefix("super::") {
                base.pop();
                rest = after;
            }
            for path in expand(rest) {
                let mut full = base.clone();
                full.extend(path);
                found.push(full);
            }
        }
    }
    found
}

/// The paths a use tail stands for: `a::b::C` is one, `{a, b::{c, d}}` several.
fn expand(rest: &str) -> Vec<Vec<String>> {
    let rest = rest.trim_start();
    if let Some(group) = rest.strip_prefix('{') {
        let mut depth = 1;
        let mut end = 0;
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = i;
                        break;
                    }
                }
                _ => {}
            }
        }
        let inner = &group[..end];
        let mut parts = Vec::new();
        let mut depth = 0;
        let mut last = 0;
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    parts.push(&inner[last..i]);
                    last = i + 1;
                }
                _ => {}
            }
        }
        parts.push(&inner[last..]);
        return parts
            .into_iter()
            .filter(|part| !part.trim().is_empty())
            .flat_map(expand)
            .collect();
    }
    let mut segments = Vec::new();
    let mut text = rest;
    loop {
        let end = text
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(text.len());
        if end == 0 {
            break;
        }
        segments.push(text[..end].to_owned());
        text = &text[end..];
        if let Some(after) = text.strip_prefix("::") {
            if after.starts_with('{') {
                return expand(after)
                    .into_iter()
                    .map(|tail| segments.iter().cloned().chain(tail).collect())
                    .collect();
            }
            text = after;
        } else {
            break;
        }
    }
    vec![segments]
}

/// The longest prefix of `path` that is a module of the crate.
fn resolve(path: &ModulePath, modules: &BTreeMap<ModulePath, PathBuf>) -> ModulePath {
    (0..=path.len())
        .rev()
        .map(|len| path[..len].to_vec())
        .find(|prefix| modules.contains_key(prefix))
        .unwrap_or_default()
}

/// Every cycle among sibling modules of one crate, as the modules on it.
fn sibling_cycles(src: &Path) -> Vec<Vec<String>> {
    let modules = modules(src);
    // Edges between siblings, by their parent.
    let mut graphs: BTreeMap<ModulePath, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (module, file) in &modules {
        let text = std::fs::read_to_string(file).unwrap();
        // A file's unit tests may reach anything; only what the module itself uses
        // counts.
        let text = text
            .split("#[cfg(test)]\nmod tests")
            .next()
            .unwrap_or_default();
        for reached in references(module, &code_of(text)) {
            let target = resolve(&reached, &modules);
            let common = module
                .iter()
                .zip(&target)
                .take_while(|(a, b)| a == b)
                .count();
            // An ancestor or a descendant: not a sibling edge.
            if common == module.len() || common == target.len() {
                continue;
            }
            graphs
                .entry(module[..common].to_vec())
                .or_default()
                .entry(module[common].clone())
                .or_default()
                .insert(target[common].clone());
        }
    }
    let mut cycles = Vec::new();
    for (parent, graph) in &graphs {
        for cycle in cycles_of(graph) {
            let prefix = if parent.is_empty() {
                String::new()
            } else {
                format!("{}::", parent.join("::"))
            };
            cycles.push(cycle.iter().map(|m| format!("{prefix}{m}")).collect());
        }
    }
    cycles
}

/// The strongly connected components of more than one node (Tarjan's algorithm).
fn cycles_of(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        next: usize,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(state: &mut State<'a>, node: &'a str) {
        state.index.insert(node, state.next);
        state.low.insert(node, state.next);
        state.next += 1;
        state.stack.push(node);
        state.on_stack.insert(node);
        if let Some(targets) = state.graph.get(node) {
            for target in targets {
                let target = target.as_str();
                if !state.index.contains_key(target) {
                    visit(state, target);
                    let low = state.low[node].min(state.low[target]);
                    state.low.insert(node, low);
                } else if state.on_stack.contains(target) {
                    let low = state.low[node].min(state.index[target]);
                    state.low.insert(node, low);
                }
            }
        }
        if state.low[node] == state.index[node] {
            let mut component = Vec::new();
            while let Some(top) = state.stack.pop() {
                state.on_stack.remove(top);
                component.push(top.to_owned());
                if top == node {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                state.found.push(component);
            }
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        next: 0,
        found: Vec::new(),
    };
    for node in graph.keys() {
        if !state.index.contains_key(node.as_str()) {
            visit(&mut state, node);
        }
    }
    state.found
}

#[test]
fn the_checker_finds_a_cycle_through_use_groups_and_super() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir_all(src.join("jobs")).unwrap();
    std::fs::write(src.join("lib.rs"), "pub mod state;\npub mod jobs;\n").unwrap();
    std::fs::write(
        src.join("state.rs"),
        "use crate::{jobs::alerts::Alerts, other};\n",
    )
    .unwrap();
    std::fs::write(src.join("jobs/mod.rs"), "pub mod alerts;\n").unwrap();
    std::fs::write(
        src.join("jobs/alerts.rs"),
        "// crate::state in a comment is no use\nfn run(s: &super::super::state::App) {}\n",
    )
    .unwrap();
    assert_eq!(sibling_cycles(src), [vec!["jobs", "state"]]);
    // One direction only: no cycle.
    std::fs::write(
        src.join("jobs/alerts.rs"),
        "fn run() { let _ = \"crate::state\"; }\n",
    )
    .unwrap();
    assert!(sibling_cycles(src).is_empty());
}

/// Cycles older than this check, each written as the check prints it (none now: the
/// indexer's search modules, once a loop of 17, were split into a root layer over a shard
/// layer). A new cycle fails the test; a known one that grows, shrinks or is gone must
/// be changed here.
const KNOWN: &[&str] = &[];

#[test]
fn no_crate_of_the_workspace_has_an_import_cycle_between_modules() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut found = Vec::new();
    for entry in std::fs::read_dir(root).unwrap() {
        let dir = entry.unwrap().path();
        let src = dir.join("src");
        if !src.join("lib.rs").is_file() && !src.join("main.rs").is_file() {
            continue;
        }
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        for cycle in sibling_cycles(&src) {
            found.push(format!("{name}: {}", cycle.join(" <-> ")));
        }
    }
    found.sort();
    let mut known: Vec<String> = KNOWN.iter().map(|cycle| cycle.to_string()).collect();
    known.sort();
    assert_eq!(found, known, "modules that use one another");
}
