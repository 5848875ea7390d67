//! The application's services, assembled once per server over a data directory and an
//! application store: the composition root. Each workflow takes only what it needs;
//! [`App`] hands it those parts ([`App::alert_runs`], [`App::feed_cycles`], …), and
//! [`jobs`] runs the background work that spans several of them.

pub mod jobs;

use std::path::PathBuf;
use std::sync::Arc;

use crate::accounts::AccountStore;
use crate::catalog::CatalogReader;

/// Every service of a running node. The HTTP layer holds one beside the web bundle.
#[derive(Clone)]
pub struct App {
    pub accounts: Arc<dyn AccountStore>,
    /// Searches to remember, written in batches.
    pub history: Arc<crate::accounts::history::SearchHistory>,
    /// The teams' blacklisted podcasts, remembered for a moment.
    pub blacklists: Arc<crate::accounts::blacklists::TeamBlacklists>,
    /// The accounts behind API keys in use, remembered for a moment.
    pub known_keys: Arc<crate::accounts::known_keys::KnownKeys>,
    /// Usage of unlimited counters, counted in memory and written in batches.
    pub usage: Arc<crate::accounts::meter::UsageMeter>,
    /// Calls of capped counters, charged against this node's reservations.
    pub quotas: Arc<crate::accounts::quota::Quotas>,
    pub catalog: Arc<CatalogReader>,
    /// The search index: this process's (every shard), or a cluster's search nodes.
    pub engine: Arc<dyn crate::search::SearchEngine>,
    /// Projects, listed podcasts and outreach history (tables of the app database).
    pub workflows: Arc<crate::workflows::WorkflowStore>,
    /// The AI assist provider (offline unless an OpenAI-compatible endpoint is configured).
    pub assist: Arc<dyn crate::workflows::agent::AiProvider>,
    /// Sign-in links and browser sessions (tables of the app database).
    pub sessions: Arc<crate::accounts::sessions::SessionStore>,
    /// Team members' roles and invitations (tables of the app database).
    pub members: Arc<crate::accounts::members::MemberStore>,
    /// Where sign-in links and notifications are mailed.
    pub mailer: Arc<dyn crate::mail::Mailer>,
    /// Re-reads one podcast's feed on request (`/podcasts/{id}/refresh`).
    pub refresher: Arc<crate::refresh::FeedRefresher>,
    /// Speech to text for transcription requests without a publisher transcript
    /// (disabled unless `podlens serve --whisper-model` names a model).
    pub speech: Arc<crate::workflows::speech_worker::SpeechWorker>,
    /// Sends alert deliveries (e-mail and team webhooks) from the ledger.
    pub deliveries: Arc<crate::workflows::delivery::DeliveryWorker>,
    /// This node among those sharing the store: the leadership of the background
    /// jobs and the log of catalog changes.
    pub cluster: Arc<crate::cluster::Cluster>,
    /// Re-reads the catalog's feeds on their schedule (run by the leading node of
    /// `podlens serve`) and takes WebSub hubs' pushes.
    pub feeds: Arc<crate::workflows::feeds::FeedScheduler>,
    /// Signs and checks the cursors clients send back.
    pub cursors: Arc<crate::cursors::CursorSigner>,
    /// Search hits' podcast fields, written once per podcast and plan and kept.
    pub podcast_json: Arc<crate::search::hits::PodcastJsonCache>,
    /// Where mailed links point: `--public-url`, else the address the node listens on.
    pub links: crate::accounts::links::LinkOrigin,
    pub data_dir: PathBuf,
}

impl std::fmt::Debug for App {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("App")
            .field("data_dir", &self.data_dir)
            .finish_non_exhaustive()
    }
}

/// How a node runs its services (`podlens serve`'s settings).
#[derive(Debug, Clone, Default)]
pub struct NodeOptions {
    /// Mail through this SMTP server; `None`: to the data directory's outbox.
    pub smtp: Option<crate::mail::SmtpSettings>,
    /// Feed refreshes may fetch from, and team webhooks may be delivered to, private,
    /// loopback and link-local addresses.
    pub allow_private_feeds: bool,
    /// Speech to text for transcription requests with faster-whisper and the Whisper
    /// model in this folder; `None`: requests without a publisher transcript fail.
    pub whisper_model: Option<PathBuf>,
    /// Whether the leading node re-reads the catalog's feeds on their schedule.
    pub poll_feeds: bool,
    /// Where WebSub hubs reach this service (`https://podlens.example.com`); `None`:
    /// no subscriptions, feeds are polled only. Also the origin of mailed links.
    pub public_url: Option<String>,
    /// The address the server is bound to: mailed links point there when no
    /// `public_url` is set (and are refused when it is unspecified, `0.0.0.0`).
    pub listening_on: Option<std::net::SocketAddr>,
    /// An API node of a cluster: searches run on the cluster's search nodes, and the
    /// catalog is refreshed by the cluster's batch, not by this node (no feed polling,
    /// no incremental index generations).
    pub cluster: Option<crate::search::ClusterOptions>,
}

