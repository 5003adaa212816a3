# 操作对话框：字段、提示、确认与拒绝，以及操作之后控制台显示的消息。
# 首尾空格由代码添加，不写在消息里。

## 对话框外框

dialog-field-reason = 原因
dialog-field-note = 备注
dialog-field-assignee = 接手人
dialog-field-why = 原因
dialog-field-type-name = 输入名称以确认
dialog-field-name = 名称
dialog-field-drain-deadline = 腾空期限（超时即卡住）
dialog-outcome = 结果
dialog-outcome-done = d 完成
dialog-outcome-retry = r 重试
dialog-outcome-abort = a 中止
dialog-this-will = 将会：
dialog-hint-edit-multiline = enter 继续 · tab 下一字段 · alt-enter 换行 · esc 取消
dialog-hint-edit = enter 继续 · tab 下一字段 · esc 取消
dialog-hint-edit-short = enter · tab · esc
dialog-hint-quit = q 或 enter 退出 · esc 留下
dialog-hint-quit-short = q 退出 · esc 留下
dialog-hint-confirm = enter 确认 · esc 返回 · 按 enter 之前不发送任何内容
dialog-hint-confirm-medium = enter 确认 · esc 返回
dialog-hint-confirm-short = enter · esc
dialog-hint-enlarge = 放大终端以查看全部并确认 · esc 返回
dialog-hint-enlarge-medium = 放大终端以确认 · esc 返回
dialog-hint-enlarge-short = 放大终端以确认
dialog-hint-too-small = 太小，无法确认
dialog-hint-refused = 任意键关闭 · 未发送任何内容
dialog-hint-refused-short = 任意键关闭

## 表单为何不完整

dialog-empty = { $field }不能为空
dialog-choose-outcome = 请选择结果：d 完成、r 重试或 a 中止
dialog-type-exactly = 请准确输入 { $name } 以确认中止
dialog-nothing-to-send = 没有可发送的内容
dialog-bad-deadline = 腾空期限 { $deadline }：{ $error }
dialog-bad-name = 名称 { $name }：{ $why }

## 将会发生什么

will-pause = 暂停{ $scope }：在有人恢复之前，那里不会启动新步骤；进行中的步骤会完成，不撤销任何操作（原因：{ $reason }）
will-resume = 恢复{ $scope }：自动化在那里重新启动新步骤{ $noted }
will-hand-off = 把 { $run } 的 { $item } 交出给 { $to }：交还之前执行引擎不再处理它{ $noted }
will-take-over = 接管 { $run } 的 { $item }：它归你负责，在你交还之前执行引擎不再处理它{ $noted }
will-return-done = 交还 { $run } 的 { $item }（{ $outcome }）：该步骤算作完成，执行引擎继续{ $noted }
will-return-retry = 交还 { $run } 的 { $item }（{ $outcome }）：执行引擎以新的期限重试该步骤{ $noted }
will-return-abort = 交还 { $run } 的 { $item }（{ $outcome }）：该节点到此为止；不撤销任何操作{ $noted }
will-abort = 中止 { $run }：它不再启动任何新步骤；已完成的不会撤销{ $noted }
will-approve-batch = 批准 { $run } 的第 { $batch } 批次：其集群开始执行，除非有暂停阻止该运行{ $noted }
will-approve-waiting = 批准 { $run } 等待中的批次：其集群开始执行，除非有暂停阻止该运行{ $noted }
will-note = 在事件日志中记下备注：{ $text }
will-acknowledge = 确认“{ $title }”{ $stands }：对所有人保持已确认，直到情况恶化或那里出现其他问题{ $noted }
will-acknowledge-stands = （按当前状态：{ $extent }）
will-noted = （备注：{ $note }）
will-start-maintenance = 在事件日志中记下 { $cluster } 上的维护 { $name }，涉及 { $nodes }（已知 { $known } 个节点）；随后执行引擎逐个节点在预算内封锁、腾空（通过驱逐 API，遵守 PDB；{ $deadline } 后视为卡住），并在 Maintain 步骤等待人工处理
will-nodes-matching = 匹配 { $selector } 的节点
will-refusal = 将拒绝记入事件日志以备审计
will-quit = 退出
will-gitops = { $verb } { $cluster } 上 { $object } 的同步（前后均记入事件日志；先核验集群身份），并在对象上注明你的名字和原因
will-quit-executor = 停止本控制台的执行引擎：进行中的步骤停在原处（节点可能保持封锁），不撤销任何操作；`fleetdeck run` 或再次启动本控制台会接手这些运行

