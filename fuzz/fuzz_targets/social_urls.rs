//! Any text as a social profile or directory link: classification and validation
//! for every platform never panic, and an accepted profile's canonical URL is
//! accepted again as the same profile.
#![no_main]

use libfuzzer_sys::fuzz_target;
use podlens_model::SocialKind;

fuzz_target!(|text: &str| {
    let _ = podlens_model::classify_directory_url(text);
    if let Some(Ok(profile)) = podlens_model::classify_social_url(text) {
        let again = podlens_model::validate_social_url(profile.kind, &profile.url);
        assert_eq!(again.as_ref().ok(), Some(&profile), "{text:?} -> {profile:?}");
    }
    for kind in SocialKind::ALL {
        let _ = podlens_model::validate_social_url(*kind, text);
    }
});