/// Opens the application store at `location`, first importing a data directory's
/// legacy `app.duckdb` into it when one is there.
pub fn open_app_store(
    data_dir: &std::path::Path,
    location: &podlens_store::Location,
) -> crate::error::AppResult<Arc<podlens_store::Database>> {
    let database = podlens_store::Database::open(location)?;
    if let Some(imported) = podlens_store::import_legacy(data_dir, &database)? {
        let rows: u64 = imported.rows.iter().map(|(_, rows)| rows).sum();
        tracing::info!(
            rows,
            moved_to = %imported.moved_to.display(),
            store = database.describe(),
            "imported the application data of app.duckdb"
        );
    }
    Ok(Arc::new(database))
}

impl App {
    /// The services over `data_dir` (its catalog and indexes) and `database`, with
    /// the defaults: mail to the outbox, public addresses only, no speech to text,
    /// feeds polled, no WebSub, links to `podlens serve`'s default address.
    pub fn open(
        data_dir: PathBuf,
        database: Arc<podlens_store::Database>,
    ) -> crate::error::AppResult<App> {
        let account_store = crate::accounts::SqlAccountStore::new(database.clone());
        let known_keys = account_store.known_keys();
        let cursor_secret = account_store.server_secret("cursor")?;
        let accounts: Arc<dyn AccountStore> = Arc::new(account_store);
        let catalog = Arc::new(CatalogReader::open(&data_dir)?);
        let workflows = crate::workflows::WorkflowStore::open(database.clone())?;
        Ok(App {
            history: Arc::new(crate::accounts::history::SearchHistory::new(
                accounts.clone(),
            )),
            usage: Arc::new(crate::accounts::meter::UsageMeter::new(accounts.clone())),
            quotas: Arc::new(crate::accounts::quota::Quotas::new(accounts.clone())),
            blacklists: Arc::default(),
            workflows: Arc::new(workflows),
            assist: crate::workflows::agent::provider_from_env()?,
            sessions: Arc::new(crate::accounts::sessions::SessionStore::open(
                database.clone(),
            )),
            members: Arc::new(
                crate::accounts::members::MemberStore::open(database.clone())
                    .forgetting(known_keys.clone()),
            ),
            known_keys,
            feeds: Arc::new(crate::workflows::feeds::FeedScheduler::new(
                database.clone(),
                true,
            )),
            cluster: Arc::new(crate::cluster::Cluster::join(database)),
            mailer: Arc::new(crate::mail::Outbox::in_data_dir(&data_dir)),
            refresher: Arc::new(crate::refresh::FeedRefresher::new(data_dir.clone())),
            speech: Arc::new(crate::workflows::speech_worker::SpeechWorker::disabled()),
            deliveries: Arc::new(crate::workflows::delivery::DeliveryWorker::new(
                podlens_netguard::AddressPolicy::public_only(),
            )?),
            cursors: Arc::new(crate::cursors::CursorSigner::new(cursor_secret)),
            podcast_json: Arc::default(),
            accounts,
            engine: Arc::new(crate::search::LocalEngine::new(catalog.clone())),
            catalog,
            links: crate::accounts::links::LinkOrigin::default(),
            data_dir,
        })
    }

