//! batch/v1 Jobs and CronJobs: defaults (a Job's generated selector and labels, its
//! parallelism, completions and backoff limit; a CronJob's policies and history
//! limits) and validation as `pkg/apis/batch/validation` does it.

use serde_json::{Value, json};

use super::super::field_errors::{FieldError, dns1123_subdomain, object_meta};
use super::super::store::str_at;

const RESTART: [&str; 2] = ["OnFailure", "Never"];

fn default(obj: &mut Value, pointer: &str, v: Value) {
    if obj.pointer(pointer).is_none() {
        let (parent, key) = pointer.rsplit_once('/').unwrap_or(("", pointer));
        if let Some(p) = obj.pointer_mut(parent).and_then(Value::as_object_mut) {
            p.insert(key.to_string(), v);
        }
    }
}

/// Defaults of a new Job (`uid` is its metadata.uid, used in the generated selector).
pub fn job_defaults(obj: &mut Value) {
    let uid = str_at(obj, "/metadata/uid");
    let name = str_at(obj, "/metadata/name");
    if !obj["spec"].is_object() {
        obj["spec"] = json!({});
    }
    let manual = obj.pointer("/spec/manualSelector").and_then(Value::as_bool) == Some(true);
    if !manual {
        let labels = json!({"batch.kubernetes.io/controller-uid": uid, "batch.kubernetes.io/job-name": name,
            "controller-uid": uid, "job-name": name});
        if !obj["spec"]["template"]["metadata"].is_object() {
            obj["spec"]["template"]["metadata"] = json!({});
        }
        if let (Some(t), Some(l)) = (
            obj["spec"]["template"]["metadata"]
                .as_object_mut()
                .map(|m| m.entry("labels").or_insert_with(|| json!({}))),
            labels.as_object(),
        ) {
            for (k, v) in l {
                t[k] = v.clone();
            }
        }
        obj["spec"]["selector"] =
            json!({"matchLabels": {"batch.kubernetes.io/controller-uid": uid}});
    }
    let explicit_parallelism = obj.pointer("/spec/parallelism").is_some();
    default(obj, "/spec/parallelism", json!(1));
    if obj.pointer("/spec/completions").is_none() && !explicit_parallelism {
        obj["spec"]["completions"] = json!(1);
    }
    default(obj, "/spec/backoffLimit", json!(6));
    default(obj, "/spec/completionMode", json!("NonIndexed"));
    default(obj, "/spec/suspend", json!(false));
    default(
        obj,
        "/spec/podReplacementPolicy",
        json!("TerminatingOrFailed"),
    );
    if obj
        .pointer("/spec/template/spec")
        .is_some_and(Value::is_object)
    {
        for (k, v) in [
            ("terminationGracePeriodSeconds", json!(30)),
            ("dnsPolicy", json!("ClusterFirst")),
            ("schedulerName", json!("default-scheduler")),
        ] {
            default(obj, &format!("/spec/template/spec/{k}"), v);
        }
    }
    obj["status"] = json!({});
}

fn non_negative(obj: &Value, pointer: &str, field: &str, errs: &mut Vec<FieldError>) {
    if let Some(v) = obj.pointer(pointer)
        && v.as_i64().is_some_and(|n| n < 0)
    {
        errs.push(FieldError::invalid(
            field,
            v,
            "must be greater than or equal to 0",
        ));
    }
}

/// Validation of a pod template as a Job runs it (`path` is where it sits).
fn validate_job_template(spec: &Value, path: &str, errs: &mut Vec<FieldError>) {
    let Some(template) = spec.get("template").filter(|t| t.is_object()) else {
        errs.push(FieldError::required(format!("{path}.template"), ""));
        return;
    };
    let restart = str_at(template, "/spec/restartPolicy");
    if restart.is_empty() {
        errs.push(FieldError::required(
            format!("{path}.template.spec.restartPolicy"),
            "valid values: \"OnFailure\", \"Never\"",
        ));
    } else if !RESTART.contains(&restart.as_str()) {
        errs.push(FieldError::not_supported(
            format!("{path}.template.spec.restartPolicy"),
            &json!(restart),
            &RESTART,
        ));
    }
    if template
        .pointer("/spec/containers")
        .and_then(Value::as_array)
        .is_none_or(|c| c.is_empty())
    {
        errs.push(FieldError::required(
            format!("{path}.template.spec.containers"),
            "",
        ));
    }
}

/// Validation of a Job (the pod template is fixed once created).
pub fn validate_job(obj: &Value, old: Option<&Value>, errs: &mut Vec<FieldError>) {
    object_meta(obj, dns1123_subdomain, errs);
    let spec = obj.get("spec").cloned().unwrap_or(Value::Null);
    validate_job_template(&spec, "spec", errs);
    for (p, f) in [
        ("/spec/parallelism", "spec.parallelism"),
        ("/spec/completions", "spec.completions"),
        ("/spec/backoffLimit", "spec.backoffLimit"),
        ("/spec/activeDeadlineSeconds", "spec.activeDeadlineSeconds"),
        (
            "/spec/ttlSecondsAfterFinished",
            "spec.ttlSecondsAfterFinished",
        ),
    ] {
        non_negative(obj, p, f, errs);
    }
    let mode = str_at(obj, "/spec/completionMode");
    if !["NonIndexed", "Indexed", ""].contains(&mode.as_str()) {
        errs.push(FieldError::not_supported(
            "spec.completionMode",
            &json!(mode),
            &["NonIndexed", "Indexed"],
        ));
    }
    if let Some(old) = old {
        if old.pointer("/spec/template") != obj.pointer("/spec/template") {
            errs.push(FieldError::invalid(
                "spec.template",
                obj.pointer("/spec/template").unwrap_or(&Value::Null),
                "field is immutable",
            ));
        }
        if old.pointer("/spec/selector") != obj.pointer("/spec/selector") {
            errs.push(FieldError::invalid(
                "spec.selector",
                obj.pointer("/spec/selector").unwrap_or(&Value::Null),
                "field is immutable",
            ));
        }
    }
}

