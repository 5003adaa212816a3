//! Tokens the simulator issues, as an identity provider behind an exec plugin would: each
//! names a user, expires, and can be revoked. A token that expired or was revoked gets the
//! same 401 a real API server sends for a token it does not know (it says no more than
//! `Unauthorized`), so a client learns nothing but that it must get a new one.
//!
//! Issued by `POST /sim/v1/tokens` (what the test plugin, `fleetdeck sim-plugin`, calls),
//! revoked by `POST /sim/v1/tokens/revoke`, counted by `GET /sim/v1/tokens`.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use jiff::Timestamp;
use serde::Serialize;

/// One issued token.
#[derive(Debug, Clone)]
struct Issued {
    user: String,
    expires_at: Timestamp,
    revoked: bool,
}

/// What `GET /sim/v1/tokens` says of the tokens issued so far.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TokenCounts {
    /// Tokens issued.
    pub issued: u64,
    /// Tokens revoked.
    pub revoked: u64,
    /// Requests refused because their token had expired.
    pub expired_refusals: u64,
    /// Requests refused because their token was revoked.
    pub revoked_refusals: u64,
}

/// Why an issued token does not authenticate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Not a token this issuer handed out.
    Unknown,
    /// Past its expiry.
    Expired,
    /// Revoked.
    Revoked,
}

/// The fleet's token issuer: one for every cluster, as one identity provider serves a
/// whole fleet.
#[derive(Debug)]
pub struct TokenIssuer {
    default_ttl: Duration,
    state: Mutex<IssuerState>,
}

#[derive(Debug, Default)]
struct IssuerState {
    tokens: HashMap<String, Issued>,
    next: u64,
    counts: TokenCounts,
}

/// The longest lifetime a token may be issued with (a day, as identity providers cap).
const MAX_TTL: Duration = Duration::from_secs(24 * 3600);

impl TokenIssuer {
    /// An issuer whose tokens live `default_ttl` unless asked otherwise.
    pub fn new(default_ttl: Duration) -> TokenIssuer {
        TokenIssuer {
            default_ttl,
            state: Mutex::new(IssuerState::default()),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, IssuerState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Issues a token for `user` living `ttl` (the default when none), capped at a day.
    pub fn issue(&self, user: &str, ttl: Option<Duration>) -> (String, Timestamp) {
        let ttl = ttl.unwrap_or(self.default_ttl).min(MAX_TTL);
        let expires_at = Timestamp::now()
            .checked_add(jiff::SignedDuration::try_from(ttl).unwrap_or_default())
            .unwrap_or(Timestamp::MAX);
        let mut st = self.state();
        st.next += 1;
        let h = super::generate::fnv(&format!("token/{user}/{}/{}", st.next, expires_at));
        let token = format!("sim-{user}-{}-{h:016x}", st.next);
        st.tokens.insert(
            token.clone(),
            Issued {
                user: user.to_string(),
                expires_at,
                revoked: false,
            },
        );
        st.counts.issued += 1;
        (token, expires_at)
    }

    /// The user `token` authenticates, or why it does not.
    pub fn user_of(&self, token: &str) -> Result<String, Refusal> {
        let mut st = self.state();
        let Some(issued) = st.tokens.get(token).cloned() else {
            return Err(Refusal::Unknown);
        };
        if issued.revoked {
            st.counts.revoked_refusals += 1;
            return Err(Refusal::Revoked);
        }
        if Timestamp::now() >= issued.expires_at {
            st.counts.expired_refusals += 1;
            return Err(Refusal::Expired);
        }
        Ok(issued.user)
    }

    /// Revokes one token; whether it was one of ours.
    pub fn revoke(&self, token: &str) -> bool {
        let mut st = self.state();
        let found = match st.tokens.get_mut(token) {
            Some(issued) if !issued.revoked => {
                issued.revoked = true;
                true
            }
            _ => false,
        };
        if found {
            st.counts.revoked += 1;
        }
        found
    }

    /// Revokes every token of `user`; how many.
    pub fn revoke_user(&self, user: &str) -> u64 {
        let mut st = self.state();
        let mut n = 0;
        for issued in st.tokens.values_mut() {
            if issued.user == user && !issued.revoked {
                issued.revoked = true;
                n += 1;
            }
        }
        st.counts.revoked += n;
        n
    }

    /// The counts so far.
    pub fn counts(&self) -> TokenCounts {
        self.state().counts.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_expire_and_revoke() {
        let issuer = TokenIssuer::new(Duration::from_secs(60));
        let (token, expires) = issuer.issue("admin", None);
        assert!(expires > Timestamp::now());
        assert_eq!(issuer.user_of(&token), Ok("admin".to_string()));
        assert_eq!(issuer.user_of("nope"), Err(Refusal::Unknown));
        let (short, _) = issuer.issue("admin", Some(Duration::ZERO));
        assert_eq!(issuer.user_of(&short), Err(Refusal::Expired));
        assert!(issuer.revoke(&token));
        assert!(!issuer.revoke(&token), "once");
        assert_eq!(issuer.user_of(&token), Err(Refusal::Revoked));
        let (a, _) = issuer.issue("viewer", None);
        let (b, _) = issuer.issue("viewer", None);
        assert_eq!(issuer.revoke_user("viewer"), 2);
        assert_eq!(issuer.user_of(&a), Err(Refusal::Revoked));
        assert_eq!(issuer.user_of(&b), Err(Refusal::Revoked));
        let counts = issuer.counts();
        assert_eq!(
            (counts.issued, counts.revoked, counts.expired_refusals),
            (4, 3, 1)
        );
    }
}
