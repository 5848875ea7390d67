//! Search: sharded tantivy indexes of podcasts and episodes (transcripts in timed chunks)
//! built from the catalog's Parquet snapshots, published atomically as generations, and
//! the query side: search with cursor paging, snippets, autocomplete and explain.