    /// The services of a node run with `options`.
    pub fn open_node(
        data_dir: PathBuf,
        database: Arc<podlens_store::Database>,
        options: &NodeOptions,
    ) -> crate::error::AppResult<App> {
        let mut app = App::open(data_dir, database)?;
        if let Some(cluster) = &options.cluster {
            app.engine = crate::search::ClusterEngine::start(cluster, app.data_dir.join("index"))?;
        }
        app.links = crate::accounts::links::LinkOrigin::for_node(
            options.public_url.as_deref(),
            options.listening_on,
        );
        if options.allow_private_feeds {
            app.refresher = Arc::new(
                crate::refresh::FeedRefresher::new(app.data_dir.clone()).allowing_private(),
            );
            app.deliveries = Arc::new(crate::workflows::delivery::DeliveryWorker::new(
                podlens_netguard::AddressPolicy::allow_private(),
            )?);
        }
        if let Some(model_dir) = &options.whisper_model {
            if !model_dir.join("model.bin").is_file() {
                tracing::warn!(dir = %model_dir.display(), "no Whisper model.bin there: speech-to-text requests will fail until it is installed (scripts/install-whisper.sh)");
            }
            let engine = crate::speech::FasterWhisper::new(model_dir.clone());
            let mut worker = crate::workflows::speech_worker::SpeechWorker::new(Arc::new(engine));
            if options.allow_private_feeds {
                worker = worker.allowing_private();
            }
            app.speech = Arc::new(worker);
        }
        let mut http = app.refresher.http().clone();
        http.retries = 1;
        app.feeds = Arc::new(
            crate::workflows::feeds::FeedScheduler::new(
                app.feeds.database().clone(),
                options.poll_feeds && options.cluster.is_none(),
            )
            .with_http(http)
            .with_public_url(options.public_url.clone()),
        );
        if options.smtp.is_some() {
            app.mailer = crate::mail::mailer_for(&app.data_dir, options.smtp.as_ref())?;
        }
        Ok(app)
    }

    /// Starts the node's background work: the jobs every `jobs_interval` and the feed
    /// scheduler (run while this node leads), the flushers of remembered searches and
    /// usage counts, and the listeners for other nodes' changes to teams' blacklists and
    /// to keys, users, teams and members.
    pub fn spawn_background(&self, jobs_interval: std::time::Duration) {
        jobs::spawn_background_jobs(self.clone(), jobs_interval);
        crate::workflows::feeds::spawn_feed_scheduler(self.feed_cycles());
        crate::accounts::history::spawn_flusher(self.history.clone());
        crate::accounts::meter::spawn_flusher(self.usage.clone());
        crate::accounts::quota::spawn_flusher(self.quotas.clone());
        crate::accounts::blacklists::listen(&self.blacklists, self.cluster.database());
        crate::accounts::known_keys::listen(&self.known_keys, self.cluster.database());
    }

    /// What a stopping node does last: writes the searches and usage counts of the last
    /// moments and gives the background jobs' leadership up, so another node takes them
    /// over at once.
    pub async fn shut_down(&self) {
        if let Err(error) = self.history.flush().await {
            tracing::warn!(%error, lost = self.history.pending(), "searches not remembered at shutdown");
        }
        if let Err(error) = self.usage.flush().await {
            tracing::warn!(%error, lost = self.usage.pending(), "usage counts not written at shutdown");
        }
        if let Err(error) = self.quotas.close().await {
            tracing::warn!(%error, lost = self.quotas.pending(), "capped usage counts not written at shutdown");
        }
        self.cluster.resign().await;
    }
}

/// The parts each workflow takes, from this node's services.
impl App {
    /// Searches: the engine, with the plan, cursors, blacklists, metering and history.
    pub fn searches(&self) -> crate::search::SearchService {
        crate::search::SearchService {
            engine: self.engine.clone(),
            catalog: self.catalog.clone(),
            cursors: self.cursors.clone(),
            blacklists: self.blacklists.clone(),
            accounts: self.accounts.clone(),
            history: self.history.clone(),
            metering: self.metering(),
            podcast_json: self.podcast_json.clone(),
        }
    }

    /// The teams' custom prompts.
    pub fn custom_prompts(&self) -> crate::workflows::custom_prompts::CustomPrompts {
        crate::workflows::custom_prompts::CustomPrompts {
            workflows: self.workflows.clone(),
        }
    }

    /// Users' preferences and teams' settings.
    pub fn settings(&self) -> crate::workflows::settings::Settings {
        crate::workflows::settings::Settings {
            workflows: self.workflows.clone(),
        }
    }

    /// The built-in outreach templates and the teams' own.
    pub fn outreach_templates(&self) -> crate::workflows::outreach_templates::OutreachTemplates {
        crate::workflows::outreach_templates::OutreachTemplates {
            workflows: self.workflows.clone(),
        }
    }

    /// The projects' search strategies.
    pub fn strategies(&self) -> crate::workflows::strategies::Strategies {
        crate::workflows::strategies::Strategies {
            workflows: self.workflows.clone(),
            assist: self.assist.clone(),
            metering: self.metering(),
        }
    }

