# 交接班：控制台的 `H` 逐项查看，`fleetdeck handover`（表格与 Markdown）。
# 用词见 GLOSSARY.md。集群状态、步骤名、ID、人名、备注与原因按原文显示。

## Sections

handover-section-paused = 已暂停的自动化
handover-section-awaiting = 等待批准的批次
handover-section-stuck = 卡住的步骤
handover-section-handed-off = 已交出的步骤
handover-section-halted = 已停止的发布
handover-section-left = 变更中途遗留
handover-section-clusters = Unreachable / IdentityMismatch / UNKNOWN 的集群
handover-section-clusters-short = 不可信的集群
handover-section-not-whole = 有节点宕机或 PDB 低于下限的集群
handover-section-not-whole-short = 不完整的集群
handover-section-findings = 本班新增或加重的发现
handover-section-findings-short = 新增或加重的发现
handover-section-exceptions = 即将到期的例外
handover-section-notes = 未结备注

## Items: titles

handover-pause-title = { $scope } 已暂停：{ $why }
handover-awaiting-title = { $run }：第 { $batch } 批次等待批准（{ $count } 个集群）
handover-stuck-title = { $run } 中 { $item } 的 { $step } 卡住
handover-handed-title = { $run } 中 { $item } 的 { $step } 在 { $to } 手中（{ $how ->
    [taken] 已接管
   *[handed] 已交出
}）
handover-halted-title = { $run } 已停止：{ $why }
handover-left-title = { $run } 中的 { $item } { $how ->
    [cordoned] 遗留为封锁状态
   *[mid-step] 停在步骤中途
}
handover-cluster-is = { $cluster } 为 { $status }
handover-cluster-fact = { $cluster }：{ $fact }
handover-exception-expires-title = { $cluster }：例外“{ $what }”将在 { $days } 天后到期（{ $expires }）
handover-exception-expired-title = { $cluster }：例外“{ $what }”已过期 { $days } 天（{ $expires }）

## Items: details

handover-why = 原因：{ $why }
handover-by = 操作人：{ $by }
handover-pause-by-guard = 操作人：{ $by }（大规模失败保护：只有人可以恢复）
handover-since-ago = 起始：{ $since }（{ $ago } 前）
handover-since = 自 { $since } 起
handover-rollout = 发布：{ $title }
handover-clusters = 集群：{ $clusters }
handover-cluster = 集群：{ $cluster }
handover-started-by = 发起人：{ $by }
handover-stuck-for = 已卡住 { $ago }（自 { $since } 起）
handover-owner = 负责人：{ $owner }
handover-note = 备注：{ $note }
handover-reason = 理由：{ $reason }
handover-exit-criteria = 退出条件：{ $criteria }
handover-handed-by = 由 { $by } 于 { $ago } 前{ $how ->
    [taken] 接管
   *[handed] 交出
}（{ $at }）
handover-halted-resume = 请恢复或中止它：不会自行恢复
handover-status = 状态：{ $status }
handover-last-error = 最近错误：{ $error }
handover-identity-refused = 在核对台账中固定的身份之前，对它的一切操作都会被拒绝
handover-credentials-fix = 在其凭据可用之前不会从它读取任何内容：登录（在控制台中用 :login）或修正 kubeconfig 用户
handover-degraded = 数据 Degraded：{ $why }
handover-degraded-unread = 数据 Degraded：部分数据无法读取
handover-nodes-not-ready = { $total } 个节点中 { $down } 个未就绪
handover-budget-below = PDB { $budget } 健康 { $healthy } 个，需要 { $needs } 个：低于下限
handover-finding-new = 本班新增，{ $severity }
handover-finding-worse = 本班加重：{ $severity }
handover-finding-worse-since = 本班加重：自 { $since } 起为 { $severity }
handover-finding-clear = 消除方法：{ $how }
handover-at-ago = 时间：{ $at }（{ $ago } 前）
handover-about = 关于：{ $about }
handover-about-run = 运行 { $run }
handover-about-node = 节点 { $node }
handover-about-cluster = 集群 { $cluster }
handover-about-fleet = 整个舰队
handover-check-current = 当前：读自事件日志或集群的当前状态
handover-check-confirmed = 已核对：{ $how }
handover-check-not-checked = 未核对：{ $why }

## Acknowledgements

handover-ack-unchanged = 此后未变
handover-ack-worse = 此后加重：{ $how }
handover-ack-then-now = 当时 { $then }；现在 { $now }
handover-ack-not-recorded = 未记录当时的情况

## The walkthrough (console, `H`)

