//! batch/v1 Jobs and CronJobs (`pkg/apis/batch/validation`): a pod template that
//! ends (restart policy OnFailure or Never) with containers, counts that are not
//! negative, a schedule that parses, and a Job's template and selector fixed once
//! created.

use serde_json::Value;

use super::field::{BadValue, ErrorList, FieldError};
use super::json::{items, text};
use super::require;

const RESTART: [&str; 2] = ["OnFailure", "Never"];

fn non_negative(obj: &Value, pointer: &str, field: &str) -> Option<FieldError> {
    let v = obj.pointer(pointer)?;
    v.as_i64()
        .is_some_and(|n| n < 0)
        .then(|| FieldError::invalid(field, v, "must be greater than or equal to 0"))
}

/// A pod template as a Job runs it (`path` is where it sits).
fn job_template(spec: &Value, path: &str) -> ErrorList {
    let Some(template) = spec.get("template").filter(|t| t.is_object()) else {
        return vec![FieldError::required(format!("{path}.template"), "")];
    };
    let pod = template.get("spec").unwrap_or(&Value::Null);
    [
        require::set_and_supported(
            text(pod, "/restartPolicy"),
            format!("{path}.template.spec.restartPolicy"),
            &RESTART,
            "valid values: \"OnFailure\", \"Never\"",
        ),
        require::listed(
            items(pod, "containers"),
            format!("{path}.template.spec.containers"),
            "",
        ),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// A Job.
pub fn job(obj: &Value) -> ErrorList {
    let empty = Value::Null;
    let mut errs = job_template(obj.get("spec").unwrap_or(&empty), "spec");
    for field in [
        "parallelism",
        "completions",
        "backoffLimit",
        "activeDeadlineSeconds",
        "ttlSecondsAfterFinished",
    ] {
        errs.extend(non_negative(
            obj,
            &format!("/spec/{field}"),
            &format!("spec.{field}"),
        ));
    }
    errs.extend(require::defaulted(
        text(obj, "/spec/completionMode"),
        "spec.completionMode",
        &["NonIndexed", "Indexed"],
    ));
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
    let name = text(obj, "/metadata/name");
    if name.len() > 52 {
        errs.push(FieldError::invalid(
            "metadata.name",
            BadValue::Str(name.into()),
            "must be no more than 52 characters",
        ));
    }
    let schedule = text(obj, "/spec/schedule");
    if schedule.is_empty() {
        errs.push(FieldError::required("spec.schedule", ""));
    } else if !cron_ok(schedule) {
        errs.push(FieldError::invalid(
            "spec.schedule",
            BadValue::Str(schedule.into()),
            "unparseable schedule",
        ));
    }
    errs.extend(require::supported(
        text(obj, "/spec/concurrencyPolicy"),
        "spec.concurrencyPolicy",
        &["Allow", "Forbid", "Replace"],
    ));
    match obj.pointer("/spec/jobTemplate/spec") {
        Some(spec) => errs.extend(job_template(spec, "spec.jobTemplate.spec")),
        None => errs.push(FieldError::required("spec.jobTemplate", "")),
    }
    errs.extend(non_negative(
        obj,
        "/spec/startingDeadlineSeconds",
        "spec.startingDeadlineSeconds",
    ));
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
