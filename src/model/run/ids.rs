//! Newtypes for the names the journal keys on, so that a node name is never passed where
//! a run id is expected.

use serde::{Deserialize, Serialize};

macro_rules! name_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub String);

        impl $name {
            /// The name as text.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl From<&str> for $name {
            fn from(text: &str) -> Self {
                $name(text.to_string())
            }
        }

        impl From<String> for $name {
            fn from(text: String) -> Self {
                $name(text)
            }
        }
    };
}

name_type!(
    /// One run: a maintenance (or rollout) started from a file, e.g. `m-20250612-0930-ab12`.
    RunId
);
name_type!(
    /// One item of a run: a node in a maintenance, a cluster in a rollout.
    ItemId
);
name_type!(
    /// One step of an item's state machine (`Cordon`, `Drain`, …), as recorded.
    StepName
);
name_type!(
    /// Who did something: `user@host` for a person, `executor/<id>` for an executor,
    /// `fleetdeck/guard` for the mass-failure guard.
    Actor
);

impl Actor {
    /// Whether this actor is fleetdeck's own automation rather than a person. Decisions
    /// that only a person may take (resuming a guard pause) check this.
    pub fn is_automation(&self) -> bool {
        // `executor@<person>` is the executor a console runs for its operator (the demo).
        ["executor/", "executor@", "fleetdeck/"]
            .iter()
            .any(|prefix| self.0.starts_with(prefix))
    }

    /// Who an executor started by `actor` writes as: `executor@<actor>`, so that its
    /// events never read as a person's (a person's approval, note or resume), or the name
    /// as given when it already names automation (`executor/prod-1`).
    pub fn executor_for(actor: &str) -> Actor {
        let actor = Actor(actor.to_owned());
        if actor.is_automation() {
            actor
        } else {
            Actor(format!("executor@{}", actor.0))
        }
    }

    /// The name one executor instance takes leases under: `actor` with the process and a
    /// counter, so two executors of one actor never mistake each other's lease for theirs.
    pub fn instance(actor: &Actor, pid: u32, n: u64) -> Actor {
        Actor(format!("{actor} [pid {pid} #{n}]"))
    }

    /// Whether this lease holder is an instance of `actor` in process `pid` (see
    /// [`Actor::instance`]).
    pub fn is_instance_of(&self, actor: &str, pid: u32) -> bool {
        self.0
            .strip_prefix(actor)
            .is_some_and(|rest| rest.starts_with(&format!(" [pid {pid} #")))
    }
}

/// The longest name [`check_run_name`] accepts.
pub const RUN_NAME_MAX: usize = 63;

/// Whether `name` may name runs (a maintenance's `name`, a rollout's `release.name`): it
/// becomes part of run ids and of idempotency keys, which use `/` and `#` as separators,
/// and of what people type on the command line. Lowercase letters, digits, `-` and `.`,
/// starting and ending with a letter or digit, at most 63 characters; `Err` says what
/// breaks the rule.
pub fn check_run_name(name: &str) -> Result<(), String> {
    check_run_name_said(name).map_err(|(english, _)| english)
}

/// [`check_run_name`], with what breaks the rule also as a message for the reader's
/// language.
pub fn check_run_name_said(name: &str) -> Result<(), (String, crate::i18n::Msg)> {
    use crate::i18n::Msg;
    const RULE: &str = "lowercase letters, digits, '-' and '.', starting and ending with a letter or digit, at most 63 characters (it is part of run ids)";
    let mut wrong: Vec<char> = Vec::new();
    for c in name.chars() {
        let allowed = c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '.');
        if !allowed && !wrong.contains(&c) {
            wrong.push(c);
        }
    }
    let (why, says) = if name.is_empty() {
        ("it is empty".to_string(), Msg::new("run-name-empty"))
    } else if !wrong.is_empty() {
        let shown: Vec<String> = wrong.iter().map(|c| format!("{c:?}")).collect();
        (
            format!("it has {}", shown.join(", ")),
            Msg::new("run-name-has").arg("chars", shown.join(", ")),
        )
    } else if name.chars().count() > RUN_NAME_MAX {
        (
            format!("it has {} characters", name.chars().count()),
            Msg::new("run-name-long").arg("n", name.chars().count().to_string()),
        )
    } else if !name.starts_with(|c: char| c.is_ascii_alphanumeric())
        || !name.ends_with(|c: char| c.is_ascii_alphanumeric())
    {
        (
            "it starts or ends with '-' or '.'".to_string(),
            Msg::new("run-name-ends"),
        )
    } else {
        return Ok(());
    };
    Err((
        format!("must be {RULE}; {why}"),
        Msg::new("run-name-rule").arg("why", says),
    ))
}

