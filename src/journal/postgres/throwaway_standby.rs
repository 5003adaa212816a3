//! A streaming standby of a throwaway server, for failover tests: copied with
//! `pg_basebackup` over the primary's unix socket, streaming from it, on loopback and a
//! port of its own; replication synchronous (a commit waits until the standby has it) or
//! asynchronous (the primary's defaults). The test kills the primary and promotes it.

use std::process::Command;
use std::time::{Duration, Instant};

use super::{ThrowawayServer, children_of, fail};

/// How commits reach the standby.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replication {
    /// A commit is acknowledged once the standby flushed it (`synchronous_standby_names`,
    /// `synchronous_commit=on`): a failover loses nothing acknowledged.
    Synchronous,
    /// A commit is acknowledged once the primary flushed it; the standby follows as fast
    /// as it can: a failover may lose the last acknowledged commits.
    Asynchronous,
}

impl ThrowawayServer {
    /// Starts a streaming standby of this server, replicating as `mode` says, and waits
    /// until it streams (synchronously, for `Synchronous`).
    pub fn start_standby(&self, mode: Replication) -> Result<ThrowawayServer, String> {
        let standby = ThrowawayServer::prepare(self.durability)?;
        // Beside the server's own binary (a PATH that links `postgres` and `initdb` only
        // may lack it).
        let program = std::fs::canonicalize(self.bin.join("postgres"))
            .ok()
            .and_then(|p| p.parent().map(|d| d.join("pg_basebackup")))
            .filter(|p| p.is_file())
            .unwrap_or_else(|| self.bin.join("pg_basebackup"));
        let basebackup = self.as_server_user(&program);
        let source = format!(
            "host={} port={} user=postgres application_name=fleetdeck_standby",
            self.dir.display(),
            self.port
        );
        let out = Command::new(&basebackup[0])
            .args(&basebackup[1..])
            .arg("-d")
            .arg(&source)
            .arg("-D")
            .arg(&standby.data)
            .args(["-X", "stream", "-R", "--no-sync", "-c", "fast"])
            .output()
            .map_err(|e| fail("pg_basebackup", e))?;
        if !out.status.success() {
            return Err(fail(
                "pg_basebackup",
                String::from_utf8_lossy(&out.stderr).into_owned(),
            ));
        }
        standby.launch()?;
        if mode == Replication::Synchronous {
            self.execute(
                "postgres",
                "ALTER SYSTEM SET synchronous_standby_names = '*'",
            )?;
            self.execute("postgres", "SELECT pg_reload_conf()")?;
        }
        let wanted = match mode {
            Replication::Synchronous => "sync",
            Replication::Asynchronous => "async",
        };
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let state = self.query(
                "postgres",
                "SELECT coalesce(string_agg(state || '/' || sync_state, ','), '') FROM pg_stat_replication",
            )?;
            if state == format!("streaming/{wanted}") {
                return Ok(standby);
            }
            if Instant::now() > deadline {
                return Err(fail("standby", format!("not streaming ({state:?})")));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits until every standby has replayed all this server has written.
    pub fn wait_replicated(&self) -> Result<(), String> {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let caught_up = self.query(
                "postgres",
                "SELECT coalesce(bool_and(replay_lsn >= pg_current_wal_lsn()), false)::text FROM pg_stat_replication",
            )?;
            if caught_up == "true" {
                return Ok(());
            }
            if Instant::now() > deadline {
                return Err(fail("standby", "did not catch up within 30 s"));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Stops (SIGSTOP) the processes that send this server's WAL to its standbys: what
    /// it commits from now on reaches none of them (under asynchronous replication, it
    /// is acknowledged anyway).
    pub fn stop_sending_wal(&self) -> Result<usize, String> {
        let postmaster = self.postmaster_pid()?;
        let senders: Vec<u32> = children_of(postmaster)
            .into_iter()
            .filter(|pid| {
                std::fs::read_to_string(format!("/proc/{pid}/cmdline"))
                    .is_ok_and(|cmd| cmd.contains("walsender"))
            })
            .collect();
        for pid in &senders {
            let _ = Command::new("kill")
                .args(["-STOP", &pid.to_string()])
                .status();
        }
        Ok(senders.len())
    }

    /// Promotes this standby to a primary and waits until it takes writes.
    pub fn promote(&self) -> Result<(), String> {
        self.execute("postgres", "SELECT pg_promote(true, 60)")?;
        let deadline = Instant::now() + Duration::from_secs(60);
        while self.query("postgres", "SELECT pg_is_in_recovery()::text")? != "false" {
            if Instant::now() > deadline {
                return Err(fail("promote", "still in recovery after 60 s"));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(())
    }

    /// The first column of the first row `sql` returns in `db`, as text (`""` for none),
    /// as the superuser.
    pub fn query(&self, db: &str, sql: &str) -> Result<String, String> {
        let url = self.admin_url(db);
        let sql = sql.to_string();
        super::bridge::block(async move {
            let (client, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
                .await
                .map_err(|e| crate::journal::JournalError::Postgres(e.to_string()))?;
            tokio::spawn(conn);
            let rows = client
                .simple_query(&sql)
                .await
                .map_err(|e| crate::journal::JournalError::Postgres(e.to_string()))?;
            Ok(rows
                .into_iter()
                .find_map(|m| match m {
                    tokio_postgres::SimpleQueryMessage::Row(row) => {
                        Some(row.get(0).unwrap_or_default().to_string())
                    }
                    _ => None,
                })
                .unwrap_or_default())
        })
        .map_err(|e| e.to_string())
    }
}
