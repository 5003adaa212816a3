use super::*;

#[test]
fn pdb_refusals_are_read_into_numbers() {
    assert_eq!(
        parse_pdb_refusal(
            "Cannot evict pod as it would violate the pod's disruption budget. The disruption budget web-pdb needs 3 healthy pods and has 3 currently"
        ),
        Some(("web-pdb".to_string(), 3, 3))
    );
    assert_eq!(parse_pdb_refusal("Too many requests"), None);
}

#[test]
fn only_a_failed_uid_precondition_means_the_evicted_pod_is_gone() {
    assert!(is_precondition_failure(
        "Precondition failed: UID in precondition: 1234, UID in object meta: 5678"
    ));
    assert!(!is_precondition_failure(
        "Operation cannot be fulfilled on poddisruptionbudgets.policy \"web\": the object has been modified; please apply your changes to the latest version and try again"
    ));
}
