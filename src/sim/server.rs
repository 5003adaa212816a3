//! Serving the fleet on a loopback TCP port, and in-process clients.

use std::convert::Infallible;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use axum::Router;
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tower::ServiceExt;

use super::error::SimError;
use super::fleet::SimFleet;
use super::router::{RefuseConnection, cluster_router, fleet_router};

/// A running loopback server. Dropping it does not stop the server; call
/// [`SimServer::shutdown`].
pub struct SimServer {
    addr: SocketAddr,
    stop: watch::Sender<bool>,
    task: JoinHandle<()>,
}

impl SimServer {
    /// The bound address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The server URL of a cluster, as written into the kubeconfig.
    pub fn cluster_url(&self, id: &str) -> String {
        cluster_url(self.addr, id)
    }

    /// Stops accepting connections and waits for the accept loop to end.
    pub async fn shutdown(self) {
        let _ = self.stop.send(true);
        let _ = self.task.await;
    }
}

/// The server URL of a cluster on a simulator at `addr` (HTTPS, as kubeconfigs name
/// it; the same port answers plain HTTP too).
pub fn cluster_url(addr: SocketAddr, id: &str) -> String {
    format!("https://{addr}/clusters/{id}")
}

/// Serves the fleet on `127.0.0.1:port` (0 picks a free port) and starts its control
/// loops. Refused clusters get their connection closed without an answer.
pub async fn start_on_loopback(
    fleet: SimFleet,
    port: u16,
) -> Result<(SocketAddr, SimServer), SimError> {
    let addr = SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port);
    if !addr.ip().is_loopback() {
        return Err(SimError::NotLoopback(addr.to_string()));
    }
    let listener = TcpListener::bind(addr)
        .await
        .map_err(|source| SimError::Serve {
            addr: addr.to_string(),
            source,
        })?;
    let addr = listener.local_addr().map_err(|source| SimError::Serve {
        addr: addr.to_string(),
        source,
    })?;
    let own = fleet.serving_certificates().map_err(|e| SimError::Serve {
        addr: addr.to_string(),
        source: std::io::Error::other(e),
    })?;
    let tls =
        tokio_rustls::TlsAcceptor::from(super::tls::server_config_with(own).map_err(|e| {
            SimError::Serve {
                addr: addr.to_string(),
                source: std::io::Error::other(e),
            }
        })?);
    fleet.start_controllers();
    let router = fleet_router(fleet);
    let (stop, mut stopped) = watch::channel(false);
    let task = tokio::spawn(async move {
        loop {
            tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok((stream, _)) => {
                        let router = router.clone();
                        let tls = tls.clone();
                        tokio::spawn(async move {
                            let service = hyper::service::service_fn(move |req| {
                                let router = router.clone();
                                async move { refuse_or_pass(router.oneshot(req).await) }
                            });
                            // A TLS client speaks first with a handshake record (0x16);
                            // anything else is plain HTTP on the same port.
                            let mut first = [0u8; 1];
                            let is_tls = matches!(stream.peek(&mut first).await, Ok(1) if first[0] == 0x16);
                            let http = hyper::server::conn::http1::Builder::new();
                            // Connection errors (client went away, refused clusters) are normal.
                            if is_tls {
                                if let Ok(stream) = tls.accept(stream).await {
                                    let _ = http.serve_connection(TokioIo::new(stream), service).await;
                                }
                            } else {
                                let _ = http.serve_connection(TokioIo::new(stream), service).await;
                            }
                        });
                    }
                    Err(e) => tracing::warn!(error = %e, "sim accept failed"),
                },
                _ = stopped.changed() => break,
            }
        }
    });
    Ok((addr, SimServer { addr, stop, task }))
}

/// The error that closes the connection of a refused cluster.
#[derive(Debug)]
pub struct ConnectionRefused;

impl std::fmt::Display for ConnectionRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("connection refused (simulated)")
    }
}

impl std::error::Error for ConnectionRefused {}

fn refuse_or_pass(
    r: Result<axum::response::Response, Infallible>,
) -> Result<axum::response::Response, ConnectionRefused> {
    match r {
        Ok(resp) if resp.extensions().get::<RefuseConnection>().is_some() => Err(ConnectionRefused),
        Ok(resp) => Ok(resp),
        Err(never) => match never {},
    }
}

impl SimFleet {
    /// The fleet's router (`/clusters/{id}/…` and `/sim/v1/…`); starts the control loops.
    pub fn router(&self) -> Router {
        self.start_controllers();
        fleet_router(self.clone())
    }

    /// A router serving one cluster at the root; starts the control loops.
    pub fn cluster_router(&self, id: &str) -> Result<Router, SimError> {
        self.start_controllers();
        Ok(cluster_router(self.cluster(id)?.clone()))
    }

    /// An in-process kube client for one cluster, authenticated as `admin` (no TCP;
    /// the real kube client stack without retries). Refused clusters fail like a closed
    /// connection.
    pub fn client(&self, id: &str) -> Result<kube::Client, SimError> {
        self.client_as(id, "admin")
    }

    /// An in-process kube client for one cluster, authenticated as `user` (one of
    /// [`SimFleet::users`]; an unknown user sends no credentials and gets 401).
    pub fn client_as(&self, id: &str, user: &str) -> Result<kube::Client, SimError> {
        let router = self.cluster_router(id)?;
        let token = self
            .token(user)
            .and_then(|t| http::HeaderValue::from_str(&format!("Bearer {t}")).ok());
        let service = tower::service_fn(move |mut req: http::Request<kube::client::Body>| {
            let router = router.clone();
            if let Some(t) = &token {
                req.headers_mut()
                    .insert(http::header::AUTHORIZATION, t.clone());
            }
            async move { refuse_or_pass(router.oneshot(req).await) }
        });
        Ok(kube::Client::new(service, "default"))
    }
}
