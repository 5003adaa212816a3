//! Just enough X.509 to know when a certificate expires and what it is called: the
//! `validity` and the subject's common name out of a DER certificate (RFC 5280 §4.1),
//! PEM blocks and base64 as kubeconfigs and `caBundle`s carry them. Reading only; no
//! signature is checked here (the TLS stack does that where it matters).

use jiff::Timestamp;

/// Why a certificate could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CertError {
    /// The DER structure is not a certificate's.
    #[error("not an X.509 certificate: {0}")]
    Malformed(&'static str),
    /// No `-----BEGIN CERTIFICATE-----` block in the text.
    #[error("no PEM certificate in it")]
    NoPem,
    /// The base64 is not base64.
    #[error("not base64")]
    Base64,
}

/// What fleetdeck reads of a certificate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CertInfo {
    /// The subject's common name (or the whole subject's first value when it has none).
    pub subject: String,
    /// Not valid before.
    pub not_before: Timestamp,
    /// Not valid after.
    pub not_after: Timestamp,
}

/// One DER element: its tag and contents, and what follows it.
fn element(input: &[u8]) -> Result<(u8, &[u8], &[u8]), CertError> {
    let bad = CertError::Malformed("truncated");
    let (&tag, rest) = input.split_first().ok_or(bad.clone())?;
    let (&first, rest) = rest.split_first().ok_or(bad.clone())?;
    let (len, rest) = if first < 0x80 {
        (usize::from(first), rest)
    } else {
        let n = usize::from(first & 0x7f);
        if n == 0 || n > 4 || rest.len() < n {
            return Err(CertError::Malformed("length"));
        }
        let len = rest[..n]
            .iter()
            .fold(0usize, |acc, b| (acc << 8) | usize::from(*b));
        (len, &rest[n..])
    };
    if rest.len() < len {
        return Err(bad);
    }
    Ok((tag, &rest[..len], &rest[len..]))
}

fn expect<'a>(
    input: &'a [u8],
    tag: u8,
    what: &'static str,
) -> Result<(&'a [u8], &'a [u8]), CertError> {
    let (t, content, rest) = element(input)?;
    if t != tag {
        return Err(CertError::Malformed(what));
    }
    Ok((content, rest))
}

const SEQUENCE: u8 = 0x30;
const SET: u8 = 0x31;
const OID: u8 = 0x06;
const UTC_TIME: u8 = 0x17;
const GENERALIZED_TIME: u8 = 0x18;
/// 2.5.4.3, commonName.
const COMMON_NAME: &[u8] = &[0x55, 0x04, 0x03];

/// `YYMMDDHHMMSSZ` (UTCTime, years 1950–2049) or `YYYYMMDDHHMMSSZ` (GeneralizedTime).
fn time(tag: u8, content: &[u8]) -> Result<Timestamp, CertError> {
    let text = std::str::from_utf8(content).map_err(|_| CertError::Malformed("time"))?;
    let digits = text
        .strip_suffix('Z')
        .ok_or(CertError::Malformed("time zone"))?;
    let full = match (tag, digits.len()) {
        (UTC_TIME, 12) => {
            let yy: u32 = digits[..2]
                .parse()
                .map_err(|_| CertError::Malformed("year"))?;
            format!("{}{}", if yy >= 50 { 19 } else { 20 }, digits)
        }
        (GENERALIZED_TIME, 14) => digits.to_string(),
        _ => return Err(CertError::Malformed("time")),
    };
    let iso = format!(
        "{}-{}-{}T{}:{}:{}Z",
        &full[0..4],
        &full[4..6],
        &full[6..8],
        &full[8..10],
        &full[10..12],
        &full[12..14]
    );
    iso.parse().map_err(|_| CertError::Malformed("time"))
}

fn any_time(input: &[u8]) -> Result<(Timestamp, &[u8]), CertError> {
    let (tag, content, rest) = element(input)?;
    Ok((time(tag, content)?, rest))
}

/// The common name of a `Name` (a sequence of sets of attribute type and value), or its
/// first value when it has none.
fn common_name(mut name: &[u8]) -> String {
    let mut first = None;
    while let Ok((SET, set, rest)) = element(name) {
        name = rest;
        let Ok((attribute, _)) = expect(set, SEQUENCE, "attribute") else {
            continue;
        };
        let Ok((oid, value)) = expect(attribute, OID, "attribute type") else {
            continue;
        };
        let Ok((_, text, _)) = element(value) else {
            continue;
        };
        let text = String::from_utf8_lossy(text).into_owned();
        if oid == COMMON_NAME {
            return text;
        }
        first.get_or_insert(text);
    }
    first.unwrap_or_default()
}

