//! The web app's bundle as browsers get it: the content-hashed files under `/assets/` are
//! cached for a year without revalidation, `index.html` and the app's addresses are
//! revalidated on every use, scripts travel compressed (the build's brotli or gzip copy
//! when there is one, gzip on the way out otherwise), and a hashed file that is not there
//! is a 404, not the app's page.

mod common;

use std::io::{Read, Write};
use std::path::Path;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use common::{Reply, send, state};

const YEAR_IMMUTABLE: &str = "public, max-age=31536000, immutable";
const INDEX: &str = "<!doctype html><title>Podlens</title><div id=\"root\"></div>";

/// A script of a few kilobytes, as a bundle's chunk would be.
fn script(name: &str) -> String {
    (0..200)
        .map(|line| format!("export const {name}{line} = 'line {line} of the {name} chunk';\n"))
        .collect()
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes).expect("gzip");
    encoder.finish().expect("gzip")
}

fn gunzip(bytes: &[u8]) -> String {
    let mut text = String::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_string(&mut text)
        .expect("a gzip body");
    text
}

/// A built bundle: `index.html`, a favicon, a chunk without compressed copies and one
/// with the brotli and gzip copies the build writes beside it.
fn write_bundle(dir: &Path) {
    std::fs::create_dir_all(dir.join("assets")).expect("bundle dir");
    std::fs::write(dir.join("index.html"), INDEX).expect("index");
    std::fs::write(
        dir.join("favicon.svg"),
        "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
    )
    .expect("favicon");
    std::fs::write(dir.join("assets/index-B_0qPQQh.js"), script("index")).expect("entry");
    let vendor = script("vendor");
    std::fs::write(dir.join("assets/vendor-C873Rpar.js"), &vendor).expect("vendor");
    std::fs::write(
        dir.join("assets/vendor-C873Rpar.js.br"),
        b"the build's brotli copy",
    )
    .expect("vendor.br");
    std::fs::write(
        dir.join("assets/vendor-C873Rpar.js.gz"),
        gzip(vendor.as_bytes()),
    )
    .expect("vendor.gz");
}

fn app(bundle: &Path) -> (Router, tempfile::TempDir) {
    let (mut state, data_dir) = state();
    state.web_dir = Some(bundle.to_path_buf());
    (podlens_api::app(state), data_dir)
}

async fn get(app: &Router, uri: &str, headers: &[(&str, &str)]) -> Reply {
    let mut request = Request::builder().uri(uri);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    send(app, request.body(Body::empty()).expect("request")).await
}

fn header(reply: &Reply, name: header::HeaderName) -> &str {
    reply
        .headers
        .get(&name)
        .map(|value| value.to_str().expect("a text header"))
        .unwrap_or_default()
}

fn varies_by_encoding(reply: &Reply) -> bool {
    reply.headers.get_all(header::VARY).iter().any(|value| {
        value
            .to_str()
            .unwrap_or_default()
            .to_ascii_lowercase()
            .contains("accept-encoding")
    })
}

#[tokio::test]
async fn hashed_files_are_cached_for_a_year_and_the_app_page_is_revalidated() {
    let bundle = tempfile::tempdir().expect("bundle");
    write_bundle(bundle.path());
    let (app, _data) = app(bundle.path());

    let script = get(&app, "/assets/index-B_0qPQQh.js", &[]).await;
    assert_eq!(script.status, StatusCode::OK);
    assert_eq!(script.text, self::script("index"));
    assert_eq!(header(&script, header::CACHE_CONTROL), YEAR_IMMUTABLE);
    assert!(
        header(&script, header::CONTENT_TYPE).contains("javascript"),
        "{:?}",
        script.headers
    );

    // The app's page, at its own address and at any address the app's router takes.
    for path in [
        "/",
        "/index.html",
        "/podcasts/some-show",
        "/app/search?q=climate",
    ] {
        let page = get(&app, path, &[]).await;
        assert_eq!(page.status, StatusCode::OK, "{path}");
        assert_eq!(page.text, INDEX, "{path}");
        assert_eq!(header(&page, header::CACHE_CONTROL), "no-cache", "{path}");
    }
    // A file of the bundle without a hashed name is revalidated too.
    let icon = get(&app, "/favicon.svg", &[]).await;
    assert_eq!(icon.status, StatusCode::OK);
    assert_eq!(header(&icon, header::CACHE_CONTROL), "no-cache");

    // Revalidating the page costs a 304 and keeps it revalidated.
    let page = get(&app, "/", &[]).await;
    let modified = header(&page, header::LAST_MODIFIED).to_owned();
    assert!(!modified.is_empty(), "{:?}", page.headers);
    let again = get(&app, "/", &[("if-modified-since", &modified)]).await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    assert!(again.bytes.is_empty());
    assert_eq!(header(&again, header::CACHE_CONTROL), "no-cache");

    // A hashed file that is not there (a page left open across a release asks for one)
    // is a 404, neither the app's page nor anything cached.
    let missing = get(&app, "/assets/search-page-0000000.js", &[]).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert_ne!(missing.text, INDEX);
    assert_ne!(header(&missing, header::CACHE_CONTROL), YEAR_IMMUTABLE);
}

