//! A search over shards served by search nodes (`podlens search-node`) answers exactly
//! as one node holding every shard: the same hits in the same order, the same totals,
//! scores equal to 1e-5 and the same cursors, over every judged query of
//! benches/relevance (podcasts and episodes, hybrid) and 200 filtered, sorted and paged
//! searches; and when a node stops, its shards' other replicas answer within the same
//! search.

mod common;
#[path = "../../benches/relevance/corpus.rs"]
#[allow(dead_code)]
mod corpus;

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use chrono::{TimeZone, Utc};
use common::fixture;
use podlens_api::search_node::{SearchNodeOptions, serve};
use podlens_cluster::{ClusterView, NodeClient, NodeStatus, RemoteRunner, RemoteShards};
use podlens_indexer::{
    Hits, IndexSource, MatchMode, OpenGeneration, SearchMode, SearchRequest, SearchResponse,
    SearchTerm, SortDirection, SortField, SortOrder, Target, build_generation, read_manifest,
};

const SHARDS: u32 = 4;

/// A deterministic sequence (xorshift), so the searches are the same in every run.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// The judged catalog indexed once per test run in `SHARDS` shards with vectors and
/// statistics: its index directory.
fn built() -> &'static Path {
    static BUILT: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    BUILT.get_or_init(|| {
        let dir = common::fixture_dir("cluster-search");
        build(&dir.join("index"));
        dir
    })
}

/// The judged catalog indexed in `SHARDS` shards with vectors and statistics.
fn build(index_dir: &Path) {
    let corpus = corpus::load();
    let texts: Vec<String> = corpus
        .podcasts
        .iter()
        .map(|podcast| {
            format!(
                "{} {}",
                podcast.podcast_rss_title,
                podcast
                    .podcast_rss_description_no_html
                    .clone()
                    .unwrap_or_default()
            )
        })
        .collect();
    let mut options = fixture::vector_build_options(&texts);
    options.shards = Some(SHARDS);
    options.statistics = true;
    // With the multilingual encoder when it is installed: podcast searches then carry
    // the query's encoder vector to the nodes, which score it against show vectors.
    options.encoder = podlens_indexer::embedding::Encoder::shared();
    let source = IndexSource {
        podcasts: &corpus.podcasts,
        episodes: &corpus.episodes,
        transcripts: &corpus.transcripts,
        persons: &corpus.persons,
        signals: Some(&corpus.signals),
    };
    build_generation(index_dir, source, &options).expect("index builds");
}

fn queries() -> Vec<(SearchMode, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../benches/relevance/queries.tsv");
    std::fs::read_to_string(path)
        .expect("queries.tsv")
        .lines()
        .skip(1)
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('\t').collect();
            let mode = match *cells.get(1)? {
                "episodes" => SearchMode::Episodes,
                _ => SearchMode::Podcasts,
            };
            Some((mode, cells.get(3)?.to_string()))
        })
        .collect()
}

fn targets(mode: SearchMode) -> Vec<Target> {
    match mode {
        SearchMode::Podcasts => vec![Target::PodcastTitle, Target::PodcastDescription],
        SearchMode::Episodes => vec![
            Target::EpisodeTitle,
            Target::EpisodeDescription,
            Target::Transcript,
        ],
    }
}

/// A judged query as the web app sends it.
fn judged(mode: SearchMode, text: &str) -> SearchRequest {
    SearchRequest {
        mode: Some(mode),
        terms: vec![SearchTerm {
            text: text.to_owned(),
            targets: targets(mode),
            ..SearchTerm::default()
        }],
        page_size: 50,
        ..SearchRequest::default()
    }
}

