//! MPNet's throughput on this machine, the two ways Podlens runs it: one token alone per
//! sequence (`<s> token </s>`, how a static model's rows are distilled: `podlens model
//! build`, and `--small-model` for the demo's corpus vocabulary) and whole passages (the
//! fit's teacher vectors).
//!
//! `cargo bench -p podlens-embedding --bench mpnet_throughput` (needs
//! scripts/install-model.sh); prints one line per measurement.

use std::path::PathBuf;
use std::time::Instant;

use podlens_embedding::{MpnetModel, distill_token_vectors};

fn main() {
    let dir = std::env::var_os("PODLENS_MPNET_DIR").map_or_else(
        || {
            PathBuf::from(std::env::var_os("HOME").unwrap_or_default())
                .join(".cache/podlens-models/all-mpnet-base-v2")
        },
        PathBuf::from,
    );
    let model = match MpnetModel::load(&dir) {
        Ok(model) => model,
        Err(error) => {
            eprintln!("mpnet_throughput: {error} (scripts/install-model.sh installs the model)");
            std::process::exit(1);
        }
    };
    let threads = rayon::current_num_threads();
    // 1,024 ordinary word pieces of the vocabulary (past its special and unused rows)
    let ids: Vec<u32> = (2000..3024).collect();
    let started = Instant::now();
    let rows = distill_token_vectors(&model, &ids, &|_, _| {}).expect("distilled");
    let seconds = started.elapsed().as_secs_f64();
    assert_eq!(rows.len(), ids.len() * model.encoder().config().hidden_size);
    println!(
        "distillation: {} tokens in {seconds:.2} s = {:.0} tokens/s on {threads} threads",
        ids.len(),
        ids.len() as f64 / seconds
    );
    let passage = "In this episode we talk with a soil scientist about composting at home, \
        why beginners over-water their seedlings, and how a small vegetable garden can feed \
        a family of four through the summer. We also answer listener questions about raised \
        beds, slugs, and which tomatoes grow best on a balcony in a cool climate.";
    let passages: Vec<&str> = std::iter::repeat_n(passage, 64).collect();
    let started = Instant::now();
    let vectors = model.embed_batch(&passages).expect("embedded");
    let seconds = started.elapsed().as_secs_f64();
    assert_eq!(vectors.len(), passages.len());
    println!(
        "passages: {} of {} tokens in {seconds:.2} s = {:.1} passages/s on {threads} threads",
        passages.len(),
        model.tokenizer().encode(passage).len(),
        passages.len() as f64 / seconds
    );
}
