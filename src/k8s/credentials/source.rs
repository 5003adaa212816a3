//! Where a cluster's credential comes from, read from its kubeconfig user: a static token,
//! a token file, basic authentication, a client certificate, an exec plugin, or a legacy
//! auth provider fleetdeck does not run. Two clusters whose users read the same way share
//! one [`CredentialSource`], and so one credential: the key of the credential store.

use std::collections::BTreeMap;
use std::path::PathBuf;

use kube::config::{AuthInfo, Cluster, ExecConfig, ExecInteractiveMode};
use secrecy::ExposeSecret;

use crate::model::live::CredentialKind;

/// The exec `apiVersion`s fleetdeck speaks (client-go's two current ones).
pub const EXEC_API_VERSIONS: [&str; 2] = [
    "client.authentication.k8s.io/v1",
    "client.authentication.k8s.io/v1beta1",
];

/// How a plugin may talk to a person, from the kubeconfig's `interactiveMode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Interactive {
    /// Never: its stdin is never a terminal.
    Never,
    /// When a terminal is at hand (the default of `v1beta1`).
    IfAvailable,
    /// Only with a person at a terminal: never run behind the console.
    Always,
}

/// What the plugin is told about the cluster when `provideClusterInfo` is set (the
/// `spec.cluster` of `KUBERNETES_EXEC_INFO`, as client-go fills it).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ClusterInfo {
    /// The API server URL.
    pub server: String,
    /// `tls-server-name`.
    pub tls_server_name: Option<String>,
    /// `insecure-skip-tls-verify`.
    pub insecure_skip_tls_verify: bool,
    /// The CA bundle, base64 (as the kubeconfig holds it).
    pub certificate_authority_data: Option<String>,
    /// `proxy-url`.
    pub proxy_url: Option<String>,
    /// `disable-compression`.
    pub disable_compression: bool,
    /// The cluster's `client.authentication.k8s.io/exec` extension, as JSON text.
    pub config: Option<String>,
}

/// An exec plugin, as the kubeconfig configures it. Everything here is part of the key: a
/// plugin run with other arguments or environment hands out another credential.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ExecSpec {
    /// `apiVersion` of the ExecCredential it reads and answers.
    pub api_version: String,
    /// The program.
    pub command: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Environment added to fleetdeck's own, in order.
    pub env: Vec<(String, String)>,
    /// `interactiveMode`.
    pub interactive: Interactive,
    /// The cluster, when `provideClusterInfo` asks for it (then the credential is the
    /// cluster's own).
    pub cluster: Option<ClusterInfo>,
    /// `installHint`, shown when the program is not found.
    pub install_hint: Option<String>,
}

/// Where a credential comes from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum CredentialSource {
    /// No credential (anonymous, or only the client certificate kube's TLS presents).
    None,
    /// A client certificate and key from the kubeconfig, presented by the TLS layer.
    ClientCertificate,
    /// A bearer token written in the kubeconfig.
    Token(String),
    /// A bearer token read from a file.
    TokenFile(PathBuf),
    /// Basic authentication.
    Basic {
        /// User name.
        username: String,
        /// Password.
        password: String,
    },
    /// An exec plugin (boxed: a source is a map key, and the other kinds are small).
    Exec(Box<ExecSpec>),
    /// A legacy `auth-provider` (`oidc`, `gcp`, `azure`): refused with what to use instead.
    AuthProvider(String),
    /// A kubeconfig entry that cannot be used (an exec entry without a command, an
    /// `apiVersion` fleetdeck does not speak): refused, saying why.
    Invalid(String),
}

impl CredentialSource {
    /// Reads the source of `user`, talking to `cluster`. The precedence is client-go's: a
    /// token, else a token file, else basic authentication; an exec plugin only when
    /// none of those nor a client certificate is set. (kube made the kubeconfig's
    /// relative paths absolute when it read the file.)
    pub fn of(user: &AuthInfo, cluster: Option<&Cluster>) -> CredentialSource {
        if let Some(token) = user
            .token
            .as_ref()
            .map(|t| t.expose_secret().trim().to_string())
            && !token.is_empty()
        {
            return CredentialSource::Token(token);
        }
        if let Some(file) = user.token_file.as_deref().filter(|f| !f.is_empty()) {
            return CredentialSource::TokenFile(PathBuf::from(file));
        }
        if let (Some(username), Some(password)) = (&user.username, &user.password) {
            return CredentialSource::Basic {
                username: username.clone(),
                password: password.expose_secret().to_string(),
            };
        }
        let certificate =
            user.client_certificate.is_some() || user.client_certificate_data.is_some();
        if let Some(exec) = &user.exec
            && !certificate
        {
            return exec_source(exec, cluster);
        }
        if let Some(provider) = &user.auth_provider {
            return CredentialSource::AuthProvider(provider.name.clone());
        }
        if certificate {
            return CredentialSource::ClientCertificate;
        }
        CredentialSource::None
    }

