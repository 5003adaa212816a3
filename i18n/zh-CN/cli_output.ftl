# The CLI's output for people other than tables' headers: progress, summaries and errors.

## rollout plan / start / show
rollout-live-drift = {$count} 个目标的实际版本与台账不同；金丝雀按实际运行的版本挑选：
rollout-not-observed = 未能读取 {$count} 个目标的实际版本，按台账中的版本规划：{$ids}
rollout-apply-order = 应用顺序（{$count} 个对象；按路径，被依赖的类型在前）：
rollout-plan-head = 发布 {$release}（{$digest}）：{$targets} 个集群，{$combinations} 种版本组合，{$stages} 个阶段
rollout-bundle = 版本组合：{$bundle}
rollout-warning = 警告：{$warning}
rollout-stage = 阶段 {$stage}：
rollout-batch = 批次 {$n}：{$ids}
rollout-first-tests = 首次测试 {$combo}
rollout-untested-last = 最后阶段开始时仍未测试的组合（{$count}）：
rollout-start-readonly = 只读模式：拒绝启动发布（去掉 --readonly 才能操作）
rollout-started = 发布 {$run} 已由 {$actor} 启动：{$targets} 个集群，分 {$batches} 个批次，版本 {$release}（{$digest}）
rollout-already-applied = {$count} 个集群已在运行此摘要：待其发布记录确认后视为已验证，不再重复应用
rollout-distinct-approver = distinctApprover：其批次须由 {$actor} 以外的人批准
rollout-follow = 由执行器（`fleetdeck run` 或控制台）执行；用 `fleetdeck rollout show {$run}` 跟踪进度
rollout-show-head = 发布 {$run}（{$title}）：{$status}
rollout-halted = 已停止：{$why}
rollout-failed-or-unknown = 失败或未知：
rollout-waiting = 等待中：
rollout-live-not-read = 未读取实际版本（{$why}）：金丝雀按台账中的版本挑选

## pause / resume
pause-done = 已暂停 {$scope}（事件日志第 {$seq} 条事件）
resume-done = 已恢复 {$scope}（事件日志第 {$seq} 条事件）

## config paths
config-not-created = （未创建）
config-none = （无）
config-row-config = 配置文件
config-row-themes = 主题/键位表
config-row-data = 数据
config-row-journal = 事件日志
config-row-log = 日志文件
config-row-ledger = 台账
config-row-actor = 操作者
config-row-readonly = 只读

## demo
demo-gates-started = 发布门禁：来自演示启动的 Prometheus（{$url}，抓取模拟器）的消耗速率，以及实时检查
demo-gates-configured = 发布门禁：来自已配置的 Prometheus {$url} 的消耗速率，以及实时检查
demo-gates-live-checks = 发布门禁：仅实时检查（节点和工作负载就绪，一个集群失败即停止）：没有 Prometheus（{$why}）；安装 prometheus 可启用消耗速率门禁
demo-no-prometheus = PATH 中没有 prometheus 可执行文件
demo-prometheus-failed = prometheus 未能启动：{$error}
demo-notice = 演示：模拟舰队“{$scenario}”（种子 {$seed}），地址 https://{$addr} · {$gates}
demo-scenario-named = {$name}：{$description}
scenario-small = 三个小集群，用于快速测试
scenario-demo = 三个区域的四十个集群，含 GPU、PDB 和配置偏差
scenario-large = 300 个集群，用于基准测试
scenario-findings = 每种舰队发现各一个集群

## snapshot：备注列
snapshot-connecting-identity = 连接中：尚未读取身份（kube-system UID、/version）；加长 --wait-synced 可给它更多时间
snapshot-connecting-lists = 连接中：首次列举尚未完成；加长 --wait-synced 可给它们更多时间
snapshot-identity-unconfirmed = 身份尚未确认（持续重读直到应答）：在此期间不会对其做任何变更
snapshot-drift = 与台账有偏差：{$drift}（ledger reconcile）{$more}
snapshot-more-capacity-limits = ；另有 {$count} 项容量限制（capacity --cluster {$cluster}）
snapshot-more-limits = ；另有 {$count} 项限制（capacity --cluster {$cluster}）