/// Defaults of a new CronJob.
pub fn cron_job_defaults(obj: &mut Value) {
    if !obj["spec"].is_object() {
        obj["spec"] = json!({});
    }
    default(obj, "/spec/concurrencyPolicy", json!("Allow"));
    default(obj, "/spec/suspend", json!(false));
    default(obj, "/spec/successfulJobsHistoryLimit", json!(3));
    default(obj, "/spec/failedJobsHistoryLimit", json!(1));
    obj["status"] = json!({});
}

/// Whether a cron schedule parses: five fields of numbers, ranges, steps, lists, `*`
/// and names, or one of the `@` macros.
pub fn cron_ok(schedule: &str) -> bool {
    let s = schedule.trim();
    let s = s
        .strip_prefix("CRON_TZ=")
        .or_else(|| s.strip_prefix("TZ="))
        .and_then(|r| r.split_once(' ').map(|(_, rest)| rest.trim()))
        .unwrap_or(s);
    if s.starts_with('@') {
        return [
            "@yearly",
            "@annually",
            "@monthly",
            "@weekly",
            "@daily",
            "@midnight",
            "@hourly",
        ]
        .contains(&s)
            || s.starts_with("@every ");
    }
    let fields: Vec<&str> = s.split_whitespace().collect();
    let bounds = [(0, 59), (0, 23), (1, 31), (1, 12), (0, 7)];
    fields.len() == 5
        && fields.iter().zip(bounds).all(|(f, (lo, hi))| {
            f.split(',').all(|part| {
                let (range, step) = part.split_once('/').unwrap_or((part, "1"));
                let step_ok = step.parse::<u32>().is_ok_and(|n| n > 0);
                let num = |x: &str| {
                    x.parse::<u32>()
                        .ok()
                        .filter(|n| (lo..=hi).contains(n))
                        .is_some()
                        || (x.len() == 3 && x.chars().all(|c| c.is_ascii_alphabetic()))
                };
                step_ok
                    && (range == "*"
                        || range == "?"
                        || match range.split_once('-') {
                            Some((a, b)) => num(a) && num(b),
                            None => num(range),
                        })
            })
        })
}

/// Validation of a CronJob.
pub fn validate_cron_job(obj: &Value, errs: &mut Vec<FieldError>) {
    object_meta(obj, dns1123_subdomain, errs);
    let name = str_at(obj, "/metadata/name");
    if name.len() > 52 {
        errs.push(FieldError::invalid(
            "metadata.name",
            &json!(name),
            "must be no more than 52 characters",
        ));
    }
    let schedule = str_at(obj, "/spec/schedule");
    if schedule.is_empty() {
        errs.push(FieldError::required("spec.schedule", ""));
    } else if !cron_ok(&schedule) {
        errs.push(FieldError::invalid(
            "spec.schedule",
            &json!(schedule),
            "unparseable schedule",
        ));
    }
    let policy = str_at(obj, "/spec/concurrencyPolicy");
    if !["Allow", "Forbid", "Replace"].contains(&policy.as_str()) {
        errs.push(FieldError::not_supported(
            "spec.concurrencyPolicy",
            &json!(policy),
            &["Allow", "Forbid", "Replace"],
        ));
    }
    match obj.pointer("/spec/jobTemplate/spec") {
        Some(spec) => validate_job_template(spec, "spec.jobTemplate.spec", errs),
        None => errs.push(FieldError::required("spec.jobTemplate", "")),
    }
    non_negative(
        obj,
        "/spec/startingDeadlineSeconds",
        "spec.startingDeadlineSeconds",
        errs,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_get_a_selector_and_need_a_restart_policy_that_ends() {
        let mut j = json!({"metadata": {"name": "migrate", "uid": "u-1"},
            "spec": {"template": {"spec": {"restartPolicy": "Always", "containers": [{"name": "m", "image": "i"}]}}}});
        job_defaults(&mut j);
        assert_eq!(
            j.pointer("/spec/selector/matchLabels/batch.kubernetes.io~1controller-uid"),
            Some(&json!("u-1"))
        );
        assert_eq!(
            j.pointer("/spec/template/metadata/labels/job-name"),
            Some(&json!("migrate"))
        );
        assert_eq!(
            (
                j["spec"]["completions"].clone(),
                j["spec"]["backoffLimit"].clone()
            ),
            (json!(1), json!(6))
        );
        let mut errs = Vec::new();
        validate_job(&j, None, &mut errs);
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].field, "spec.template.spec.restartPolicy");
        assert_eq!(errs[0].reason, "FieldValueNotSupported");
    }

    #[test]
    fn cron_schedules_parse_like_the_controller_reads_them() {
        for ok in [
            "*/5 * * * *",
            "0 3 * * 1-5",
            "@hourly",
            "15 2 1,15 * *",
            "0 0 * JAN MON",
        ] {
            assert!(cron_ok(ok), "{ok}");
        }
        for bad in ["", "* * * *", "61 * * * *", "@sometimes", "*/0 * * * *"] {
            assert!(!cron_ok(bad), "{bad}");
        }
    }
}
