//! Bad input over HTTP on a real socket: oversized and chunked bodies, deep JSON, huge
//! page sizes, Unicode edge cases, invalid UTF-8, uploads whose content contradicts
//! their name, paths that try to leave the web bundle, and a feed carrying the OWASP
//! cross-site-scripting cheat-sheet vectors. Each gets a clear 4xx (or a safe answer),
//! never a 5xx, and the server keeps answering.

mod common;
mod workflows_http;

use chrono::Utc;
use podlens_data::Catalog;
use podlens_indexer::BuildOptions;
use serde_json::{Value, json};
use workflows_http::{Answer, Http, serve, start, start_with};

/// The body limit of every JSON route, as the message states it.
const BODY_LIMIT: usize = 2 * 1024 * 1024;
const TOO_LARGE: &str = "Request body is too large; the limit is 2 MiB (2097152 bytes)";

/// A search for `term` in the titles and descriptions of `kind` ("podcast" or "episode").
fn search_body(term: &str, kind: &str) -> Value {
    json!({"searchTerms": [{
        "searchTerm": term,
        "searchType": "text",
        "searchTargets": [format!("{kind}-title"), format!("{kind}-description")],
        "searchTermOptions": {"matchMode": "must"},
    }]})
}

/// The server still answers a plain search after whatever came before.
async fn still_serving(http: &Http, key: &str) {
    let answer = http
        .post(
            "/api/v1/search/episodes",
            key,
            search_body("news", "episode"),
        )
        .await;
    answer.data();
}

async fn send_bytes(http: &Http, method: &str, key: &str, path: &str, body: Vec<u8>) -> Answer {
    let method = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
    let request = reqwest::Client::new()
        .request(method, format!("{}{path}", http.base))
        .header("authorization", key)
        .header("content-type", "application/json")
        .body(body);
    http.send(request).await
}

#[tokio::test]
async fn oversized_bodies_get_413_with_the_limit_in_the_message() {
    let http = start().await;
    let key = http.key("bad-input-size@example.com", "business");

    // Padding inside a valid JSON document, so only the size is wrong.
    let padded = |size: usize| {
        let mut body = br#"{"searchTerms":[],"padding":""#.to_vec();
        body.resize(size - 2, b'a');
        body.extend_from_slice(b"\"}");
        body
    };
    let over = send_bytes(
        &http,
        "POST",
        &key,
        "/api/v1/search/episodes",
        padded(BODY_LIMIT + 1),
    )
    .await;
    assert_eq!(over.status, 413, "{}", over.body);
    assert_eq!(over.body["status"], "PAYLOAD_TOO_LARGE");
    assert_eq!(over.message(), TOO_LARGE);

    // A typed JSON route (projects) and a body sent in chunks without a length.
    let over_typed = send_bytes(
        &http,
        "PUT",
        &key,
        "/api/v1/projects",
        padded(3 * BODY_LIMIT),
    )
    .await;
    assert_eq!(over_typed.status, 413, "{}", over_typed.body);
    assert_eq!(over_typed.message(), TOO_LARGE);
    let chunks: Vec<Result<Vec<u8>, std::io::Error>> = padded(BODY_LIMIT + 4096)
        .chunks(64 * 1024)
        .map(|chunk| Ok(chunk.to_vec()))
        .collect();
    let streamed = http
        .send(
            reqwest::Client::new()
                .post(format!("{}/api/v1/search/podcasts", http.base))
                .header("authorization", &key)
                .header("content-type", "application/json")
                .body(reqwest::Body::wrap_stream(futures_util::stream::iter(
                    chunks,
                ))),
        )
        .await;
    assert_eq!(streamed.status, 413, "{}", streamed.body);
    assert_eq!(streamed.message(), TOO_LARGE);

    // Just under the limit is read (and refused for its unknown key, not its size).
    let under = send_bytes(
        &http,
        "POST",
        &key,
        "/api/v1/search/episodes",
        padded(BODY_LIMIT),
    )
    .await;
    assert_eq!(under.status, 400, "{}", under.body);
    still_serving(&http, &key).await;
}

