//! Regression: a failing command printed its error with a Rust backtrace of some twenty
//! frames under it. Every failure is one line on stderr, `error: …`, and exit code 1;
//! the backtrace only with `RUST_BACKTRACE=1`.

use std::process::{Command, Output};

fn podlens(args: &[&str], backtrace: bool) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_podlens"));
    command
        .args(args)
        .env("PODLENS_NO_PROGRESS", "true")
        .env_remove("RUST_BACKTRACE")
        .env_remove("RUST_LIB_BACKTRACE");
    if backtrace {
        command.env("RUST_BACKTRACE", "1");
    }
    command.output().expect("podlens runs")
}

#[test]
fn cli_errors_are_one_line_without_a_backtrace() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data_dir = dir.path().join("data");
    let data_dir = data_dir.to_str().expect("utf-8 path");
    let missing = dir.path().join("missing.xml");
    let failures: Vec<Vec<&str>> = vec![
        // no snapshot to index
        vec!["index", "--data-dir", data_dir, "--no-vectors"],
        // an unknown plan
        vec![
            "keys",
            "create",
            "--data-dir",
            data_dir,
            "--email",
            "a@example.com",
            "--plan",
            "gold",
        ],
        // a restore from nowhere
        vec![
            "restore",
            "--data-dir",
            data_dir,
            "--from",
            missing.to_str().unwrap(),
        ],
    ];
    for args in failures {
        let output = podlens(&args, false);
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        let lines: Vec<&str> = stderr
            .lines()
            .filter(|line| !line.trim().is_empty())
            .collect();
        assert_eq!(lines.len(), 1, "{args:?}: {stderr}");
        assert!(lines[0].starts_with("error: "), "{args:?}: {stderr}");
        assert!(!stderr.contains("Stack backtrace") && !stderr.contains("stack backtrace"));
    }
    // asked for, the backtrace follows the line
    let output = podlens(&["index", "--data-dir", data_dir, "--no-vectors"], true);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr
            .lines()
            .next()
            .unwrap_or_default()
            .starts_with("error: ")
    );
    assert!(stderr.lines().count() > 1, "{stderr}");
}