    /// What kind of credential this is, for reports.
    pub fn kind(&self) -> CredentialKind {
        match self {
            CredentialSource::None | CredentialSource::Invalid(_) => CredentialKind::None,
            CredentialSource::ClientCertificate => CredentialKind::ClientCertificate,
            CredentialSource::Token(_) => CredentialKind::Token,
            CredentialSource::TokenFile(path) => CredentialKind::TokenFile {
                path: path.display().to_string(),
            },
            CredentialSource::Basic { .. } => CredentialKind::Basic,
            CredentialSource::Exec(spec) => CredentialKind::Exec {
                command: spec.command.clone(),
            },
            CredentialSource::AuthProvider(name) => {
                CredentialKind::AuthProvider { name: name.clone() }
            }
        }
    }
}

fn exec_source(exec: &ExecConfig, cluster: Option<&Cluster>) -> CredentialSource {
    let Some(command) = exec.command.as_deref().filter(|c| !c.is_empty()) else {
        return CredentialSource::Invalid("the exec entry names no command".into());
    };
    // v1 requires interactiveMode; v1beta1 defaults it to IfAvailable (client-go).
    let api_version = exec.api_version.clone().unwrap_or_default();
    if !EXEC_API_VERSIONS.contains(&api_version.as_str()) {
        return CredentialSource::Invalid(format!(
            "exec apiVersion {api_version:?} is not one fleetdeck speaks ({})",
            EXEC_API_VERSIONS.join(", ")
        ));
    }
    let interactive = match &exec.interactive_mode {
        Some(ExecInteractiveMode::Never) => Interactive::Never,
        Some(ExecInteractiveMode::Always) => Interactive::Always,
        Some(ExecInteractiveMode::IfAvailable) => Interactive::IfAvailable,
        None if api_version.ends_with("/v1") => {
            return CredentialSource::Invalid(
                "exec interactiveMode must be set for client.authentication.k8s.io/v1 (Never, IfAvailable or Always)".into(),
            );
        }
        None => Interactive::IfAvailable,
    };
    let command = command.to_string();
    let env = exec
        .env
        .iter()
        .flatten()
        .filter_map(|pair| Some((pair.get("name")?.clone(), pair.get("value")?.clone())))
        .collect();
    CredentialSource::Exec(Box::new(ExecSpec {
        api_version,
        command,
        args: exec.args.clone().unwrap_or_default(),
        env,
        interactive,
        cluster: exec
            .provide_cluster_info
            .then(|| cluster.map(cluster_info))
            .flatten(),
        install_hint: exec.install_hint.clone(),
    }))
}

fn cluster_info(cluster: &Cluster) -> ClusterInfo {
    let config = cluster.extensions.iter().flatten().find_map(|e| {
        (e.name == "client.authentication.k8s.io/exec").then(|| e.extension.to_string())
    });
    ClusterInfo {
        server: cluster.server.clone().unwrap_or_default(),
        tls_server_name: cluster.tls_server_name.clone(),
        insecure_skip_tls_verify: cluster.insecure_skip_tls_verify.unwrap_or(false),
        certificate_authority_data: cluster.certificate_authority_data.clone(),
        proxy_url: cluster.proxy_url.clone(),
        disable_compression: cluster.disable_compression.unwrap_or(false),
        config,
    }
}

/// `user` with every way of authenticating removed but the client certificate: what
/// kube's own client stack is given, so that it never runs a plugin (kube runs them with a
/// blocking process, no timeout and the terminal's stderr) nor adds a header of its own.
pub fn without_credentials(user: &AuthInfo) -> AuthInfo {
    let mut stripped = user.clone();
    stripped.username = None;
    stripped.password = None;
    stripped.token = None;
    stripped.token_file = None;
    stripped.exec = None;
    stripped.auth_provider = None;
    stripped
}

/// The exec entry as `KUBERNETES_EXEC_INFO`'s `spec.cluster` writes it.
pub fn cluster_json(info: &ClusterInfo) -> serde_json::Value {
    let mut out = BTreeMap::new();
    out.insert("server", serde_json::Value::from(info.server.clone()));
    if let Some(name) = &info.tls_server_name {
        out.insert("tls-server-name", name.clone().into());
    }
    if info.insecure_skip_tls_verify {
        out.insert("insecure-skip-tls-verify", true.into());
    }
    if let Some(ca) = &info.certificate_authority_data {
        out.insert("certificate-authority-data", ca.clone().into());
    }
    if let Some(proxy) = &info.proxy_url {
        out.insert("proxy-url", proxy.clone().into());
    }
    if info.disable_compression {
        out.insert("disable-compression", true.into());
    }
    if let Some(config) = info
        .config
        .as_deref()
        .and_then(|c| serde_json::from_str::<serde_json::Value>(c).ok())
    {
        out.insert("config", config);
    }
    serde_json::json!(out)
}

