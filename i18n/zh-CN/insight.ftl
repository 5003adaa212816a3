# Screen bodies of capacity, the timeline and findings: titles, column headers, labels,
# hints and messages.

## 容量：数量、维度和模型写的句子

cap-amount-cores = { $count ->
    [one] { $n } 核
   *[other] { $n } 核
}
cap-amount-memory = { $amount }
cap-amount-gpus = { $count ->
    [one] { $n } 个 GPU
   *[other] { $n } 个 GPU
}
cap-amount-pod-slots = { $count ->
    [one] { $n } 个 Pod 槽位
   *[other] { $n } 个 Pod 槽位
}
cap-amount-mig = { $count ->
    [one] { $n } 个 { $profile } MIG 切片
   *[other] { $n } 个 { $profile } MIG 切片
}
cap-amount-volumes = { $count ->
    [one] { $n } 个 { $driver } 卷
   *[other] { $n } 个 { $driver } 卷
}
cap-count-pods = { $count ->
    [one] { $n } 个 Pod
   *[other] { $n } 个 Pod
}
cap-join = { $a }、{ $b }
cap-empty = {""}
cap-word-cpu = CPU
cap-word-memory = 内存
cap-word-gpu = GPU
cap-word-pods = Pod
cap-word-mig = MIG { $profile }
cap-word-volumes = 卷（{ $driver }）
cap-word-placement = 调度
cap-domain-zone = 可用区
cap-domain-region = 区域
cap-domain-rack = 机架
cap-domain-clique = NVLink 互联组
cap-domain-topology-block = 拓扑块
cap-domain-network-block = 网络块
cap-domain-failure-domain = 故障域
cap-scn-baseline = 不损失任何资源时
cap-scn-lose-node = 失去节点 { $node } 后
cap-scn-lose-nodes = { $count ->
    [one] 失去 { $n } 个节点后
   *[other] 失去 { $n } 个节点后
}
cap-scn-lose-domain = 失去{ $kind } { $value } 后
cap-scn-lose-label = 失去 { $key }={ $value } 后
cap-scn-lose-cluster = 失去整个集群后
cap-scn-drain-node = 将节点 { $node } 作为维护批次腾空时
cap-scn-drain-batch = { $count ->
    [one] 腾空含 { $n } 个节点的维护批次时
   *[other] 腾空含 { $n } 个节点的维护批次时
}
cap-why-cluster-lost = 整个集群已失去
cap-why-no-eligible-node = 剩余节点都不满足其选择器、容忍度或拓扑要求
cap-why-volume-domain-lost = 其卷把它限定在 { $domain }，那里已没有健康节点
cap-why-volume-with-lost-cluster = 其卷把它限定在已失去集群的 { $domain }：数据不会迁移
cap-why-not-run-elsewhere = 没有同级集群运行其工作负载
cap-why-insufficient = 没有符合条件的节点有足够的空闲{ $dim }
cap-why-fragmented = 空闲容量分散在多个节点上
cap-why-volumes-unknown = 它挂载了卷，且{ $why }：能否迁移未知
cap-node-not-ready = { $n } 个未就绪
cap-node-readiness-unknown = { $n } 个就绪状态未知
cap-node-cordoned = { $n } 个已封锁
cap-node-in-maintenance = { $n } 个维护中
cap-node-tainted = { $n } 个有污点
cap-nodes-not-counted = 节点：{ $total } 个中有 { $count } 个不计入：{ $reasons }
cap-nodes-not-counted-in = 节点：{ $total } 个中有 { $count } 个不计入：{ $reasons }，全在{ $place }
cap-place-kind = { $kind } { $value }
cap-place-label = { $key }={ $value }
cap-limit-gpu-fragmented = GPU：空闲 { $free } 个，但没有节点有 { $gang } 个（最大成组 { $largest }）
cap-limit-negative-now = { $dim }：即使不损失任何资源，余量也为负（{ $amount }）
cap-limit-negative-after-loss = { $dim }：{ $scenario }，N−1 { $kind }余量为负（{ $amount }）
cap-limit-unplaceable = { $prefix }：{ $scenario }，{ $count ->
    [one] { $pods } 个 Pod
   *[other] { $pods } 个 Pod
} 无法重新调度（最大一组 { $kind } { $namespace }/{ $name }：{ $reason }）
cap-limit-waiting-now = 调度：{ $count ->
    [one] { $pods } 个 Pod
   *[other] { $pods } 个 Pod
} 正在等待（最大一组 { $kind } { $namespace }/{ $name }：{ $reason }）
cap-limit-stranded = 调度：{ $scenario }，{ $kind } { $namespace }/{ $name } 的全部 Pod（{ $pods } 个）都要等它恢复：它们的卷在那里
cap-limit-no-failure-domains = N−1：没有节点带有 { $key }，故障域余量未知
cap-loss-headline = { $pods } 中 { $placed } 个已安置，{ $unplaced } 个无法迁移
cap-loss-headline-unknown = 没有新鲜数据，其 Pod 未知；各集群现有余量：
cap-loss-change = { $dim } { $before } → { $after }
cap-loss-dim-amount = { $dim } { $amount }
cap-loss-takes = { $cluster }：接收 { $pods }；余量 { $headroom }
cap-loss-take-nothing = 不接收（其他集群余量更多）：{ $clusters }
cap-loss-run-none = 未运行其任何工作负载：{ $clusters }
cap-loss-unplaced = { $kind } { $namespace }/{ $name } 的 { $pods }：{ $reason }
cap-loss-room = { $cluster }：余量 { $headroom }
cap-loss-not-counted = 不计入（没有新鲜数据，不接收）：{ $clusters }

