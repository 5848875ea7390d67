//! Podcast websites: a robots-aware, bounded breadth-first crawl that extracts emails,
//! phones, contact pages, socials, podcast directory links and Apple/Spotify ids.