## 对话框中的暂停范围

scope-fleet = 整个舰队
scope-cluster = 集群 { $cluster }
scope-run = 运行 { $run }
scope-domain = 集群 { $cluster } 的故障域 { $domain }

## 按键之后

msg-sent = 已发送：{ $what }（等待事件日志）
msg-cancelled = 已取消：未发送任何内容
msg-not-quit = 未退出：执行引擎继续运行
msg-too-small-to-send = 未发送：终端太小，无法显示将要发生的事；请放大终端
msg-done = ✓ { $text }
msg-refused = ✗ 被拒绝：{ $text }
msg-dropped-keys = 在确认之前键入的 { $dropped } 个按键已丢弃：请先阅读，再确认
msg-readonly = 只读模式（--readonly）：“{ $what }”会写入事件日志，已拒绝；去掉 --readonly 重新启动才能操作
msg-no-run = 未选择运行
msg-no-rollout = 未选择发布
msg-no-node = 未选择节点
msg-none-awaiting = { $run } 没有等待审批的批次
msg-already-final = { $run } 已经是 { $status }
msg-no-single-cluster = { $run } 不只作用于单个集群
msg-not-handed = { $item } 不在人工处理中：请先交出（h）或接管（t）
msg-takes-no-change = { $id } 不接受变更（只有身份已确认的 Synced 或 Degraded 集群才接受）：{ $why }
msg-no-data = 尚无 { $id } 的数据
msg-mark-with = 请先用 { $key } 标记节点
msg-mark-first = 请先标记节点

## 批准

approve-title = 批准 { $run } 的第 { $batch } 批次
approve-started = { $run } · { $title } · 由 { $by } 启动
approve-batch = 第 { $batch } 批次，共 { $batches } 批：{ $n } 个集群
approve-budgets = 预算：同时最多 { $max } 个进行中{ $region }{ $domain }
approve-per-region = ，每个区域 { $n } 个
approve-per-domain = ，每个故障域 { $n } 个
approve-gate = 门禁：{ $gate }
approve-paused = 该运行已暂停（{ $scope }：{ $reason }，由 { $by }）：恢复后批次才会开始
refused = 被拒绝：{ $why }

## 暂停与恢复

pause-resume-halted-title = 恢复已停止的 { $run }
pause-halted = { $run } 已停止：{ $why }
pause-halted-resuming = 恢复后执行引擎继续；停止条件会重新评估。
pause-resume-title = 恢复{ $scope }
pause-paused-by = 由 { $by } 自 { $since } 暂停：{ $reason }
pause-may-start = 运行 { $run }（{ $title }）可以重新启动新步骤，除非有其他暂停阻止它。
pause-title = 暂停{ $scope }
pause-run-is = 运行 { $run }（{ $title }）状态为 { $status }。
pause-no-new-step = 此暂停下不启动新步骤；进行中的步骤会完成；不撤销任何操作。
pause-all-resume-title = 恢复全部自动化
pause-all-paused-by = 全部自动化由 { $by } 自 { $since } 暂停：{ $reason }
pause-all-frees = 恢复后 { $n } 个未完成的运行可以重新启动新步骤。
pause-all-held = 其他暂停（按运行、集群或故障域）仍然有效：它们仍阻止 { $n } 个运行。
pause-all-title = 暂停全部自动化
pause-all-nothing-starts = 在有人恢复之前，舰队中任何运行都不会启动新步骤。
pause-all-in-flight = 已在进行中的步骤会完成并被记录；不撤销任何操作。
pause-all-affected = 影响 { $n } 个未完成的运行。

## 中止

abort-title = 中止 { $run }
abort-started = { $title } · { $status } · 由 { $by } 启动
abort-no-new-step = 此运行不再启动任何新步骤。已完成的不会撤销。
abort-rollback = 回滚是另一次发布，发布上一个版本。
abort-cordoned = 它封锁的节点保持封锁，直到有人解除封锁（kubectl uncordon）。
abort-type = 输入 { $name } 以确认。

## 节点卡片：交出、接管、交还

