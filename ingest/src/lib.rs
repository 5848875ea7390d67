//! Reading feeds: fetching (HTTP with conditional GET, per-host limits, retries),
//! decoding and parsing RSS/Atom/RDF with the iTunes and Podcasting 2.0 namespaces,
//! normalising them into catalog records, and reading transcript files.