/// A search with filters, a sort and a page size drawn from `random`.
fn drawn(random: &mut Random, words: &[String]) -> SearchRequest {
    let mode = *random.pick(&[SearchMode::Podcasts, SearchMode::Episodes]);
    let mut request = judged(mode, random.pick(words).as_str());
    request.terms[0].match_mode = *random.pick(&[MatchMode::Optional, MatchMode::Must]);
    request.terms[0].fuzzy = random.below(4) == 0;
    if random.below(4) == 0 {
        request.terms.push(SearchTerm {
            text: random.pick(words).clone(),
            targets: targets(mode),
            match_mode: MatchMode::Not,
            ..SearchTerm::default()
        });
    }
    if random.below(5) == 0 {
        request.terms.clear();
    }
    match random.below(6) {
        0 => request.filters.languages = vec!["en".into()],
        1 => request.filters.min_total_episodes = Some(20),
        2 => {
            request.filters.last_episode_since =
                Some(Utc.with_ymd_and_hms(2020, 1, 1, 0, 0, 0).unwrap())
        }
        3 if mode == SearchMode::Episodes => request.filters.has_transcript = Some(true),
        4 => request.filters.explicit = Some(false),
        _ => {}
    }
    let fields: &[SortField] = match mode {
        SearchMode::Podcasts => &[
            SortField::Relevance,
            SortField::RecentActivity,
            SortField::Title,
            SortField::AuthorityScore,
        ],
        SearchMode::Episodes => &[SortField::Relevance, SortField::RecentActivity],
    };
    request.sort = SortOrder {
        field: *random.pick(fields),
        direction: *random.pick(&[SortDirection::Desc, SortDirection::Asc]),
        ..SortOrder::default()
    };
    request.page_size = 1 + random.below(30);
    request.hybrid = random.below(3) != 0;
    request
}

/// The hits' ids and scores.
fn ids_and_scores(hits: &Hits) -> Vec<(uuid::Uuid, f32)> {
    match hits {
        Hits::Podcasts(hits) => hits.iter().map(|hit| (hit.podcast_id, hit.score)).collect(),
        Hits::Episodes(hits) => hits.iter().map(|hit| (hit.episode_id, hit.score)).collect(),
    }
}

/// The hits with their scores left out (compared apart, to 1e-5).
fn without_scores(hits: &Hits) -> Hits {
    let mut hits = hits.clone();
    match &mut hits {
        Hits::Podcasts(hits) => hits.iter_mut().for_each(|hit| hit.score = 0.0),
        Hits::Episodes(hits) => hits.iter_mut().for_each(|hit| hit.score = 0.0),
    }
    hits
}

fn assert_same(one: &SearchResponse, cluster: &SearchResponse, what: &str) {
    assert_eq!(one.total, cluster.total, "{what}: totals");
    let (one_hits, cluster_hits) = (ids_and_scores(&one.hits), ids_and_scores(&cluster.hits));
    assert_eq!(
        one_hits.iter().map(|(id, _)| id).collect::<Vec<_>>(),
        cluster_hits.iter().map(|(id, _)| id).collect::<Vec<_>>(),
        "{what}: hits and their order"
    );
    for ((id, a), (_, b)) in one_hits.iter().zip(&cluster_hits) {
        assert!((a - b).abs() <= 1e-5, "{what}: score of {id}: {a} and {b}");
    }
    let (one_fields, cluster_fields) = (without_scores(&one.hits), without_scores(&cluster.hits));
    if one_fields != cluster_fields {
        let differing = |hits: &Hits| -> Vec<String> {
            match hits {
                Hits::Podcasts(hits) => hits.iter().map(|hit| format!("{hit:?}")).collect(),
                Hits::Episodes(hits) => hits.iter().map(|hit| format!("{hit:?}")).collect(),
            }
        };
        let (one_hits, cluster_hits) = (differing(&one_fields), differing(&cluster_fields));
        let at = one_hits
            .iter()
            .zip(&cluster_hits)
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        panic!(
            "{what}: hit {at} differs:\none node: {}\ncluster:  {}",
            one_hits[at], cluster_hits[at]
        );
    }
    assert_eq!(one.next_cursor, cluster.next_cursor, "{what}: cursor");
}

