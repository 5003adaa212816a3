//! batch/v1 Jobs and CronJobs (`pkg/apis/batch/validation`): a pod template that
//! ends (restart policy OnFailure or Never) with containers, counts that are not
//! negative, a schedule that parses, and a Job's template and selector fixed once
//! created.

use serde_json::{Value, json};

use super::field::{ErrorList, FieldError};
use crate::sim::store::str_at;

const RESTART: [&str; 2] = ["OnFailure", "Never"];

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

/// A Job.
pub fn job(obj: &Value) -> ErrorList {
    let mut errs = ErrorList::new();
    let spec = obj.get("spec").cloned().unwrap_or(Value::Null);
    validate_job_template(&spec, "spec", &mut errs);
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
        non_negative(obj, p, f, &mut errs);
    }
    let mode = str_at(obj, "/spec/completionMode");
    if !["NonIndexed", "Indexed", ""].contains(&mode.as_str()) {
        errs.push(FieldError::not_supported(
            "spec.completionMode",
            &json!(mode),
            &["NonIndexed", "Indexed"],
        ));
    }
    errs
}

/// A Job update: valid, with its pod template and selector unchanged.
pub fn job_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = job(new);
    for (ptr, field) in [
        ("/spec/template", "spec.template"),
        ("/spec/selector", "spec.selector"),
    ] {
        if old.pointer(ptr) != new.pointer(ptr) {
            errs.push(FieldError::invalid(
                field,
                new.pointer(ptr).unwrap_or(&Value::Null),
                "field is immutable",
            ));
        }
    }
    errs
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

/// A CronJob.
pub fn cron_job(obj: &Value) -> ErrorList {
    let mut errs = ErrorList::new();
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
        Some(spec) => validate_job_template(spec, "spec.jobTemplate.spec", &mut errs),
        None => errs.push(FieldError::required("spec.jobTemplate", "")),
    }
    non_negative(
        obj,
        "/spec/startingDeadlineSeconds",
        "spec.startingDeadlineSeconds",
        &mut errs,
    );
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_needs_a_restart_policy_that_ends_and_keeps_its_template() {
        // As defaulting leaves a Job: selector, counts and modes set.
        let j = json!({"metadata": {"name": "migrate", "uid": "u-1"},
            "spec": {"parallelism": 1, "completions": 1, "backoffLimit": 6, "completionMode": "NonIndexed",
                "selector": {"matchLabels": {"batch.kubernetes.io/controller-uid": "u-1"}},
                "template": {"spec": {"restartPolicy": "Always", "containers": [{"name": "m", "image": "i"}]}}}});
        let errs = job(&j);
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].field, "spec.template.spec.restartPolicy");
        assert_eq!(errs[0].kind.reason(), "FieldValueNotSupported");
        let mut fixed = j.clone();
        fixed["spec"]["template"]["spec"]["restartPolicy"] = json!("Never");
        assert!(job(&fixed).is_empty());
        let mut changed = fixed.clone();
        changed["spec"]["template"]["spec"]["containers"][0]["image"] = json!("j");
        let fields: Vec<String> = job_update(&changed, &fixed)
            .into_iter()
            .map(|e| e.field)
            .collect();
        assert_eq!(fields, ["spec.template"]);
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