/// What to say of a legacy `auth-provider` entry: kubectl dropped them (1.26), and each
/// has an exec plugin that replaced it.
pub fn auth_provider_refusal(name: &str) -> String {
    let replacement = match name {
        "oidc" => "the kubelogin exec plugin (kubectl oidc-login)",
        "gcp" => "the gke-gcloud-auth-plugin exec plugin",
        "azure" => "the kubelogin exec plugin (Azure)",
        _ => "an exec credential plugin",
    };
    format!(
        "auth-provider {name:?} is not run by fleetdeck (kubectl removed auth providers in 1.26): use {replacement} in the kubeconfig's user instead"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(yaml: &str) -> AuthInfo {
        serde_yaml_like(yaml)
    }

    /// The kubeconfig's own parser, so the test reads users as fleetdeck does.
    fn serde_yaml_like(user: &str) -> AuthInfo {
        let text = format!(
            "apiVersion: v1\nkind: Config\nclusters: []\ncontexts: []\nusers:\n- name: u\n  user:\n{}\n",
            user.lines()
                .map(|l| format!("    {l}"))
                .collect::<Vec<_>>()
                .join("\n")
        );
        let config = kube::config::Kubeconfig::from_yaml(&text).expect("kubeconfig");
        config.auth_infos[0].auth_info.clone().expect("user")
    }

    #[test]
    fn precedence_is_client_go_s() {
        let both = user(
            "token: abc\nexec:\n  apiVersion: client.authentication.k8s.io/v1\n  command: aws\n  interactiveMode: Never",
        );
        assert_eq!(
            CredentialSource::of(&both, None),
            CredentialSource::Token("abc".into())
        );
        let file = user("tokenFile: /etc/kube/token");
        assert_eq!(
            CredentialSource::of(&file, None),
            CredentialSource::TokenFile("/etc/kube/token".into())
        );
        let cert_and_exec = user(
            "client-certificate-data: AAAA\nclient-key-data: BBBB\nexec:\n  apiVersion: client.authentication.k8s.io/v1\n  command: aws\n  interactiveMode: Never",
        );
        assert_eq!(
            CredentialSource::of(&cert_and_exec, None),
            CredentialSource::ClientCertificate
        );
        let oidc = user("auth-provider:\n  name: oidc\n  config: {}");
        assert_eq!(
            CredentialSource::of(&oidc, None),
            CredentialSource::AuthProvider("oidc".into())
        );
        assert_eq!(
            CredentialSource::of(&user("{}"), None),
            CredentialSource::None
        );
    }

    #[test]
    fn exec_entries_are_read_and_checked_as_client_go_does() {
        let exec = user(
            "exec:\n  apiVersion: client.authentication.k8s.io/v1beta1\n  command: /k/bin/plugin\n  args: [token, --cluster, a]\n  env:\n  - {name: AWS_PROFILE, value: ops}",
        );
        let CredentialSource::Exec(spec) = CredentialSource::of(&exec, None) else {
            panic!("exec");
        };
        assert_eq!(spec.command, "/k/bin/plugin");
        assert_eq!(spec.args, ["token", "--cluster", "a"]);
        assert_eq!(spec.env, [("AWS_PROFILE".to_string(), "ops".to_string())]);
        assert_eq!(
            spec.interactive,
            Interactive::IfAvailable,
            "v1beta1's default"
        );
        let v1 = user("exec:\n  apiVersion: client.authentication.k8s.io/v1\n  command: aws");
        assert!(matches!(
            CredentialSource::of(&v1, None),
            CredentialSource::Invalid(why) if why.contains("interactiveMode must be set")
        ));
        let old =
            user("exec:\n  apiVersion: client.authentication.k8s.io/v1alpha1\n  command: aws");
        assert!(matches!(
            CredentialSource::of(&old, None),
            CredentialSource::Invalid(why) if why.contains("v1alpha1")
        ));
    }

    #[test]
    fn kube_is_given_the_certificate_and_nothing_else() {
        let full = user(
            "token: abc\nclient-certificate-data: AAAA\nclient-key-data: BBBB\nexec:\n  apiVersion: client.authentication.k8s.io/v1\n  command: aws\n  interactiveMode: Never\nas: someone",
        );
        let stripped = without_credentials(&full);
        assert!(stripped.token.is_none() && stripped.exec.is_none());
        assert_eq!(stripped.client_certificate_data.as_deref(), Some("AAAA"));
        assert_eq!(stripped.impersonate.as_deref(), Some("someone"));
    }
}
