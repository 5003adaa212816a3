//! The `:` palette in k9s's grammar: `:ledger`, `:capacity`, `:cluster ID`, `:node NAME`,
//! matched fuzzily over commands, clusters and nodes. Node names are many (30,000 in a
//! large fleet), so they are searched only when asked for (`node …`) or when the query is
//! specific enough, with a cheap in-order letter check before the fuzzy scorer.

use std::sync::Arc;

use fuzzy_matcher::FuzzyMatcher;
use fuzzy_matcher::skim::SkimMatcherV2;

use crate::i18n::Lang;
use crate::model::fleet::ClusterView;

/// Most entries shown.
pub const MAX_MATCHES: usize = 50;

/// A palette command word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaletteCommand {
    /// `:ledger`.
    Ledger,
    /// `:capacity`.
    Capacity,
    /// `:help`.
    Help,
    /// `:quit` (also `:q`).
    Quit,
    /// `:rollouts`.
    Rollouts,
    /// `:maintenance`.
    Maintenance,
    /// `:timeline`.
    Timeline,
    /// `:findings`.
    Findings,
    /// `:handover`.
    Handover,
    /// `:pause` (pause or resume all automation; hidden when read-only).
    PauseAll,
    /// `:start FILE` (hidden when read-only); alone it says what to type.
    StartFile,
    /// `:lang` (`:lang zh-CN`, `:lang en`); alone it says what to type.
    Lang,
    /// `:login CONTEXT`: log in with a credential plugin; alone it says what to type.
    Login,
}

impl PaletteCommand {
    /// Whether the command writes to the journal (hidden in read-only mode).
    pub fn mutates(self) -> bool {
        matches!(self, PaletteCommand::PauseAll | PaletteCommand::StartFile)
    }
}

/// Each command: its word and the message id of what it does.
const COMMANDS: &[(PaletteCommand, &str, &str)] = &[
    (PaletteCommand::Rollouts, "rollouts", "palette-rollouts"),
    (
        PaletteCommand::Maintenance,
        "maintenance",
        "palette-maintenance",
    ),
    (PaletteCommand::Timeline, "timeline", "palette-timeline"),
    (PaletteCommand::Findings, "findings", "palette-findings"),
    (PaletteCommand::Handover, "handover", "palette-handover"),
    (PaletteCommand::PauseAll, "pause", "palette-pause"),
    (PaletteCommand::StartFile, "start", "palette-start"),
    (PaletteCommand::Ledger, "ledger", "palette-ledger"),
    (PaletteCommand::Capacity, "capacity", "palette-capacity"),
    (PaletteCommand::Help, "help", "palette-help"),
    (PaletteCommand::Quit, "quit", "palette-quit"),
    (PaletteCommand::Lang, "lang", "palette-lang"),
    (PaletteCommand::Login, "login", "palette-login"),
];

/// What a palette entry opens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A command.
    Command(PaletteCommand),
    /// A cluster's drill-down.
    Cluster(String),
    /// A node, in its cluster's drill-down.
    Node(String, Arc<str>),
    /// `:start FILE`: start the maintenance a file describes (hidden when read-only).
    StartFile(std::path::PathBuf),
    /// `:handover SINCE`: the walkthrough over a shift of this length (`12h`).
    HandoverSince(std::time::Duration),
    /// `:lang zh-CN`: the console speaks this language from now on.
    Lang(Lang),
    /// `:login NAME`: log in for a context (or a cluster id) with its credential plugin.
    Login(String),
}

/// One match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// What it opens.
    pub target: Target,
    /// The text shown (`:cluster eu-1`).
    pub label: String,
    /// A short explanation.
    pub detail: String,
}

/// What the palette can search: cluster ids and every cluster's node names.
#[derive(Debug, Clone, Default)]
pub struct Candidates {
    /// Cluster ids with a detail (env, region).
    pub clusters: Vec<(String, String)>,
    /// Each cluster's view, shared with the snapshot it came from: opening the palette
    /// copies nothing per node (a large fleet has tens of thousands).
    pub nodes: Vec<(Arc<str>, Arc<ClusterView>)>,
    /// Read-only console: commands that write are not offered.
    pub readonly: bool,
    /// The language entries are described in.
    pub lang: Lang,
}

impl Candidates {
    /// Every (cluster, node name), in the snapshot's order.
    fn node_names(&self) -> impl Iterator<Item = (&Arc<str>, &Arc<str>)> {
        self.nodes
            .iter()
            .flat_map(|(cluster, view)| view.nodes.iter().map(move |n| (cluster, &n.name.0)))
    }
}

