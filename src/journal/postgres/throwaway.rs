//! A throwaway PostgreSQL server for tests and benchmarks: `initdb` in a temporary
//! directory, listening on 127.0.0.1 and a unix socket in that directory only, removed
//! when the process that started it ends (however it ends). A streaming standby of one
//! (for failover tests) is in `throwaway_standby`.
//!
//! PostgreSQL refuses to run as root; as root (CI), the server runs as an unprivileged
//! system user, `fleetdeck-test`, created once. A guardian shell holds the other end of a
//! pipe from this process: when the pipe closes (this process exited, or was killed), it
//! stops the server and removes the directory.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::bridge;

#[path = "throwaway_standby.rs"]
mod standby;
pub use standby::Replication;

/// The unprivileged account the server runs as when the tests run as root.
pub const TEST_USER: &str = "fleetdeck-test";

/// The password every login role the tests create has.
pub const TEST_PASSWORD: &str = "fleetdeck-test-pw";

/// Roles are cluster-wide: one test at a time creates them.
static ROLES: Mutex<()> = Mutex::new(());

/// Whether commits are flushed to disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServerDurability {
    /// `fsync=on`, `synchronous_commit=on`: the server's defaults (SQLite FULL's equal).
    Full,
    /// `fsync=off`: for tests, which never survive a power cut anyway.
    Fast,
}

/// A running throwaway server.
pub struct ThrowawayServer {
    dir: PathBuf,
    data: PathBuf,
    bin: PathBuf,
    port: u16,
    run_as: Option<String>,
    durability: ServerDurability,
    guardian: Mutex<Option<(Child, ChildStdin)>>,
    /// The running postmaster, reaped when it is stopped (a zombie would look alive to the
    /// next one, which then refuses to start).
    postmaster: Mutex<Option<Child>>,
    databases: Mutex<u32>,
}

pub(super) fn fail(what: &str, e: impl std::fmt::Display) -> String {
    format!("test PostgreSQL: {what}: {e}")
}

/// The directory of `initdb` and `postgres`: on PATH, else the newest
/// `/usr/lib/postgresql/*/bin` (Debian keeps them there).
pub fn server_bin_dir() -> Result<PathBuf, String> {
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            if dir.join("initdb").is_file() && dir.join("postgres").is_file() {
                return Ok(dir);
            }
        }
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .map_err(|e| {
            fail(
                "no PostgreSQL server installed (apt-get install postgresql)",
                e,
            )
        })?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let v = e.file_name().to_string_lossy().parse::<u32>().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").is_file().then_some((v, bin))
        })
        .collect();
    versions.sort();
    versions.pop().map(|(_, bin)| bin).ok_or_else(|| {
        fail(
            "no initdb under /usr/lib/postgresql/*/bin",
            "install postgresql",
        )
    })
}

fn effective_uid() -> u32 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Uid:"))
                .and_then(|l| l.split_whitespace().nth(2)?.parse().ok())
        })
        .unwrap_or(u32::MAX)
}

fn id_of(flag: &str) -> Result<u32, String> {
    let out = Command::new("id")
        .args([flag, TEST_USER])
        .output()
        .map_err(|e| fail("id", e))?;
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .map_err(|_| fail("id", format!("no user {TEST_USER}")))
}

/// Creates the unprivileged test user unless it exists (idempotent, and safe when two
/// test binaries try at once).
fn ensure_test_user() -> Result<(u32, u32), String> {
    if let (Ok(uid), Ok(gid)) = (id_of("-u"), id_of("-g")) {
        return Ok((uid, gid));
    }
    let status = Command::new("useradd")
        .args([
            "--system",
            "--no-create-home",
            "--shell",
            "/usr/sbin/nologin",
            TEST_USER,
        ])
        .status()
        .map_err(|e| fail("useradd", e))?;
    match (id_of("-u"), id_of("-g")) {
        (Ok(uid), Ok(gid)) => Ok((uid, gid)),
        _ => Err(fail(
            "useradd",
            format!("exit {status}, and no {TEST_USER}"),
        )),
    }
}

fn free_port() -> Result<u16, String> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| fail("port", e))?;
    listener
        .local_addr()
        .map(|a| a.port())
        .map_err(|e| fail("port", e))
}

