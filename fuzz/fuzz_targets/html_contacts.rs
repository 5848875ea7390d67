//! Any bytes as a web page: contact extraction (links, emails, Cloudflare-protected
//! emails, phone numbers, forms, visible text) never panics.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use podlens_crawler::extract::{PhoneReader, emails_in_text, extract_page};
use url::Url;

fuzz_target!(|data: &[u8]| {
    static PHONES: OnceLock<PhoneReader> = OnceLock::new();
    let phones = PHONES.get_or_init(|| PhoneReader::new(Some("US")));
    let base = Url::parse("https://fuzz.example/contact/").unwrap();
    let html = String::from_utf8_lossy(data);
    let _ = extract_page(&html, &base, phones);
    let _ = emails_in_text(&html);
    let _ = phones.find_in_text(&html);
});