    /// The teams' alerts, their matches and history.
    pub fn alert_configs(&self) -> crate::workflows::alert_configs::AlertConfigs {
        crate::workflows::alert_configs::AlertConfigs {
            workflows: self.workflows.clone(),
            accounts: self.accounts.clone(),
            assist: self.assist.clone(),
            runs: self.alert_runs(),
            passes: self.delivery_passes(),
        }
    }

    /// The meters metered calls are charged to.
    pub fn metering(&self) -> crate::accounts::metering::Metering {
        crate::accounts::metering::Metering {
            usage: self.usage.clone(),
            quotas: self.quotas.clone(),
        }
    }

    /// The server's writes to the catalog (refreshes, polls, transcripts).
    pub fn catalog_writes(&self) -> crate::refresh::CatalogWrites {
        crate::refresh::CatalogWrites {
            data_dir: self.data_dir.clone(),
            refresher: self.refresher.clone(),
            catalog: self.catalog.clone(),
            cluster: self.cluster.clone(),
        }
    }

    /// The feed scheduler's cycles.
    pub fn feed_cycles(&self) -> crate::workflows::feeds::Feeds {
        crate::workflows::feeds::Feeds {
            scheduler: self.feeds.clone(),
            writes: self.catalog_writes(),
        }
    }

    /// Passes of the alert delivery worker.
    pub fn delivery_passes(&self) -> crate::workflows::delivery::Deliveries {
        crate::workflows::delivery::Deliveries {
            worker: self.deliveries.clone(),
            store: self.workflows.clone(),
            mailer: self.mailer.clone(),
            cluster: self.cluster.clone(),
        }
    }

    /// Runs of the teams' alerts.
    pub fn alert_runs(&self) -> crate::workflows::alerts::Alerts {
        crate::workflows::alerts::Alerts {
            catalog: self.catalog.clone(),
            engine: self.engine.clone(),
            store: self.workflows.clone(),
            accounts: self.accounts.clone(),
        }
    }

    /// Transcription requests and their speech-to-text worker.
    pub fn transcriptions(&self) -> crate::workflows::transcriptions::Transcriptions {
        crate::workflows::transcriptions::Transcriptions {
            store: self.workflows.clone(),
            writes: self.catalog_writes(),
            speech: self.speech.clone(),
        }
    }

    /// The teams' deep analyses of episodes.
    pub fn deep_analyses(&self) -> crate::workflows::deep_analyses::DeepAnalyses {
        crate::workflows::deep_analyses::DeepAnalyses {
            catalog: self.catalog.clone(),
            store: self.workflows.clone(),
            metering: self.metering(),
            assist: self.assist.clone(),
        }
    }

    /// Relevancy reviews of podcasts for the teams' projects.
    pub fn relevancy(&self) -> crate::workflows::relevancy::Relevancy {
        crate::workflows::relevancy::Relevancy {
            catalog: self.catalog.clone(),
            store: self.workflows.clone(),
            metering: self.metering(),
            assist: self.assist.clone(),
        }
    }

    /// The teams' guest profiles.
    pub fn guest_profiles(&self) -> crate::workflows::guest_profiles::GuestProfiles {
        crate::workflows::guest_profiles::GuestProfiles {
            store: self.workflows.clone(),
            metering: self.metering(),
            assist: self.assist.clone(),
            pipeline: self.guest_pipeline(),
            data_dir: self.data_dir.clone(),
        }
    }

    /// The teams' transcription requests and their history.
    pub fn transcription_requests(
        &self,
    ) -> crate::workflows::transcriptions::TranscriptionRequests {
        crate::workflows::transcriptions::TranscriptionRequests {
            transcriptions: self.transcriptions(),
            catalog: self.catalog.clone(),
            metering: self.metering(),
        }
    }

    /// The teams' usage reports.
    pub fn usage_reports(&self) -> crate::accounts::usage_reports::UsageReports {
        crate::accounts::usage_reports::UsageReports {
            accounts: self.accounts.clone(),
            meter: self.usage.clone(),
            quotas: self.quotas.clone(),
        }
    }

    /// The episodes' transcripts: previews, and downloads charged to the caller.
    pub fn episode_transcripts(&self) -> crate::workflows::episode_transcripts::EpisodeTranscripts {
        crate::workflows::episode_transcripts::EpisodeTranscripts {
            catalog: self.catalog.clone(),
            metering: self.metering(),
        }
    }

    /// The catalog's latest episodes.
    pub fn latest_episodes(&self) -> crate::workflows::latest_episodes::LatestEpisodes {
        crate::workflows::latest_episodes::LatestEpisodes {
            catalog: self.catalog.clone(),
        }
    }