#[tokio::test]
async fn deep_json_and_broken_bodies_are_400_with_the_parsers_reason() {
    let http = start().await;
    let key = http.key("bad-input-json@example.com", "business");
    let depth = 100_000;
    let deep = format!(
        "{{\"searchTerms\":{}{}}}",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    for (method, path) in [
        ("POST", "/api/v1/search/episodes"),
        ("PUT", "/api/v1/projects"),
    ] {
        let answer = send_bytes(&http, method, &key, path, deep.clone().into_bytes()).await;
        assert_eq!(answer.status, 400, "{path}: {}", answer.body);
        assert!(
            answer.message().contains("recursion limit exceeded"),
            "{path}: {}",
            answer.message()
        );
    }
    // A method the route does not have is the error envelope too, with `Allow`.
    let wrong_method = send_bytes(&http, "POST", &key, "/api/v1/projects", b"{}".to_vec()).await;
    assert_eq!(wrong_method.status, 405, "{}", wrong_method.body);
    assert_eq!(wrong_method.body["status"], "METHOD_NOT_ALLOWED");
    let allow = wrong_method
        .headers
        .get("allow")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    assert!(allow.contains("PUT"), "allow: {allow}");
    let cases: [(&str, &[u8]); 5] = [
        (
            "invalid UTF-8 in a string",
            b"{\"searchTerms\":[{\"value\":\"\xff\xfe\"}]}",
        ),
        (
            "a lone surrogate escape",
            br#"{"searchTerms":[{"value":"\ud800"}]}"#,
        ),
        ("truncated", br#"{"searchTerms":[{"value":"news""#),
        ("not JSON", b"\x00\x01\x02binary"),
        ("two documents", br#"{"searchTerms":[]}{"searchTerms":[]}"#),
    ];
    for (what, body) in cases {
        let answer = send_bytes(
            &http,
            "POST",
            &key,
            "/api/v1/search/episodes",
            body.to_vec(),
        )
        .await;
        assert_eq!(answer.status, 400, "{what}: {}", answer.body);
        assert!(
            answer.message().starts_with("Invalid JSON body"),
            "{what}: {}",
            answer.message()
        );
    }
    still_serving(&http, &key).await;
}

#[tokio::test]
async fn huge_page_sizes_and_numbers_are_refused_not_clamped_into_errors() {
    let http = start().await;
    let admin = http.key("bad-input-admin@example.com", "admin");
    let business = http.key("bad-input-pages@example.com", "business");
    for size in [
        json!(0),
        json!(1001),
        json!(-1),
        json!(4_294_967_297u64),
        json!(u64::MAX),
        json!(1e300),
        json!(2.5),
        json!("100"),
    ] {
        let mut body = search_body("news", "episode");
        body["pageSize"] = size.clone();
        let answer = http.post("/api/v1/search/episodes", &admin, body).await;
        assert_eq!(answer.status, 400, "pageSize {size}: {}", answer.body);
        // SPEC.md §5: an invalid final parse of the options.
        assert_eq!(
            answer.message(),
            "Error parsing search options.",
            "pageSize {size}"
        );
    }
    // 1000 is the largest page an admin may ask for; other plans may not set it.
    let mut body = search_body("news", "episode");
    body["pageSize"] = json!(1000);
    http.post("/api/v1/search/episodes", &admin, body.clone())
        .await
        .data();
    let refused = http.post("/api/v1/search/episodes", &business, body).await;
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert_eq!(
        refused.message(),
        "Search filter \"pageSize\" is not available for your plan."
    );

    // Query-string numbers far past any integer type on listing routes.
    for path in [
        "/api/v1/episodes/latest?limit=99999999999999999999999",
        "/api/v1/episodes/latest?limit=-5",
        "/api/v1/alerts/matches?alertConfigId=x&page=1e9&pageSize=1e30",
        "/api/v1/charts/latest?positionsLimit=NaN",
    ] {
        let answer = http.get(path, &business).await;
        assert!(
            (400..500).contains(&answer.status),
            "{path}: {} {}",
            answer.status,
            answer.body
        );
        assert!(!answer.message().is_empty(), "{path}: {}", answer.body);
    }
    still_serving(&http, &business).await;
}

#[tokio::test]
async fn unicode_edge_cases_are_searched_or_refused_never_a_server_error() {
    let http = start().await;
    let key = http.key("bad-input-unicode@example.com", "business");
    let long = "ж".repeat(20_000);
    let terms = [
        "news\u{0000}",
        "\u{202e}swen",
        "e\u{0301}\u{0301}\u{0301}\u{0301}",
        "👩‍👩‍👧‍👦",
        "\u{feff}\u{200b}\u{200d}",
        "ﷺ",
        "𝕟𝕖𝕨𝕤",
        "İstanbul ǅ ß ﬃ",
        "\u{10ffff}",
        "\"\\*?~:^[]{}()!",
        long.as_str(),
    ];
    for term in terms {
        for path in ["/api/v1/search/episodes", "/api/v1/search/podcasts"] {
            let kind = if path.ends_with("episodes") {
                "episode"
            } else {
                "podcast"
            };
            let answer = http.post(path, &key, search_body(term, kind)).await;
            assert!(
                answer.status == 200 || (400..500).contains(&answer.status),
                "{path} {term:?}: {} {}",
                answer.status,
                answer.body
            );
            assert!(
                answer.body["status"].is_string(),
                "{path} {term:?}: not the envelope"
            );
        }
        let prefix: String = term.chars().take(200).collect();
        let url = reqwest::Url::parse_with_params(
            &format!("{}/api/v1/autocomplete", http.base),
            [("query", prefix.as_str())],
        )
        .expect("url");
        let path = format!("{}?{}", url.path(), url.query().unwrap_or_default());
        let answer = http.get(&path, &key).await;
        assert!(
            answer.status < 500,
            "autocomplete {term:?}: {}",
            answer.body
        );
    }
    // Percent-encoded invalid UTF-8: refused in a path parameter; in a query value it
    // is read with replacement characters (as browsers and form decoders do).
    for (path, refused) in [
        ("/api/v1/podcasts/%FF%FE", true),
        ("/api/v1/episodes/%C0%AF/details", true),
        ("/api/v1/podcasts/by-feed-url?rssFeedUrl=%FF", false),
        ("/api/v1/autocomplete/podcasts?query=%E2%82", false),
    ] {
        let answer = http.get(path, &key).await;
        assert!(
            answer.status < 500,
            "{path}: {} {}",
            answer.status,
            answer.body
        );
        if refused {
            assert!(
                (400..500).contains(&answer.status),
                "{path}: {}",
                answer.status
            );
            assert!(
                answer.body["status"].is_string(),
                "{path}: not the envelope: {:?}",
                String::from_utf8_lossy(&answer.bytes)
            );
        }
    }
    still_serving(&http, &key).await;
}

/// A 3,000-word search term was answered after 3.9 s of a core's time, and nothing
/// capped a search's terms or fuzzy words, nor autocompletion's words (which it retried
/// fuzzily, signed out): each cap now refuses with a 400 that names it, before any
/// scoring, signed in or out.
#[tokio::test]
async fn a_3000_word_search_term_is_refused_before_any_scoring() {
    let http = start().await;
    let key = http.key("bad-input-caps@example.com", "business");
    let words = |count: usize| -> String {
        ["news", "daily", "history", "science"]
            .iter()
            .cycle()
            .take(count)
            .copied()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let term = |text: &str, fuzzy: bool, phrase: bool| {
        json!({"searchTerm": text, "searchType": "text",
               "searchTargets": ["podcast-title", "podcast-description"],
               "searchTermOptions": {"fuzzy": fuzzy, "phraseMatch": phrase}})
    };
    let refused = [
        (
            json!({"searchTerms": [term(&words(3000), false, false)]}),
            "searchTerms[0].searchTerm has 3000 words; a search term may have at most 32 words.",
        ),
        // 400 Japanese characters without a space: one run of letters, and 399 words
        // as the engine searches it (pairs of characters).
        (
            json!({"searchTerms": [term(&"ラジオ父ちゃん".repeat(60).chars().take(400).collect::<String>(), false, false)]}),
            "searchTerms[0].searchTerm has 399 words; a search term may have at most 32 words.",
        ),
        (
            json!({"searchTerms": [term(&"x".repeat(501), false, false)]}),
            "searchTerms[0].searchTerm is 501 characters long; a search term may be at most 500 characters.",
        ),
        (
            json!({"searchTerms": vec![term("news", false, false); 17]}),
            "A search may have at most 16 search terms (searchTerms, searchTermGroups, personFilters and sponsorFilters together); this one has 17.",
        ),
        (
            json!({"searchTerms": [term(&words(5), true, false), term(&words(4), true, false)]}),
            "Fuzzy matching covers at most 8 words per search; the fuzzy terms of this one have 9. Turn fuzzy off for some terms or shorten them.",
        ),
    ];
    for (body, message) in refused {
        for caller in [Some(key.as_str()), None] {
            let mut request = reqwest::Client::new()
                .post(format!("{}/api/v1/search/podcasts", http.base))
                .header("content-type", "application/json")
                .body(body.to_string());
            if let Some(key) = caller {
                request = request.header("authorization", key);
            }
            let answer = http.send(request).await;
            assert_eq!(answer.status, 400, "{}", answer.body);
            assert_eq!(answer.message(), message);
        }
    }
    // At the caps, searches run: 16 terms, 32 words, 8 fuzzy words, and fuzzy phrases
    // (a phrase is not expanded) past them.
    for body in [
        json!({"searchTerms": vec![term("news", false, false); 16]}),
        json!({"searchTerms": [term(&words(32), false, false)]}),
        json!({"searchTerms": [term(&words(4), true, false), term(&words(4), true, false)]}),
        json!({"searchTerms": [term(&words(20), true, true)]}),
    ] {
        http.post("/api/v1/search/podcasts", &key, body)
            .await
            .data();
    }
    // Autocompletion takes the words and characters of one term.
    for (query, status) in [(words(33), 400), ("x".repeat(501), 400), (words(32), 200)] {
        let url = reqwest::Url::parse_with_params(
            &format!("{}/api/v1/autocomplete/podcasts", http.base),
            [("query", query.as_str())],
        )
        .expect("url");
        let answer = http.send(reqwest::Client::new().get(url)).await;
        assert_eq!(answer.status, status, "{}", answer.body);
    }
    still_serving(&http, &key).await;
}

#[tokio::test]
async fn uploads_are_checked_by_content_not_by_name() {
    let http = start().await;
    let key = http.key("bad-input-upload@example.com", "business");
    let created = http
        .post(
            "/api/v1/guest-profiles",
            &key,
            json!({
                "firstName": "Grace",
                "lastName": "Hopper",
                "shortBio": "Grace built the first compiler. She served in the navy. She taught COBOL.",
                "topicsToDiscuss": ["compilers"],
                "goals": ["teach programming"],
                "email": "grace@example.com",
            }),
        )
        .await;
    let id = created.data()["guestProfileId"]
        .as_str()
        .expect("guest profile id")
        .to_owned();
    let path = format!("/api/v1/guest-profiles/{id}/documents");
    let elf = b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00".to_vec();
    let zip = b"PK\x03\x04\x14\x00\x00\x00\x08\x00".to_vec();
    let html = b"<html><script>alert(1)</script></html>".to_vec();
    for (name, bytes) in [
        ("photo.png", html.clone()),
        ("portrait.jpg", elf.clone()),
        ("cv.pdf", zip.clone()),
        ("cv.docx", b"%PDF-1.7 not a word document".to_vec()),
        ("notes.txt", elf),
        ("list.csv", b"name\0email".to_vec()),
    ] {
        let answer = http
            .upload(&path, &key, &[("user_file:1", name, bytes)])
            .await;
        assert_eq!(answer.status, 400, "{name}: {}", answer.body);
        assert_eq!(
            answer.message(),
            format!("File {name} does not hold what its extension says")
        );
    }
    // Real content of each kind passes.
    let png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR".to_vec();
    let pdf = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n".to_vec();
    let answer = http
        .upload(
            &path,
            &key,
            &[
                ("user_file:1", "photo.png", png),
                ("user_file:2", "cv.pdf", pdf),
                (
                    "user_file:3",
                    "notes.txt",
                    "Notes, naïve café ✓".as_bytes().to_vec(),
                ),
            ],
        )
        .await;
    assert_eq!(answer.status, 200, "{}", answer.body);
}

#[tokio::test]
async fn paths_cannot_leave_the_web_bundle() {
    let outside = tempfile::tempdir().expect("temp dir");
    let bundle = outside.path().join("dist");
    std::fs::create_dir_all(bundle.join("assets")).expect("bundle dir");
    std::fs::write(
        bundle.join("index.html"),
        "<!doctype html><title>app</title>",
    )
    .expect("index");
    std::fs::write(bundle.join("assets/app.js"), "console.log('app')").expect("asset");
    let secret = "secret-3f9a1c-outside-the-bundle";
    std::fs::write(outside.path().join("secret.txt"), secret).expect("secret");
    let bundle_dir = bundle.clone();
    let http = start_with(move |state| state.web_dir = Some(bundle_dir)).await;

    let asset = http.get("/assets/app.js", "").await;
    assert_eq!(asset.status, 200);
    assert_eq!(asset.bytes, b"console.log('app')");
    for path in [
        "/../secret.txt",
        "/%2e%2e/secret.txt",
        "/assets/..%2f..%2fsecret.txt",
        "/assets/%2e%2e/%2e%2e/secret.txt",
        "/..%5csecret.txt",
        "/assets/....//....//secret.txt",
        "/%252e%252e/secret.txt",
        "//etc/passwd",
        "/assets/%00/../../secret.txt",
    ] {
        let answer = http
            .send(reqwest::Client::new().get(format!("{}{path}", http.base)))
            .await;
        let text = String::from_utf8_lossy(&answer.bytes);
        assert!(
            !text.contains(secret),
            "{path} read a file outside the bundle"
        );
        assert!(!text.contains("root:x:0:0"), "{path} read /etc/passwd");
        assert!(answer.status < 500, "{path}: {}", answer.status);
    }
}

// ---------------------------------------------------------------- cross-site scripting

/// Vectors from the OWASP XSS filter evasion cheat sheet, each after a visible marker.
const XSS_VECTORS: &[&str] = &[
    r#"<SCRIPT SRC=https://cdn.jsdelivr.net/gh/Moksh45/host-xss.rocks/index.js></SCRIPT>"#,
    r#"<IMG SRC="javascript:alert('XSS');">"#,
    r#"<IMG SRC=javascript:alert('XSS')>"#,
    r#"<IMG SRC=JaVaScRiPt:alert('XSS')>"#,
    r#"<IMG SRC=`javascript:alert("RSnake says, 'XSS'")`>"#,
    r#"<a onmouseover="alert(document.cookie)">xxs link</a>"#,
    r#"<IMG """><SCRIPT>alert("XSS")</SCRIPT>"\>"#,
    r#"<IMG SRC=# onmouseover="alert('xxs')">"#,
    r#"<IMG SRC=/ onerror="alert(String.fromCharCode(88,83,83))"></img>"#,
    r#"<img src=x onerror="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041">"#,
    r#"<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>"#,
    r#"<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29>"#,
    r#"<IMG SRC="jav	ascript:alert('XSS');">"#,
    r#"<IMG SRC="jav&#x09;ascript:alert('XSS');">"#,
    r#"<IMG SRC="jav&#x0A;ascript:alert('XSS');">"#,
    r#"<IMG SRC=" &#14;  javascript:alert('XSS');">"#,
    r#"<SCRIPT/XSS SRC="http://xss.rocks/xss.js"></SCRIPT>"#,
    r#"<BODY onload!#$%&()*~+-_.,:;?@[/|\]^`=alert("XSS")>"#,
    r#"<<SCRIPT>alert("XSS");//\<</SCRIPT>"#,
    r#"<SCRIPT SRC=http://xss.rocks/xss.js?< B >"#,
    r#"<IMG SRC="`<javascript:alert>`('XSS')""#,
    r#"<iframe src=http://xss.rocks/scriptlet.html <"#,
    r#"</TITLE><SCRIPT>alert("XSS");</SCRIPT>"#,
    r#"<INPUT TYPE="IMAGE" SRC="javascript:alert('XSS');">"#,
    r#"<BODY BACKGROUND="javascript:alert('XSS')">"#,
    r#"<IMG DYNSRC="javascript:alert('XSS')">"#,
    r#"<IMG LOWSRC="javascript:alert('XSS')">"#,
    r#"<STYLE>li {list-style-image: url("javascript:alert('XSS')");}</STYLE><UL><LI>XSS</br>"#,
    r#"<svg/onload=alert('XSS')>"#,
    r#"<LINK REL="stylesheet" HREF="javascript:alert('XSS');">"#,
    r#"<META HTTP-EQUIV="refresh" CONTENT="0;url=javascript:alert('XSS');">"#,
    r#"<META HTTP-EQUIV="refresh" CONTENT="0;url=data:text/html base64,PHNjcmlwdD5hbGVydCgnWFNTJyk8L3NjcmlwdD4K">"#,
    r#"<IFRAME SRC="javascript:alert('XSS');"></IFRAME>"#,
    r#"<IFRAME SRC=# onmouseover="alert(document.cookie)"></IFRAME>"#,
    r#"<TABLE BACKGROUND="javascript:alert('XSS')">"#,
    r#"<TD BACKGROUND="javascript:alert('XSS')">"#,
    r#"<DIV STYLE="background-image: url(javascript:alert('XSS'))">"#,
    r#"<DIV STYLE="width: expression(alert('XSS'));">"#,
    r#"<BASE HREF="javascript:alert('XSS');//">"#,
    r#"<OBJECT TYPE="text/x-scriptlet" DATA="http://xss.rocks/scriptlet.html"></OBJECT>"#,
    r#"<EMBED SRC="data:image/svg+xml;base64,PHN2ZyB4bWxuczpzdmc9Imh0dH A6Ly93d3cudzMub3JnLzIwMDAvc3ZnIiB4bWxucz0iaHR0cDovL3d3dy53My5vcmcv MjAwMC9zdmciIHhtbG5zOnhsaW5rPSJodHRwOi8vd3d3LnczLm9yZy8xOTk5L3hs aW5rIiB2ZXJzaW9uPSIxLjAiIHg9IjAiIHk9IjAiIHdpZHRoPSIxOTQiIGhlaWdodD0iMjAw IiBpZD0ieHNzIj48c2NyaXB0IHR5cGU9InRleHQvZWNtYXNjcmlwdCI+YWxlcnQoIlh TUyIpOzwvc2NyaXB0Pjwvc3ZnPg==" type="image/svg+xml" AllowScriptAccess="always"></EMBED>"#,
    r#"<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgnWFNTJyk8L3NjcmlwdD4=">click</a>"#,
    r#"<a href="&#1;javascript:alert('XSS')">click</a>"#,
    r#"<a href="  javascript:alert('XSS')">click</a>"#,
    r#"<form action="javascript:alert(1)"><button formaction="javascript:alert(2)">go</button></form>"#,
    r#"<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>"#,
    r#"<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>"#,
    r#"<details open ontoggle=alert(1)>"#,
    r#"<video><source onerror="alert(1)"></video>"#,
];

/// Elements that must never reach the browser from feed HTML.
const FORBIDDEN_ELEMENTS: &[&str] = &[
    "script", "iframe", "frame", "frameset", "object", "embed", "applet", "style", "link", "meta",
    "base", "form", "input", "button", "textarea", "select", "svg", "math", "body", "head",
    "title", "bgsound", "layer", "ilayer", "xml", "video", "audio", "source", "noscript",
    "template",
];

/// Judges an HTML fragment the way a browser parses it (html5ever): no forbidden
/// element, no event-handler or style attribute, no script-capable URL in any attribute.
fn unsafe_parts(html: &str) -> Vec<String> {
    let fragment = scraper::Html::parse_fragment(html);
    let mut found = Vec::new();
    for node in fragment.tree.nodes() {
        let Some(element) = node.value().as_element() else {
            continue;
        };
        let name = element.name().to_ascii_lowercase();
        // The parser wraps a fragment in html/body of its own; their attributes still count.
        if FORBIDDEN_ELEMENTS.contains(&name.as_str())
            && !(name == "body" && element.attrs().next().is_none())
        {
            found.push(format!("<{name}>"));
        }
        for (attribute, value) in element.attrs() {
            let attribute = attribute.to_ascii_lowercase();
            if attribute.starts_with("on")
                || [
                    "style",
                    "srcdoc",
                    "formaction",
                    "dynsrc",
                    "lowsrc",
                    "background",
                ]
                .contains(&attribute.as_str())
            {
                found.push(format!("{name}[{attribute}]"));
            }
            let compact: String = value
                .chars()
                .filter(|c| !c.is_whitespace() && !c.is_control())
                .collect::<String>()
                .to_ascii_lowercase();
            if ["javascript:", "vbscript:", "data:", "livescript:"]
                .iter()
                .any(|scheme| compact.starts_with(scheme))
            {
                found.push(format!("{name}[{attribute}={value}]"));
            }
        }
    }
    found
}

fn hostile_feed() -> String {
    let html: String = XSS_VECTORS
        .iter()
        .enumerate()
        .map(|(n, vector)| format!("<p>Vector {n} follows:</p>{vector}\n"))
        .collect();
    // The same HTML once in CDATA and once entity-escaped, as feeds carry both.
    let escaped = html
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:content="http://purl.org/rss/1.0/modules/content/">
<channel>
  <title>Hostile Markup Hour</title>
  <link>https://hostile.example.com/</link>
  <description><![CDATA[{html}]]></description>
  <itunes:summary>{escaped}</itunes:summary>
  <item>
    <title>Episode one of the hostile markup hour</title>
    <guid>hostile-1</guid>
    <pubDate>Mon, 02 Nov 2026 10:00:00 GMT</pubDate>
    <enclosure url="https://hostile.example.com/1.mp3" type="audio/mpeg" length="1000"/>
    <description>{escaped}</description>
    <content:encoded><![CDATA[{html}]]></content:encoded>
  </item>
  <item>
    <title>Episode two of the hostile markup hour</title>
    <guid>hostile-2</guid>
    <pubDate>Tue, 03 Nov 2026 10:00:00 GMT</pubDate>
    <enclosure url="https://hostile.example.com/2.mp3" type="audio/mpeg" length="1000"/>
    <description><![CDATA[{html}]]></description>
  </item>
</channel>
</rss>"#
    )
}

/// Every string under a key naming a description, anywhere in `value`.
fn descriptions<'a>(value: &'a Value, key: &str, out: &mut Vec<(String, &'a str)>) {
    match value {
        Value::String(text) if key.to_ascii_lowercase().contains("description") => {
            out.push((key.to_owned(), text))
        }
        Value::Array(items) => items.iter().for_each(|item| descriptions(item, key, out)),
        Value::Object(map) => map
            .iter()
            .for_each(|(name, item)| descriptions(item, name, out)),
        _ => {}
    }
}

#[tokio::test]
async fn owasp_xss_vectors_in_a_feed_never_reach_the_browser() {
    // The hostile feed goes through the real pipeline: parse, normalise, store,
    // snapshot, index; then a real server answers the routes the web app renders.
    let dir = tempfile::tempdir().expect("temp dir");
    let feed = hostile_feed();
    let parsed = podlens_ingest::parse_feed(feed.as_bytes(), None).expect("hostile feed parses");
    let batch =
        podlens_ingest::normalize(&parsed, "https://hostile.example.com/feed.xml", Utc::now());
    let podcast_id = batch.podcast.podcast_id;
    let episode_ids: Vec<_> = batch.episodes.iter().map(|e| e.episode_id).collect();
    assert_eq!(episode_ids.len(), 2);
    {
        let mut catalog = Catalog::open(dir.path()).expect("catalog");
        catalog.upsert_feeds(&[batch]).expect("stored");
        catalog.export_parquet().expect("snapshot");
    }
    common::fixture::index_snapshot(dir.path(), &BuildOptions::default());
    let state = podlens_api::server::open_state(dir.path().to_path_buf(), None).expect("state");
    let http = serve(state, dir).await;
    let key = http.key("xss@example.com", "business");
    let fetch = |answer: Answer| {
        assert_eq!(answer.status, 200, "{}", answer.body);
        answer.body
    };
    let answers = vec![
        fetch(
            http.get(&format!("/api/v1/podcasts/{podcast_id}"), &key)
                .await,
        ),
        fetch(
            http.get(&format!("/api/v1/podcasts/{podcast_id}/episodes"), &key)
                .await,
        ),
        fetch(
            http.get(
                &format!("/api/v1/episodes/{}/details", episode_ids[0]),
                &key,
            )
            .await,
        ),
        fetch(
            http.get(
                &format!("/api/v1/episodes/{}/details", episode_ids[1]),
                &key,
            )
            .await,
        ),
        fetch(
            http.post(
                "/api/v1/search/episodes",
                &key,
                search_body("vector", "episode"),
            )
            .await,
        ),
        fetch(
            http.post(
                "/api/v1/search/podcasts",
                &key,
                search_body("vector", "podcast"),
            )
            .await,
        ),
    ];
    let mut checked = 0;
    let mut markers = 0;
    for answer in &answers {
        let mut found = Vec::new();
        descriptions(answer, "", &mut found);
        for (key, text) in found {
            let unsafe_parts = unsafe_parts(text);
            assert!(unsafe_parts.is_empty(), "{key}: {unsafe_parts:?} in {text}");
            checked += 1;
            markers +=
                usize::from(text.contains(&format!("Vector {} follows", XSS_VECTORS.len() - 1)));
        }
    }
    // The descriptions were served (with their text), not dropped.
    assert!(checked >= 6, "only {checked} descriptions came back");
    assert!(
        markers >= 4,
        "the visible text of the descriptions was lost"
    );
    // The judge itself flags every vector that a browser's HTML parser would run, when
    // nothing sanitizes it; the few it passes are inert in HTML5 parsers.
    let passed: Vec<&str> = XSS_VECTORS
        .iter()
        .copied()
        .filter(|vector| unsafe_parts(vector).is_empty())
        .collect();
    // Alone, these are inert: a backtick-quoted URL (old IE only), tags cut off at the
    // end of input, and body/td attributes outside a body or table, which the parser
    // drops. Inside the feed, where markup follows them, they count.
    let inert_alone = [
        "<IMG SRC=`javascript",
        "<BODY onload!",
        "<IMG SRC=\"`<javascript",
        "<iframe src=http://xss.rocks/scriptlet.html <",
        "<BODY BACKGROUND=",
        "<TD BACKGROUND=",
    ];
    assert_eq!(
        passed.len(),
        inert_alone.len(),
        "the judge passes {passed:?}"
    );
    for (vector, prefix) in passed.iter().zip(inert_alone) {
        assert!(vector.starts_with(prefix), "the judge passes {vector}");
    }
    // And it flags the raw feed HTML, where they are followed by more markup.
    let raw_html: String = XSS_VECTORS
        .iter()
        .map(|vector| format!("<p>x</p>{vector}\n"))
        .collect();
    assert!(
        unsafe_parts(&raw_html).len() >= XSS_VECTORS.len(),
        "the judge misses raw feed HTML"
    );
}
