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
