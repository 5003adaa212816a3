# 各屏幕的主体：标题、列标题、标签、提示与消息。

## 发布

rollouts-none = 事件日志中没有发布运行。`fleetdeck rollout start FILE` 会记下一个；其批次、集群和门禁显示在这里。
rollouts-no-journal = 未连接事件日志：无法显示发布。
rollouts-list-heading = 运行 · 状态
rollouts-list-heading-more = 运行 · 状态（{ $n } 个，↑↓）
rollouts-started-by = 由 { $by } 于 { $ago }前启动
rollouts-paused-by = 已暂停（{ $scope }），由 { $by }：{ $reason }
rollouts-batches = 批次
rollouts-batch-paused = （已暂停）
rollouts-clusters = 集群
rollouts-halted-on = 停止于此
rollouts-cell-pending = 待定
rollouts-cell-staged = 已暂存
rollouts-cell-applied = 已应用
rollouts-cell-verified = 已验证
rollouts-cell-failed = 失败
rollouts-cell-unknown = 未知
rollouts-gates = 门禁
rollouts-coverage = 覆盖
rollouts-coverage-so-far = 已验证 { $reached }/{ $total } 个版本/硬件组合（按台账声明）
rollouts-coverage-not-shown = 未显示：按今天台账得出的计划与该运行的批次不同

## 维护泳道

maint-none = 事件日志中没有维护运行。
maint-how = 可在集群下钻页启动：用 { $mark } 标记节点，然后按 { $start }。
maint-no-journal = 未连接事件日志：无法显示维护运行。
maint-col-node = 节点
maint-col-step-status = 步骤 · 状态
maint-stuck-count = { $n } 个卡住
maint-lane-by = { $nodes } · 由 { $by } · { $ago }前
maint-paused-by = 已暂停（{ $scope }），由 { $by }：{ $reason }
maint-selected-node = 所选节点
maint-in-step = 属于 { $run } · 步骤 { $step }：
maint-for = 已持续 { $age }（由 { $by } 设置）
maint-not-started = 属于 { $run } · 尚未开始
maint-last-try = 上次尝试于 { $ago }前：{ $why }
maint-waits = 等待中，已 { $age }：{ $why }
maint-stuck-because = 卡住原因：
maint-hands-off = 交给他人处理
maint-takes-over = 接管
maint-nothing-forced = 不强制执行
maint-owner = 负责人：{ $to }{ $since }
maint-owner-since = （由 { $by } 于 { $ago }前）
maint-note = 备注：
maint-returns = 交还：完成、重试或中止
maint-failed = 失败：{ $error }
maint-open-intents = { $n } 个副作用进行中，尚无记录的结果
maint-card-running = 运行中 { $age }