/// A search node over `index_dir` serving `shards`, on a free loopback port.
async fn start_node(
    index_dir: &Path,
    name: &str,
    shards: &[u32],
) -> (SocketAddr, tokio::task::JoinHandle<()>) {
    let (sender, receiver) = tokio::sync::oneshot::channel();
    let options = SearchNodeOptions {
        index_dir: index_dir.to_owned(),
        address: "127.0.0.1:0".parse().unwrap(),
        name: name.to_owned(),
        public_url: None,
        shards: shards.to_vec(),
        token: Some("cluster-secret".into()),
        etcd: Vec::new(),
        etcd_prefix: "podlens".into(),
        replicas: 2,
        object_store: None,
        metastore: None,
    };
    let task = tokio::spawn(async move {
        serve(options, move |address| {
            let _ = sender.send(address);
        })
        .await
        .expect("search node serves");
    });
    (receiver.await.expect("node listening"), task)
}

/// Runs `request` on one node with every shard and through the cluster's root, and
/// checks both answer alike; the cluster's answer is returned.
fn compare(
    one: &OpenGeneration,
    client: &NodeClient,
    view: &ClusterView,
    runtime: &tokio::runtime::Handle,
    request: &SearchRequest,
    what: &str,
) -> SearchResponse {
    // As the API's engines do: the encoder's vector of a podcast search's words, made
    // once at the root.
    let mut request = request.clone();
    if let Some(encoder) = podlens_app::search::QueryEncoder::shared() {
        encoder.fill(&mut request, view.encoder.as_deref());
    }
    let request = &request;
    let shards = RemoteShards {
        runner: RemoteRunner { client, view },
        request,
    };
    let alone = podlens_indexer::search(one, request).unwrap_or_else(|e| panic!("{what}: {e}"));
    let cluster = runtime
        .block_on(podlens_indexer::steps::search_over(
            &shards,
            request,
            one.model.as_deref(),
            view.generation,
        ))
        .unwrap_or_else(|e| panic!("{what} through the cluster: {e}"));
    assert_same(&alone, &cluster, what);
    cluster
}

