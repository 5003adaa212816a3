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
