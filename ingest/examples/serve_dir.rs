//! A static file server on loopback for the end-to-end ingest benchmark in
//! `benches/ingest/`: `serve_dir DIR PORT [THREADS]` serves DIR at
//! `http://127.0.0.1:PORT/` until killed (the same axum + `ServeDir` stack the demo
//! serves its generated corpus with).

use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;

use axum::Router;
use axum::serve::ListenerExt;
use tower_http::services::ServeDir;

fn main() {
    let mut arguments = std::env::args().skip(1);
    let (Some(root), Some(port)) = (
        arguments.next().map(PathBuf::from),
        arguments.next().and_then(|port| port.parse::<u16>().ok()),
    ) else {
        eprintln!("usage: serve_dir DIR PORT [THREADS]");
        std::process::exit(2);
    };
    let threads = arguments
        .next()
        .and_then(|threads| threads.parse::<usize>().ok())
        .unwrap_or(1)
        .max(1);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("cannot start the runtime: {error}");
            std::process::exit(1);
        }
    };
    let served = runtime.block_on(async move {
        // TCP_NODELAY: without it a response's last small segment can wait for the
        // client's delayed ACK (40 ms on Linux), once per feed.
        let listener = tokio::net::TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port)))
            .await?
            .tap_io(|stream| {
                let _ = stream.set_nodelay(true);
            });
        let app = Router::new().fallback_service(ServeDir::new(root));
        axum::serve(listener, app).await
    });
    if let Err(error) = served {
        eprintln!("server stopped: {error}");
        std::process::exit(1);
    }
}
