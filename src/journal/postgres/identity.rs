//! Who the database says we are, and who else is connected.

use super::PostgresJournal;
use super::errors::from_pg;
use crate::journal::JournalError;
use crate::model::run::Actor;

/// Who the database says this connection is.
/// Who the database says this connection is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// The authenticated role (`session_user`).
    pub role: Actor,
    /// The fleetdeck roles it is a member of (`fleetdeck_operator`, …).
    pub fleetdeck_roles: Vec<String>,
    /// Whether it may do everything (an admin, the journal's owner or a superuser).
    pub admin: bool,
}

impl Identity {
    /// Whether it may act as `role` (`fleetdeck_approver`, …).
    pub fn may(&self, role: &str) -> bool {
        self.admin || self.fleetdeck_roles.iter().any(|r| r == role)
    }

    /// Its roles without the `fleetdeck_` prefix, for the header (`operator+approver`).
    pub fn short_roles(&self) -> String {
        if self.admin {
            return "admin".into();
        }
        let roles: Vec<&str> = self
            .fleetdeck_roles
            .iter()
            .map(|r| r.strip_prefix("fleetdeck_").unwrap_or(r))
            .filter(|r| *r != "viewer" || self.fleetdeck_roles.len() == 1)
            .collect();
        if roles.is_empty() {
            "no fleetdeck role".into()
        } else {
            roles.join("+")
        }
    }
}

/// Another session connected to the journal's database (the header's "others").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Peer {
    /// Its role.
    pub role: String,
    /// Its fleetdeck roles, short (`operator`, `viewer`).
    pub roles: String,
}

impl PostgresJournal {
    /// Other fleetdeck sessions connected to the same database now, with their roles
    /// (this process's own connections are not counted).
    pub fn peers(&self) -> Result<Vec<Peer>, JournalError> {
        self.run(|client, where_| async move {
            let rows = client
                .query(
                    "SELECT a.usename::text, coalesce(array_agg(DISTINCT r.rolname::text) FILTER (WHERE r.rolname IS NOT NULL), '{}')
                       FROM pg_stat_activity a
                       LEFT JOIN pg_roles r ON r.rolname LIKE 'fleetdeck\\_%' AND pg_has_role(a.usename, r.oid, 'MEMBER')
                      WHERE a.datname = current_database() AND a.application_name LIKE 'fleetdeck%'
                        AND a.usename IS NOT NULL
                        AND a.client_port IS DISTINCT FROM (SELECT b.client_port FROM pg_stat_activity b WHERE b.pid = pg_backend_pid())
                        AND a.application_name <> $1
                      GROUP BY a.pid, a.usename ORDER BY a.usename",
                    &[&own_application_name()],
                )
                .await
                .map_err(|e| from_pg(e, &where_))?;
            Ok(rows
                .into_iter()
                .map(|r| {
                    let roles: Vec<String> = r.get(1);
                    Peer {
                        role: r.get(0),
                        roles: short(&roles),
                    }
                })
                .collect())
        })
    }
}

fn own_application_name() -> String {
    "fleetdeck".to_string()
}

fn short(roles: &[String]) -> String {
    let names: Vec<&str> = roles
        .iter()
        .map(|r| r.strip_prefix("fleetdeck_").unwrap_or(r))
        .collect();
    if names.contains(&"admin") {
        return "admin".into();
    }
    let useful: Vec<&str> = names
        .iter()
        .copied()
        .filter(|r| *r != "viewer" || names.len() == 1)
        .collect();
    if useful.is_empty() {
        "no role".into()
    } else {
        useful.join("+")
    }
}

pub(super) async fn identity(
    client: &tokio_postgres::Client,
    where_: &str,
) -> Result<Identity, JournalError> {
    let row = client
        .query_one(
            "SELECT session_user::text,
                    coalesce((SELECT array_agg(r.rolname::text ORDER BY r.rolname) FROM pg_roles r
                               WHERE r.rolname LIKE 'fleetdeck\\_%' AND pg_has_role(session_user, r.oid, 'MEMBER')), '{}'),
                    (SELECT rolsuper FROM pg_roles WHERE rolname = session_user)
                    OR session_user = (SELECT nspowner::regrole::text FROM pg_namespace WHERE nspname = 'fleetdeck')
                    OR EXISTS (SELECT 1 FROM pg_roles r WHERE r.rolname = 'fleetdeck_admin' AND pg_has_role(session_user, r.oid, 'MEMBER'))",
            &[],
        )
        .await
        .map_err(|e| from_pg(e, where_))?;
    Ok(Identity {
        role: Actor(row.get(0)),
        fleetdeck_roles: row.get(1),
        admin: row.get::<_, Option<bool>>(2).unwrap_or(false),
    })
}
