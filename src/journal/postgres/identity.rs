//! Who the database says we are, and who else is connected.

use super::PostgresJournal;
use super::conninfo::ConnInfo;
use super::errors::from_pg;
use crate::journal::JournalError;
use crate::model::run::Actor;
use crate::model::team::{Member, TeamFacts, TeamRole};

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

    /// As a member of the team.
    pub fn member(&self) -> Member {
        member(self.role.0.clone(), &self.fleetdeck_roles, self.admin)
    }

    /// Its roles without the `fleetdeck_` prefix, for the header (`operator+approver`).
    pub fn short_roles(&self) -> String {
        self.member().roles_text()
    }
}

fn member(login: String, names: &[String], admin: bool) -> Member {
    let mut roles: Vec<TeamRole> = names
        .iter()
        .filter_map(|n| TeamRole::from_db_name(n))
        .collect();
    if admin && !roles.contains(&TeamRole::Admin) {
        roles.push(TeamRole::Admin);
    }
    roles.sort();
    Member { login, roles }
}

/// Another fleetdeck process (or another session) connected to the journal's database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Peer {
    /// Its login role.
    pub role: String,
    /// Its fleetdeck roles, short (`operator`, `viewer`).
    pub roles: String,
}

/// The `application_name` this process's sessions carry: the one given (`PGAPPNAME`,
/// `application_name=`), or one naming this process (`fleetdeck/HOST/PID`), so that the
/// header can tell its own sessions from everyone else's.
pub(super) fn session_name(info: &ConnInfo) -> String {
    if info.application_name != "fleetdeck" {
        return info.application_name.clone();
    }
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_default();
    let mut name = format!("fleetdeck/{host}/{}", std::process::id());
    // The server keeps 63 bytes.
    while name.len() > 63 {
        name.remove(10);
    }
    name
}

impl PostgresJournal {
    /// Every other process or session connected to the journal's database now (one entry
    /// per process: its pooled and listening connections are one), with its roles; this
    /// process's own are left out. Only what PostgreSQL shows every role about sessions of
    /// others is used (login, database, application name): no extra privilege is needed.
    pub fn others(&self) -> Result<Vec<Member>, JournalError> {
        let own = session_name(&self.info);
        self.run(move |client, where_| async move {
            let rows = client
                .query(
                    "SELECT a.usename::text,
                            coalesce(array_agg(DISTINCT r.rolname::text) FILTER (WHERE r.rolname IS NOT NULL), '{}'),
                            bool_or(coalesce(u.rolsuper, false))
                       FROM pg_stat_activity a
                       LEFT JOIN pg_roles u ON u.rolname = a.usename
                       LEFT JOIN pg_roles r ON r.rolname LIKE 'fleetdeck\\_%' AND pg_has_role(a.usename, r.oid, 'MEMBER')
                      WHERE a.datname = current_database() AND a.usename IS NOT NULL
                        AND a.application_name IS DISTINCT FROM $1
                      GROUP BY a.usename, a.application_name, CASE WHEN a.application_name LIKE 'fleetdeck/%' THEN 0 ELSE a.pid END
                      ORDER BY a.usename",
                    &[&own],
                )
                .await
                .map_err(|e| from_pg(e, &where_))?;
            Ok(rows
                .into_iter()
                .map(|r| {
                    let names: Vec<String> = r.get(1);
                    member(r.get(0), &names, r.get(2))
                })
                .collect())
        })
    }

    /// Other fleetdeck sessions connected to the same database now, with their roles
    /// (this process's own connections are not counted).
    pub fn peers(&self) -> Result<Vec<Peer>, JournalError> {
        Ok(self
            .others()?
            .into_iter()
            .map(|m| Peer {
                roles: m.roles_text(),
                role: m.login,
            })
            .collect())
    }

    /// Who this process is on the journal, and who else is connected.
    pub fn team_facts(&self) -> Result<TeamFacts, JournalError> {
        Ok(TeamFacts {
            me: self.identity.member(),
            others: self.others()?,
        })
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