fn chown_all(path: &Path, uid: u32, gid: u32) -> Result<(), String> {
    std::os::unix::fs::chown(path, Some(uid), Some(gid)).map_err(|e| fail("chown", e))?;
    if path.is_dir() {
        for entry in std::fs::read_dir(path).map_err(|e| fail("chown", e))? {
            let entry = entry.map_err(|e| fail("chown", e))?;
            chown_all(&entry.path(), uid, gid)?;
        }
    }
    Ok(())
}

impl ThrowawayServer {
    /// Creates and starts a server.
    pub fn start(durability: ServerDurability) -> Result<Self, String> {
        let server = Self::prepare(durability)?;
        server.initdb()?;
        server.launch()?;
        Ok(server)
    }

    /// A server's directory, port and guardian, with no data directory yet.
    fn prepare(durability: ServerDurability) -> Result<Self, String> {
        let bin = server_bin_dir()?;
        let run_as = if effective_uid() == 0 {
            Some(TEST_USER.to_string())
        } else {
            None
        };
        let dir = tempfile::Builder::new()
            .prefix("fleetdeck-pg-")
            .tempdir()
            .map_err(|e| fail("temporary directory", e))?
            .keep();
        let data = dir.join("data");
        if run_as.is_some() {
            let (uid, gid) = ensure_test_user()?;
            chown_all(&dir, uid, gid)?;
        }
        let server = ThrowawayServer {
            data,
            bin,
            port: free_port()?,
            run_as,
            durability,
            guardian: Mutex::new(None),
            postmaster: Mutex::new(None),
            databases: Mutex::new(0),
            dir,
        };
        server.spawn_guardian()?;
        Ok(server)
    }

