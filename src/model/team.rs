//! Who is who on a shared journal (team mode): the roles the database grants, what each
//! lets a person do, and who else is connected. The database enforces the rules (see
//! `journal::postgres::schema`); these facts let the console say them before a key is
//! pressed rather than after the database refused.

/// A fleetdeck role the database grants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TeamRole {
    /// Reads the journal and follows it live.
    Viewer,
    /// Pauses, resumes, hands off, takes over, returns, aborts, starts, notes,
    /// acknowledges handover items.
    Operator,
    /// Approves batches (never their own rollout's under `distinctApprover`).
    Approver,
    /// Holds executor leases; writes step, status and rollout events.
    Executor,
    /// Everything.
    Admin,
}

impl TeamRole {
    /// Every role, least to most privileged.
    pub const ALL: [TeamRole; 5] = [
        TeamRole::Viewer,
        TeamRole::Operator,
        TeamRole::Approver,
        TeamRole::Executor,
        TeamRole::Admin,
    ];

    /// The database role's name (`fleetdeck_operator`).
    pub fn db_name(self) -> &'static str {
        match self {
            TeamRole::Viewer => "fleetdeck_viewer",
            TeamRole::Operator => "fleetdeck_operator",
            TeamRole::Approver => "fleetdeck_approver",
            TeamRole::Executor => "fleetdeck_executor",
            TeamRole::Admin => "fleetdeck_admin",
        }
    }

    /// The short word (`operator`).
    pub fn word(self) -> &'static str {
        self.db_name().trim_start_matches("fleetdeck_")
    }

    /// The role a database role name stands for.
    pub fn from_db_name(name: &str) -> Option<TeamRole> {
        TeamRole::ALL.into_iter().find(|r| r.db_name() == name)
    }
}

/// One login as the database sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// The login role (what the journal records as the actor).
    pub login: String,
    /// The fleetdeck roles it has (an admin, the journal's owner or a superuser has
    /// `Admin`).
    pub roles: Vec<TeamRole>,
}

impl Member {
    /// Whether it may act as `role`.
    pub fn may(&self, role: TeamRole) -> bool {
        self.roles.contains(&TeamRole::Admin) || self.roles.contains(&role)
    }

    /// Its roles in short, the viewer role left out when it has more
    /// (`operator+approver`, `viewer`, `admin`, `no fleetdeck role`).
    pub fn roles_text(&self) -> String {
        if self.roles.contains(&TeamRole::Admin) {
            return "admin".into();
        }
        let useful: Vec<&str> = self
            .roles
            .iter()
            .filter(|r| **r != TeamRole::Viewer || self.roles.len() == 1)
            .map(|r| r.word())
            .collect();
        if useful.is_empty() {
            "no fleetdeck role".into()
        } else {
            useful.join("+")
        }
    }
}

/// Who this console is on the shared journal, and who else is connected to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamFacts {
    /// This console's login.
    pub me: Member,
    /// Every other fleetdeck process or session connected now (one entry each; the same
    /// login may appear more than once: two laptops).
    pub others: Vec<Member>,
}

impl TeamFacts {
    /// `2 others: bob (approver), exec-east (executor)`, or `no one else connected`.
    pub fn others_text(&self) -> String {
        if self.others.is_empty() {
            return "no one else connected".into();
        }
        let names: Vec<String> = self
            .others
            .iter()
            .map(|m| format!("{} ({})", m.login, m.roles_text()))
            .collect();
        let n = self.others.len();
        format!(
            "{n} other{}: {}",
            if n == 1 { "" } else { "s" },
            names.join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(login: &str, roles: &[TeamRole]) -> Member {
        Member {
            login: login.into(),
            roles: roles.to_vec(),
        }
    }

    #[test]
    fn roles_read_short_and_admin_may_everything() {
        let op = member("alice", &[TeamRole::Viewer, TeamRole::Operator]);
        assert_eq!(op.roles_text(), "operator");
        assert!(op.may(TeamRole::Operator) && !op.may(TeamRole::Approver));
        assert_eq!(member("c", &[TeamRole::Viewer]).roles_text(), "viewer");
        assert_eq!(member("d", &[]).roles_text(), "no fleetdeck role");
        let admin = member("root", &[TeamRole::Admin]);
        assert!(TeamRole::ALL.iter().all(|r| admin.may(*r)));
        assert_eq!(admin.roles_text(), "admin");
        assert_eq!(
            TeamRole::from_db_name("fleetdeck_approver"),
            Some(TeamRole::Approver)
        );
        assert_eq!(TeamRole::from_db_name("postgres"), None);
    }

    #[test]
    fn others_are_counted_and_named_with_their_roles() {
        let mut facts = TeamFacts {
            me: member("alice", &[TeamRole::Operator]),
            others: Vec::new(),
        };
        assert_eq!(facts.others_text(), "no one else connected");
        facts.others = vec![
            member("bob", &[TeamRole::Viewer, TeamRole::Approver]),
            member("exec-east", &[TeamRole::Executor]),
        ];
        assert_eq!(
            facts.others_text(),
            "2 others: bob (approver), exec-east (executor)"
        );
    }
}