    /// A podcast's episodes, page by page.
    pub fn podcast_episodes(&self) -> crate::workflows::podcast_episodes::PodcastEpisodes {
        crate::workflows::podcast_episodes::PodcastEpisodes {
            catalog: self.catalog.clone(),
            analyses: self.deep_analyses(),
        }
    }

    /// A podcast's pages: ratings, YouTube, sponsors, guests, related podcasts, and
    /// everything in one.
    pub fn podcast_pages(&self) -> crate::workflows::podcast_pages::PodcastPages {
        crate::workflows::podcast_pages::PodcastPages {
            catalog: self.catalog.clone(),
            engine: self.engine.clone(),
            metering: self.metering(),
        }
    }

    /// Podcasts by id.
    pub fn podcasts_by_ids(&self) -> crate::workflows::podcasts_by_ids::PodcastsByIds {
        crate::workflows::podcasts_by_ids::PodcastsByIds {
            catalog: self.catalog.clone(),
        }
    }

    /// The podcast directory's pages.
    pub fn directory(&self) -> crate::workflows::directory::DirectoryPages {
        crate::workflows::directory::DirectoryPages {
            engine: self.engine.clone(),
            catalog: self.catalog.clone(),
        }
    }

    /// The teams' projects and their listed podcasts.
    pub fn projects(&self) -> crate::workflows::project_lists::Projects {
        crate::workflows::project_lists::Projects {
            store: self.workflows.clone(),
            accounts: self.accounts.clone(),
            catalog: self.catalog.clone(),
        }
    }

    /// The teams' podcasts and members.
    pub fn team_podcasts(&self) -> crate::workflows::team_podcasts::TeamPodcasts {
        crate::workflows::team_podcasts::TeamPodcasts {
            accounts: self.accounts.clone(),
            catalog: self.catalog.clone(),
            blacklists: self.blacklists.clone(),
        }
    }

    /// The teams' updates feed.
    pub fn updates(&self) -> crate::workflows::polling::Updates {
        crate::workflows::polling::Updates {
            store: self.workflows.clone(),
            cursors: self.cursors.clone(),
        }
    }

    /// The teams' outreach emails.
    pub fn outreach(&self) -> crate::workflows::outreach::Outreach {
        crate::workflows::outreach::Outreach {
            catalog: self.catalog.clone(),
            store: self.workflows.clone(),
            metering: self.metering(),
        }
    }

    /// Guest preps of podcasts.
    pub fn guest_preps(&self) -> crate::workflows::guest_prep::GuestPreps {
        crate::workflows::guest_prep::GuestPreps {
            catalog: self.catalog.clone(),
            metering: self.metering(),
            assist: self.assist.clone(),
            mailer: self.mailer.clone(),
        }
    }

    /// The agent's calls: reviews, spellings and the kinds of `POST /api/v1/agent/`.
    pub fn agent_runs(&self) -> crate::workflows::agent_runs::AgentRuns {
        crate::workflows::agent_runs::AgentRuns {
            catalog: self.catalog.clone(),
            store: self.workflows.clone(),
            engine: self.engine.clone(),
            accounts: self.accounts.clone(),
            blacklists: self.blacklists.clone(),
            metering: self.metering(),
            assist: self.assist.clone(),
            relevancy: self.relevancy(),
            strategies: self.strategies(),
            guest_preps: self.guest_preps(),
        }
    }

    /// The passages of episodes' transcripts that match a search.
    pub fn passages(&self) -> crate::workflows::passages::Passages {
        crate::workflows::passages::Passages {
            catalog: self.catalog.clone(),
            cursors: self.cursors.clone(),
        }
    }

    /// Exports of remembered searches and of projects' lists.
    pub fn exports(&self) -> crate::workflows::exports::Exports {
        crate::workflows::exports::Exports {
            catalog: self.catalog.clone(),
            store: self.workflows.clone(),
            engine: self.engine.clone(),
            accounts: self.accounts.clone(),
            blacklists: self.blacklists.clone(),
            history: self.history.clone(),
            metering: self.metering(),
        }
    }

    /// The guest-profile pipeline.
    pub fn guest_pipeline(&self) -> crate::workflows::guest_profiles::GuestPipeline {
        crate::workflows::guest_profiles::GuestPipeline {
            store: self.workflows.clone(),
            assist: self.assist.clone(),
        }
    }
}