## 容量页面

cap-no-cluster-listed = 没有列出集群（过滤条件一个也不匹配）
cap-no-domain-to-lose = { $cluster }：没有可失去的故障域（或没有可用数据）
cap-no-domain-untrusted = { $cluster } 没有可显示的故障域：其数据为 { $status }，不可信（L 仍会询问其同级集群）
cap-nothing-to-clear = 没有显示假设分析：无需清除
cap-dim-cpu = CPU
cap-dim-memory = 内存
cap-dim-gpu = GPU
cap-dim-pods = Pod
cap-dim-other = 其他
cap-used-of = { $used }/{ $total }
cap-headroom-amount = 余量 { $amount }
cap-left-amount = 剩余 { $amount }
cap-untrusted = { $cluster }：{ $status } — 数据不可信，不计算容量
cap-cluster-heading = { $cluster } · 计入 { $count ->
    [one] { $n } 个健康节点
   *[other] { $n } 个健康节点
} · 不损失任何资源时的余量
cap-gpu-shape-left-out = 未显示 GPU 形态：需要 100 列（{ $total } 个 GPU 中 { $free } 个空闲，最大成组 { $gang }；capacity --cluster { $cluster } 有全部内容）
cap-limits-title = 什么限制了余量
cap-limits-title-short = 限制
cap-limits-none = 无：每个维度都有余量，N−1 成立
cap-col-failure-domain = 故障域
cap-col-nodes = 节点
cap-col-cpu-free = CPU 空闲
cap-col-mem-free = 内存空闲
cap-col-gpu-free = GPU 空闲
cap-col-pods-free = Pod 空闲
cap-col-node = 节点
cap-col-capacity = 容量
cap-col-cluster = 集群
cap-col-status = 状态
cap-col-cpu-used = CPU 已用
cap-col-mem-used = 内存已用
cap-col-pods-used = Pod 已用
cap-col-largest-gang = 最大成组
cap-set-aside = 余量 = 下表空闲 − { $parts }（不计入节点上的 Pod；预留）
cap-key-opens = 打开
cap-key-loses-one = 失去一个
cap-key-loses-domain = 失去整个故障域
cap-key-clears = 清除
cap-domains-title-long = 故障域 · 计入节点上的空闲
cap-domains-title = 故障域
cap-no-label = （无标签）
cap-nodes-in = { $domain } 中的节点
cap-counted = 计入
cap-not-counted = 不计入
cap-all-counted = 全部 { $n } 个集群已计入
cap-some-counted = 已计入 { $n } 个集群；未计入（数据不可用）：{ $parts }
cap-fleet-heading = 舰队 · { $total } 个 GPU 中 { $free } 个空闲
cap-rows = 第 { $first }–{ $last } 行，共 { $total } 行{ $above }
cap-rows-above = ，上方 { $n } 行
cap-gpu-shape = GPU 形态
cap-gpu-free-of = { $total } 个 GPU 中 { $free } 个空闲 · 最大成组 { $gang }
cap-gpu-slots = 单节点槽位：{ $slots }
cap-gpu-per-domain = 各拓扑域空闲（GPU · 整节点）
cap-gpu-no-domains = 没有带拓扑标签的 GPU 节点
cap-more-where = … 另有 { $n } 行（{ $whole }）
cap-more = … 另有 { $n } 行
cap-what-if = 假设
cap-what-if-of = 假设：{ $scenario }
cap-what-if-counts = 失去 { $nodes } · 迁出 { $pods } · 重新安置 { $placed } 个
cap-would-not-fit = { $n } 个放不下
cap-staying = { $n } 个 DaemonSet/静态 Pod 随节点留下
cap-blocking-pdb = PDB { $namespace }/{ $name }（{ $pods }；健康 { $healthy } 个，需要 { $needs } 个）
cap-drain-would-wait = 腾空会等待：{ $budgets } 现在不允许驱逐
cap-headroom = 余量
cap-taller-shows = 更高的终端可显示
cap-lose-whole = 假设：失去整个 { $cluster }
cap-siblings = 同级集群 { $chosen }
cap-no-sibling = 没有同级集群：其环境和区域中没有其他在服务的集群
cap-cli-has-all = capacity --what-if cluster={ $cluster } 有全部内容
cap-what-if-cleared = 已清除 { $cluster } 上的假设分析：其数据现在不可信
cap-what-if-untrusted = 不能对 { $cluster } 做假设分析：其数据为 { $status }，不可信
cap-what-if-no-node = 不能对 { $cluster } 做假设分析：那里没有已知节点