/// The palette's state.
#[derive(Debug, Clone, Default)]
pub struct PaletteState {
    /// What was typed after `:`.
    pub input: String,
    /// Selected match.
    pub selected: usize,
    /// Current matches, best first.
    pub matches: Vec<Entry>,
}

/// Whether `needle`'s letters appear in `hay` in order (ASCII case-insensitive).
fn subsequence(hay: &str, needle: &str) -> bool {
    let mut hay = hay.bytes();
    needle
        .bytes()
        .filter(|b| *b != b' ')
        .all(|n| hay.any(|h| h.eq_ignore_ascii_case(&n)))
}

/// A match before it is shown: where it came from, so that only the few shown are
/// turned into entries (a query can match every node of a large fleet).
#[derive(Debug, Clone, Copy)]
enum Found<'a> {
    Command(PaletteCommand, &'static str, &'static str),
    Cluster(&'a str, &'a str),
    Node(&'a Arc<str>, &'a Arc<str>),
    Lang(Lang),
    Login(&'a str),
}

impl Found<'_> {
    fn entry(self, lang: Lang) -> Entry {
        match self {
            Found::Command(cmd, name, detail) => Entry {
                target: Target::Command(cmd),
                label: format!(":{name}"),
                detail: crate::i18n::text(lang, detail, &[]),
            },
            Found::Lang(to) => Entry {
                target: Target::Lang(to),
                label: format!(":lang {to}"),
                detail: crate::t!(lang, "palette-lang-to", name = to.native_name()),
            },
            Found::Login(id) => Entry {
                target: Target::Login(id.to_owned()),
                label: format!(":login {id}"),
                detail: crate::t!(lang, "palette-login-to", context = id),
            },
            Found::Cluster(id, detail) => Entry {
                target: Target::Cluster(id.to_owned()),
                label: format!(":cluster {id}"),
                detail: detail.to_owned(),
            },
            Found::Node(cluster, node) => Entry {
                target: Target::Node(cluster.to_string(), Arc::clone(node)),
                label: format!(":node {node}"),
                detail: crate::t!(lang, "palette-node-in", cluster = cluster.to_string()),
            },
        }
    }
}

/// The matches for `input`, best first, at most [`MAX_MATCHES`].
pub fn search<'a>(input: &str, candidates: &'a Candidates) -> Vec<Entry> {
    let matcher = SkimMatcherV2::default().ignore_case();
    let input = input.trim_start();
    let (scope, query) = match input.split_once(' ') {
        Some(("cluster" | "cl", rest)) => (Some("cluster"), rest.trim()),
        Some(("node" | "no", rest)) => (Some("node"), rest.trim()),
        Some(("login", rest)) => (Some("login"), rest.trim()),
        _ => (None, input.trim()),
    };
    // (score, order found, what): the order found breaks ties, so equal scores keep
    // commands, then clusters, then nodes.
    let score_of = |text: &str| -> Option<i64> {
        if query.is_empty() {
            Some(0)
        } else if text.eq_ignore_ascii_case(query) {
            // What was typed exactly (a cluster id, a node name) comes first.
            Some(i64::MAX)
        } else if subsequence(text, query) {
            matcher.fuzzy_match(text, query)
        } else {
            None
        }
    };
    let mut scored: Vec<(i64, usize, Found)> = Vec::new();
    let mut consider = |text: &str, found: Found<'a>| {
        if let Some(score) = score_of(text) {
            scored.push((score, scored.len(), found));
        }
    };
    if scope.is_none() {
        for (cmd, name, detail) in COMMANDS {
            if !(candidates.readonly && cmd.mutates()) {
                consider(name, Found::Command(*cmd, name, detail));
            }
        }
    }
    // `lang …` offers the languages.
    if let Some(("lang", _)) = input.split_once(' ') {
        for to in Lang::ALL {
            // i18n: not for people (the command typed, as typed in every language)
            consider(&format!("lang {to}"), Found::Lang(to));
        }
    }
    if scope == Some("login") {
        for (id, _) in &candidates.clusters {
            consider(id, Found::Login(id));
        }
    } else if scope != Some("node") {
        for (id, detail) in &candidates.clusters {
            consider(id, Found::Cluster(id, detail));
        }
    }
    if scope == Some("node") || (scope.is_none() && query.len() >= 3) {
        let limit = if query.is_empty() {
            MAX_MATCHES
        } else {
            usize::MAX
        };
        for (cluster, node) in candidates.node_names().take(limit) {
            consider(node, Found::Node(cluster, node));
        }
    }
    let best_first = |s: &(i64, usize, Found)| (std::cmp::Reverse(s.0), s.1);
    if scored.len() > MAX_MATCHES {
        scored.select_nth_unstable_by_key(MAX_MATCHES, best_first);
        scored.truncate(MAX_MATCHES);
    }
    scored.sort_unstable_by_key(best_first);
    scored
        .into_iter()
        .map(|(_, _, found)| found.entry(candidates.lang))
        .collect()
}