    /// A new, empty data directory: the superuser `postgres` (password [`TEST_PASSWORD`],
    /// trusted on the unix socket only).
    fn initdb(&self) -> Result<(), String> {
        let server = self;
        let pwfile = server.dir.join("superuser-password");
        std::fs::write(&pwfile, TEST_PASSWORD).map_err(|e| fail("password file", e))?;
        if let Some(user) = &server.run_as {
            let (uid, gid) = (id_of("-u")?, id_of("-g")?);
            chown_all(&pwfile, uid, gid)?;
            let _ = user;
        }
        let initdb = server.as_server_user(&server.bin.join("initdb"));
        let out = Command::new(&initdb[0])
            .args(&initdb[1..])
            .arg("-D")
            .arg(&server.data)
            .args([
                "-U",
                "postgres",
                "--auth-local=trust",
                "--auth-host=scram-sha-256",
                "--no-sync",
                "-E",
                "UTF8",
                "--locale=C",
            ])
            .arg(format!("--pwfile={}", pwfile.display()))
            .output()
            .map_err(|e| fail("initdb", e))?;
        if !out.status.success() {
            return Err(fail(
                "initdb",
                format!(
                    "{}{}",
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&out.stderr)
                ),
            ));
        }
        Ok(())
    }

    /// argv prefix that runs `program` as the server's user.
    pub(super) fn as_server_user(&self, program: &Path) -> Vec<String> {
        let mut argv = Vec::new();
        if let Some(user) = &self.run_as {
            argv.extend([
                "setpriv".to_string(),
                format!("--reuid={user}"),
                format!("--regid={user}"),
                "--clear-groups".to_string(),
                "--".to_string(),
            ]);
        }
        argv.push(program.display().to_string());
        argv
    }

    /// The guardian: stops the server and removes its directory when our end of its
    /// stdin closes.
    fn spawn_guardian(&self) -> Result<(), String> {
        let script = r#"
read _ignored
if [ -f "$1/postmaster.pid" ]; then
  pid=$(head -n 1 "$1/postmaster.pid")
  kill -QUIT "$pid" 2>/dev/null
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null
fi
rm -rf "$2"
"#;
        let mut child = Command::new("sh")
            .args(["-c", script, "guardian"])
            .arg(&self.data)
            .arg(&self.dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| fail("guardian", e))?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| fail("guardian", "no stdin"))?;
        if let Ok(mut g) = self.guardian.lock() {
            *g = Some((child, stdin));
        }
        Ok(())
    }

    /// Starts the postmaster and waits until it answers.
    pub(super) fn launch(&self) -> Result<(), String> {
        let postgres = self.as_server_user(&self.bin.join("postgres"));
        let fsync = match self.durability {
            ServerDurability::Full => "on",
            ServerDurability::Fast => "off",
        };
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.dir.join("server.log"))
            .map_err(|e| fail("log", e))?;
        let log2 = log.try_clone().map_err(|e| fail("log", e))?;
        let child = Command::new(&postgres[0])
            .args(&postgres[1..])
            .arg("-D")
            .arg(&self.data)
            .arg("-p")
            .arg(self.port.to_string())
            .arg("-k")
            .arg(&self.dir)
            .args(["-c", "listen_addresses=127.0.0.1"])
            .args(["-c", &format!("fsync={fsync}")])
            .args(["-c", "max_connections=300"])
            .args(["-c", "shared_buffers=64MB"])
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(log2)
            .spawn()
            .map_err(|e| fail("postgres", e))?;
        if let Ok(mut postmaster) = self.postmaster.lock() {
            *postmaster = Some(child);
        }
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if self.execute("postgres", "SELECT 1").is_ok() {
                return Ok(());
            }
            if Instant::now() > deadline {
                let log = std::fs::read_to_string(self.dir.join("server.log")).unwrap_or_default();
                return Err(fail("did not start within 60 s", log));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Stops the server the hard way (as a crash would) and starts it again on the same
    /// port: every connection breaks, the data survives.
    pub fn restart(&self, down_for: Duration) -> Result<(), String> {
        self.restart_with(down_for, || {})
    }

    /// As [`ThrowawayServer::restart`], calling `on_down` once the server is down.
    pub fn restart_with(&self, down_for: Duration, on_down: impl FnOnce()) -> Result<(), String> {
        let pid = std::fs::read_to_string(self.data.join("postmaster.pid"))
            .map_err(|e| fail("postmaster.pid", e))?;
        let pid = pid.lines().next().unwrap_or_default().trim().to_string();
        let _ = Command::new("kill").args(["-QUIT", &pid]).status();
        self.reap();
        let deadline = Instant::now() + Duration::from_secs(30);
        while Command::new("kill")
            .args(["-0", &pid])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
        {
            if Instant::now() > deadline {
                return Err(fail("restart", "the server did not stop"));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        on_down();
        std::thread::sleep(down_for);
        self.launch()
    }

    /// Kills the server and every process of it with SIGKILL, as a crash of its machine
    /// would end them (nothing is flushed or shut down), and starts it again on the same
    /// port: it recovers from its write-ahead log.
    pub fn crash_and_restart(&self) -> Result<(), String> {
        self.kill_all()?;
        self.launch()
    }

    /// The running postmaster's process id, from its pid file.
    pub(super) fn postmaster_pid(&self) -> Result<u32, String> {
        std::fs::read_to_string(self.data.join("postmaster.pid"))
            .map_err(|e| fail("postmaster.pid", e))?
            .lines()
            .next()
            .unwrap_or_default()
            .trim()
            .parse()
            .map_err(|e| fail("postmaster.pid", e))
    }

    /// Kills the server and every process of it with SIGKILL, and leaves it down.
    pub fn kill_all(&self) -> Result<(), String> {
        let pid = self.postmaster_pid()?;
        // The postmaster's children (backends, WAL writer, checkpointer…) first: a new
        // postmaster refuses to start while any of them still holds the shared memory.
        let mut victims = children_of(pid);
        victims.push(pid);
        for victim in &victims {
            let _ = Command::new("kill")
                .args(["-KILL", &victim.to_string()])
                .stderr(Stdio::null())
                .status();
        }
        self.reap();
        let deadline = Instant::now() + Duration::from_secs(30);
        while victims
            .iter()
            .any(|v| std::path::Path::new(&format!("/proc/{v}")).exists() && !is_zombie(*v))
        {
            if Instant::now() > deadline {
                return Err(fail("crash", "the server's processes did not die"));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(())
    }

    /// Waits for the stopped postmaster to exit, so that its pid is gone.
    fn reap(&self) {
        if let Ok(mut postmaster) = self.postmaster.lock()
            && let Some(mut child) = postmaster.take()
        {
            let _ = child.wait();
        }
    }

    /// The TCP port on 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// A connection string for `user` (password [`TEST_PASSWORD`]) to `db` over TCP on
    /// loopback, with password authentication.
    pub fn url(&self, db: &str, user: &str) -> String {
        format!(
            "postgres://{user}:{TEST_PASSWORD}@127.0.0.1:{}/{db}?sslmode=disable",
            self.port
        )
    }

    /// The superuser's connection string to `db` (unix socket).
    pub fn admin_url(&self, db: &str) -> String {
        format!(
            "host={} port={} user=postgres dbname={db} sslmode=disable",
            self.dir.display(),
            self.port
        )
    }

    /// Runs `sql` as the superuser in `db`.
    pub fn execute(&self, db: &str, sql: &str) -> Result<(), String> {
        let url = self.admin_url(db);
        let sql = sql.to_string();
        bridge::block(async move {
            let (client, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
                .await
                .map_err(|e| crate::journal::JournalError::Postgres(e.to_string()))?;
            tokio::spawn(conn);
            client.batch_execute(&sql).await.map_err(|e| {
                crate::journal::JournalError::Postgres(
                    e.as_db_error()
                        .map_or_else(|| e.to_string(), |d| d.message().to_string()),
                )
            })
        })
        .map_err(|e| e.to_string())
    }

    /// A new, empty database with the journal initialised and the team roles created;
    /// returns its name.
    pub fn fresh_database(&self) -> Result<String, String> {
        let name = {
            let mut n = self
                .databases
                .lock()
                .map_err(|_| fail("lock", "poisoned"))?;
            *n += 1;
            format!("journal_{}", *n)
        };
        self.execute("postgres", &format!("CREATE DATABASE {name}"))?;
        let _one = ROLES.lock();
        super::PostgresJournal::init(&self.admin_url(&name), true).map_err(|e| e.to_string())?;
        Ok(name)
    }

    /// Creates login role `name` (password [`TEST_PASSWORD`]) in the fleetdeck roles
    /// `roles`, unless it exists.
    pub fn login_role(&self, name: &str, roles: &[&str]) -> Result<(), String> {
        let grants = if roles.is_empty() {
            String::new()
        } else {
            format!("GRANT {} TO \"{name}\";", roles.join(", "))
        };
        let _one = ROLES.lock();
        self.execute(
            "postgres",
            &format!(
                "DO $$ BEGIN
                   IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{name}') THEN
                     CREATE ROLE \"{name}\" LOGIN PASSWORD '{TEST_PASSWORD}';
                   END IF;
                 END $$; {grants}"
            ),
        )
    }
}

/// The processes whose parent is `pid` (from `/proc`).
pub(super) fn children_of(pid: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|child| {
            std::fs::read_to_string(format!("/proc/{child}/stat"))
                .ok()
                .and_then(|stat| {
                    // `pid (comm) state ppid …`; comm may hold spaces and parentheses.
                    let after = stat.rsplit_once(')')?.1;
                    after.split_whitespace().nth(1)?.parse::<u32>().ok()
                })
                == Some(pid)
        })
        .collect()
}

fn is_zombie(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            let after = stat.rsplit_once(')')?.1.to_string();
            after.split_whitespace().next().map(|s| s == "Z")
        })
        .unwrap_or(true)
}

impl Drop for ThrowawayServer {
    fn drop(&mut self) {
        if let Ok(mut g) = self.guardian.lock()
            && let Some((mut child, mut stdin)) = g.take()
        {
            let _ = stdin.write_all(b"stop\n");
            drop(stdin);
            let _ = child.wait();
        }
    }
}

/// One server per process, started on first use and stopped when the process exits.
pub fn shared() -> Result<&'static ThrowawayServer, String> {
    static SERVER: std::sync::OnceLock<Result<ThrowawayServer, String>> =
        std::sync::OnceLock::new();
    SERVER
        .get_or_init(|| ThrowawayServer::start(ServerDurability::Fast))
        .as_ref()
        .map_err(Clone::clone)
}