## maintenance 与 run
maintenance-plan-head = 集群 {$cluster} 上的维护 {$name}：{$count} 个节点
maintenance-missing-node = 缺失：节点 {$node} 不在节点列表中
maintenance-not-planned = 未纳入计划：{$node}：{$why}
maintenance-show-head = 运行 {$run}（{$title}）：{$status}
maintenance-paused = 已由 {$by} 暂停（{$scope}），自 {$since} 起：{$reason}
maintenance-waits = {$item} 等待：{$why}
maintenance-dry-run = 演练：未记录任何内容
maintenance-started = 已启动运行 {$run}；由 `fleetdeck run` 执行
maintenance-recorded = 已记录 {$verb}：{$run} 中的 {$node}，操作者 {$actor}
maintenance-aborted = 运行 {$run} 已由 {$actor} 中止；已完成的操作不会撤销
maintenance-readonly = 只读模式：拒绝{$what}（去掉 --readonly 才能操作）
maintenance-what-start = 启动维护
maintenance-what-executor = 运行执行器
run-acting-for-shard = 分片 {$shard}（{$count} 个集群）
run-acting-for-fleet = 整个舰队
run-started = 执行器 {$actor} 已为{$acting_for}启动（事件日志 {$journal}）

## 通用
cli-did-you-mean = （是否想找 {$suggestion}？）

## journal
journal-schema = 事件日志 {$journal}：{$what}
journal-schema-current = 模式版本 {$version}（已是最新）
journal-schema-migrated = 模式版本 {$from} → {$to}
journal-grant-roles = 把这些角色授予登录角色：GRANT fleetdeck_operator TO alice;
journal-revoked = 已从 PUBLIC 收回：{ $what }
journal-not-revoked = 未能收回（{ $why }）：{ $what }；请以超级用户身份运行 `journal init --roles`，或手动收回（见 docs/team.md）
journal-prepared-transactions = 警告：max_prepared_transactions 为 { $n }：写入者可以用预备事务在断开连接后继续持有事件日志的写锁；除非该服务器上的其他应用需要，请设为 0
journal-harden-connect = 事件日志数据库上的 CONNECT 权限（fleetdeck 各角色保留）
journal-harden-temp = 事件日志数据库上的 TEMPORARY 权限（临时表）
journal-harden-public-schema = public 模式上的 CREATE 权限
journal-harden-large-objects = 创建大对象的权限（lo_creat、lo_create、lo_from_bytea、lo_import）
journal-unreadable-skipped = 警告：有 { $n } 个事件日志事件无法读取，已跳过（所有读取者都会跳过它们继续）：{ $rows }；`fleetdeck journal` 会列出它们
journal-sqlite-roles = --roles：SQLite 事件日志没有角色（其操作者就是进程自称的身份）；团队角色需要 PostgreSQL 事件日志
journal-copied = 已复制 {$copied} 条事件（{$already} 条原已存在）；两个事件日志都有 {$events} 条事件，直到序号 {$last}
journal-no-events = 没有事件：{$hint}
journal-no-cluster = 事件日志中没有集群 {$name}{$hint}
journal-no-run = 事件日志中没有运行 {$name}{$hint}

## fleetdeck 自己写的错误
no-ledger-given = 未指定台账：请传入 --ledger FILE、设置 FLEETDECK_LEDGER，或在 {$config} 中设置 `ledger`
cluster-not-in-ledger = 集群 {$cluster} 不在台账中
approve-needs-ledger = 批准前要检查该批次的集群
ack-refused = 拒绝启动{$what}：{$expired}；请在台账中续期或删除该例外，或用 --acknowledge-expired-exceptions 仍然启动（记入事件日志）
ack-what-rollout = 发布 {$release}
ack-what-maintenance = {$cluster} 上的维护
window-not-a-cluster = {$cluster} 不是台账中的集群{$hint}
gitops-not-a-kind = {$kind} 不是 fleetdeck 可更改的 GitOps 类型：application、kustomization 或 helmrelease
gitops-readonly = 只读模式：拒绝{ $verb ->
    [suspend] 暂停
   *[other] 恢复
} {$object} 的同步（去掉 --readonly 才能操作）
gitops-not-namespace-name = {$object} 不是 NAMESPACE/NAME
gitops-refusing = {$cluster}：拒绝{ $verb ->
    [suspend] 暂停
   *[other] 恢复
} {$target} 的同步