/// Semantic searches, related podcasts, autocompletion, the directory and podcasts by id
/// through the cluster answer as on one node.
fn compare_lookups(
    one: &OpenGeneration,
    runner: &RemoteRunner<'_>,
    runtime: &tokio::runtime::Handle,
) {
    use podlens_indexer::lookups;
    use podlens_indexer::{RelatedMethod, SemanticRequest, VectorSearchOptions};
    let model = one.model.as_deref();
    for (mode, text) in queries().into_iter().take(60) {
        let mut request = SemanticRequest {
            query: text.clone(),
            mode,
            limit: 20,
            include_podcast_ids: Vec::new(),
            encoded_query: None,
        };
        if let Some(encoder) = podlens_app::search::QueryEncoder::shared() {
            let shows = one.manifest.encoder.as_ref();
            encoder.fill(&mut request, shows.map(|shows| shows.model_sha256.as_str()));
        }
        let alone = podlens_indexer::semantic_search(one, &request);
        let cluster = runtime.block_on(lookups::semantic_over(
            runner,
            model,
            &request,
            VectorSearchOptions::default(),
        ));
        match (alone, cluster) {
            (Ok(alone), Ok(cluster)) => assert_same(&alone, &cluster, &format!("semantic {text}")),
            (Err(alone), Err(cluster)) => assert_eq!(alone.to_string(), cluster.to_string()),
            (alone, cluster) => panic!("semantic {text}: {alone:?} and {cluster:?}"),
        }
        let words: Vec<&str> = text.split_whitespace().collect();
        for cut in [1, 3, text.len().min(7)] {
            let prefix: String = text.chars().take(cut).collect();
            let alone = podlens_indexer::autocomplete(one, &prefix, 10).unwrap();
            let cluster = runtime
                .block_on(lookups::autocomplete_over(runner, &prefix, 10))
                .unwrap();
            assert_eq!(alone, cluster, "autocomplete {prefix:?}");
        }
        let _ = words;
    }
    let directory = podlens_indexer::directory::Directory::of(one).unwrap();
    let cluster = runtime.block_on(lookups::directory_over(runner)).unwrap();
    for letter in podlens_indexer::directory::DIRECTORY_LETTERS.chars() {
        assert_eq!(
            directory.page(letter, 0, usize::MAX),
            cluster.page(letter, 0, usize::MAX),
            "directory {letter}"
        );
    }
    let (every, _) = directory.page('t', 0, 40);
    let ids: Vec<uuid::Uuid> = every.iter().map(|entry| entry.podcast_id).collect();
    assert_eq!(
        one.podcast_hits(&ids).unwrap(),
        runtime
            .block_on(lookups::podcasts_by_ids(runner, &ids))
            .unwrap(),
        "podcasts by id"
    );
    for id in ids.iter().take(20) {
        for method in [
            RelatedMethod::Text,
            RelatedMethod::Vectors,
            RelatedMethod::Fused,
        ] {
            let alone = podlens_indexer::related_podcasts_with(one, *id, 10, method).unwrap();
            let cluster = runtime
                .block_on(lookups::related_over(runner, true, *id, 10, method))
                .unwrap();
            assert_eq!(alone, cluster, "related to {id} by {method:?}");
        }
        // The "like" ranking of related podcasts is a search with the show named.
        let shows = one.podcast_hits(&[*id]).unwrap();
        if let Some(request) = podlens_indexer::like_request(*id, &shows[0].title, 10) {
            let what = format!("podcasts like {id}");
            compare(one, runner.client, runner.view, runtime, &request, &what);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_search_over_search_nodes_answers_as_one_node_with_every_shard() {
    if !fixture::mpnet_installed() {
        return;
    }
    let index_dir = tokio::task::spawn_blocking(|| built().join("index"))
        .await
        .unwrap();
    // Three nodes, each shard on two of them.
    let (a, node_a) = start_node(&index_dir, "node-a", &[0, 1, 2]).await;
    let (b, _node_b) = start_node(&index_dir, "node-b", &[1, 2, 3]).await;
    let (c, _node_c) = start_node(&index_dir, "node-c", &[3, 0]).await;
    let client = Arc::new(NodeClient::new(Some("cluster-secret".into())).unwrap());
    let mut statuses: Vec<NodeStatus> = Vec::new();
    for address in [a, b, c] {
        statuses.push(client.status(&format!("http://{address}")).await.unwrap());
    }
    let view = ClusterView::of(&statuses).unwrap();
    let manifest = read_manifest(&index_dir).unwrap().unwrap();
    assert_eq!(view.generation, manifest.generation);
    assert_eq!(
        view.encoder,
        manifest
            .encoder
            .as_ref()
            .map(|shows| shows.model_sha256.clone()),
        "the nodes report the show vectors' model"
    );
    assert!(
        manifest.encoder.is_some() || std::env::var_os("PODLENS_REQUIRE_MODEL").is_none(),
        "PODLENS_REQUIRE_MODEL is set and the generation has no show vectors"
    );
    for shard in 0..SHARDS {
        assert_eq!(view.replicas(shard).len(), 2, "shard {shard} on two nodes");
    }
    // A node refuses calls without the cluster's secret.
    let stranger = NodeClient::new(None).unwrap();
    assert!(stranger.status(&format!("http://{a}")).await.is_err());

    let runtime = tokio::runtime::Handle::current();
    let one_dir = index_dir.clone();
    let checked = tokio::task::spawn_blocking({
        let client = client.clone();
        let view = view.clone();
        let runtime = runtime.clone();
        move || {
            let one = OpenGeneration::open(&one_dir, manifest).unwrap();
            assert!(one.model.is_some(), "the generation has vectors");
            let mut searches = 0;
            for (mode, text) in queries() {
                compare(&one, &client, &view, &runtime, &judged(mode, &text), &text);
                searches += 1;
            }
            let words: Vec<String> = queries()
                .into_iter()
                .flat_map(|(_, text)| {
                    text.split_whitespace()
                        .map(str::to_owned)
                        .collect::<Vec<_>>()
                })
                .collect();
            let mut random = Random(0x5eed_cafe_f00d_d00d);
            for number in 0..200 {
                let mut request = drawn(&mut random, &words);
                let what = format!("search {number}: {request:?}");
                // page on through the cursors: every page alike
                for page in 0..4 {
                    let answer = compare(&one, &client, &view, &runtime, &request, &what);
                    searches += 1;
                    let Some(cursor) = answer.next_cursor else {
                        break;
                    };
                    request.cursor = Some(cursor);
                    let _ = page;
                }
            }
            compare_lookups(
                &one,
                &RemoteRunner {
                    client: &client,
                    view: &view,
                },
                &runtime,
            );
            (one, searches)
        }
    })
    .await
    .unwrap();
    let (one, searches) = checked;
    assert!(searches > 480, "{searches} searches compared");

    // A node that no longer answers (a closed port) ranked first for some shards: those
    // shards are served by their other replicas within each search.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dead_url = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let gone = |name: String| NodeStatus {
        node: name,
        url: dead_url.clone(),
        generations: statuses[0]
            .generations
            .iter()
            .map(|served| podlens_cluster::ServedGeneration {
                shards: (0..SHARDS).collect(),
                ..served.clone()
            })
            .collect(),
    };
    // a name that rendezvous hashing ranks first for some shard
    let view = (0..)
        .map(|number| {
            let mut nodes = statuses.clone();
            nodes.push(gone(format!("node-gone-{number}")));
            ClusterView::of(&nodes).unwrap()
        })
        .find(|view| (0..SHARDS).any(|shard| view.replicas(shard)[0].node.starts_with("node-gone")))
        .unwrap();
    drop(node_a);
    tokio::task::spawn_blocking(move || {
        for (mode, text) in queries().into_iter().take(40) {
            compare(&one, &client, &view, &runtime, &judged(mode, &text), &text);
        }
    })
    .await
    .unwrap();
}

/// Related podcasts by text were found by a more-like-this query whose words came out of
/// a hash map in another order on every call: hits of near-equal scores changed places
/// between calls, and between the nodes of a cluster. The query is now made in one order
/// (and with the generation's statistics): every call answers the same hits with the
/// same scores, to the bit.
/// Two nodes started on port 0 without a name were both "search-0", and a root keyed
/// by name saw one of them: half the shards never served.
#[tokio::test]
async fn search_nodes_started_on_port_zero_without_a_name_are_told_apart() {
    let index_dir = built();
    let (first, first_task) = start_node(index_dir, "", &[0]).await;
    let (second, second_task) = start_node(index_dir, "", &[1]).await;
    let client = reqwest::Client::new();
    let mut names = Vec::new();
    for address in [first, second] {
        let body = client
            .get(format!("http://{address}/internal/v1/node"))
            .header("x-podlens-cluster-token", "cluster-secret")
            .send()
            .await
            .unwrap()
            .bytes()
            .await
            .unwrap();
        let status: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(status["node"], format!("search-{}", address.port()));
        names.push(status["node"].as_str().unwrap().to_owned());
    }
    assert_ne!(names[0], names[1]);
    first_task.abort();
    second_task.abort();
}

#[test]
fn related_podcasts_by_text_are_the_same_on_every_call() {
    if !fixture::mpnet_installed() {
        return;
    }
    let index_dir = built().join("index");
    let manifest = read_manifest(&index_dir).unwrap().unwrap();
    let generation = OpenGeneration::open(&index_dir, manifest).unwrap();
    let directory = podlens_indexer::directory::Directory::of(&generation).unwrap();
    let scores = |hits: Vec<podlens_indexer::PodcastHit>| -> Vec<(uuid::Uuid, u32)> {
        hits.iter()
            .map(|hit| (hit.podcast_id, hit.score.to_bits()))
            .collect()
    };
    for letter in podlens_indexer::directory::DIRECTORY_LETTERS.chars() {
        for entry in directory.page(letter, 0, usize::MAX).0 {
            let first = podlens_indexer::related_by_text(&generation, entry.podcast_id, 10);
            let first = scores(first.unwrap());
            for _ in 0..4 {
                let again = podlens_indexer::related_by_text(&generation, entry.podcast_id, 10);
                assert_eq!(first, scores(again.unwrap()), "{}", entry.title);
            }
        }
    }
}
