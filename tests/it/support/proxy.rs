//! A TCP proxy on loopback in front of a PostgreSQL server that can lose the answer to a
//! write: armed, it forwards a connection's traffic until the server has committed a
//! write (an autocommit `INSERT`, or a `COMMIT`, completed and the server idle again) and
//! then closes the connection instead of passing on the server's "ready" that would tell
//! the client so. The client saw its statement sent and no answer: the outcome is unknown
//! to it, while the journal has the write. It can also refuse every new connection (a
//! journal that does not come back).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// The proxy's switches.
#[derive(Default)]
struct Switches {
    /// Lose the answer of the next committed write (then disarm).
    cut_next_commit: AtomicBool,
    /// Close every new connection at once.
    refuse: AtomicBool,
}

/// A running proxy.
pub struct Proxy {
    /// Its port on 127.0.0.1.
    pub port: u16,
    switches: Arc<Switches>,
}

impl Proxy {
    /// A proxy to `127.0.0.1:server_port`, served on the shared PostgreSQL runtime of
    /// the test process (its own thread keeps running until the process ends).
    pub fn start(server_port: u16) -> Proxy {
        let switches = Arc::new(Switches::default());
        let (tx, rx) = std::sync::mpsc::channel();
        let shared = switches.clone();
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime");
            runtime.block_on(async move {
                let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
                let _ = tx.send(listener.local_addr().expect("addr").port());
                loop {
                    let Ok((client, _)) = listener.accept().await else {
                        continue;
                    };
                    if shared.refuse.load(Ordering::SeqCst) {
                        drop(client);
                        continue;
                    }
                    let switches = shared.clone();
                    tokio::spawn(async move {
                        if let Ok(server) = TcpStream::connect(("127.0.0.1", server_port)).await {
                            relay(client, server, switches).await;
                        }
                    });
                }
            });
        });
        Proxy {
            port: rx.recv().expect("the proxy listens"),
            switches,
        }
    }

    /// Loses the answer of the next write the server commits.
    pub fn lose_next_answer(&self) {
        self.switches.cut_next_commit.store(true, Ordering::SeqCst);
    }

    /// Whether the armed cut has happened.
    pub fn answer_lost(&self) -> bool {
        !self.switches.cut_next_commit.load(Ordering::SeqCst)
    }

    /// Refuses (or again takes) every new connection.
    pub fn refuse(&self, refuse: bool) {
        self.switches.refuse.store(refuse, Ordering::SeqCst);
    }
}

/// Client to server as it comes; server to client message by message, watching for a
/// committed write.
async fn relay(client: TcpStream, server: TcpStream, switches: Arc<Switches>) {
    let (mut client_rx, mut client_tx) = client.into_split();
    let (mut server_rx, mut server_tx) = server.into_split();
    let upstream = tokio::spawn(async move {
        let _ = tokio::io::copy(&mut client_rx, &mut server_tx).await;
    });
    let mut buf: Vec<u8> = Vec::new();
    let mut chunk = [0u8; 16 * 1024];
    let mut wrote = false;
    'read: while let Ok(n) = server_rx.read(&mut chunk).await {
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
        // Whole messages only: a type byte and a length that counts itself.
        let mut start = 0;
        while buf.len() >= start + 5 {
            let len = u32::from_be_bytes([
                buf[start + 1],
                buf[start + 2],
                buf[start + 3],
                buf[start + 4],
            ]) as usize;
            let end = start + 1 + len;
            if buf.len() < end {
                break;
            }
            let (kind, body) = (buf[start], &buf[start + 5..end]);
            // An insert, on its own or in a transaction that then commits: the server is
            // idle (not in a transaction) again once it is committed. A read's commit is
            // not a write.
            if kind == b'C' && body.starts_with(b"INSERT") {
                wrote = true;
            }
            // Ready for query, idle (not in a transaction): the write is committed.
            if kind == b'Z'
                && body.first() == Some(&b'I')
                && wrote
                && switches.cut_next_commit.swap(false, Ordering::SeqCst)
            {
                let _ = client_tx.write_all(&buf[..start]).await;
                break 'read;
            }
            if kind == b'Z' && body.first() == Some(&b'I') {
                wrote = false;
            }
            start = end;
        }
        if client_tx.write_all(&buf[..start]).await.is_err() {
            break;
        }
        buf.drain(..start);
    }
    let _ = client_tx.shutdown().await;
    upstream.abort();
}