## 时间线

tl-no-event = 这里没有可打开的事件
tl-unknown-key = { $key }：未知的键（{ $keys }）
tl-since-equals-only = { $term }：since 只能用 =（since=30m）
tl-since-unreadable = since={ $value }：不是时长、日期或 RFC 3339 时间（试试 30m、8h）
tl-live-tail = 实时跟随
tl-live-tail-key = 实时跟随（{ $key }停止）
tl-paused-tail = 已暂停跟随
tl-paused-tail-key = 已暂停跟随（{ $key }继续）
tl-events-of = { $total } 个事件中的 { $shown } 个
tl-not-listed = （不列出引擎的观测）
tl-not-applied = 未应用：{ $problems }
tl-filter = 过滤：{ $filter }
tl-no-match = 没有事件匹配过滤条件
tl-no-match-key = 没有事件匹配过滤条件（{ $hint }）
tl-key-clears = 清除
tl-col-seq = 序号
tl-col-time = 时间
tl-col-actor = 操作者
tl-col-kind = 类型
tl-col-cluster = 集群
tl-col-what = 内容
tl-detail-title = 事件 { $seq } · esc 关闭
tl-field-time = 时间
tl-field-actor = 操作者
tl-field-kind = 类型
tl-field-run = 运行
tl-field-item = 对象
tl-field-step = 步骤
tl-field-cluster = 集群
tl-field-key = 键
tl-field-token = 令牌

## 发现：模型写的摘要和消除方法（规则 1–8）

