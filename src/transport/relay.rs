//! The relay: stored events served over WebSocket to any NIP-01 client,
//! in JSON or in a binary profile the client asks for.
//!
//! - [`store`]: the events, newest first, and which of them a REQ returns
//!   under a work budget.
//! - [`http`]: the opening request: WebSocket upgrade, NIP-11 document, or
//!   a plain answer.
//! - [`connection`]: one connection, handshake to close (REQ, CLOSE,
//!   EVENT, pings, idle and protocol-error closes).
//! - here: the limits ([`Config`]), the relay's shared state ([`Shared`]),
//!   the accept loop (a connection limit with an HTTP 503 refusal, accept
//!   errors survived with back-off) and [`Relay`], a relay on its own
//!   thread for the measurements.
//!
//! A client picks the encoding with `Sec-WebSocket-Protocol:
//! binostr.<profile id>` (the first one offered that the relay serves) or
//! the query parameter `?encoding=<profile id>`; JSON otherwise
//! (`docs/TRANSPORT.md`).

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;

use crate::model::Event;
use crate::transport::count::Bytes;
use crate::transport::deflater::Deflater;
use crate::transport::{MAX_MESSAGE, TransportError};

pub mod connection;
pub mod http;
pub mod store;

pub use connection::serve;
pub use store::{Budget, Store, newest_first};

/// The subprotocol prefix a client names a profile with.
pub const SUBPROTOCOL_PREFIX: &str = "binostr.";

/// The relay's limits (the CLI's flags; NIP-11 `limitation`).
#[derive(Clone, Debug)]
pub struct Config {
    /// Connections served at once; one more gets HTTP 503.
    pub max_connections: usize,
    /// Time from accept to a complete handshake.
    pub handshake_timeout: Duration,
    /// Time without a frame from the client before the relay closes (1001);
    /// it pings at half of it.
    pub idle_timeout: Duration,
    /// Largest client message, before and after inflating.
    pub max_message: usize,
    /// Filters per REQ.
    pub max_filters: usize,
    /// Open subscriptions per connection.
    pub max_subscriptions: usize,
    /// A filter's `limit` is clamped to this.
    pub max_limit: u64,
    /// Events one REQ may return.
    pub max_events: usize,
    /// Time a REQ's matching may take (time spent matching, not waiting).
    pub req_budget: Option<Duration>,
    /// Kernel send buffer per connection (`SO_SNDBUF`); `None` keeps the
    /// kernel's autotuning.
    pub send_buffer: Option<usize>,
    /// The deflate implementation of permessage-deflate's relay → client
    /// direction.
    pub deflater: Deflater,
}

impl Config {
    /// The defaults of `binostr relay`: a public relay's.
    pub fn public() -> Config {
        Config {
            max_connections: 1000,
            handshake_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            max_message: 1 << 20,
            max_filters: 20,
            max_subscriptions: 20,
            max_limit: 5000,
            max_events: 100_000,
            req_budget: Some(Duration::from_secs(2)),
            send_buffer: Some(256 << 10),
            deflater: Deflater::Zlib,
        }
    }

    /// The measurements' relay: its only client is ours, on loopback, and
    /// every REQ must return every stored event.
    pub fn benchmark() -> Config {
        Config {
            max_connections: 64,
            handshake_timeout: Duration::from_secs(60),
            idle_timeout: Duration::from_secs(600),
            max_message: MAX_MESSAGE,
            max_filters: usize::MAX,
            max_subscriptions: usize::MAX,
            max_limit: u64::MAX,
            max_events: usize::MAX,
            req_budget: None,
            send_buffer: None,
            deflater: Deflater::Zlib,
        }
    }

    /// One REQ's budget.
    pub fn budget(&self) -> Budget {
        Budget {
            max_filters: self.max_filters,
            max_limit: self.max_limit,
            max_events: self.max_events,
            time: self.req_budget,
        }
    }
}