handover-walk-title = 交接班，最近 { $shift } · 第 { $item }/{ $of } 项 · ←/→ 切换{ $ack } · esc 关闭
handover-walk-title-short = 交接班，最近 { $shift } · { $item }/{ $of } · ←/→{ $ack } · esc
handover-walk-title-tiny = 交接班 · { $item }/{ $of }
handover-walk-ack-key = a 确认
handover-walk-no-journal = 事件日志未连接：无法从中交接任何内容。
handover-walk-no-journal-why = 暂停、等待批准的批次、卡住或已交出的步骤以及备注都读自事件日志；请检查日志文件和事件日志文件。
handover-walk-nothing = 没有需要交接的内容。
handover-walk-nothing-why = 最近 { $shift } 内：没有暂停，没有等待批准的批次，没有卡住或已交出的步骤，没有已停止的发布，没有 Unreachable / IdentityMismatch / UNKNOWN 的集群，没有节点宕机或 PDB 低于下限的集群，没有 14 天内到期的例外，没有备注。
handover-walk-not-checked-heading = 未核对：
handover-walk-not-acked = 本班未确认
handover-walk-not-acked-key = 本班未确认 · a 附备注确认（写入事件日志）
handover-walk-reopened = 已重新打开：确认后情况加重 · a 按当前情况再次确认
handover-walk-acked = 已确认
handover-walk-was-acked = 曾确认
handover-walk-acked-by = 确认人 { $by }，时间 { $at }：{ $note }
handover-walk-not-checked = 本次交接未核对：

## `fleetdeck handover`: the table and the Markdown report

handover-col-section = 部分
handover-col-item = 事项
handover-col-details = 详情
handover-col-acknowledged = 确认
handover-table-nothing = 从能读取的内容看，没有需要交接的内容。
handover-table-ack = { $by } { $at }：{ $note }（{ $change }）
handover-table-ack-reopened = 已重新打开，曾由 { $by } { $at }：{ $note }（{ $change }）
handover-table-settled = 此后已解决：{ $title } — { $how }
handover-table-not-checked = 未核对：{ $why }
handover-md-title = 交接班
handover-md-span = 从 { $from } 到 { $to } · { $count } 项
handover-md-not-checked = 未核对
handover-md-ack = 已确认，确认人 { $by }，时间 { $at }：{ $note }（{ $change }）
handover-md-ack-reopened = 已重新打开，曾确认，确认人 { $by }，时间 { $at }：{ $note }（{ $change }）
handover-md-nothing = 从能读取的内容看，没有需要交接的内容：没有暂停，没有等待中的批次，没有卡住或已交出的步骤，没有已停止的发布，没有有问题的集群，没有即将到期的例外，没有备注。
handover-md-settled = 此后已解决

## Not checked (what could not be read, and why)

handover-nc-journal = 未读取事件日志（{ $why }）：暂停、等待批准的批次、卡住和已交出的步骤、已停止的发布、运行在变更中途遗留的内容、备注和确认均未知
handover-nc-ledger-all = 未读取台账（{ $why }）：Unreachable、IdentityMismatch、UNKNOWN 或不完整的集群、本班新增或加重的发现以及即将到期的例外均未知，事件日志所说的遗留内容也未与集群核对
handover-nc-fleet = 未核对集群状态（{ $why }）：Unreachable、IdentityMismatch、UNKNOWN 或不完整的集群均未知，事件日志所说的遗留内容也未与集群核对
handover-nc-connecting = 仍在连接，状态未知：{ $clusters }
handover-nc-ledger = 未读取台账（{ $why }）：即将到期的例外未知
handover-nc-findings = 未评估发现（{ $why }）：本班新增或加重的发现未知
handover-nc-undated = { $count } 项发现的起始时间未知（{ $rules }），可能是新的也可能是旧的：`fleetdeck findings` 和发现页面会列出它们
handover-nc-kubeconfig = 未读取 kubeconfig（{ $why }）：无法连接任何集群

## Lists (what a note is about): two parts, folded for more

handover-list-pair = { $a }、{ $b }

## What was left mid-change: the lines of an item

handover-left-aborted-by = 由 { $by } 于 { $ago }前中止（{ $when }）：{ $note }
handover-left-step-set-by = { $step } { $status }，由 { $by } 于 { $ago }前设置（{ $when }）
handover-left-stood-in-hands = 停在 { $step }，在 { $to } 手中（自 { $when } 起）：该运行已结束，交还会被拒绝，之后不会再有动作
handover-left-stood-at = 停在 { $step }：{ $status }
handover-left-run = 运行：{ $title }（{ $status }）
handover-left-cordoned-never-uncordoned = fleetdeck 封锁了该节点且从未解除封锁：请检查它，确认可用后解除封锁（kubectl uncordon），或在新的维护运行中完成它
handover-left-not-cordoned = fleetdeck 尚未封锁它；Pod 可能已被驱逐
handover-left-cluster = 集群：{ $cluster }
handover-release-left-title = { $run } 已中止，其版本已在 { $total } 个集群中的 { $on } 个上{ $inFlight ->
    [0] {""}
   *[other] ，另有 { $inFlight } 个正在应用
}
handover-release-rollout = 发布：{ $title }
handover-release-on = 已发布到：{ $clusters }
handover-release-in-flight = 正在应用到：{ $clusters }（结果未定：请检查这些集群运行的版本）
handover-release-since = 此后：{ $how }
handover-release-others-unchanged = 其他集群仍运行原来的版本；回滚就是发布上一个版本
handover-finding-title = { $cluster }：{ $summary }
