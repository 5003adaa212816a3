//! Logging in from the console: a credential plugin that needs a person (a browser, a
//! device code, MFA) is never run behind the console. `:login CONTEXT` (or `i` on a
//! cluster) leaves the alternate screen, gives the terminal to the plugin for the person
//! to finish, then comes back where the console was; the clusters using that credential
//! reconnect. The console itself runs no plugin: it asks the [`LoginPort`] the command
//! line gave it, as it sends every other command.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use crate::i18n::Msg;
use crate::model::live::CredentialProblem;

/// What `i` does for the cluster `id`: log in for its context, or say why there is
/// nothing to log in to.
pub fn login_effect(ctx: &super::component::Context, id: &str) -> super::component::Effect {
    login_for(ctx.ledger, ctx.snapshot, ctx.config.lang, id)
}

/// What `:login NAME` (a context the ledger names, or a cluster id) or `i` does: log in
/// for the context, or say why not.
pub fn login_for(
    ledger: &crate::model::ledger::Ledger,
    snapshot: &crate::model::live::FleetSnapshot,
    lang: crate::i18n::Lang,
    name: &str,
) -> super::component::Effect {
    use super::component::Effect;
    let Some(cluster) = ledger
        .cluster(name)
        .or_else(|| ledger.clusters.iter().find(|c| c.context == name))
    else {
        return Effect::Say(crate::t!(lang, "login-unknown-context", context = name));
    };
    let kind = snapshot
        .cluster(&cluster.id.0)
        .and_then(|c| c.credential.as_ref())
        .map(|c| c.kind.clone());
    match kind {
        // Known not to be a plugin: nothing to run.
        Some(kind) if !matches!(kind, crate::model::live::CredentialKind::Exec { .. }) => {
            Effect::Say(crate::t!(
                lang,
                "login-not-a-plugin",
                context = cluster.context.as_str()
            ))
        }
        _ => Effect::Command(super::message::Command::Login(cluster.context.clone())),
    }
}

/// What a login did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoginOutcome {
    /// The context logged in for.
    pub context: String,
    /// The program run, if the context's credential is a plugin.
    pub program: Option<String>,
    /// Every context that uses the same credential (they reconnect with it).
    pub contexts: Vec<String>,
    /// Why no credential came of it, if none did.
    pub problem: Option<CredentialProblem>,
}

impl LoginOutcome {
    /// The notice the console shows afterwards.
    pub fn notice(&self) -> super::feed::Notice {
        let text = match (&self.program, &self.problem) {
            (None, _) => Msg::new("login-not-a-plugin").arg("context", self.context.as_str()),
            (Some(program), None) => Msg::new("login-done")
                .arg("context", self.context.as_str())
                .arg("program", program.as_str())
                .arg("clusters", self.contexts.len() as i64),
            (Some(program), Some(problem)) => Msg::new("login-failed")
                .arg("context", self.context.as_str())
                .arg("program", program.as_str())
                .arg("reason", problem.reason()),
        };
        super::feed::Notice {
            ok: self.program.is_some() && self.problem.is_none(),
            text,
        }
    }
}

/// Runs a context's credential plugin attached to the terminal and keeps what it hands
/// out; given by the command line (which may reach the credential layer).
pub type LoginPort =
    Arc<dyn Fn(String) -> Pin<Box<dyn Future<Output = LoginOutcome> + Send>> + Send + Sync>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use crate::model::live::ProblemKind;

    #[test]
    fn the_notice_says_what_the_login_did_in_the_reader_s_language() {
        let mut outcome = LoginOutcome {
            context: "prod-use1-01".into(),
            program: Some("aws".into()),
            contexts: vec!["prod-use1-01".into(), "prod-use1-02".into()],
            problem: None,
        };
        let notice = outcome.notice();
        assert!(notice.ok);
        assert_eq!(
            notice.text.text(Lang::En),
            "Logged in for prod-use1-01 with aws: 2 clusters use this credential and reconnect now"
        );
        assert!(!notice.text.text(Lang::ZhCn).contains("Logged in"));
        outcome.problem = Some(CredentialProblem {
            kind: ProblemKind::Failed,
            message: "error: that code is not valid".into(),
            since: jiff::Timestamp::UNIX_EPOCH,
        });
        let notice = outcome.notice();
        assert!(!notice.ok);
        assert_eq!(
            notice.text.text(Lang::En),
            "The login for prod-use1-01 with aws failed: credentials (plugin failed): error: that code is not valid"
        );
        outcome.program = None;
        assert_eq!(
            outcome.notice().text.text(Lang::En),
            "prod-use1-01 does not log in through a plugin: its credential is used as the kubeconfig gives it"
        );
    }
}
