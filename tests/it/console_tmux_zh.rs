//! The demo in Simplified Chinese, end to end in tmux: `LANG=zh_CN.UTF-8 fleetdeck demo
//! --seed 1` approves the canary and hands off a stuck maintenance step, every screen and
//! dialog on the way in Chinese, while what scripts read (statuses, ids) and what the
//! journal holds stay as in English.

use std::thread::sleep;
use std::time::Duration;

use crate::console_tmux::journal_events;
use crate::support::tmux::{Tmux, require_tmux};

/// A maintenance of the demo's prod-use1-01-n000, whose checkout pod a PDB keeps from any
/// eviction (scenarios/demo.yaml): its precheck waits on the budget and, past a 15-second
/// deadline, the step is stuck and waits for a person.
const STUCK_MAINTENANCE: &str = "apiVersion: fleetdeck.dev/v1
kind: Maintenance
name: zh-stuck
cluster: prod-use1-01
nodes:
  names: [prod-use1-01-n000]
action:
  manual:
    instructions: reseat the NIC
budgets:
  maxUnavailable: 1
deadlines:
  precheck: 15s
";

#[test]
fn the_demo_in_chinese_approves_the_canary_and_hands_off_a_stuck_step() {
    require_tmux();
    let dir = tempfile::tempdir().expect("demo dir");
    let dir_s = dir.path().to_str().expect("utf-8 path").to_owned();
    let journal = format!("{dir_s}/journal.sqlite");
    let file = format!("{dir_s}/zh-stuck.yaml");
    std::fs::write(&file, STUCK_MAINTENANCE).expect("maintenance file");
    // An empty directory as the whole PATH: no Prometheus, so the rollout's gates are live
    // checks and the approval does not wait for metrics to be scraped.
    let bare = tempfile::tempdir().expect("empty PATH");
    let path = bare.path().to_str().expect("utf-8 path").to_owned();
    let t = Tmux::start(
        "zh",
        &["--as", "tester@e2e", "demo", "--seed", "1", "--dir", &dir_s],
        &[("PATH", &path), ("LANG", "zh_CN.UTF-8")],
    );
    t.wait_for("Synced", 60);

    // The rollouts screen, in Chinese; the statuses stay as scripts read them.
    t.send(&["3"]);
    let screen = t.wait_for("awaiting-approval", 60);
    for said in ["台账 › 发布", "批次", "门禁", "运行 · 状态"] {
        assert!(screen.contains(said), "{said}:\n{screen}");
    }
    // Approve the canary. Its cluster may still be connecting: the refusal says so in
    // Chinese, and the form opens once it is Synced.
    let mut tries = 0;
    loop {
        t.send(&["a"]);
        // The approval form (its note field) or the refusal: the footer's `a 批准` hint
        // is on the screen before either, so it cannot be what is waited for.
        let screen = t.wait_for_any(&["备注", "被拒绝："], 20);
        if !screen.contains("被拒绝：") {
            break;
        }
        assert!(screen.contains("任意键关闭"), "{screen}");
        tries += 1;
        assert!(
            tries < 30,
            "the canary's cluster never became Synced:\n{screen}"
        );
        t.send(&["Escape"]);
        sleep(Duration::from_secs(2));
    }
    t.send(&["Enter"]);
    t.wait_for("将会：", 20);
    t.send(&["Enter"]);
    t.wait_for("批准已由 tester@e2e 记录", 20);
    let screen = t.wait_for("1/1 done", 150);
    assert!(screen.contains("canary"), "{screen}");
    let kind = |e: &serde_json::Value| e["kind"].as_str().unwrap_or("").to_owned();
    let events = journal_events(&journal);
    assert!(
        events
            .iter()
            .any(|e| kind(e) == "run.approved" && e["actor"] == "tester@e2e"),
        "the approval is journaled as in English: {events:#?}"
    );

    // Start the maintenance from its file, through the plan dialog, in Chinese.
    t.send(&[":"]);
    t.send_text(&format!("start {file}"));
    t.send(&["Enter"]);
    t.wait_for("第 1 批次：prod-use1-01-n000", 20);
    t.send(&["Enter", "Enter"]);
    t.wait_for("将会：", 20);
    t.send(&["Enter"]);
    t.wait_for("tester@e2e 已开始运行", 20);

    // Past its deadline the precheck is stuck, and the swimlanes say why, in Chinese.
    t.send(&["4"]);
    let screen = t.wait_for("卡住原因：", 120);
    assert!(screen.contains("prod-use1-01-n000"), "{screen}");
    assert!(
        screen.contains("checkout-blocking"),
        "the budget is named:\n{screen}"
    );

    // Hand it off with a note.
    t.send(&["h"]);
    t.wait_for("交出 prod-use1-01-n000", 20);
    t.send_text("dana@ops");
    t.send(&["Enter"]);
    t.send_text("结账服务的 PDB 阻止驱逐；已呼叫负责人");
    t.send(&["Enter"]);
    t.wait_for("将会：", 20);
    t.send(&["Enter"]);
    t.wait_for("交出已由 tester@e2e 记录", 20);
    t.wait_for("→dana@ops", 20);

    // The journal holds what an English console writes: the same kinds, the person's
    // own note as typed.
    let events = journal_events(&journal);
    let blocked = events
        .iter()
        .any(|e| kind(e) == "step.status" && e["payload"]["status"]["status"] == "blocked");
    assert!(
        blocked,
        "the step was stuck before it was handed off: {events:#?}"
    );
    let handoff = events
        .iter()
        .find(|e| kind(e) == "operator.handoff")
        .expect("the hand-off is journaled");
    assert_eq!(handoff["actor"], "tester@e2e");
    assert!(
        handoff
            .to_string()
            .contains("结账服务的 PDB 阻止驱逐；已呼叫负责人"),
        "{handoff:#}"
    );

    // Quitting names the runs the console's executor stops, in Chinese, and asks first.
    t.send(&["q"]);
    sleep(Duration::from_millis(500));
    if t.capture().contains("退出 fleetdeck？") {
        assert!(t.capture().contains("mnt-"), "the runs that stop are named");
        t.send(&["q"]);
    }
    let screen = t.wait_for("exit=", 30);
    assert!(screen.contains("exit=0"), "{screen}");
    assert!(!t.alternate_screen_on());
}