card-in = { $run }（{ $title }）中的 { $item }
card-step = 步骤 { $step }：{ $status }
card-owner = 负责人：{ $to } · 备注：{ $note }
hand-off-title = 交出 { $item }
hand-off-leaves = 在接手人交还之前，执行引擎不再处理该节点。
take-over-title = 接管 { $item }
take-over-becomes = 它归 { $actor } 负责；交还之前执行引擎不再处理它。
return-title = 交还 { $item }
return-outcomes = 结果（选一项）：d 完成（执行引擎继续）· r 重试该步骤 · a 中止该节点
return-paused = 该运行已暂停（{ $scope }：{ $reason }）：恢复后完成或重试才生效

## 确认

acknowledge-title = 确认
acknowledge-journaled = 以你的名字记入事件日志，所有人可见；直到问题恶化或那里出现其他问题之前一直有效。

## 退出

quit-title = 退出 fleetdeck？
quit-driving = 本控制台的执行引擎正在驱动 { $n } 个运行：

## 启动维护

start-from-title = 从 { $name } 启动维护
start-cannot-read = 无法读取 { $name }：{ $error }
start-has-errors = { $name } 有错误：未启动任何内容
start-title = 在 { $id } 上启动维护
start-maintenance-on = { $id } 上的维护 { $name }
start-did-you-mean = （你是指 { $close } 吗？）
start-no-cluster = 台账中没有集群 { $id }{ $hint }：未发送任何内容
start-no-data = 尚无它的数据
start-refused-cluster = 被拒绝：只有身份已确认的 Synced 或 Degraded 集群才允许操作；{ $id }：{ $why }
start-nodes = { $id } 上 { $n } 个节点，同时最多 { $max } 个不可用
start-steps = 每个节点：Precheck → Cordon → Drain（驱逐 API，遵守 PDB）→ Maintain → VerifyNode → VerifyWorkloads → Uncordon
start-batch = 第 { $batch } 批次：{ $nodes }
start-not-planned = 未计划：{ $node }：{ $why }
start-not-found = { $id } 上未找到：{ $node }
start-warning = 警告：{ $warning }
start-ledger = 台账：{ $exception }：确认即表示知悉
start-refused-plan = 被拒绝：{ $why }；不会运行任何内容
start-drain-waits = 警告：腾空将等待：PDB { $namespace }/{ $name }（这些节点上 { $pods }；健康 { $healthy } 个，需要 { $needs } 个）目前不允许驱逐；Drain 步骤会卡住直到允许，然后等待人工处理（不强制执行）

## 交还的结果，按确认中的称呼

outcome-name-done = 完成
outcome-name-retry = 重试
outcome-name-abort = 中止

## GitOps 对象的同步（发现）

gitops-title = { $verb } { $object } 的同步
gitops-verb-suspend = 暂停
gitops-verb-resume = 恢复
gitops-cluster = 集群 { $cluster }
gitops-argo-suspend = 其自动同步策略被另存（一个注解）并移除：恢复之前 Argo CD 不再同步它
gitops-flux-suspend = 设置 spec.suspend：恢复之前 Flux 不再调和它
gitops-resume = 重新放开其同步（放回 Argo CD 的自动策略；Flux 的 spec.suspend 设为 false）
gitops-refused = { $cluster } 不可变更：{ $why }
gitops-not-about = { $rule } 与 GitOps 对象无关：{ $key } 暂停或恢复 Application、Kustomization 或 HelmRelease 的同步

## What the journal answered after a command was recorded

recorded = { $verb }已由 { $actor } 记录（事件日志第 { $seq } 条）{ $waits }
recorded-waits-for-resume = ；该运行已暂停（{ $scope }：{ $reason }，由 { $by }）：恢复之前不会继续
verb-pause = 暂停
verb-resume = 恢复
verb-handoff = 交出
verb-takeover = 接管
verb-return = 交还
verb-abort = 中止
verb-approve = 批准
verb-note = 备注
verb-acknowledge = 确认
console-closing = 控制台正在关闭
console-started-run = { $actor } 已开始运行 { $run }（{ $batches } 个批次）；执行引擎会接手
console-no-cluster = 此控制台连不到任何集群
console-not-in-ledger = { $cluster } 不在台账中
console-gitops-refused = { $cluster }：拒绝{ $verb ->
    [suspend] 暂停
   *[other] 恢复
}同步：{ $error }
gitops-sync-changed = 已{ $verb ->
    [suspend] 暂停
   *[other] 恢复
} { $cluster } 上 { $target } 的同步（事件日志第 { $seq } 条）；{ $said }
