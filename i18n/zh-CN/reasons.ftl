# Sentences the model writes that people read: why an action is refused, gate lines,
# why a step is stuck, why a rollout halted. The journal keeps the English; these show it
# in the reader's language.

## Why an operator command is refused (`model/rollout/approval.rs`, `model/run/refusal.rs`)

reason-author-cannot-approve = { $approver } 发起了这次发布，不能批准它的批次（approvals.distinctApprover 为 true）：请另一个人批准
reason-only-a-person = { $actor } 是自动化：只有人可以{ $what }
reason-what-approve-batch = 批准批次
reason-what-abort-rollout = 中止发布
reason-what-resume-rollout = 恢复发布
reason-what-pause = 暂停
reason-what-abort = 中止
reason-what-approve = 批准
reason-what-resume = 恢复
reason-not-awaiting-approval = 第 { $batch } 批次不在等待批准（它处于 { $phase }）
reason-clusters-cannot-act = 第 { $number } 批次现在不能批准：{ $clusters } 无法执行操作；请暂停或中止运行，或等到该批次的每个集群都能执行操作（Synced 或 Degraded，且已确认台账固定的身份）后再批准
reason-blocked-cluster = { $cluster }（{ $reason }）
reason-not-now = 无法{ $what }：运行处于 { $status }
reason-no-run = 事件日志中没有运行 { $run }
reason-no-item = 运行 { $run } 没有节点 { $item }
reason-nothing-to-approve = { $run } 没有等待批准的批次
reason-empty = { $what }不能为空
reason-field-reason = 原因
reason-field-assignee = 接手人
reason-field-note = 备注
reason-not-in-hand = { $run } 的节点 { $item } 不在任何人手中：请先交出或接管，再交还
reason-run-over = { $run } 已是 { $status }：{ $what }
reason-over-nothing-to-abort = 已没有可中止的内容
reason-over-aborted-nodes = 它的节点上不会再有后续操作；它留下的节点保持原样（待节点恢复正常后请手动解除封锁）
reason-over-finished = 它的每个节点都已完成；没有后续操作

## Why a rollout halted (`model/rollout/gates.rs`, `HaltReason`)

reason-halt-failed = 已完成的 { $finished } 个集群中有 { $failed } 个失败，停止上限 { $limit }：{ $clusters }
reason-halt-limit-percent = 已完成集群的 { $percent }%
reason-halt-burn = { $cluster } 的 SLO 消耗速率 { $burn }x 超过上限 { $max }x（目标 { $objective }%，窗口 { $window }）
reason-halt-burn-both = { $cluster } 的 SLO 消耗速率超过两个窗口的上限：{ $window } 内 { $burn }x（上限 { $max }x），{ $shortWindow } 内 { $shortBurn }x（上限 { $shortMax }x）（目标 { $objective }%）
reason-halt-metrics-unknown = { $n } 个集群的指标未知（{ $clusters }）；unknownMetrics 为 stop
reason-halt-outcome-unknown = { $cluster } 的结果未知：{ $why }

## The rollouts screen's gate lines and batch phases (`tui/screens/rollouts.rs`)

gate-stop-at = { $limit }时停止
gate-limit-count = { $n } 个集群失败
gate-limit-percent = 已完成集群中 { $percent }% 失败
gate-burn = SLO 消耗速率超过 { $max }× 时停止（目标 { $objective }%，窗口 { $window }）
gate-no-burn = 无 SLO 消耗速率门禁
gate-unknown-means = 指标为 UNKNOWN 时：{ $action }
gate-apply-failed = { $cluster }：应用失败：{ $why }
gate-verify-failed = { $cluster }：验证失败：{ $reason }
gate-verify-unknown = { $cluster }：验证结果 UNKNOWN：{ $why }
gate-passed = 第 { $batch } 批次后的门禁已通过
gate-none-yet = 尚未评估门禁
gate-halt-burn = 第 { $batch } 批次：{ $cluster } 的消耗速率 { $burn }× 超过阈值 { $max }×
gate-halt-metrics = 第 { $batch } 批次：{ $clusters } 的指标为 UNKNOWN
gate-halt-other = 第 { $batch } 批次：{ $why }
batch-soaking = 观察期，剩余 { $left }
batch-soaked = 观察期结束，待门禁评估

## Why a maintenance may not start (`model/maintenance/planner.rs`, `PlanRefusal`)

reason-plan-missing = 集群上找不到这些节点：{ $nodes }
reason-plan-nothing-selected = 没有要维护的节点：{ $selection } 未选中任何节点
reason-plan-nothing-plannable = 在预算内无法安排任何节点：{ $why }

## Why a cluster cannot take actions now (`model/live`)

reason-cluster-stale = 近期没有关于它的任何信息：集群处于 { $status }
reason-cluster-not-in-view = 不在舰队视图中
reason-identity-not-pinned = 台账未固定身份
reason-identity-mismatch = 身份不匹配：{ $why }
reason-identity-not-confirmed = 身份尚未确认

## A maintenance plan's budgets and warnings (`model/maintenance/planner.rs`)

plan-limit-max = 已达到 maxUnavailable { $max }
plan-limit-domain = { $domain } 已达到 perFailureDomain { $per }
plan-limit-label = perLabel { $label }={ $value } 已达到 maxUnavailable { $max }
plan-unplanned-by-down = { $why }（被已不可用的节点占满）
plan-warning-down = { $n } 个已不可用的节点计入每个批次：{ $nodes }
plan-warning-unlabelled = { $nodes } 没有 { $label } 标签：它们在预算中共用一个故障域

## A job context the ledger names (`jobContexts`) that cannot be used
job-context-other-server = 它指向 { $server }，而不是集群自己的上下文所连接的 API 服务器（{ $expected }）：该作业会作用于一个无法确认身份的集群
