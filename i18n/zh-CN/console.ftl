# 控制台外框：页眉、暂停横幅、路径、页脚提示、帮助、命令面板。
# 首尾空格由代码添加，不写在消息里。

## 页眉

header-clusters = { $n } 个集群
header-no-data = 无数据
header-nodes-ready = 节点 { $ready }/{ $total } 就绪
header-not-counted = （{ $clusters }未计入）
header-gpus-free = GPU { $free }/{ $total } 空闲
header-readonly = 只读
header-automation-running = 自动化运行中
header-automation-paused-why = 自动化已暂停（{ $reason }，由 { $by }）
header-automation-paused-by = 自动化已暂停，由 { $by }
header-automation-paused = 自动化已暂停
header-paused = 已暂停
header-journal-unreachable-long = 事件日志不可达：显示最后已知状态，操作被拒绝
header-journal-unreachable = 事件日志不可达
header-automation-unknown-long = 自动化状态未知（未连接执行引擎）
header-automation-unknown = 自动化状态未知
header-awaiting-approval = { $n } 个待审批
header-to-approve = { $n } 个待批
header-halted = { $n } 个已停止
header-stuck = { $n } 个卡住
header-ledger-expired = 台账：{ $exceptions }已过期
header-team-alone = 仅你一人
header-team-others = { $count ->
    [one] 另有 1 人
   *[other] 另有 { $count } 人
}
banner-all-paused = ⏸ 全部自动化已暂停，由 { $by } 自 { $since }（{ $ago }前）{ $key }：{ $reason } — 任何地方都不会启动新步骤
banner-resumes = 恢复
too-small = 终端太小
too-small-size = { $width }×{ $height }，至少需要 { $min_width }×{ $min_height }
too-small-quit = q 退出

## 路径

crumb-ledger = 台账
crumb-cluster = 集群 { $id }
crumb-node = 节点 { $node }
crumb-capacity = 容量
crumb-capacity-cluster = 容量 { $id }
crumb-domain = 故障域 { $domain }
crumb-rollouts = 发布
crumb-maintenance = 维护
crumb-timeline = 时间线
crumb-findings = 发现

## 页脚提示

hint-open = 打开
hint-filter = 过滤
hint-palette = 命令
hint-sort = 排序
hint-reverse = 反序
hint-gitops-sync = 暂停/恢复同步
hint-by-region = 按区域
hint-mark = 标记
hint-capacity = 容量
hint-what-if = 假设
hint-batch-what-if = 批次假设
hint-lose-cluster = 失去集群
hint-clear-what-if = 清除假设
hint-back = 返回
hint-panel = 面板
hint-approve = 批准
hint-pause-run = 暂停运行
hint-resume-run = 恢复运行
hint-freeze-cluster = 冻结集群
hint-abort = 中止
hint-hand-off = 交出
hint-take-over = 接管
hint-return = 交还
hint-maintain = 维护
hint-follow = 跟随
hint-pause-all = 全部暂停
hint-resume-all = 全部恢复
hint-handover = 交接班
hint-help = 帮助
hint-quit = 退出
filter-help-long = enter 保留 · esc 清除 · key=value · !排除
filter-help = enter 保留 · esc 清除
filter-shown = 过滤：{ $text }

## 帮助浮层

help-title = 帮助 · esc 关闭 · ↑↓ 滚动
help-more-below = … 下方还有 { $n } 行（↓）
help-context-global = 全局
help-context-list = 列表
help-context-ledger = 台账
help-context-cluster = 集群
help-context-node = 节点
help-context-capacity = 容量
help-context-rollouts = 发布
help-context-maintenance = 维护
help-context-timeline = 时间线
help-context-findings = 发现
help-fate = 若腾空，Pod 去向
help-fate-yes = 可迁移
help-fate-yes-means = 被驱逐并在另一个有空间的节点上重建
help-fate-blocked = 受阻于
help-fate-blocked-means = PDB 目前不允许驱逐此 Pod：腾空会等待它
help-fate-within = 仅限于
help-fate-within-means = 它的卷把它限定在一个故障域内；它迁往那里
help-fate-no = 否：…
help-fate-no-means = 没有其他节点能接收它（与 w 相同的重新放置）
help-fate-stays = 留下
help-fate-stays-means = DaemonSet 或静态 Pod：它属于该节点
help-fate-terminating = 终止中
help-fate-terminating-means = 已在删除中
help-fate-bare = 裸 Pod
help-fate-bare-means = 没有控制器：腾空会将其永久删除

## 命令面板

palette-rollouts = 发布运行：批次、集群、门禁
palette-maintenance = 以泳道显示的维护运行
palette-timeline = 事件日志，可过滤，实时追踪
palette-findings = 舰队发现：证书、Webhook、健康、备份、GitOps、窗口、消耗
palette-handover = 交接班逐项查看（handover 12h：更长的班次；默认 8h）
palette-pause = 暂停（或恢复）全部自动化
palette-start = start 文件：按文件开始维护（先显示计划）
palette-ledger = 全部集群
palette-capacity = 全舰队容量，按维度
palette-help = 当前键位表的按键
palette-quit = 离开 fleetdeck
palette-lang = lang en | zh-CN：控制台的语言
palette-lang-to = 把控制台切换为{ $name }
palette-node-in = 位于 { $cluster }
palette-enter-runs = enter 执行 :{ $input }
palette-readonly = 只读模式：:{ $word } 会写入事件日志（去掉 --readonly 才能操作）
palette-nothing-matches = 没有匹配项
palette-title = 命令 · enter 执行 · esc 关闭
palette-no-match = 无匹配
palette-type-start = 输入 :start 文件，按文件描述开始维护
palette-type-lang = 输入 :lang en 或 :lang zh-CN（当前 { $lang }）
palette-unknown-lang = 未知语言 { $given }：支持 { $supported }
palette-lang-set = 语言：简体中文
