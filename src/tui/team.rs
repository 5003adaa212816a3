//! Team mode in the console: who you are as the shared journal's database sees you and who
//! else is connected (the header), the keys your role cannot use (left out of the hints,
//! explained when pressed), and a database that cannot be reached (every action refused:
//! nothing could be recorded, and the console never says it was).

use super::action::Action;
use super::app::App;
use crate::model::team::TeamRole;

/// The fleetdeck role an action needs on a shared journal.
pub fn needed(action: Action) -> TeamRole {
    match action {
        Action::Approve => TeamRole::Approver,
        _ => TeamRole::Operator,
    }
}

impl App {
    /// Whether `action`'s key is offered in hints: every read is; a write is not in
    /// read-only mode, nor when the database says this login may not make it.
    pub fn offers(&self, action: Action) -> bool {
        if !action.mutates() {
            return true;
        }
        if self.config.readonly {
            return false;
        }
        self.activity
            .team
            .as_ref()
            .is_none_or(|team| team.me.may(needed(action)))
    }

    /// Says why `what` (an action needing `role`) is refused now and returns true: in
    /// read-only mode; on a shared journal that cannot be reached (nothing could be
    /// recorded); or when this login lacks `role` (the database would refuse it).
    pub(super) fn refused_write(&mut self, what: &str, role: TeamRole) -> bool {
        if self.refused_readonly(what) {
            return true;
        }
        let Some(team) = &self.activity.team else {
            return false;
        };
        if !self.activity.connected {
            self.message = Some(crate::t!(
                self.config.lang,
                "msg-journal-unreachable-refused",
                what = what
            ));
            return true;
        }
        if !team.me.may(role) {
            let login = team.me.login.clone();
            self.message = Some(crate::t!(
                self.config.lang,
                "msg-role-needed",
                login = login,
                roles = team.me.roles_text(),
                what = what,
                role = role.db_name()
            ));
            return true;
        }
        false
    }

    /// Who is at this console, in at most `room` cells: on a shared journal the login and
    /// its roles as the database has them, then who else is connected, shortened (whole
    /// parts only) to fit; otherwise the name this console writes as.
    pub fn who(&self, room: usize) -> String {
        let Some(team) = &self.activity.team else {
            return self.config.actor.clone();
        };
        let me = format!("{} ({})", team.me.login, team.me.roles_text());
        let n = team.others.len();
        let lang = self.config.lang;
        let count = match n {
            0 => crate::t!(lang, "header-team-alone"),
            n => crate::t!(lang, "header-team-others", count = n),
        };
        let candidates = [
            format!("{me} · {}", team.others_text()),
            format!("{me} · {count}"),
            format!("{} · {count}", team.me.login),
            me,
            team.me.login.clone(),
        ];
        let width = |s: &String| unicode_width::UnicodeWidthStr::width(s.as_str());
        candidates
            .iter()
            .find(|c| width(c) <= room)
            .or(candidates.last())
            .cloned()
            .unwrap_or_default()
    }
}

/// What a read-only console says when a mutating key is pressed.
impl App {
    /// In read-only mode, says why `what` (an action's description) is refused and
    /// returns true: every key and command that would write to the journal asks this.
    pub(super) fn refused_readonly(&mut self, what: &str) -> bool {
        if self.config.readonly {
            self.message = Some(crate::t!(self.config.lang, "msg-readonly", what = what));
        }
        self.config.readonly
    }
}

#[cfg(test)]
#[path = "team_tests.rs"]
mod tests;
