//! `podlens outbox` prints the mail the server left in the data directory's outbox,
//! filtered by recipient and limited to the newest messages.

use podlens_app::mail::{Mail, Mailer, Outbox};

fn podlens_outbox(data_dir: &std::path::Path, args: &[&str]) -> String {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_podlens"))
        .arg("outbox")
        .arg("--data-dir")
        .arg(data_dir)
        .args(args)
        .env("PODLENS_NO_PROGRESS", "true")
        .output()
        .expect("podlens runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("utf-8")
}

#[test]
fn prints_messages_filtered_by_recipient_newest_last() {
    let dir = tempfile::tempdir().expect("tempdir");
    assert!(podlens_outbox(dir.path(), &[]).contains("holds no messages"));
    let outbox = Outbox::in_data_dir(dir.path());
    for (to, link) in [
        (
            "ann@example.com",
            "https://app.example/sign-up/validate?key=first",
        ),
        (
            "bob@example.com",
            "https://app.example/sign-in/email-link?key=bob",
        ),
        (
            "ann@example.com",
            "https://app.example/sign-in/email-link?key=second",
        ),
    ] {
        outbox
            .send(&Mail {
                to: to.to_owned(),
                subject: "Your link".to_owned(),
                text: format!("Open {link}"),
            })
            .expect("sent");
    }
    let everything = podlens_outbox(dir.path(), &[]);
    assert_eq!(everything.matches("==> ").count(), 3);
    let first = everything.find("key=first").expect("first message");
    let second = everything.find("key=second").expect("last message");
    assert!(first < second, "oldest first");

    let ann_last = podlens_outbox(dir.path(), &["--to", "ANN@example.com", "--last", "1"]);
    assert_eq!(ann_last.matches("==> ").count(), 1, "{ann_last}");
    assert!(ann_last.contains("key=second"), "{ann_last}");
    assert!(!ann_last.contains("key=bob"));
}