fd-src-serving = API server 服务证书
fd-src-kubeconfig-ca = kubeconfig CA
fd-src-client = kubeconfig 客户端证书
fd-src-exec = exec 插件凭据
fd-src-webhook = { $configuration }（{ $webhook }）的 caBundle
fd-src-apiservice = APIService/{ $name } 的 caBundle
fd-when-today-ago = 今天（{ $date }，{ $hours } 小时前）
fd-when-day-ago = 1 天前（{ $date }）
fd-when-days-ago = { $n } 天前（{ $date }）
fd-when-in-hours = { $hours } 小时后（{ $date }）
fd-when-in-day = 1 天后（{ $date }）
fd-when-in-days = { $n } 天后（{ $date }）
fd-cert-expiry-unknown = { $what }：到期时间未知
fd-cert-expired = { $what } 已于 { $when }过期
fd-cert-expires = { $what } 将于 { $when }过期
fd-cred-expired = exec 插件发放的凭据已于 { $when }过期
fd-cred-expires = exec 插件凭据将于 { $when }过期（再次运行插件即可刷新）
fd-expiry-wave = { $clusters } 个集群的证书在 { $week } 这一周过期（共 { $certificates } 张证书）
fd-fix-cert-unreadable = 使其可读（见原因）；在此之前其到期时间未知，而不是没问题
fd-fix-renew-serving = 续期 API server 服务证书（kubeadm certs renew apiserver，或云厂商的轮换）
fd-fix-renew-kubeconfig-ca = 轮换集群 CA，并分发信任新 CA 的 kubeconfig
fd-fix-renew-client = 为此 kubeconfig 用户签发新的客户端证书（或改用 exec 插件）
fd-fix-renew-exec = 通过 exec 插件重新登录
fd-fix-renew-webhook = 续期 webhook 的服务证书并更新 { $configuration } 的 caBundle（cert-manager 的 CA 注入器两者都做）
fd-fix-renew-apiservice = 续期聚合 API 的服务证书并更新 APIService/{ $name } 的 caBundle
fd-fix-stagger = 错开续期：提前续期部分集群的证书，避免同时过期
fd-webhook-fail-closed-kube-system = { $subject } 对 kube-system 失败即拒绝
fd-webhook-fail-closed-everywhere = { $subject } 对所有命名空间失败即拒绝
fd-webhook-slow = { $subject } 可能把每个匹配的请求挂起 { $seconds } 秒
fd-webhook-no-endpoint-refused = { $subject } 没有就绪端点：它匹配的每个请求现在都被拒绝
fd-webhook-no-endpoint-unchecked = { $subject } 没有就绪端点：它匹配的请求未经检查就通过
fd-apiservice-unavailable = 聚合 API { $name } 不可用
fd-fix-webhook-kube-system = 在其 namespaceSelector 中排除 kube-system（kubernetes.io/metadata.name NotIn [kube-system]），或设置 failurePolicy: Ignore
fd-fix-webhook-everywhere = 将其 namespaceSelector 限制在它必须保护的命名空间，或设置 failurePolicy: Ignore
fd-fix-webhook-slow = 把 timeoutSeconds 降到 { $seconds } 或以下
fd-fix-webhook-endpoints = 恢复服务 { $service } 后面的 Pod，或在 webhook 永久下线时删除其配置
fd-fix-apiservice = 恢复服务 { $service } 后面的 Pod，或在 API 永久下线时删除 APIService/{ $name }
fd-apf-catch-all = 我们的请求落入 { $level } 优先级（FlowSchema { $schema }）
fd-apf-throttled = API server 以 429 Too Many Requests 回复了我们 { $total } 个请求（最近 { $window } 内 { $recent } 个）
fd-fix-apf-own = 为 fleetdeck 配置专用的 FlowSchema 和有界优先级（examples/flowschema-fleetdeck.yaml）
fd-fix-apf-qps = 调低 config.toml 中 [sync] 的 qps 和 burst，或为 fleetdeck 配置专用优先级（examples/flowschema-fleetdeck.yaml）
fd-check-fails = { $endpoint } 检查 { $check } 失败
fd-fix-check = 查看 API server 日志中 { $check } 检查的记录（kubectl get --raw '/{ $endpoint }/{ $check }'）
fd-privilege-missing = { $job } 身份 { $user } 无权 { $rights }{ $more ->
    [0] {""}
   *[other] {""}（另有 { $more } 项）
}
fd-fix-privilege-missing = 授予 `fleetdeck rbac --job { $job }` 打印的角色
fd-privilege-excess = { $job } 身份 { $user } 能改动的远超其作业所需：{ $rights }{ $more ->
    [0] {""}
   *[other] {""}（另有 { $more } 项）
}
fd-fix-privilege-excess = 改为绑定 `fleetdeck rbac --job { $job }` 打印的角色，或为该作业指定自己的上下文（jobContexts）
fd-version-unsupported = { $minor } 已于 { $date } 结束上游支持
fd-version-leaving-support = { $minor } 将于 { $date } 结束上游支持，还有 { $days } 天
fd-fix-version-support = 规划其升级（fleetdeck upgrade check --to 下一个次版本）
fd-version-behind = { $minor } 比舰队中最新的版本（{ $newest }）落后 { $behind } 个次版本：一次升级无法追平
fd-fix-version-behind = 一次升级一个次版本（fleetdeck upgrade check --to 下一个次版本）
fd-request-errors = 最近 { $window } 内我们 { $percent }% 的请求失败
fd-fix-request-errors = 检查 API server 以及它与 fleetdeck 之间的一切（负载均衡器、网络）
fd-request-latency = 最近 { $window } 内我们请求的 p99 延迟为 { $p99 } ms
fd-fix-latency = 检查 API server 的负载（apiserver_request_duration_seconds）和 etcd
fd-age-days = { $n } 天
fd-age-hours = { $n } 小时
fd-backup-undeclared = { $cluster } 是{ $kind ->
    [production] 生产集群
   *[other] 关键集群
}，但台账未声明备份
fd-fix-backup-declare = 在台账中声明集群的备份（location、lastSuccess、rpo、lastRestoreDrill、rto）
fd-backup-never = 没有记录任何成功的备份
fd-fix-backup-record = 根据备份工具的报告，在台账中记录最近一次成功备份（backup.lastSuccess）
fd-backup-rpo = 最近一次成功备份已过去 { $age }，超出 RPO { $rpo }
fd-fix-backup-why = 查明备份停止的原因（备份工具最近的运行），然后记录新的 lastSuccess
fd-drill-age = 最近一次恢复演练在 { $days } 天前（{ $date }）
fd-fix-drill = 演练一次恢复，然后记录（backup.lastRestoreDrill 和 lastRestoreDrillDuration）
fd-drill-never = 没有记录恢复演练：没人知道其备份能否恢复
fd-drill-rto = 最近一次恢复演练耗时 { $took }，超出 RTO { $rto }
fd-fix-rto = 加快恢复，或商定更长的 RTO 并写入台账
fd-gitops-suspended = { $object } 已暂停同步：没有任何东西使它与源保持一致
fd-fix-gitops-resume = 事故结束后恢复其同步（fleetdeck gitops resume { $cluster } { $kind } { $namespace }/{ $name }）
fd-gitops-out-of-sync = { $object } 处于 OutOfSync
fd-gitops-out-of-sync-for = { $object } 已处于 OutOfSync { $duration }
fd-fix-gitops-sync = 同步它（或修复阻止同步的问题），或在事故期间有意暂停其同步
fd-gitops-degraded = { $object } 处于 Degraded
fd-gitops-degraded-for = { $object } 已处于 Degraded { $duration }
fd-gitops-missing = { $object } 处于 Missing
fd-gitops-missing-for = { $object } 已处于 Missing { $duration }
fd-fix-gitops-degraded = 查看它部署的内容（其资源的健康状况），以及其源的最近一次变更
fd-window-override = 在 { $until } 之前可在维护窗口外开始变更（由 { $by } 覆盖）
fd-fix-window-override = 到期自动结束；现在结束请用 `fleetdeck window override { $cluster } --for 0s --reason …`
fd-outside-window = 在维护窗口之外：{ $waiting } 等待窗口开启{ $count ->
    [one] {""}
   *[other] {""}
}
fd-fix-outside-window = 等待窗口，或附上原因覆盖它（`fleetdeck window override`）
fd-burn = 燃烧率在 { $window } 内为 { $short }x，高于上限 { $max }x，但{ $long }：门禁不触发
fd-burn-long = 在 { $window } 内为 { $long }x（上限 { $max }x）
fd-burn-long-unknown = { $window } 内未知
fd-fix-burn = 关注长窗口：燃烧持续则会中止发布；如果尖峰属实，请暂停发布
fd-unknown = { $what }：未知（{ $why }）
fd-fix-unknown = 使其可读（RBAC：get/list，集群可达）；在此之前它是未知的，而不是没问题

