//! Any request body as search options: parsing and validation for every plan and
//! both endpoints either succeed or answer with an error, never a panic.
#![no_main]

use chrono::{TimeZone, Utc};
use libfuzzer_sys::fuzz_target;
use podlens_model::Plan;
use podlens_model::search::{SearchEndpoint, SearchRequestContext, parse_search_options_str};

fuzz_target!(|body: &str| {
    let Ok(options) = parse_search_options_str(body) else {
        return;
    };
    let now = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
    for plan in Plan::ALL.iter().copied() {
        for endpoint in [SearchEndpoint::Podcasts, SearchEndpoint::Episodes] {
            let context = SearchRequestContext { endpoint, plan, now };
            let _ = podlens_model::validate_search(&options, &context);
        }
    }
});
