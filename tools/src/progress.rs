//! Progress bars for long batch jobs: a count with rate and ETA on a terminal,
//! nothing when stderr is redirected or `--no-progress` is set.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar over `total` units of `unit` (e.g. "podcasts", "feeds").
pub fn bar(total: u64, unit: &str, hidden: bool) -> ProgressBar {
    let bar = ProgressBar::new(total);
    if hidden {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    let template = format!(
        "{{spinner}} {{msg}} [{{elapsed_precise}}] [{{bar:32}}] {{human_pos}}/{{human_len}} {unit} \
         ({{per_sec}}, ETA {{eta}})"
    );
    bar.set_style(
        ProgressStyle::with_template(&template)
            .expect("progress template is valid")
            .progress_chars("=> "),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}