## findings
findings-none = 在能读取的内容中没有发现。
findings-week = {$week}（{$count} 个集群）
findings-busy-weeks = 多个集群的证书在这些周过期：{$weeks}
findings-flows = {$cluster}：我们的请求落在 {$flows}
findings-failed = （退出码 1：达到或超过 --fail-on {$fail_on}）
findings-summary = {$total} 项发现：严重 {$critical}，警告 {$warning}，信息 {$info}{$failed}

## ledger reconcile
reconcile-n-clusters = {$count} 个集群
reconcile-not-compared = 未比较（台账所写未经证实，但不是错误）：
reconcile-not-compared-line = {$clusters} 上的 {$component}：{$why}
reconcile-no-context = 没有 kubeconfig 上下文
reconcile-context-not-in-ledger = 上下文不在台账中
reconcile-suggested = 建议的台账修改（台账不会被改动）：

## rollout plan：目标的维护窗口
rollout-windows = 维护窗口：{$count} 个目标中有 {$open} 个现在可以变更
rollout-window-waits = {$cluster}：{$says}（应用会等到那时）

## capacity
capacity-place-cluster = 集群 {$cluster}
capacity-place-any = 任何数据新鲜的集群
capacity-no-zone = zone={$zone}：{$place} 没有节点在此区域{$hint}；{$key}：{$known}
capacity-no-node = node={$nodes}：{$place} 中没有这样的节点{$hint}

## 没有台账时的控制台、选择器中未知的键
console-no-ledger = 未配置台账（请传入 --ledger FILE、设置 FLEETDECK_LEDGER，或在 {$config} 中设置 `ledger`）。
console-try-demo = 要在模拟舰队上试用控制台，请运行：
console-no-kubeconfig = {$error}；无法连接任何集群
selector-unknown-key = 警告：-l {$key}

## ledger reconcile 的偏差和详情列、ledger contexts 的状态列
drift-unobservable = 无法观测
drift-identity = 身份
drift-identity-not-pinned = 身份未固定
drift-observed-uid = 在 {$server} 观测到 kubeSystemUID {$uid}
drift-kubelet-skew = kubelet 版本偏差
drift-kubelet-skew-detail = API server {$api_server}；超出支持偏差范围的 kubelet（更新，或落后 3 个以上次版本）：{$live}
drift-version = {$component} 版本
drift-version-detail = 台账 {$ledger}，实际 {$live}
contexts-missing = 缺少上下文
contexts-server-differs = 服务器与固定的身份不同（{$pinned}）

## capacity 的各段
capacity-fit = 可放在 {$nodes}上；单节点最多 {$largest}；共空闲 {$free}
capacity-gang-what-if = {$request} {$scenario}：{$fit}（当前：{$today}）
capacity-not-counted = {$cluster} — {$status}：没有新鲜数据，未计入
capacity-gpu-shape = GPU 形态：{$total} 中空闲 {$free}；槽位 {$slots}；最大成组 {$largest}
capacity-gpu-domain = {$key}={$value}：{$total} 中空闲 {$free}，{$nodes}整机空闲
capacity-n-minus-one = N−1 最坏：{$dimension}：失去 {$domain} 后余量 {$headroom}
capacity-limit = 限制：{$limit}
capacity-staying = （{$pods}随节点一起消失：DaemonSet、静态 Pod）
capacity-what-if = 假设 {$scenario}：失去 {$lost}，迁出 {$displaced}{$staying}，已安置 {$placed} 个，{$unplaced} 个无法安置
capacity-pods-of = {$owner} 的 {$pods}：{$reason}
capacity-unknown-pods = {$pods}为 UNKNOWN：上面的结果视其为可自由迁移，但无人能确定
capacity-headroom-after = 之后的余量：{$dimension} {$headroom}
capacity-gang = 成组 {$gang}
capacity-caveat = 注意：{$caveat}
capacity-gang-fleet = 成组 {$request}{$what_if}：在 {$count} 个有 {$resource} 的集群中，{$fits} 个可放在单个节点上{$list}
capacity-counted = {$count} 个集群中计入 {$counted} 个
capacity-left-out = ；未计入：{$list}
count-whole-nodes = { $count ->
    [one] {$n} 个整机节点
   *[other] {$n} 个整机节点
}
count-pods = { $count ->
    [one] {$n} 个 Pod
   *[other] {$n} 个 Pod
}