## 发现页面和集群详情的发现面板

fd-col-severity = 严重程度
fd-col-cluster = 集群
fd-col-rule = 规则
fd-col-since = 持续
fd-col-summary = 摘要
fd-sev-critical = 严重
fd-sev-warning = 警告
fd-sev-info = 提示
fd-sev-short-critical = 严重
fd-sev-short-warning = 警告
fd-sev-short-info = 提示
fd-did-you-mean = { $key }（你是想用 { $suggestion } 吗？）
fd-fleet-wide-no-cluster = 全舰队范围的发现没有单个集群可打开
fd-none-to-open = 这里没有可打开的发现
fd-none-selected = 没有选中发现
fd-shown-of = { $total } 项发现中的 { $shown } 项
fd-n-critical = 严重 { $n }
fd-n-warning = 警告 { $n }
fd-n-info = 提示 { $n }
fd-sort = 排序 { $column } { $arrow }
fd-filter = 过滤：{ $keys }
fd-since = 始于 { $when }
fd-to-clear = 消除方法：{ $how }
fd-expiry-week = { $n } 个集群的证书在 { $week } 这一周过期
fd-none = 在能读取的内容中没有发现
fd-no-match = 没有发现匹配过滤条件
fd-no-match-key = 没有发现匹配过滤条件（{ $hint }）
fd-count = { $count ->
    [one] { $n } 项发现
   *[other] { $n } 项发现
}
fd-panel-lists-them = { $key } 列出全部
fd-panel-head-none = 发现：在能读取的内容中没有
fd-panel-head = { $findings }（最高级别：{ $worst }）：
fd-panel-title-fleet = 发现（{ $n }）· { $key } 列出整个舰队的
fd-panel-title-all = 发现（{ $n }）· { $key } 列出全部
fd-panel-title = 发现（{ $n }）
fd-panel-none = 在能读取的内容中没有
fd-panel-more = 另有 { $n } 项
fd-what-live-facts = 实时状况
fd-what-priority-levels = 我们请求的各优先级
fd-what-priority-level = 我们请求的优先级
fd-what-journal = 事件日志（窗口覆盖、等待窗口的变更、发布的燃烧率）
fd-what-gitops = GitOps 对象
fd-what-webhooks = 准入 webhook
fd-what-apiservices = 聚合 API
fd-what-as-is = { $what }
fd-why-no-journal = 未连接事件日志