/// Reads a DER certificate's subject and validity.
pub fn read_der(der: &[u8]) -> Result<CertInfo, CertError> {
    let (certificate, _) = expect(der, SEQUENCE, "certificate")?;
    let (tbs, _) = expect(certificate, SEQUENCE, "tbsCertificate")?;
    let mut rest = tbs;
    // [0] EXPLICIT version, optional.
    if let Ok((0xa0, _, after)) = element(rest) {
        rest = after;
    }
    let (_serial, after) = expect(rest, 0x02, "serial number")?;
    let (_signature, after) = expect(after, SEQUENCE, "signature algorithm")?;
    let (_issuer, after) = expect(after, SEQUENCE, "issuer")?;
    let (validity, after) = expect(after, SEQUENCE, "validity")?;
    let (subject, _) = expect(after, SEQUENCE, "subject")?;
    let (not_before, validity_rest) = any_time(validity)?;
    let (not_after, _) = any_time(validity_rest)?;
    Ok(CertInfo {
        subject: common_name(subject),
        not_before,
        not_after,
    })
}

/// Decodes standard base64 (whitespace ignored, padding optional).
pub fn base64_decode(text: &str) -> Result<Vec<u8>, CertError> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut buffer = 0u32;
    let mut bits = 0;
    for c in text.bytes() {
        let value = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => break,
            b' ' | b'\n' | b'\r' | b'\t' => continue,
            _ => return Err(CertError::Base64),
        };
        buffer = (buffer << 6) | u32::from(value);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((buffer >> bits) as u8);
            buffer &= (1 << bits) - 1;
        }
    }
    Ok(out)
}

/// Every certificate of a PEM bundle, as DER.
pub fn pem_certificates(text: &str) -> Result<Vec<Vec<u8>>, CertError> {
    const BEGIN: &str = "-----BEGIN CERTIFICATE-----";
    const END: &str = "-----END CERTIFICATE-----";
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(BEGIN) {
        let body = &rest[start + BEGIN.len()..];
        let Some(end) = body.find(END) else { break };
        out.push(base64_decode(&body[..end])?);
        rest = &body[end + END.len()..];
    }
    if out.is_empty() {
        return Err(CertError::NoPem);
    }
    Ok(out)
}

/// The certificate of a bundle that expires first (a bundle is only as good as the
/// certificate the server presents, and any of them may be the one).
pub fn earliest_expiry(pem: &str) -> Result<CertInfo, CertError> {
    let mut earliest: Option<CertInfo> = None;
    for der in pem_certificates(pem)? {
        let info = read_der(&der)?;
        if earliest
            .as_ref()
            .is_none_or(|e| info.not_after < e.not_after)
        {
            earliest = Some(info);
        }
    }
    earliest.ok_or(CertError::NoPem)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A self-signed certificate made with `openssl req -x509 -newkey ec -pkeyopt
    /// ec_paramgen_curve:prime256v1 -days 30 -subj /CN=kube-apiserver` (validity
    /// 2026-12-01 18:25:43 to 2026-12-31 18:25:43 UTC).
    const PEM: &str = "-----BEGIN CERTIFICATE-----
MIIBhzCCAS2gAwIBAgIUBd31o3NoSynwxa46M+oUAqbeHqwwCgYIKoZIzj0EAwIw
GTEXMBUGA1UEAwwOa3ViZS1hcGlzZXJ2ZXIwHhcNMjYxMjAxMTgyNTQzWhcNMjYx
MjMxMTgyNTQzWjAZMRcwFQYDVQQDDA5rdWJlLWFwaXNlcnZlcjBZMBMGByqGSM49
AgEGCCqGSM49AwEHA0IABFz5MtOUX7ngSwapC/tCMDQoVhjGiar+GQUZHShlDL35
v1CZl8Hqdoif6c44YD1YHBJ9uwuxi1XUQvgghvoyo9WjUzBRMB0GA1UdDgQWBBQH
LqQ5IJbZ+1V/Wjm4hRHVKfNRXjAfBgNVHSMEGDAWgBQHLqQ5IJbZ+1V/Wjm4hRHV
KfNRXjAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0gAMEUCICpkGIjansZU
q4rbKmJkykPFhuL7eDTdzeFe4Jaxk4lXAiEAm/yO69GdxPH/qgMF/grlTk/koJuh
DnEKd0CzArRWcI8=
-----END CERTIFICATE-----
";

    #[test]
    fn reads_the_validity_and_common_name() {
        let info = earliest_expiry(PEM).expect("readable");
        assert_eq!(info.subject, "kube-apiserver");
        assert_eq!(
            info.not_before,
            "2026-12-01T18:25:43Z".parse::<Timestamp>().unwrap()
        );
        assert_eq!(
            info.not_after,
            "2026-12-31T18:25:43Z".parse::<Timestamp>().unwrap()
        );
    }

    #[test]
    fn garbage_is_refused_with_a_reason() {
        assert_eq!(earliest_expiry("hello"), Err(CertError::NoPem));
        assert!(read_der(&[0x30, 0x05, 0x01]).is_err());
        assert_eq!(base64_decode("aGVsbG8="), Ok(b"hello".to_vec()));
        assert_eq!(base64_decode("a*"), Err(CertError::Base64));
    }
}
