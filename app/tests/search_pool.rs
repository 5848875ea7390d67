//! The search pool's hand-off under load (a process of its own: the bound is the
//! process's). Every pool thread is held by a blocking call first, so what follows queues:
//! - past `QUEUED_PER_THREAD` calls a thread, a call is refused at once (503's error),
//!   and, once the pool drains, served again;
//! - a call whose caller went away before a thread took it up is not run, while the same
//!   call still awaited is.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use futures_util::FutureExt;
use podlens_app::AppError;
use podlens_app::search::engine::QUEUED_PER_THREAD;
use podlens_app::search::on_search_pool;

/// The tests share the process's pool and its bound: one at a time.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// A gate every pool thread waits at until it opens.
#[derive(Clone, Default)]
struct Gate(Arc<(std::sync::Mutex<bool>, std::sync::Condvar)>);

impl Gate {
    fn wait(&self) {
        let (open, changed) = &*self.0;
        let mut open = open.lock().unwrap();
        while !*open {
            open = changed.wait(open).unwrap();
        }
    }

    fn open(&self) {
        let (open, changed) = &*self.0;
        *open.lock().unwrap() = true;
        changed.notify_all();
    }
}

/// Holds every pool thread at `gate`; returns the calls, pending, once all are held.
async fn hold_every_thread(gate: &Gate) -> Vec<tokio::task::JoinHandle<Result<(), AppError>>> {
    let threads = rayon::current_num_threads();
    let held = Arc::new(AtomicUsize::new(0));
    let calls: Vec<_> = (0..threads)
        .map(|_| {
            let (gate, held) = (gate.clone(), held.clone());
            tokio::spawn(on_search_pool(move || {
                held.fetch_add(1, Ordering::SeqCst);
                gate.wait();
                Ok(())
            }))
        })
        .collect();
    while held.load(Ordering::SeqCst) < threads {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    calls
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_search_pool_refuses_at_once_and_serves_again_once_drained() {
    let _alone = ONE_AT_A_TIME.lock().await;
    let gate = Gate::default();
    let mut calls = hold_every_thread(&gate).await;
    let limit = QUEUED_PER_THREAD * rayon::current_num_threads();
    let ran = Arc::new(AtomicUsize::new(0));
    for _ in calls.len()..limit {
        let ran = ran.clone();
        calls.push(tokio::spawn(on_search_pool(move || {
            ran.fetch_add(1, Ordering::SeqCst);
            Ok(())
        })));
    }
    // Each spawned call takes its place when first polled.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let refused = tokio::time::timeout(Duration::from_secs(1), on_search_pool(|| Ok(())))
        .await
        .expect("refused at once, not queued");
    assert!(
        matches!(refused, Err(AppError::Unavailable(ref message)) if message.contains("busy")),
        "{refused:?}"
    );
    gate.open();
    for call in calls {
        call.await.unwrap().unwrap();
    }
    assert_eq!(
        ran.load(Ordering::SeqCst),
        limit - rayon::current_num_threads()
    );
    on_search_pool(|| Ok(())).await.expect("served again");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_whose_caller_went_away_is_not_run() {
    let _alone = ONE_AT_A_TIME.lock().await;
    let gate = Gate::default();
    let held = hold_every_thread(&gate).await;
    let (abandoned, awaited) = (
        Arc::new(AtomicBool::new(false)),
        Arc::new(AtomicBool::new(false)),
    );
    let flag = abandoned.clone();
    let call = on_search_pool(move || {
        flag.store(true, Ordering::SeqCst);
        Ok(())
    });
    // Polled once (queued behind the held threads), then dropped: its caller is gone.
    assert!(call.now_or_never().is_none());
    let flag = awaited.clone();
    let kept = tokio::spawn(on_search_pool(move || {
        flag.store(true, Ordering::SeqCst);
        Ok(())
    }));
    tokio::time::sleep(Duration::from_millis(50)).await;
    gate.open();
    for call in held {
        call.await.unwrap().unwrap();
    }
    kept.await.unwrap().unwrap();
    // The abandoned call was queued before the kept one: a thread has taken it up by now.
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(awaited.load(Ordering::SeqCst), "the awaited call ran");
    assert!(
        !abandoned.load(Ordering::SeqCst),
        "the abandoned call did not run"
    );
}
