//! `fleetdeck gitops suspend|resume` on the `findings` scenario's fnd-06 (an Argo CD
//! Application syncing automatically, a Flux Kustomization already suspended), over
//! loopback HTTPS through the real kube client: the object changes on the cluster, the
//! intent and its outcome are journaled, and the operator is told so in their language.

use crate::support::rollout::{Workspace, one_stage_rollout};

/// The journal's event kinds, as `fleetdeck journal -o json` lists them.
fn kinds(ws: &Workspace) -> Vec<String> {
    let text = said(&ws.fleetdeck("alice@ops", &["journal", "-o", "json"]));
    let events: Vec<serde_json::Value> = serde_json::from_str(&text).expect("journal json");
    events
        .iter()
        .filter_map(|e| e["kind"].as_str().map(str::to_owned))
        .collect()
}

fn said(out: &std::process::Output) -> String {
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn suspend_and_resume_are_journaled_and_said_in_the_readers_language() {
    let rollout = one_stage_rollout("gitops-demo", "{webapp: 1.0.0}", "0.5");
    let ws = Workspace::new("findings", 1, "", &rollout).await;
    let sync = |lang: &str, verb: &str, kind: &str, object: &str| {
        let ws = &ws;
        let args = [
            "--lang",
            lang,
            "gitops",
            verb,
            "fnd-06",
            kind,
            object,
            "--reason",
            "incident 42",
        ];
        said(&ws.fleetdeck("alice@ops", &args))
    };

    // In English, as before.
    let en = sync("en", "suspend", "application", "argocd/shop");
    assert!(
        en.starts_with("suspended the sync of ") && en.contains(" on fnd-06 (journal event "),
        "{en}"
    );
    // In Chinese: the same change, said in Chinese around what the cluster answered.
    let zh = sync("zh-CN", "resume", "kustomization", "flux-system/apps");
    assert!(zh.starts_with("已恢复 fnd-06 上 "), "{zh}");
    assert!(zh.contains("的同步（事件日志第 "), "{zh}");

    // Each change is an intent before and an outcome after, whatever the language.
    let kinds = kinds(&ws);
    let intents = kinds.iter().filter(|k| *k == "gitops.intent").count();
    let outcomes = kinds.iter().filter(|k| *k == "gitops.outcome").count();
    assert_eq!((intents, outcomes), (2, 2), "{kinds:?}");
}