## 读取文件
cannot-read = 无法读取 {$path}
not-a-node-list = {$path} 不是 JSON 格式的 NodeList
spec-errors = {$file}：{$errors} 个错误
batches-from-one = 批次从 1 开始计数
pause-bad-domain = --domain {$domain}：应为 CLUSTER/DOMAIN

## 其他拒绝和提示
capacity-gang-expects = --gang 的格式例如 8xnvidia.com/gpu
capacity-siblings-needs-what-if = --siblings 指定接收失去的集群的 Pod 的集群：须与 --what-if cluster=C 一起使用
capacity-two-clusters = --cluster {$asked} 与 --what-if cluster={$lost} 指的是不同的集群：请去掉其中一个
console-readonly-no-executor = 只读：此控制台中没有执行器运行；不写入任何集群和事件日志
console-readonly = 只读：此控制台不写入任何集群和事件日志
demo-temp-dir = 创建演示的临时目录
approve-not-in-ledger = 不在台账中
contexts-not-in-ledger = 不在台账中
not-started = {$file}：未启动
maintenance-refusing-plan = {$cluster}：拒绝规划维护
logging-disabled = 日志文件已停用（{$reason}）
maintenance-needs-nodes = 节点由 `{$selector}` 选择：请传入 --nodes FILE（kubectl get nodes -o json）以便不连接集群也能规划
rollout-bad-manifests = {$file}：发布清单：{$error}
rollout-cannot-read-manifests = 无法读取清单目录 {$path}
rollout-manifest-not-utf8 = 清单 {$path} 不是 UTF-8 文本
ledger-expired-warning = 警告：台账 {$ledger}：{$expired}：请续期或删除（`fleetdeck ledger validate`）；观测照常进行，对 {$cluster} 的新变更需要 --acknowledge-expired-exceptions

## Where an error happened (before the error itself)

ctx-journal = 事件日志 { $target }
ctx-journal-failed = 事件日志 { $target }：{ $error }
ctx-copy = 复制 { $from } → { $to }
ctx-creating = 创建 { $path }
ctx-writing = 写入 { $path }
reconcile-decide = 需人工决定
snapshot-count-line = { $clusters } 个集群：{ $statuses }
as-refused-on-postgres = 在 PostgreSQL 事件日志上拒绝 --as { $claimed }：数据库以你登录的角色（{ $user }）记录每个事件，因此事件日志不能说是别人做的；请以 { $claimed } 自己的角色登录
rbac-unknown-job = 未知作业 { $job }：作业有 read、maintenance 和 release
rbac-bad-bind = --bind { $bind }：请写作 JOB=user:NAME、JOB=group:NAME 或 JOB=serviceaccount:NAMESPACE/NAME
rbac-rollout-invalid = { $path } 不是有效的发布文件（见上方的错误）
upgrade-bad-target = --to { $to } 不是 Kubernetes 次版本（请写作 v1.32）
upgrade-more = { $first }（下方另有 { $more } 项）
upgrade-cluster-head = { $cluster }：对 { $target } 为 { $readiness }
upgrade-blocker = {"  "}✗ { $what }：{ $fix }
upgrade-unknown = {"  "}? { $what }
upgrade-summary = { $clusters } 个集群：{ $ready } 个就绪，{ $blocked } 个被阻塞，{ $unknown } 个未知，{ $there } 个已达到目标