/// What to say when nothing in the list matches `input`: that enter will still run it
/// (`start /tmp/m.yaml` is a command with an argument, not a name to match), or that a
/// writing command is refused in read-only mode. `None`: it means nothing.
pub fn unmatched_hint(input: &str, candidates: &Candidates) -> Option<String> {
    let lang = candidates.lang;
    if exact(input, candidates).is_some() {
        return Some(crate::t!(lang, "palette-enter-runs", input = input.trim()));
    }
    if let Some(("lang", given)) = input.trim().split_once(' ') {
        return Some(crate::t!(
            lang,
            "palette-unknown-lang",
            given = given.trim(),
            supported = Lang::supported()
        ));
    }
    let word = input.split_whitespace().next()?;
    COMMANDS
        .iter()
        .find(|(c, name, _)| *name == word && c.mutates())
        .filter(|_| candidates.readonly)
        .map(|_| crate::t!(lang, "palette-readonly", word = word))
}

/// What typed text means exactly, before falling back to the selected match:
/// `q`/`quit`, a command word, `cluster ID` or `node NAME` naming something that exists.
pub fn exact(input: &str, candidates: &Candidates) -> Option<Target> {
    let input = input.trim();
    if matches!(input, "q" | "q!" | "quit") {
        return Some(Target::Command(PaletteCommand::Quit));
    }
    if let Some((cmd, _, _)) = COMMANDS
        .iter()
        .find(|(c, n, _)| *n == input && !(candidates.readonly && c.mutates()))
    {
        return Some(Target::Command(*cmd));
    }
    match input.split_once(' ') {
        Some(("start", path)) if !candidates.readonly && !path.trim().is_empty() => {
            Some(Target::StartFile(std::path::PathBuf::from(path.trim())))
        }
        Some(("lang", name)) => Lang::parse(name.trim()).ok().map(Target::Lang),
        Some(("login", name)) if !name.trim().is_empty() => {
            Some(Target::Login(name.trim().to_string()))
        }
        Some(("handover", since)) => crate::model::duration::parse_duration(since.trim())
            .ok()
            .filter(|d| !d.is_zero())
            .map(Target::HandoverSince),
        Some(("cluster" | "cl", id)) => candidates
            .clusters
            .iter()
            .find(|(c, _)| c == id.trim())
            .map(|(c, _)| Target::Cluster(c.clone())),
        Some(("node" | "no", name)) => candidates
            .node_names()
            .find(|(_, n)| &***n == name.trim())
            .map(|(c, n)| Target::Node(c.to_string(), Arc::clone(n))),
        Some(_) => None,
        // A bare cluster id opens that cluster.
        None => candidates
            .clusters
            .iter()
            .find(|(c, _)| c == input)
            .map(|(c, _)| Target::Cluster(c.clone())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::capacity as fixtures;

    fn nodes(cluster: &str, names: &[&str]) -> (Arc<str>, Arc<ClusterView>) {
        let nodes = names
            .iter()
            .map(|n| fixtures::node(n, "z").build())
            .collect();
        (
            Arc::from(cluster),
            Arc::new(fixtures::cluster(nodes, Vec::new())),
        )
    }

    fn candidates() -> Candidates {
        Candidates {
            clusters: vec![
                ("eu-fra-prod-01".into(), "production".into()),
                ("us-east-stg-02".into(), "staging".into()),
            ],
            nodes: vec![
                nodes("eu-fra-prod-01", &["fra-gpu-007"]),
                nodes("us-east-stg-02", &["use-cpu-001"]),
            ],
            readonly: false,
            lang: Lang::En,
        }
    }

    #[test]
    fn readonly_hides_commands_that_write() {
        let mut c = candidates();
        assert!(search("pause", &c).iter().any(|e| e.label == ":pause"));
        c.readonly = true;
        assert!(search("pause", &c).iter().all(|e| e.label != ":pause"));
        assert_eq!(exact("pause", &c), None);
        assert_eq!(exact("start m.yaml", &c), None);
    }

    #[test]
    fn commands_and_clusters_match_fuzzily() {
        let m = search("cap", &candidates());
        assert_eq!(m[0].target, Target::Command(PaletteCommand::Capacity));
        let m = search("efp", &candidates());
        assert_eq!(m[0].target, Target::Cluster("eu-fra-prod-01".into()));
        let m = search("cluster stg", &candidates());
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].label, ":cluster us-east-stg-02");
    }

    #[test]
    fn an_exact_id_comes_first() {
        let c = Candidates {
            clusters: vec![
                ("prod-use1-01".into(), "production".into()),
                ("prod-use1-04".into(), "production".into()),
            ],
            nodes: vec![
                nodes("prod-use1-01", &["prod-use1-01-n001"]),
                nodes("prod-use1-04", &["prod-use1-04-n001"]),
            ],
            readonly: false,
            lang: Lang::En,
        };
        for query in ["prod-use1-01", "cluster prod-use1-01"] {
            let m = search(query, &c);
            assert_eq!(
                m[0].target,
                Target::Cluster("prod-use1-01".into()),
                "{query}"
            );
        }
        let m = search("prod-use1-04-n001", &c);
        assert_eq!(
            m[0].target,
            Target::Node("prod-use1-04".into(), "prod-use1-04-n001".into())
        );
    }

    #[test]
    fn many_matches_keep_the_best_and_the_order_found() {
        let names: Vec<String> = (0..200).map(|n| format!("gpu-node-{n:03}")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let c = Candidates {
            clusters: Vec::new(),
            nodes: vec![nodes("a", &names[..100]), nodes("b", &names[100..])],
            readonly: false,
            lang: Lang::En,
        };
        let m = search("node gpu-node-199", &c);
        assert_eq!(m[0].target, Target::Node("b".into(), "gpu-node-199".into()));
        let m = search("node gpu", &c);
        assert_eq!(m.len(), MAX_MATCHES);
        let labels: Vec<&str> = m.iter().map(|e| e.label.as_str()).collect();
        let first: Vec<String> = (0..MAX_MATCHES)
            .map(|n| format!(":node gpu-node-{n:03}"))
            .collect();
        assert_eq!(labels, first, "equal scores keep the order found");
    }

    #[test]
    fn nodes_only_when_asked_or_specific() {
        assert!(
            search("gp", &candidates())
                .iter()
                .all(|e| !matches!(e.target, Target::Node(..)))
        );
        let m = search("node gpu", &candidates());
        assert_eq!(
            m[0].target,
            Target::Node("eu-fra-prod-01".into(), "fra-gpu-007".into())
        );
        assert!(
            search("gpu7", &candidates())
                .iter()
                .any(|e| matches!(e.target, Target::Node(..)))
        );
    }

    #[test]
    fn a_command_with_an_argument_says_enter_runs_it_and_read_only_says_why_not() {
        let mut c = candidates();
        assert_eq!(
            unmatched_hint("start /tmp/x.yaml", &c).as_deref(),
            Some("enter runs :start /tmp/x.yaml")
        );
        assert_eq!(unmatched_hint("zzzz", &c), None);
        c.readonly = true;
        assert_eq!(
            unmatched_hint("start /tmp/x.yaml", &c).as_deref(),
            Some("read-only mode: :start would write to the journal (drop --readonly to act)")
        );
    }

    #[test]
    fn exact_commands_win() {
        let c = candidates();
        assert_eq!(exact("q", &c), Some(Target::Command(PaletteCommand::Quit)));
        assert_eq!(
            exact("ledger", &c),
            Some(Target::Command(PaletteCommand::Ledger))
        );
        assert_eq!(
            exact("cluster us-east-stg-02", &c),
            Some(Target::Cluster("us-east-stg-02".into()))
        );
        assert_eq!(exact("cluster nope", &c), None);
        assert_eq!(
            exact("us-east-stg-02", &c),
            Some(Target::Cluster("us-east-stg-02".into())),
            "a bare cluster id"
        );
        assert_eq!(
            exact("start /tmp/m.yaml", &c),
            Some(Target::StartFile("/tmp/m.yaml".into()))
        );
        assert_eq!(
            exact("handover 12h", &c),
            Some(Target::HandoverSince(std::time::Duration::from_secs(
                12 * 3600
            )))
        );
        assert_eq!(exact("handover soon", &c), None, "not a duration");
        assert_eq!(
            exact("handover", &c),
            Some(Target::Command(PaletteCommand::Handover))
        );
        assert_eq!(
            exact("node use-cpu-001", &c),
            Some(Target::Node("us-east-stg-02".into(), "use-cpu-001".into()))
        );
    }
}
