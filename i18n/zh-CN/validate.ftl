# fleetdeck 文件中发现的问题（`ledger validate` 等）。`FILE:LINE:COL: ` 前缀不属于消息。
# 字段名、值和类型按原文显示。

validate-warning = 警告
validate-summary-valid = { $file }：有效，{ $clusters } 个集群，{ $warnings } 个警告
validate-summary-expired = { $file }：{ $errors } 个错误（例外已过期：各命令仍会读取，但对这些集群的新变更需要 --acknowledge-expired-exceptions），{ $clusters } 个集群，{ $warnings } 个警告
validate-summary-errors = { $file }：{ $errors } 个错误
validate-summary-invalid = { $file }：{ $errors } 个错误，{ $warnings } 个警告

## What a value looked like

validate-shape-nothing = 空值
validate-shape-scalar = 标量
validate-shape-list = 列表
validate-shape-mapping = 映射

## Shapes and fields

validate-file-empty = 文件为空
validate-duplicate-key = 重复的键“{ $key }”（首次定义于 { $first }）
validate-must-be-mapping = { $what } 必须是映射，实际是{ $found }
validate-missing-field = { $what } 缺少必填字段 `{ $key }`
validate-other-kind = kind 必须是“{ $want }”，实际是“{ $found }”；文件的其余部分未检查
validate-must-be-text = { $key } 必须是“{ $want }”，实际是“{ $found }”
validate-empty = 字段 `{ $key }` 不能为空
validate-unknown-field = { $what } 中有未知字段 `{ $key }`
validate-unknown-field-near = { $what } 中有未知字段 `{ $key }`（是否想写 `{ $near }`？）
validate-must-be-string = 字段 `{ $field }` 必须是字符串，实际是{ $found }
validate-must-be-list = 字段 `{ $field }` 必须是列表，实际是{ $found }
validate-field-must-be-mapping = 字段 `{ $field }` 必须是映射，实际是{ $found }

## Scalars

validate-must-be-bool = 字段 `{ $field }` 必须是 true 或 false，实际是“{ $found }”
validate-must-be-whole = 字段 `{ $field }` 必须是非负整数，实际是“{ $found }”
validate-at-least-one = 字段 `{ $field }` 至少为 1
validate-must-be-number = 字段 `{ $field }` 必须是数字，实际是“{ $found }”
validate-must-be-percent = 字段 `{ $field }` 必须是大于 0 且不超过 100 的百分比，实际是“{ $found }”
validate-one-of = 字段 `{ $field }` 必须是 { $names } 之一，实际是“{ $found }”
validate-one-of-near = 字段 `{ $field }` 必须是 { $names } 之一，实际是“{ $found }”（是否想写“{ $near }”？）
validate-not-one-of = { $field }“{ $found }”不是 { $names } 之一
validate-not-one-of-near = { $field }“{ $found }”不是 { $names } 之一（是否想写“{ $near }”？）

## The ledger's rules

validate-cluster-id = 集群 ID“{ $id }”只能由小写字母、数字和“-”组成，最多 63 个字符
validate-duplicate-id = 重复的集群 ID“{ $id }”（首次定义于 { $first }）
validate-duplicate-context = context“{ $context }”已被集群“{ $cluster }”使用（位于 { $first }）
validate-duplicate-identity = kubeSystemUID“{ $uid }”已被集群“{ $cluster }”固定（位于 { $first }）
validate-exception-expired = 例外“{ $what }”已于 { $expires } 过期（{ $days } 天前）；请换一个新日期续期或删除它（负责人：{ $owner }）
validate-exception-expiring = 例外“{ $what }”将于 { $expires } 到期（还有 { $days } 天；负责人：{ $owner }）
validate-dictionary-undeclared = labelDictionary 未声明 `{ $key }`，因此不检查它的取值
validate-not-in-dictionary = { $key }“{ $value }”不在 labelDictionary 中（允许：{ $allowed }）
validate-not-in-dictionary-near = { $key }“{ $value }”不在 labelDictionary 中（允许：{ $allowed }）（是否想写“{ $near }”？）

## YAML syntax (`src/yaml/node.rs`); the parser's own words are shown as it wrote them

validate-yaml-syntax = YAML 语法错误：{ $info }
validate-second-document = 应只有一个 YAML 文档，却发现了第二个
validate-unknown-anchor = 别名引用了未知的锚点
validate-unbalanced = YAML 结构不配对
validate-alias-bomb = 文档展开后超过 { $max } 个值（别名炸弹？）
validate-key-not-string = 映射的键必须是普通字符串