#[tokio::test]
async fn scripts_are_sent_compressed() {
    let bundle = tempfile::tempdir().expect("bundle");
    write_bundle(bundle.path());
    let (app, _data) = app(bundle.path());

    // Without a compressed copy: gzip-compressed on the way out.
    let entry = get(
        &app,
        "/assets/index-B_0qPQQh.js",
        &[("accept-encoding", "gzip")],
    )
    .await;
    assert_eq!(entry.status, StatusCode::OK);
    assert_eq!(header(&entry, header::CONTENT_ENCODING), "gzip");
    assert_eq!(gunzip(&entry.bytes), script("index"));
    assert_eq!(header(&entry, header::CACHE_CONTROL), YEAR_IMMUTABLE);
    assert!(varies_by_encoding(&entry), "{:?}", entry.headers);

    // With the build's copies: the one the client accepts, brotli first.
    let brotli = get(
        &app,
        "/assets/vendor-C873Rpar.js",
        &[("accept-encoding", "gzip, deflate, br")],
    )
    .await;
    assert_eq!(brotli.status, StatusCode::OK);
    assert_eq!(header(&brotli, header::CONTENT_ENCODING), "br");
    assert_eq!(brotli.bytes, b"the build's brotli copy");
    assert!(
        header(&brotli, header::CONTENT_TYPE).contains("javascript"),
        "{:?}",
        brotli.headers
    );
    assert_eq!(header(&brotli, header::CACHE_CONTROL), YEAR_IMMUTABLE);
    assert!(varies_by_encoding(&brotli), "{:?}", brotli.headers);

    let gzipped = get(
        &app,
        "/assets/vendor-C873Rpar.js",
        &[("accept-encoding", "gzip")],
    )
    .await;
    assert_eq!(header(&gzipped, header::CONTENT_ENCODING), "gzip");
    assert_eq!(gunzip(&gzipped.bytes), script("vendor"));
    assert_eq!(header(&gzipped, header::CACHE_CONTROL), YEAR_IMMUTABLE);

    // A client that accepts no encoding gets the file as it is.
    let plain = get(&app, "/assets/vendor-C873Rpar.js", &[]).await;
    assert_eq!(header(&plain, header::CONTENT_ENCODING), "");
    assert_eq!(plain.text, script("vendor"));
}

/// What Chromium sends: every encoding it can read.
const BROWSER_ACCEPT_ENCODING: &str = "gzip, deflate, br, zstd";

#[tokio::test]
async fn a_browser_gets_compressed_answers() {
    let bundle = tempfile::tempdir().expect("bundle");
    write_bundle(bundle.path());
    let (app, _data) = app(bundle.path());
    let browser = [("accept-encoding", BROWSER_ACCEPT_ENCODING)];

    // A script with the build's copies: the brotli one.
    let vendor = get(&app, "/assets/vendor-C873Rpar.js", &browser).await;
    assert_eq!(header(&vendor, header::CONTENT_ENCODING), "br");
    assert_eq!(vendor.bytes, b"the build's brotli copy");

    // A script without copies, and an API answer: compressed on the way out (they were
    // sent as they are when the browser also named an encoding the server did not write).
    let entry = get(&app, "/assets/index-B_0qPQQh.js", &browser).await;
    assert_eq!(entry.status, StatusCode::OK);
    assert_eq!(header(&entry, header::CONTENT_ENCODING), "br");
    assert!(
        entry.bytes.len() < script("index").len() / 4,
        "{} bytes",
        entry.bytes.len()
    );
    assert_eq!(header(&entry, header::CACHE_CONTROL), YEAR_IMMUTABLE);

    let plain = get(&app, "/api/v1/openapi.json", &[]).await;
    assert_eq!(plain.status, StatusCode::OK);
    let answer = get(&app, "/api/v1/openapi.json", &browser).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(header(&answer, header::CONTENT_ENCODING), "br");
    assert!(
        answer.bytes.len() < plain.bytes.len() / 4,
        "{} of {} bytes",
        answer.bytes.len(),
        plain.bytes.len()
    );
}