## 事件说了什么（时间线的“内容”列、详情面板）

tl-ev-planned = 已计划：{ $title }
tl-ev-run-status = 运行 { $run }：{ $status }
tl-ev-in-hands = { $at }：由 { $to } 处理
tl-ev-step-status = { $at }：{ $status }
tl-ev-intent = { $at }：{ $action }（意图）
tl-ev-outcome-ok = { $at }：{ $call } 成功
tl-ev-outcome-not-ok = { $at }：{ $call } 未成功
tl-ev-waits = { $at }：等待：{ $why }
tl-ev-node-event-failed = { $at }：节点事件 { $reason } 未记录到集群上：{ $error }
tl-ev-paused = 已暂停 { $scope }：{ $reason }
tl-ev-resumed = 已恢复 { $scope }
tl-ev-resumed-noted = 已恢复 { $scope }：{ $note }
tl-ev-guard = 防护已暂停 { $scope }：{ $reason }
tl-ev-window-overridden = { $cluster } 的维护窗口已被覆盖，直到 { $until }：{ $reason }
tl-ev-gitops-intent = { $action } { $kind } { $namespace }/{ $name } 的同步（意图）：{ $reason }
tl-ev-sync-changed = 同步已更改：{ $detail }
tl-ev-sync-not-changed = 同步未更改：{ $detail }
tl-ev-handed-off = { $at }：已交给 { $to }
tl-ev-handed-off-noted = { $at }：已交给 { $to }：{ $note }
tl-ev-taken-over = { $at }：已接管
tl-ev-taken-over-noted = { $at }：已接管：{ $note }
tl-ev-returned = { $at }：已交还（{ $outcome }）
tl-ev-returned-noted = { $at }：已交还（{ $outcome }）：{ $note }
tl-ev-aborted = 已中止
tl-ev-aborted-noted = 已中止：{ $note }
tl-ev-refused = 已拒绝 { $command }：{ $reason }
tl-ev-refused-on = { $at }：已拒绝 { $command }：{ $reason }
tl-ev-note = 备注：{ $text }
tl-ev-note-on = { $at }：{ $text }
tl-ev-unreadable = 无法读取的 { $kind } 事件，所有读取者都已跳过：{ $reason }
tl-ev-acknowledged = 已确认 { $title }
tl-ev-acknowledged-noted = 已确认 { $title }：{ $note }
tl-ev-batch = 第 { $n } 批次：{ $phase }
tl-ev-staged = { $at }：已暂存 { $digest }
tl-ev-applied = { $at }：已应用 { $digest }
tl-ev-verified = { $at }：已验证 { $outcome }
tl-ev-gate-passed = 第 { $n } 批次后的门禁：通过
tl-ev-gate-halt = 第 { $n } 批次后的门禁：中止：{ $why }
tl-ev-halted = 在第 { $n } 批次中止：{ $why }
tl-ev-approved-batch = 已批准第 { $n } 批次
tl-ev-approved-batch-noted = 已批准第 { $n } 批次：{ $note }
tl-ev-approved = 已批准
tl-ev-approved-noted = 已批准：{ $note }
tl-ev-kind = { $kind }
