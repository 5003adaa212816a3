//! Loud findings about the ledger that do not stop a command: expired exceptions. Every
//! command that reads the ledger says them on standard error (standard output stays the
//! command's own, so `-o json` is still one JSON document); starting a new change on a
//! cluster with one needs `--acknowledge-expired-exceptions`, which is journaled.

use std::path::Path;

use fleetdeck::config::ledger_file;
use fleetdeck::model::ledger::{
    ClusterId, ExpiredException, Ledger, expired_exceptions, unacknowledged,
};

use fleetdeck::t;

use super::exit::Refused;

/// The ledger at `path`, for use, with its expired exceptions said on standard error.
pub fn load(lang: fleetdeck::i18n::Lang, path: &Path) -> anyhow::Result<Ledger> {
    let ledger = ledger_file::load(path)?;
    warn(lang, path, &ledger);
    Ok(ledger)
}

/// Says each expired exception of `ledger` on standard error.
pub fn warn(lang: fleetdeck::i18n::Lang, path: &Path, ledger: &Ledger) {
    for expired in expired_exceptions(ledger, ledger_file::today()) {
        let said = t!(
            lang,
            "ledger-expired-warning",
            ledger = path.display().to_string(),
            expired = expired.to_string(),
            cluster = expired.cluster.to_string()
        );
        // i18n: not for people (the program's name before its message)
        eprintln!("fleetdeck: {said}");
    }
}

/// Refuses to start a change on `clusters` while one of them has an expired exception,
/// unless the person said they know (`acknowledged`); returns what they acknowledged, for
/// the journal.
pub fn acknowledge(
    ledger: &Ledger,
    clusters: &[ClusterId],
    acknowledged: bool,
    lang: fleetdeck::i18n::Lang,
    what: &str,
) -> anyhow::Result<Vec<ExpiredException>> {
    let expired = unacknowledged(ledger, clusters, ledger_file::today());
    if expired.is_empty() || acknowledged {
        return Ok(expired);
    }
    let list: Vec<String> = expired.iter().map(ToString::to_string).collect();
    Err(Refused(t!(
        lang,
        "ack-refused",
        what = what,
        expired = list.join("; ")
    ))
    .into())
}

/// The journal note that records an acknowledgement.
pub fn acknowledgement_note(expired: &[ExpiredException]) -> Option<String> {
    (!expired.is_empty()).then(|| {
        let list: Vec<String> = expired.iter().map(ToString::to_string).collect();
        format!(
            "started despite expired ledger exception(s), acknowledged: {}", // i18n: not for people (journaled)
            list.join("; ")
        )
    })
}
