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
header-journal-unreadable-rows = 事件日志：{ $events }无法读取，已跳过
header-journal-went-back = 事件日志已回退：已读取的 { $events }不复存在（自 #{ $seq } 起）
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
palette-login = login 上下文：在此终端上运行该上下文的凭据插件以登录
palette-type-login = 输入 :login 上下文（或在集群上按 i），用它的凭据插件登录
palette-login-to = 用凭据插件为 { $context } 登录

## Messages of the console after a key

msg-ack-handover-item = 确认一项交接班事项
msg-pod-on-no-node = 此 Pod 尚未运行在任何节点上
msg-journal-unreachable-refused = 无法连接事件日志数据库：“{ $what }”无法记录，已拒绝；恢复连接前屏幕显示最后已知的状态
msg-role-needed = 你在此事件日志上是 { $login }（{ $roles }）：“{ $what }”需要 { $role }；管理员可以授予（GRANT { $role } TO "{ $login }"）
msg-no-filter = 此页没有过滤
msg-already-here = 已在{ $place }
msg-at-the-ledger = 已在台账：按 q 退出
msg-history-no-later = 历史中没有更后的位置
msg-history-no-earlier = 历史中没有更早的位置
msg-config-warning = 警告：{ $warning }
msg-config-warnings = 警告：{ $warning }（另有 { $more } 条见日志文件）
msg-nothing-to-move = 这里没有可移动的行
msg-only-row = 这里只有这一行，已选中
msg-first-row = 已在第一行
msg-last-row = 已在最后一行
msg-facts-failed = ✗ 无法得出舰队的状况，屏幕可能停止更新（见日志文件）：{ $failure }
msg-background-failed = ✗ 一个后台任务失败，其数据可能停止更新（见日志文件）：{ $failure }
msg-no-journal-nothing-recorded = 此控制台未连接事件日志：没有记录任何内容
msg-paste-ignored = 已忽略粘贴：没有正在编辑的文本框
msg-no-journal-see-log = 未连接事件日志：见日志文件
login-not-a-plugin = { $context } 不通过插件登录：它的凭据按 kubeconfig 给出的方式使用
login-done = 已用 { $program } 为 { $context } 登录：{ $clusters } 个集群使用此凭据，正在重新连接
login-failed = 用 { $program } 为 { $context } 登录失败：{ $reason }
login-no-port = 此控制台无法登录（背后没有凭据层）
login-unknown-context = 没有集群使用上下文 { $context }；:login 接受台账中指定的上下文（或集群 ID）
login-banner = fleetdeck：正在为 { $context } 登录：凭据插件现在使用此终端，结束后回到控制台（Ctrl-C 可停止插件）。
login-banner-done = fleetdeck：插件已结束；回到控制台。

## What a key says where it does nothing

silent-screen-ledger = 台账
silent-screen-cluster = 集群页
silent-screen-node = 节点页
silent-screen-capacity = 容量页
silent-screen-rollouts = 发布页
silent-screen-maintenance = 维护页
silent-screen-timeline = 时间线
silent-screen-findings = 发现页
silent-screen-console = 控制台
silent-key-goes-there = 按 { $key } 前往
silent-open-cluster = 在集群上按 { $key } 打开
silent-open-node = 在集群页的节点上按 { $key } 打开
silent-how = （{ $how }）
silent-help-lists = （按 { $key } 列出这里的按键）
silent-elsewhere = { $chord } 在{ $here }上无作用：在{ $there }上它是“{ $desc }”{ $how }
silent-nowhere = { $chord } 在{ $here }上不是按键{ $help }
silent-one-panel = { $key }{ $here }只有一个面板
silent-nothing-to-mark = { $key }{ $here }上没有可标记的内容：标记用于台账的集群和集群页的节点
silent-unused = { $key }“{ $desc }”在{ $here }上无作用

## Warnings about the keymap and theme files (after `FILE:LINE: `)

cfg-toml-error = { $error }；{ $fallback }
cfg-whole-file-ignored = 已忽略整个文件
cfg-cannot-read = 无法读取文件（{ $error }）；已忽略
cfg-binding-ignored = { $error }；已忽略此绑定
cfg-unknown-action = 未知的动作 { $name }；已忽略此绑定
cfg-key-twice = 按键 { $key } 在 [{ $section }] 中绑定了两次（第 { $first } 行和第 { $line } 行）；以后者为准
cfg-no-keymap = 没有名为 { $name } 的内置键位表；使用 default
cfg-keymap-not-found = 找不到键位表文件；使用 default
cfg-hides-global = [{ $section }] 中的按键 { $key }（{ $action }）遮住了全局绑定 { $global }
cfg-no-theme = 没有名为 { $name } 的主题；使用 dark
cfg-theme-not-found = 找不到主题文件；使用 dark
cfg-unknown-slot = 未知的样式槽 { $name }；已忽略
cfg-slot-not-a-colour = 样式槽 { $name }：{ $value } 不是颜色（#rrggbb、颜色名或 0-255）；未设置
cfg-env-not-a-colour = 环境 { $env }：{ $value } 不是颜色；已忽略
cfg-unknown-key = 未知的按键 { $key }

## The ledger's CHANGE column: what is in flight on a cluster

attn-applying = 应用中
attn-verifying = 验证中
attn-halted-here = 在此停止
attn-halted-short = 停止
attn-halted = 已停止
attn-stuck = 卡住 { $age }
attn-failed = 失败
attn-frozen = 已冻结
attn-frozen-because = 已冻结：{ $reason }
