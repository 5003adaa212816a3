//! What the database said, as journal errors a person can act on.

use tokio_postgres::error::SqlState;

use crate::journal::{Fence, JournalError};
use crate::model::run::{Actor, FencingToken};

/// A pool failure: the database cannot be reached (or refused the login).
pub fn from_pool(error: deadpool_postgres::PoolError, where_: &str) -> JournalError {
    match error {
        deadpool_postgres::PoolError::Backend(e) => from_pg(e, where_),
        other => JournalError::Unavailable(format!("{where_}: {other}")),
    }
}

/// A driver failure: refused by the database's rules, or the connection is gone.
pub fn from_pg(error: tokio_postgres::Error, where_: &str) -> JournalError {
    let Some(db) = error.as_db_error() else {
        // No answer from the server: the connection broke or never came up.
        let mut text = error.to_string();
        let mut source = std::error::Error::source(&error);
        while let Some(cause) = source {
            text = format!("{text}: {cause}");
            source = cause.source();
        }
        return JournalError::Unavailable(format!("{where_}: {text}"));
    };
    let code = db.code();
    if *code == SqlState::INSUFFICIENT_PRIVILEGE {
        let mut reason = db.message().to_string();
        if let Some(hint) = db.hint() {
            reason = format!("{reason}; {hint}");
        }
        return JournalError::Forbidden(reason);
    }
    match code.code() {
        "FD002" => return JournalError::Refused(db.message().to_string()),
        "FD003" => {
            return JournalError::AlreadyPlanned {
                run: crate::model::run::RunId(db.detail().unwrap_or_default().to_string()),
            };
        }
        "FD004" => {
            return JournalError::BadPayload {
                kind: db.detail().unwrap_or_default().to_string(),
                reason: db.hint().unwrap_or(db.message()).to_string(),
            };
        }
        "FD005" => {
            return JournalError::Unfenced {
                kind: db.detail().unwrap_or_default().to_string(),
            };
        }
        _ => {}
    }
    // The server gave up and rolled the statement back: nothing was written.
    if *code == SqlState::LOCK_NOT_AVAILABLE {
        return JournalError::Busy(format!(
            "another writer held the journal's write lock longer than lock_timeout allows ({})",
            db.message()
        ));
    }
    if *code == SqlState::QUERY_CANCELED {
        return JournalError::Busy(format!(
            "the statement ran longer than statement_timeout allows ({})",
            db.message()
        ));
    }
    if *code == SqlState::T_R_DEADLOCK_DETECTED || *code == SqlState::T_R_SERIALIZATION_FAILURE {
        return JournalError::Busy(db.message().to_string());
    }
    if *code == SqlState::READ_ONLY_SQL_TRANSACTION {
        // A standby (or a primary being demoted): the journal takes writes elsewhere, or
        // once one is promoted.
        return JournalError::Unavailable(format!(
            "{where_}: {} (a server that takes no writes: a standby? With several hosts, add target_session_attrs=read-write)",
            db.message()
        ));
    }
    if *code == SqlState::INVALID_PASSWORD || *code == SqlState::INVALID_AUTHORIZATION_SPECIFICATION
    {
        return JournalError::Unavailable(format!("{where_}: {}", db.message()));
    }
    // Shut down, restarting, too many connections: the database is not there for now.
    if code.code().starts_with("57P")
        || code.code().starts_with("08")
        || *code == SqlState::TOO_MANY_CONNECTIONS
    {
        return JournalError::Unavailable(format!("{where_}: {}", db.message()));
    }
    let detail = db.detail().map(|d| format!(" ({d})")).unwrap_or_default();
    JournalError::Postgres(format!("{}{detail}", db.message()))
}

/// A failed write: a stale fence becomes [`JournalError::StaleToken`], as on SQLite.
pub fn from_write(
    error: tokio_postgres::Error,
    where_: &str,
    fence: Option<&Fence>,
    role: &Actor,
) -> JournalError {
    if let Some(db) = error.as_db_error()
        && *db.code() == SqlState::INSUFFICIENT_PRIVILEGE
        && db
            .message()
            .starts_with("permission denied for table events")
    {
        return JournalError::Forbidden(format!(
            "role {role} may read the journal but not write it (it is not an operator, approver, executor or admin)"
        ));
    }
    if let (Some(db), Some(fence)) = (error.as_db_error(), fence)
        && db.code().code() == "FD001"
    {
        let current = db.detail().and_then(|d| d.parse::<i64>().ok()).unwrap_or(0);
        return JournalError::StaleToken {
            scope: fence.scope.clone(),
            presented: fence.token,
            current: FencingToken(current),
        };
    }
    from_pg(error, where_)
}
