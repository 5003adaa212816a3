//! The findings' sentences as messages (`i18n::Msg`), beside the English the rules write:
//! a finding's summary and how to clear it are shown in the reader's language; JSON and
//! the English text keep the rules' own words (`tests` check that each message's English
//! is that text, byte for byte). Evidence is read from clusters and stays as written.

use jiff::Timestamp;
use jiff::tz::TimeZone;

use super::{CertSource, Finding, days_between};
use crate::i18n::{Lang, Msg};

impl Finding {
    /// With its summary and how to clear it as messages.
    pub(super) fn said(mut self, summary: Msg, silence: Msg) -> Finding {
        self.summary_msg = Some(summary);
        self.silence_msg = Some(silence);
        self
    }

    /// The one-line summary in `lang` (as written when it has no message).
    pub fn summary_in(&self, lang: Lang) -> String {
        match (&self.summary_msg, lang) {
            (Some(msg), Lang::ZhCn) => msg.text(lang),
            _ => self.summary.clone(),
        }
    }

    /// How to make it go away, in `lang` (as written when it has no message).
    pub fn silence_in(&self, lang: Lang) -> String {
        match (&self.silence_msg, lang) {
            (Some(msg), Lang::ZhCn) => msg.text(lang),
            _ => self.silence.clone(),
        }
    }
}

impl CertSource {
    /// What [`describe`](CertSource::describe) says, as a message.
    pub fn msg(&self) -> Msg {
        match self {
            CertSource::ServingCertificate => Msg::new("fd-src-serving"),
            CertSource::KubeconfigCa => Msg::new("fd-src-kubeconfig-ca"),
            CertSource::ClientCertificate => Msg::new("fd-src-client"),
            CertSource::ExecCredential => Msg::new("fd-src-exec"),
            CertSource::WebhookCaBundle {
                configuration,
                webhook,
            } => Msg::new("fd-src-webhook")
                .arg("configuration", configuration.to_string())
                .arg("webhook", webhook.to_string()),
            CertSource::ApiServiceCaBundle { name } => {
                Msg::new("fd-src-apiservice").arg("name", name.to_string())
            }
        }
    }

    /// How to renew it, as a message (the English of `renew_hint`).
    pub(super) fn renew_msg(&self) -> Msg {
        match self {
            CertSource::ServingCertificate => Msg::new("fd-fix-renew-serving"),
            CertSource::KubeconfigCa => Msg::new("fd-fix-renew-kubeconfig-ca"),
            CertSource::ClientCertificate => Msg::new("fd-fix-renew-client"),
            CertSource::ExecCredential => Msg::new("fd-fix-renew-exec"),
            CertSource::WebhookCaBundle { configuration, .. } => {
                Msg::new("fd-fix-renew-webhook").arg("configuration", configuration.to_string())
            }
            CertSource::ApiServiceCaBundle { name } => {
                Msg::new("fd-fix-renew-apiservice").arg("name", name.to_string())
            }
        }
    }
}

/// When `then` is, seen from `now`, as a message: the English of `certificates::left`.
pub(super) fn left_msg(now: Timestamp, then: Timestamp) -> Msg {
    let date = then.to_zoned(TimeZone::UTC).date().to_string();
    let days = days_between(now, then);
    if days < 0.0 {
        let ago = (-days).floor() as i64;
        return match ago {
            0 => Msg::new("fd-when-today-ago")
                .arg("date", date)
                .arg("hours", (((-days) * 24.0).floor() as i64).to_string()),
            1 => Msg::new("fd-when-day-ago").arg("date", date),
            n => Msg::new("fd-when-days-ago")
                .arg("n", n.to_string())
                .arg("date", date),
        };
    }
    match days.floor() as i64 {
        0 => Msg::new("fd-when-in-hours")
            .arg("hours", ((days * 24.0).floor() as i64).to_string())
            .arg("date", date),
        1 => Msg::new("fd-when-in-day").arg("date", date),
        n => Msg::new("fd-when-in-days")
            .arg("n", n.to_string())
            .arg("date", date),
    }
}

/// Fails when a finding's messages do not say, in English, exactly what it says.
#[cfg(test)]
pub(crate) fn assert_said_in_english(findings: &[Finding]) {
    for f in findings {
        let summary = f.summary_msg.as_ref().map(|m| m.text(Lang::En));
        assert_eq!(summary.as_deref(), Some(f.summary.as_str()), "{f:?}");
        let silence = f.silence_msg.as_ref().map(|m| m.text(Lang::En));
        assert_eq!(silence.as_deref(), Some(f.silence.as_str()), "{f:?}");
        // Every message is in Chinese too, with nothing left unformatted.
        for msg in [&f.summary_msg, &f.silence_msg].into_iter().flatten() {
            let zh = msg.text(Lang::ZhCn);
            assert!(!zh.contains('{'), "{zh}");
            assert_ne!(zh, msg.text(Lang::En), "{}", msg.id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::findings::{CertificateFact, Read, Thresholds, certificates};
    use crate::model::ledger::ClusterId;

    fn at(text: &str) -> Timestamp {
        text.parse().expect("a timestamp")
    }

    #[test]
    fn a_certificate_finding_reads_in_chinese_with_its_days_and_date() {
        let now = at("2026-12-01T12:00:00Z");
        let cert = CertificateFact {
            source: CertSource::ServingCertificate,
            subject: "kube-apiserver".into(),
            not_after: Read::Known(at("2026-12-06T18:00:00Z")),
        };
        let found = certificates::certificate_findings(
            &ClusterId("c1".into()),
            &[cert],
            now,
            &Thresholds::default(),
        );
        assert_said_in_english(&found);
        let f = &found[0];
        assert_eq!(
            f.summary,
            "API server serving certificate expires in 5 days (2026-12-06)"
        );
        assert_eq!(f.summary_in(Lang::En), f.summary);
        assert_eq!(
            f.summary_in(Lang::ZhCn),
            "API server 服务证书 将于 5 天后（2026-12-06）过期"
        );
        assert!(
            f.silence_in(Lang::ZhCn)
                .starts_with("续期 API server 服务证书")
        );
        // What scripts read is the English, whatever the reader's language.
        let json = serde_json::to_string(f).unwrap_or_default();
        assert!(
            !json.contains("summaryMsg") && !json.contains("服务"),
            "{json}"
        );
    }
}