/// What every connection of one relay shares.
pub struct Shared {
    /// One store per served profile; the first is the default encoding.
    pub stores: Vec<Arc<Store>>,
    /// Limits.
    pub config: Config,
    /// The NIP-11 document.
    pub info: String,
}

impl Shared {
    /// Stores for `profiles` (the first is the default) over the same
    /// events, stored once.
    pub fn new(
        profiles: &[&'static crate::codec::Profile],
        events: &[Event],
        config: Config,
    ) -> Result<Shared, TransportError> {
        let events = newest_first(events);
        let stores = profiles
            .iter()
            .map(|p| Store::over(p, events.clone()).map(Arc::new))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self::of(stores, config))
    }

    /// A relay of ready stores (the first is the default).
    pub fn of(stores: Vec<Arc<Store>>, config: Config) -> Shared {
        let info = info_document(&stores, &config).to_string();
        Shared {
            stores,
            config,
            info,
        }
    }

    /// The store a connection gets, and the subprotocol to echo: the
    /// `encoding` query parameter (refused when not served), else the first
    /// offered `binostr.<id>` subprotocol that is served, else the default.
    pub fn choose(&self, up: &http::Upgrade) -> Result<(usize, Option<String>), http::Refusal> {
        let find = |id: &str| self.stores.iter().position(|s| s.profile.id == id);
        if let Some(id) = &up.encoding {
            return find(id).map(|i| (i, None)).ok_or_else(|| http::Refusal {
                status: 400,
                reason: format!(
                    "encoding `{id}` is not served here; served: {}",
                    self.ids().join(", ")
                ),
            });
        }
        Ok(up
            .protocols
            .iter()
            .find_map(|p| {
                let i = find(p.strip_prefix(SUBPROTOCOL_PREFIX)?)?;
                Some((i, Some(p.clone())))
            })
            .unwrap_or((0, None)))
    }

    fn ids(&self) -> Vec<&'static str> {
        self.stores.iter().map(|s| s.profile.id).collect()
    }
}

fn info_document(stores: &[Arc<Store>], c: &Config) -> serde_json::Value {
    let ids: Vec<&str> = stores.iter().map(|s| s.profile.id).collect();
    let finite = |n: usize| (n != usize::MAX).then_some(n);
    serde_json::json!({
        "name": "binostr relay",
        "description": "A read-only NIP-01 relay of a fixed set of stored events, in JSON or in a binary encoding each connection chooses, for measuring Nostr transports.",
        "software": "https://github.com/binostr/binostr",
        "version": env!("CARGO_PKG_VERSION"),
        "supported_nips": [1, 11],
        "limitation": {
            "max_message_length": c.max_message,
            "max_subscriptions": finite(c.max_subscriptions),
            "max_filters": finite(c.max_filters),
            "max_limit": (c.max_limit != u64::MAX).then_some(c.max_limit),
            "max_subid_length": crate::transport::envelope::MAX_SUB_ID,
            "auth_required": false,
            "payment_required": false,
            "restricted_writes": true,
        },
        "binostr": {
            "encodings": ids,
            "default_encoding": ids.first(),
            "subprotocol_prefix": SUBPROTOCOL_PREFIX,
            "query_parameter": "encoding",
            "events": stores.first().map_or(0, |s| s.events.len()),
            "max_events_per_req": finite(c.max_events),
            "req_budget_ms": c.req_budget.map(|t| t.as_millis() as u64),
            "max_connections": c.max_connections,
            "handshake_timeout_ms": c.handshake_timeout.as_millis() as u64,
            "idle_timeout_ms": c.idle_timeout.as_millis() as u64,
        },
    })
}

/// One REQ answered, as the relay saw it.
#[derive(Debug)]
pub struct Served {
    /// Subscription id.
    pub sub: String,
    /// When each EVENT was handed to the socket.
    pub sent: Vec<Instant>,
    /// Relay thread CPU time from REQ taken up to EOSE flushed, ns.
    pub cpu_ns: u64,
    /// Socket counts of the connection once EOSE was flushed.
    pub at_eose: Bytes,
}

