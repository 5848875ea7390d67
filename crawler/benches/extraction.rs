//! Extraction throughput (MB/s on one core) over the real pages of
//! `shared/corpus/websites/`: parse, links, visible text, emails, phones.

use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use podlens_crawler::extract::{PhoneReader, extract_page};
use url::Url;

fn pages() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/websites");
    let mut pages: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("corpus websites")
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            let bytes = std::fs::read(&path).ok()?;
            Some((
                path.file_name()?.to_string_lossy().into_owned(),
                String::from_utf8_lossy(&bytes).into_owned(),
            ))
        })
        .collect();
    pages.sort();
    pages
}

fn extraction(c: &mut Criterion) {
    let pages = pages();
    let total: usize = pages.iter().map(|(_, html)| html.len()).sum();
    let base = Url::parse("https://show.example/").expect("base url");
    let phones = PhoneReader::new(Some("US"));
    let mut group = c.benchmark_group("extract");
    group.throughput(Throughput::Bytes(total as u64));
    group.sample_size(10);
    group.bench_function("corpus_websites", |bench| {
        bench.iter(|| {
            pages
                .iter()
                .map(|(_, html)| extract_page(html, &base, &phones).links.len())
                .sum::<usize>()
        })
    });
    group.finish();
}

criterion_group!(benches, extraction);
criterion_main!(benches);