## The ledger's fields (`src/model/ledger/decode.rs`)

validate-api-version = apiVersion 必须是“{ $want }”，实际是“{ $found }”
validate-dictionary-shape = 字段 `labelDictionary` 必须是从标签到允许值的映射，实际是{ $found }
validate-dictionary-twice = labelDictionary.{ $key } 两次列出了“{ $value }”
validate-kubernetes-version = versions.kubernetes“{ $version }”的写法与 API server 报告的不同（v1.32.3）
validate-server-url = identity.server 必须是 http(s) URL，实际是“{ $server }”
validate-host-bits = { $field } { $text } 设置了主机位（是否想写 { $network }？）
validate-not-cidr = { $field }“{ $text }”不是 CIDR（应类似 10.32.0.0/14 或 fd00::/48）
validate-backup-zero = backup.{ $name } 必须大于零
validate-field-duration = { $field }：{ $error }
validate-drill-without-date = 有 backup.lastRestoreDrillDuration 却没有 lastRestoreDrill：它所度量的演练没有日期
validate-not-timestamp = { $field }“{ $text }”不是日期或时间（应类似 2026-11-28T02:00:00Z）
validate-not-date = { $field }“{ $text }”不是日期（应为 YYYY-MM-DD，例如 2026-12-31）
validate-support-duplicate = supportMatrix 中有两个名为 "{ $name }" 的组合
validate-support-empty = 一个已验证的组合至少要指定一个版本
validate-support-minor = kubernetesSupport 的键 "{ $key }" 不是 Kubernetes 次版本（例如 v1.32）
validate-unsupported-combination = 集群 "{ $cluster }" 运行的组合不受支持：{ $outside } 不在任何已验证的组合中
validate-untested-combination = 集群 "{ $cluster }" 运行的组合未经测试：最接近的已验证组合 { $closest } 在 { $differs } 上不同
validate-window-no-days = maintenanceWindow.days 至少要列出一天
validate-window-start = maintenanceWindow.start“{ $text }”不是一天中的时间（应为 HH:MM，例如 02:00）
validate-window-zero = maintenanceWindow.duration 必须大于零
validate-window-week = maintenanceWindow.duration { $text } 超过一周
validate-window-zone = maintenanceWindow.timezone“{ $text }”不是已知时区（例如 UTC、Europe/Berlin）

## Durations as written in files (`src/model/duration.rs`)

validate-longer-than-zero = 字段 `{ $field }` 必须长于 0s
validate-field-duration-named = 字段 `{ $field }`：{ $error }
validate-duration-empty = 时长为空
validate-duration-malformed = 时长“{ $text }”格式错误：应为数字加 d、h、m 或 s，例如 1h30m
validate-duration-too-large = 时长“{ $text }”过大

## The ledger's rules (`src/model/ledger/rules.rs`)

validate-label-undeclared = 标签 `{ $key }` 未在 labelDictionary 中声明
validate-label-undeclared-near = 标签 `{ $key }` 未在 labelDictionary 中声明（是否想写 `{ $near }`？）
validate-cidr-own = serviceCIDR { $service } 与本集群自己的 podCIDR { $pod } 重叠
validate-cidr-overlap = { $field } { $net } 与集群“{ $cluster }”的 { $otherField } { $otherNet } 重叠（位于 { $at }）
validate-no-owner-production = 集群“{ $cluster }”是生产集群，但没有负责人
validate-no-owner-critical = 集群“{ $cluster }”是关键集群，但没有负责人
validate-no-identity = 集群“{ $cluster }”没有固定身份；对它的每个操作都会被拒绝

## Maintenance files (`src/model/maintenance/decode.rs`)