/// How a connection ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum End {
    /// The client sent a close frame; the relay echoed it.
    ClientClosed,
    /// The relay closed it with a status: a protocol error of the client.
    RelayClosed,
    /// No frame for the idle timeout: closed with 1001.
    Idle,
    /// The socket ended or was reset without a close frame.
    PeerGone,
    /// Answered over HTTP (NIP-11, a page, an error) without an upgrade.
    Http,
    /// No complete handshake within the handshake timeout.
    HandshakeTimeout,
    /// Over the connection limit: HTTP 503.
    Refused,
    /// A relay-side failure (in `error`).
    Error,
}

/// One closed connection.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ConnectionReport {
    /// The client's address.
    pub peer: String,
    /// The profile served (none before an upgrade).
    pub profile: Option<&'static str>,
    /// The subprotocol agreed, if any.
    pub protocol: Option<String>,
    /// Bytes read and written during the handshake.
    pub handshake: Bytes,
    /// Bytes read and written over the whole connection, handshake included.
    pub total: Bytes,
    /// `none`, `deflate`, `deflate-ctx` or `deflate-mixed`.
    pub compression: &'static str,
    /// REQs answered up to EOSE.
    pub requests: usize,
    /// EVENT messages sent.
    pub events: usize,
    /// EVENTs received and answered (OK or NOTICE).
    pub published: usize,
    /// Relay thread CPU answering them, from each EVENT taken to its answer
    /// flushed (frame read and inflate not included), ns.
    pub publish_cpu_ns: u64,
    /// How it ended.
    pub end: End,
    /// The close status sent, if any.
    pub status: Option<u16>,
    /// What went wrong, if anything did.
    pub error: Option<String>,
}

impl ConnectionReport {
    fn new(peer: String) -> Self {
        Self {
            peer,
            profile: None,
            protocol: None,
            handshake: Bytes::default(),
            total: Bytes::default(),
            compression: "none",
            requests: 0,
            events: 0,
            published: 0,
            publish_cpu_ns: 0,
            end: End::Error,
            status: None,
            error: None,
        }
    }
}

/// Where a relay reports what it did; every hook is non-blocking.
#[derive(Clone)]
pub struct Hooks {
    /// Each answered REQ (the measurements read it).
    pub served: Option<mpsc::Sender<Served>>,
    /// Each ended connection, refused ones included.
    pub closed: Arc<dyn Fn(ConnectionReport) + Send + Sync>,
    /// Accept errors and other relay-wide events, one line each.
    pub log: Arc<dyn Fn(String) + Send + Sync>,
}

/// Refusals written at once (each holds a socket for at most a second);
/// past this, an over-limit connection is closed without an answer.
const MAX_REFUSING: usize = 64;

async fn refuse(mut stream: TcpStream, max: usize) -> ConnectionReport {
    let mut report = ConnectionReport::new(
        stream
            .peer_addr()
            .map(|a| a.to_string())
            .unwrap_or_default(),
    );
    report.end = End::Refused;
    let body = http::error(&http::Refusal {
        status: 503,
        reason: format!("all {max} connection slots are in use; retry later"),
    });
    let write = async {
        // The request first, so that closing does not reset it unread.
        let _ = http::read_head(&mut stream).await;
        stream.write_all(&body).await?;
        stream.shutdown().await
    };
    if let Ok(Ok(())) = tokio::time::timeout(Duration::from_secs(1), write).await {
        report.total.written = body.len() as u64;
    }
    report
}

