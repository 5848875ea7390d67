//! What a search's root plans and finds: the request and its terms' words, and a page
//! in keyword order from the shards (`crate::hybrid` fuses vector hits into it).

use crate::collector::Collected;
use crate::cursor::{self, Position};
use crate::error::{IndexError, Result};
use crate::request::{MatchMode, SearchMode, SearchRequest};
use crate::shards::Shards;
use crate::sort_key::SortKey;
use crate::words::TermWords;
use uuid::Uuid;

/// A page of hits, before their stored fields are loaded.
pub(crate) struct FoundPage {
    pub hits: Vec<Collected>,
    pub total: u64,
    pub next_cursor: Option<String>,
    /// Per hit, how keyword and vector ranks were fused (hybrid searches).
    pub fusion: Vec<Option<serde_json::Value>>,
}

/// What the root of a search knows of it: the request and each term's words (the
/// shards plan the terms against their dictionaries themselves).
pub(crate) struct RootPlan<'a> {
    pub request: &'a SearchRequest,
    pub mode: SearchMode,
    pub terms: Vec<(MatchMode, &'a TermWords)>,
}

/// A page in keyword order.
pub(crate) async fn keyword_page<S: Shards>(
    shards: &S,
    plan: &RootPlan<'_>,
    position: Option<Position>,
) -> Result<FoundPage> {
    let after = match position {
        None => None,
        Some(Position::After(key)) => Some(key),
        Some(Position::Fused(_)) => {
            return Err(IndexError::InvalidCursor(
                "the cursor belongs to a search that fused vector results".into(),
            ));
        }
    };
    keyword_page_after(shards, plan, after, &[]).await
}

/// The keyword-order page after `after`, leaving out `exclude` (the page's `total` is
/// the engine's count of matches).
pub(crate) async fn keyword_page_after<S: Shards>(
    shards: &S,
    plan: &RootPlan<'_>,
    after: Option<SortKey>,
    exclude: &[Uuid],
) -> Result<FoundPage> {
    let request = plan.request;
    let page = shards
        .keyword_page(after, request.page_size + 1, exclude)
        .await?;
    let mut hits = page.hits;
    let has_more = hits.len() > request.page_size;
    hits.truncate(request.page_size);
    let next_cursor = match hits.last() {
        Some(last) if has_more => Some(cursor::encode(plan.mode, &request.sort, &last.key)),
        _ => None,
    };
    let fusion = vec![None; hits.len()];
    Ok(FoundPage {
        hits,
        total: page.total,
        next_cursor,
        fusion,
    })
}