validate-hook-outlasts-deadline = hook 的超时（{ $timeout }）长于 Maintain 步骤的期限（{ $deadline }）：hook 被停止前该步骤就会卡住
validate-at-least-one-node = 字段 `{ $field }` 至少为 1，否则永远无法维护任何节点
validate-names-or-selector = nodes 只能取 `names` 或 `selector` 之一，不能两者都有
validate-nodes-needs = nodes 需要 `names`（列表）或 `selector`（标签选择算符）
validate-names-empty = 字段 `names` 没有列出任何节点
validate-node-twice = 节点“{ $name }”列出了两次
validate-selector-empty = 字段 `selector` 不能为空：否则会选中所有节点
validate-exec-or-manual = action 只能取 `exec` 或 `manual` 之一，不能两者都有
validate-action-needs = action 需要 `exec`（要运行的程序）或 `manual`（由人来做）
validate-argv-empty = 字段 `argv` 至少要有要运行的程序
validate-argv-shell = argv 运行的是 shell 脚本：fleetdeck 有意不经 shell 传递 argv；建议直接调用程序
validate-per-domain-no-effect = perFailureDomain（{ $per }）大于 maxUnavailable（{ $max }），不起作用
validate-domain-label-empty = 字段 `failureDomainLabel` 不能为空：请写一个节点标签，或省略该字段以使用 { $default }
validate-label-two-budgets = 标签“{ $label }”有两个预算
validate-deadlines-shape = 字段 `deadlines` 必须是从步骤到时长的映射，实际是{ $found }
validate-unknown-step = deadlines 中有未知步骤 `{ $key }`；步骤有 { $names }
validate-unknown-step-near = deadlines 中有未知步骤 `{ $key }`（是否想写 `{ $near }`？）；步骤有 { $names }
validate-unknown-version = expectedVersions 中有未知版本 `{ $key }`；已知：{ $names }
validate-unknown-version-near = expectedVersions 中有未知版本 `{ $key }`（是否想写 `{ $near }`？）；已知：{ $names }

## Rollout files (`src/model/rollout/decode.rs`, `decode_checks.rs`)

validate-batch-over-in-flight = 阶段“{ $stage }”的 batchSize 为 { $size }，但 maxInFlight 为 { $max }：它的批次最多只有 { $max } 个集群
validate-bundle-empty = 字段 `bundle` 没有列出任何组件版本
validate-bundle-no-version = bundle.{ $component } 没有版本
validate-no-checks = release 没有 `checks`：action 一返回，集群就算成功
validate-apply-or-exec = action 只能取 `apply` 或 `exec` 之一，不能两者都有
validate-release-action-needs = action 需要 `apply`（清单目录）或 `exec`（对每个集群运行的程序）
validate-stages-empty = 字段 `stages` 没有列出任何阶段
validate-stage-twice = 阶段“{ $stage }”声明了两次
validate-count-or-percent = 阶段只能取 `count` 或 `percent` 之一，不能两者都有
validate-stage-needs-size = 阶段需要 `count` 或 `percent`（只有最后一个阶段可以省略，取其余全部）
validate-unknown-metrics-ignore = unknownMetrics: ignore 会让发布在没有证据的情况下继续
validate-objective-below-100 = 字段 `objective` 必须低于 100%：100% 的目标没有错误预算
validate-above-zero = 字段 `{ $field }` 必须大于 0
validate-query-no-cluster = 查询中没有 `$cluster`：每个集群都会得到相同的错误率
validate-short-max-needs-window = 字段 `shortMaxBurn` 需要 `shortWindow`：它是该短窗口的上限
validate-short-window-longer = 字段 `shortWindow`（{ $short }）必须短于 `window`（{ $long }）
validate-check-kinds = 检查只能是 { $names } 之一；这一项有 { $present }
validate-check-needs = 检查需要 { $names } 之一
validate-min-ratio = 字段 `minRatio` 必须在 0 和 1 之间，实际是 { $found }
validate-namespace-or-selector = workloadsReady 只能取 `namespace` 或 `selector` 之一，不能两者都有
validate-workloads-needs = workloadsReady 需要 `namespace` 或 `selector`

## A value its field's rule refuses (`Fields::non_empty_checked`)

validate-field-value-why = 字段 `{ $key }`“{ $text }”{ $why }
validate-not-uid = 不是 UID（8-4-4-4-12 位十六进制数字，即 `kubectl get ns kube-system -o jsonpath='{"{"}.metadata.uid{"}"}'` 输出的形式）
validate-not-a-cluster = 不是台账中的集群
validate-not-a-cluster-near = 不是台账中的集群（是否想写“{ $near }”？）
run-name-rule = 必须由小写字母、数字、“-”和“.”组成，以字母或数字开头和结尾，最多 63 个字符（它是运行 ID 的一部分）；{ $why }
run-name-empty = 它为空
run-name-has = 它含有 { $chars }
run-name-long = 它有 { $n } 个字符
run-name-ends = 它以“-”或“.”开头或结尾
validate-bad-selector = 无效的选择算符 { $selector }：{ $reason }
validate-and = { $a } 和 { $b }