/// Accepts connections on `listener` until `stop` resolves, serving each on
/// its own task. Accept errors (out of descriptors, say) are logged and
/// retried with back-off from 10 ms to 1 s; they never end the loop.
pub async fn accept_loop(
    listener: TcpListener,
    shared: Arc<Shared>,
    hooks: Hooks,
    stop: impl std::future::Future<Output = ()>,
) {
    let slots = Arc::new(Semaphore::new(shared.config.max_connections));
    let refusing = Arc::new(Semaphore::new(MAX_REFUSING));
    let errors = AtomicU64::new(0);
    let mut backoff = Duration::from_millis(10);
    let mut last_log: Option<Instant> = None;
    tokio::pin!(stop);
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            () = &mut stop => return,
        };
        let stream = match accepted {
            Ok((stream, _)) => {
                backoff = Duration::from_millis(10);
                stream
            }
            Err(e) => {
                let n = errors.fetch_add(1, Ordering::Relaxed) + 1;
                if last_log.is_none_or(|t| t.elapsed() > Duration::from_secs(1)) {
                    (hooks.log)(format!(
                        "accept failed ({e}); {n} accept errors so far; retrying in {} ms",
                        backoff.as_millis()
                    ));
                    last_log = Some(Instant::now());
                }
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(1));
                continue;
            }
        };
        let hooks = hooks.clone();
        match slots.clone().try_acquire_owned() {
            Ok(permit) => {
                let shared = shared.clone();
                tokio::spawn(async move {
                    let served = hooks.served.clone();
                    let report = serve(stream, &shared, |s| {
                        if let Some(tx) = &served {
                            let _ = tx.send(s);
                        }
                    })
                    .await;
                    drop(permit);
                    (hooks.closed)(report);
                });
            }
            Err(_) => {
                let Ok(permit) = refusing.clone().try_acquire_owned() else {
                    drop(stream);
                    continue;
                };
                let max = shared.config.max_connections;
                tokio::spawn(async move {
                    let report = refuse(stream, max).await;
                    drop(permit);
                    (hooks.closed)(report);
                });
            }
        }
    }
}

/// A relay on its own OS thread (current-thread runtime) on 127.0.0.1, for
/// the measurements: one store, [`Config::benchmark`].
pub struct Relay {
    /// Where it listens.
    pub addr: SocketAddr,
    /// One [`Served`] per answered REQ.
    pub served: mpsc::Receiver<Served>,
    /// One report per ended connection.
    pub closed: mpsc::Receiver<ConnectionReport>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<std::io::Result<()>>>,
}

impl Relay {
    /// Starts a relay serving `store` on an ephemeral loopback port, with
    /// [`Config::benchmark`].
    pub fn spawn(store: Arc<Store>) -> std::io::Result<Relay> {
        Self::start(Arc::new(Shared::of(vec![store], Config::benchmark())))
    }

    /// Starts a relay of `shared` on an ephemeral loopback port.
    pub fn start(shared: Arc<Shared>) -> std::io::Result<Relay> {
        Self::start_on(shared, std::net::TcpListener::bind("127.0.0.1:0")?)
    }

    /// Starts a relay of `shared` accepting on `std_listener` (bound in
    /// another network namespace, say: its connections stay there).
    pub fn start_on(
        shared: Arc<Shared>,
        std_listener: std::net::TcpListener,
    ) -> std::io::Result<Relay> {
        std_listener.set_nonblocking(true)?;
        let addr = std_listener.local_addr()?;
        let (served_tx, served) = mpsc::channel();
        let (closed_tx, closed) = mpsc::channel();
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let name = format!("relay-{}", shared.stores[0].profile.id);
        let hooks = Hooks {
            served: Some(served_tx),
            closed: Arc::new(move |r| {
                let _ = closed_tx.send(r);
            }),
            log: Arc::new(|line| eprintln!("relay: {line}")),
        };
        let thread = std::thread::Builder::new().name(name).spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_io()
                .enable_time()
                .build()?;
            rt.block_on(async move {
                let listener = TcpListener::from_std(std_listener)?;
                accept_loop(listener, shared, hooks, async {
                    let _ = stop_rx.await;
                })
                .await;
                Ok(())
            })
        })?;
        Ok(Relay {
            addr,
            served,
            closed,
            stop: Some(stop_tx),
            thread: Some(thread),
        })
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