#[cfg(test)]
mod tests {
    use super::{Actor, check_run_name, check_run_name_said};

    #[test]
    fn a_run_names_rule_says_its_english_as_a_message_and_in_chinese() {
        use crate::i18n::Lang;
        let long = "a".repeat(70);
        for name in ["", "Bad_Name", long.as_str(), "-x", ".x."] {
            let Err((english, says)) = check_run_name_said(name) else {
                panic!("{name:?} passed");
            };
            assert_eq!(says.text(Lang::En), english);
            assert!(says.text(Lang::ZhCn).contains("小写字母"));
        }
        let Err((_, says)) = check_run_name_said("Bad_Name") else {
            panic!("passed");
        };
        assert!(
            says.text(Lang::ZhCn).ends_with("；它含有 'B', '_', 'N'"),
            "{}",
            says.text(Lang::ZhCn)
        );
    }

    #[test]
    fn run_names_are_lowercase_words_that_cannot_split_an_id() {
        for good in [
            "patch",
            "kernel-6.8.0-60-gpu-pool",
            "cni-cilium-1.17.2",
            "a",
            &"x".repeat(63),
        ] {
            assert_eq!(check_run_name(good), Ok(()), "{good}");
        }
        let why = check_run_name("Bad Name! / x").unwrap_err();
        assert!(
            why.starts_with("must be lowercase letters, digits, '-' and '.',")
                && why.ends_with("; it has 'B', ' ', 'N', '!', '/'"),
            "{why}"
        );
        assert!(check_run_name("a#1").unwrap_err().ends_with("it has '#'"));
        assert!(
            check_run_name(&"x".repeat(64))
                .unwrap_err()
                .ends_with("it has 64 characters")
        );
        assert!(
            check_run_name("-x")
                .unwrap_err()
                .ends_with("starts or ends with '-' or '.'")
        );
        assert!(check_run_name("x.").is_err());
        assert!(check_run_name("").unwrap_err().ends_with("it is empty"));
    }

    #[test]
    fn executors_are_automation_and_people_are_not() {
        for robot in [
            "executor/prod-1",
            "executor@alice@laptop",
            "fleetdeck/guard",
        ] {
            assert!(Actor(robot.into()).is_automation(), "{robot}");
        }
        for person in ["alice@laptop", "executive@ops", "bob"] {
            assert!(!Actor(person.into()).is_automation(), "{person}");
        }
    }

    #[test]
    fn an_executor_started_by_a_person_writes_as_automation() {
        assert_eq!(
            Actor::executor_for("alice@laptop").0,
            "executor@alice@laptop"
        );
        assert_eq!(Actor::executor_for("executor/prod-1").0, "executor/prod-1");
        assert!(Actor::executor_for("bob").is_automation());
    }

    #[test]
    fn a_lease_holder_is_an_instance_of_its_actor_in_its_process_only() {
        let holder = Actor::instance(&Actor("executor@alice".into()), 42, 0);
        assert!(holder.is_instance_of("executor@alice", 42));
        assert!(
            !holder.is_instance_of("executor@alice", 43),
            "another process"
        );
        assert!(!holder.is_instance_of("executor@al", 42), "another actor");
        assert!(!Actor("executor@alice".into()).is_instance_of("executor@alice", 42));
    }
}
