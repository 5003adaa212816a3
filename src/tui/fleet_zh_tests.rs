//! The fleet's own screens in Chinese: the ledger, a cluster's drill-down, a node's page
//! and a PDB's pods say their words in zh-CN (and the same words in English as before),
//! and the Chinese still fits the smallest screen.

use ratatui::layout::Rect;

use super::app::{App, Msg};
use super::canvas_check::check_draw;
use super::fixtures;
use super::tests::{press, text};
use super::view::draw;
use crate::i18n::Lang;

fn app(lang: Lang, w: u16, h: u16) -> App {
    let mut app = fixtures::operator_app();
    app.update(Msg::Resize(w, h));
    app.config.lang = lang;
    app
}

/// The screen as text, and what the checking canvas found overlapping or cut.
fn drawn(app: &App) -> (String, Vec<String>) {
    let (w, h) = app.size;
    let area = Rect::new(0, 0, w, h);
    let (buf, findings) = check_draw(area, |buf| draw(app, area, buf));
    (text(&buf), findings)
}

#[test]
fn the_cluster_head_says_it_in_chinese_and_still_fits_at_60_by_20() {
    let mut zh = app(Lang::ZhCn, 160, 45);
    zh.open_cluster("eu-fra-prod-01", None);
    let (screen, findings) = drawn(&zh);
    assert!(findings.is_empty(), "{findings:?}");
    for words in [
        "Synced，最后联系于 3s前",
        "身份已固定且一致",
        "13 个节点 · 58 个 Pod",
        "计入容量",
        "否：维护中",
        "会阻塞腾空的 PDB（1）",
        "最近的事件日志",
    ] {
        assert!(screen.contains(words), "{words:?} missing:\n{screen}");
    }
    assert!(!screen.contains("last heard"), "{screen}");
    assert!(!screen.contains("COUNTS AS CAPACITY"), "{screen}");

    let mut small = app(Lang::ZhCn, 60, 20);
    small.open_cluster("eu-fra-prod-01", None);
    let (screen, findings) = drawn(&small);
    assert!(findings.is_empty(), "60×20: {findings:?}\n{screen}");
    assert!(screen.contains("Synced，最后联系于 3s前"), "{screen}");

    // English is as it was.
    let mut en = app(Lang::En, 160, 45);
    en.open_cluster("eu-fra-prod-01", None);
    let (screen, _) = drawn(&en);
    for words in [
        "Synced, last heard 3s ago",
        "identity pinned and matching",
        "13 nodes · 58 pods",
        "PDBs that would block a drain (1)",
        "Recent journal events",
    ] {
        assert!(screen.contains(words), "{words:?} missing:\n{screen}");
    }
}

#[test]
fn the_ledger_sorts_groups_and_marks_in_chinese() {
    let mut zh = app(Lang::ZhCn, 160, 45);
    press(&mut zh, "R space");
    let (screen, findings) = drawn(&zh);
    assert!(findings.is_empty(), "{findings:?}");
    for words in [
        "显示 7/7 个集群",
        "排序：状态，最差在前",
        "按区域分组",
        "已标记 1 个",
        "状态 · 最后联系↑",
        "从未联系上",
    ] {
        assert!(screen.contains(words), "{words:?} missing:\n{screen}");
    }
    // Reversed, the arrow and the order's words turn.
    press(&mut zh, "r");
    let (screen, _) = drawn(&zh);
    assert!(screen.contains("状态，最健康在前"), "{screen}");
    assert!(screen.contains("状态 · 最后联系↓"), "{screen}");
    // A key the screen answers in words.
    press(&mut zh, "/");
    super::tests::typed(&mut zh, "nothing-is-called-this");
    press(&mut zh, "enter");
    let (screen, _) = drawn(&zh);
    assert!(screen.contains("没有匹配过滤条件的集群"), "{screen}");
    press(&mut zh, "enter");
    assert_eq!(
        zh.message.as_deref(),
        Some("没有列出集群（过滤条件一个也不匹配）")
    );
}

#[test]
fn the_node_page_and_a_pdbs_pods_in_chinese() {
    let mut zh = app(Lang::ZhCn, 160, 45);
    zh.open_cluster("eu-fra-prod-01", None);
    press(&mut zh, "enter");
    let (screen, findings) = drawn(&zh);
    assert!(findings.is_empty(), "{findings:?}");
    for words in [
        "节点 fra1-cpu-a00",
        "计入容量：是",
        "若腾空，Pod 去向",
        "受阻于 PDB shop/web",
        "可迁移",
    ] {
        assert!(screen.contains(words), "{words:?} missing:\n{screen}");
    }
    let mut zh = app(Lang::ZhCn, 80, 24);
    zh.open_cluster("eu-fra-prod-01", None);
    press(&mut zh, "tab enter");
    let (screen, findings) = drawn(&zh);
    assert!(findings.is_empty(), "{findings:?}");
    for words in ["现在允许 0 次干扰", "现在驱逐", "拒绝"] {
        assert!(screen.contains(words), "{words:?} missing:\n{screen}");
    }
}

#[test]
fn what_the_fleet_screens_answer_after_a_key_in_chinese() {
    let mut zh = app(Lang::ZhCn, 80, 24);
    press(&mut zh, "up");
    assert_eq!(zh.message.as_deref(), Some("已在第一行"));
    press(&mut zh, "esc");
    assert_eq!(zh.message.as_deref(), Some("已在台账：按 q 退出"));
    zh.open_cluster("eu-fra-prod-01", None);
    press(&mut zh, "tab space");
    assert_eq!(
        zh.message.as_deref(),
        Some("标记只用于节点（tab 回到节点）")
    );
    zh.open_cluster("us-east-prod-03", None);
    press(&mut zh, "w");
    assert_eq!(
        zh.message.as_deref(),
        Some("不能对 us-east-prod-03 做假设分析：其数据为 Unreachable，不可信")
    );
    let mut en = app(Lang::En, 80, 24);
    press(&mut en, "up");
    assert_eq!(en.message.as_deref(), Some("already on the first row"));
    press(&mut en, "esc");
    assert_eq!(en.message.as_deref(), Some("at the ledger: q quits"));
    en.open_cluster("eu-fra-prod-01", None);
    press(&mut en, "tab space");
    assert_eq!(
        en.message.as_deref(),
        Some("marks are for nodes (tab goes back to them)")
    );
}

#[test]
fn contexts_the_ledger_does_not_list_in_chinese_at_every_size() {
    for (w, h, said) in [
        (
            160,
            45,
            "2 个 kubeconfig 上下文不在台账中：stg-apse1-04, kind-dev（ledger reconcile）",
        ),
        (60, 20, "2 个 kubeconfig 上下文不在台账中"),
    ] {
        let mut zh = app(Lang::ZhCn, w, h);
        zh.config.unregistered_contexts = vec!["stg-apse1-04".into(), "kind-dev".into()];
        let (screen, findings) = drawn(&zh);
        assert!(findings.is_empty(), "{w}×{h}: {findings:?}");
        assert!(screen.contains(said), "{w}×{h}:\n{screen}");
    }
}
