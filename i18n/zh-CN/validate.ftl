# fleetdeck 文件中发现的问题（`ledger validate` 等）。`FILE:LINE:COL: ` 前缀不属于消息。
# 字段名、值和类型按原文显示。

validate-warning = 警告
validate-summary-valid = { $file }：有效，{ $clusters } 个集群，{ $warnings } 个警告
validate-summary-expired = { $file }：{ $errors } 个错误（例外已过期：各命令仍会读取，但对这些集群的新变更需要 --acknowledge-expired-exceptions），{ $clusters } 个集群，{ $warnings } 个警告
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
