//! Authentication: the users the simulator knows, their bearer tokens, and the request
//! attributes the authorizer and API priority and fairness judge (verb, API group,
//! resource, subresource, namespace, name — or a non-resource path).
//!
//! Built-in users: `admin` (the kubeconfig's user, full access), `viewer` (get, list
//! and watch), `nobody` (authenticated, no access). Scenarios may add users. What a user
//! may do is decided by the RBAC objects each cluster stores (see [`super::rbac`]), so a
//! scenario can grant more with a RoleBinding, as on a real cluster.

use serde::Deserialize;

use super::error::ApiError;
use super::tokens::TokenIssuer;

/// The token of the kubeconfig's user (`admin`).
pub const ADMIN_TOKEN: &str = "fleetdeck-sim-token";

/// Every authenticated user is in this group.
pub const AUTHENTICATED: &str = "system:authenticated";

/// A user of the simulated clusters.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SimUser {
    /// User name (`kubectl auth whoami` shows it; RBAC subjects name it).
    pub name: String,
    /// Bearer token that authenticates as this user.
    pub token: String,
    /// Groups besides `system:authenticated`.
    #[serde(default)]
    pub groups: Vec<String>,
    /// Access granted by a ClusterRoleBinding the simulator creates in every cluster.
    #[serde(default)]
    pub access: Access,
}

/// The access a built-in ClusterRoleBinding grants a user.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Access {
    /// `cluster-admin`: every verb on every resource and path.
    Full,
    /// get, list and watch on every resource.
    Read,
    /// Nothing beyond what every authenticated user may do (discovery, health, version,
    /// self-reviews).
    #[default]
    None,
}

impl SimUser {
    fn builtin(name: &str, token: &str, access: Access) -> SimUser {
        SimUser {
            name: name.into(),
            token: token.into(),
            groups: Vec::new(),
            access,
        }
    }

    /// The simulator's built-in users: `admin`, `viewer`, `nobody`.
    pub fn builtins() -> Vec<SimUser> {
        vec![
            SimUser::builtin("admin", ADMIN_TOKEN, Access::Full),
            SimUser::builtin("viewer", "fleetdeck-sim-viewer-token", Access::Read),
            SimUser::builtin("nobody", "fleetdeck-sim-nobody-token", Access::None),
        ]
    }

    /// The user's groups, `system:authenticated` included.
    pub fn all_groups(&self) -> Vec<String> {
        let mut g = self.groups.clone();
        if !g.iter().any(|x| x == AUTHENTICATED) {
            g.push(AUTHENTICATED.into());
        }
        g
    }

    /// A stable uid for the user (shown by `kubectl auth whoami`).
    pub fn uid(&self) -> String {
        let h = super::generate::fnv(&format!("user/{}", self.name));
        format!(
            "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
            h >> 32,
            (h >> 16) & 0xffff,
            h & 0xfff,
            (h >> 20) & 0xfff,
            h & 0xffff_ffff_ffff
        )
    }
}

/// Finds the user a request's `Authorization` header authenticates: a user's own token,
/// or one the fleet's issuer handed out that has neither expired nor been revoked; 401
/// otherwise (the same answer for each, as a real API server gives).
pub fn authenticate<'a>(
    users: &'a [SimUser],
    issuer: &TokenIssuer,
    header: &str,
) -> Result<&'a SimUser, ApiError> {
    let token = header
        .strip_prefix("Bearer ")
        .or_else(|| header.strip_prefix("bearer "))
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or_else(ApiError::unauthorized)?;
    if let Some(user) = users.iter().find(|u| u.token == token) {
        return Ok(user);
    }
    let name = issuer
        .user_of(token)
        .map_err(|_| ApiError::unauthorized())?;
    users
        .iter()
        .find(|u| u.name == name)
        .ok_or_else(ApiError::unauthorized)
}

/// What a request asks to do, as the authorizer sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attributes {
    /// A request for a resource.
    Resource {
        /// `get`, `list`, `watch`, `create`, `update`, `patch`, `delete`,
        /// `deletecollection`.
        verb: String,
        /// API group ("" for core).
        group: String,
        /// Plural.
        resource: String,
        /// Subresource (`status`, `eviction`, …) or "".
        subresource: String,
        /// Namespace or "".
        namespace: String,
        /// Object name or "".
        name: String,
    },
    /// A request for a path outside the resource API (`/healthz`, `/api`, `/version`).
    NonResource {
        /// Lower-case HTTP method.
        verb: String,
        /// The path.
        path: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_authenticate_their_users_only() {
        let users = SimUser::builtins();
        let issuer = TokenIssuer::new(std::time::Duration::from_secs(60));
        let u = authenticate(&users, &issuer, "Bearer fleetdeck-sim-token").map(|u| u.name.clone());
        assert_eq!(u.ok().as_deref(), Some("admin"));
        let (issued, _) = issuer.issue("viewer", None);
        let u = authenticate(&users, &issuer, &format!("Bearer {issued}")).map(|u| u.name.clone());
        assert_eq!(u.ok().as_deref(), Some("viewer"));
        let (stranger, _) = issuer.issue("mallory", None);
        issuer.revoke(&issued);
        for bad in [
            "".to_string(),
            "Bearer ".into(),
            "Bearer nope".into(),
            "Basic YWRtaW4=".into(),
            format!("Bearer {issued}"),
            format!("Bearer {stranger}"),
        ] {
            let e = authenticate(&users, &issuer, &bad).err();
            assert_eq!(
                e.map(|e| (e.code, e.reason)),
                Some((401, "Unauthorized")),
                "{bad}"
            );
        }
        assert_eq!(users[0].all_groups(), ["system:authenticated"]);
        assert_eq!(users[1].uid().len(), 36);
    }
}
