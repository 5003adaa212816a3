//! Per-cluster serving certificates: a scenario may give a cluster an API server
//! certificate that expires in a few days (`overrides[].servingCertificateDays`), as
//! real clusters' do when nobody rotates them. The simulator serves every cluster on one
//! port, so each such cluster is reached under its own TLS server name (SNI), and its
//! kubeconfig entry names it (`tls-server-name`) and trusts the runtime CA that signed
//! it. The CA and the certificates are made when the fleet is built (ECDSA P-256 with
//! ring), written in DER by the few lines below: only loopback tests and demos use them.

use std::sync::{Arc, OnceLock};

use jiff::Timestamp;
use ring::rand::SystemRandom;
use ring::signature::{ECDSA_P256_SHA256_ASN1_SIGNING, EcdsaKeyPair, KeyPair};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use rustls::sign::CertifiedKey;

/// The TLS server name a cluster with its own certificate is reached under.
pub fn server_name(cluster: &str) -> String {
    format!("{cluster}.clusters.sim.fleetdeck.test")
}

fn tlv(tag: u8, content: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    let len = content.len();
    if len < 0x80 {
        out.push(len as u8);
    } else if len < 0x100 {
        out.extend([0x81, len as u8]);
    } else {
        out.extend([0x82, (len >> 8) as u8, len as u8]);
    }
    out.extend_from_slice(content);
    out
}

fn seq(parts: &[Vec<u8>]) -> Vec<u8> {
    tlv(0x30, &parts.concat())
}

fn oid(content: &[u8]) -> Vec<u8> {
    tlv(0x06, content)
}

const ECDSA_SHA256: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02];
const EC_PUBLIC_KEY: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];
const PRIME256V1: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07];
const COMMON_NAME: &[u8] = &[0x55, 0x04, 0x03];
const SUBJECT_ALT_NAME: &[u8] = &[0x55, 0x1d, 0x11];
const BASIC_CONSTRAINTS: &[u8] = &[0x55, 0x1d, 0x13];
const KEY_USAGE: &[u8] = &[0x55, 0x1d, 0x0f];
const EXT_KEY_USAGE: &[u8] = &[0x55, 0x1d, 0x25];
const SERVER_AUTH: &[u8] = &[0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x01];

fn name(common_name: &str) -> Vec<u8> {
    seq(&[tlv(
        0x31,
        &seq(&[oid(COMMON_NAME), tlv(0x0c, common_name.as_bytes())]),
    )])
}

/// UTCTime before 2050, GeneralizedTime from then on (RFC 5280 §4.1.2.5).
fn time(t: Timestamp) -> Vec<u8> {
    let utc = t.to_zoned(jiff::tz::TimeZone::UTC);
    if utc.year() < 2050 {
        tlv(0x17, utc.strftime("%y%m%d%H%M%SZ").to_string().as_bytes())
    } else {
        tlv(0x18, utc.strftime("%Y%m%d%H%M%SZ").to_string().as_bytes())
    }
}

fn extension(id: &[u8], critical: bool, value: Vec<u8>) -> Vec<u8> {
    let mut parts = vec![oid(id)];
    if critical {
        parts.push(tlv(0x01, &[0xff]));
    }
    parts.push(tlv(0x04, &value));
    seq(&parts)
}

/// A key pair and its PKCS#8 document.
struct Key {
    pair: EcdsaKeyPair,
    pkcs8: Vec<u8>,
}

fn new_key(rng: &SystemRandom) -> Result<Key, String> {
    let pkcs8 = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_ASN1_SIGNING, rng)
        .map_err(|e| format!("key: {e}"))?;
    let pair = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_ASN1_SIGNING, pkcs8.as_ref(), rng)
        .map_err(|e| format!("key: {e}"))?;
    Ok(Key {
        pair,
        pkcs8: pkcs8.as_ref().to_vec(),
    })
}

/// A certificate for `subject` signed by `issuer` (its own key for a CA).
fn certificate(
    rng: &SystemRandom,
    subject: &str,
    key: &Key,
    issuer: (&str, &Key),
    not_before: Timestamp,
    not_after: Timestamp,
    extensions: Vec<Vec<u8>>,
) -> Result<Vec<u8>, String> {
    let mut serial = [0u8; 16];
    ring::rand::SecureRandom::fill(rng, &mut serial).map_err(|_| "random serial".to_string())?;
    serial[0] &= 0x7f;
    let algorithm = seq(&[oid(ECDSA_SHA256)]);
    let mut public = vec![0x00];
    public.extend_from_slice(key.pair.public_key().as_ref());
    let tbs = seq(&[
        tlv(0xa0, &tlv(0x02, &[0x02])),
        tlv(0x02, &serial),
        algorithm.clone(),
        name(issuer.0),
        seq(&[time(not_before), time(not_after)]),
        name(subject),
        seq(&[
            seq(&[oid(EC_PUBLIC_KEY), oid(PRIME256V1)]),
            tlv(0x03, &public),
        ]),
        tlv(0xa3, &seq(&extensions)),
    ]);
    let signature = issuer
        .1
        .pair
        .sign(rng, &tbs)
        .map_err(|e| format!("signature: {e}"))?;
    let mut bits = vec![0x00];
    bits.extend_from_slice(signature.as_ref());
    Ok(seq(&[tbs, algorithm, tlv(0x03, &bits)]))
}

/// The runtime CA: its certificate (PEM) and key.
struct Ca {
    pem: String,
    key: Key,
}

const CA_NAME: &str = "fleetdeck-sim-runtime-ca";

fn ca() -> Result<&'static Ca, String> {
    static CA: OnceLock<Result<Ca, String>> = OnceLock::new();
    CA.get_or_init(|| {
        let rng = SystemRandom::new();
        let key = new_key(&rng)?;
        let now = Timestamp::now();
        let der = certificate(
            &rng,
            CA_NAME,
            &key,
            (CA_NAME, &key),
            now - jiff::SignedDuration::from_hours(24),
            now + jiff::SignedDuration::from_hours(24 * 3650),
            vec![
                extension(BASIC_CONSTRAINTS, true, seq(&[tlv(0x01, &[0xff])])),
                // keyCertSign and cRLSign.
                extension(KEY_USAGE, true, tlv(0x03, &[0x01, 0x06])),
            ],
        )?;
        let body = super::base64::encode(&der);
        let lines: Vec<&str> = body
            .as_bytes()
            .chunks(64)
            .filter_map(|c| std::str::from_utf8(c).ok())
            .collect();
        Ok(Ca {
            pem: format!(
                "-----BEGIN CERTIFICATE-----\n{}\n-----END CERTIFICATE-----\n",
                lines.join("\n")
            ),
            key,
        })
    })
    .as_ref()
    .map_err(Clone::clone)
}

/// The runtime CA in PEM, for the kubeconfig of a cluster with its own certificate.
pub fn ca_pem() -> Result<String, String> {
    ca().map(|c| c.pem.clone())
}

/// A serving certificate for `cluster`, valid from a day ago until `valid_for_days` from
/// now (negative: already expired), with the key TLS serves it with.
pub fn issue(cluster: &str, valid_for_days: i64) -> Result<Arc<CertifiedKey>, String> {
    let rng = SystemRandom::new();
    let ca = ca()?;
    let key = new_key(&rng)?;
    let now = Timestamp::now();
    let sni = server_name(cluster);
    let der = certificate(
        &rng,
        "kube-apiserver",
        &key,
        (CA_NAME, &ca.key),
        now - jiff::SignedDuration::from_hours(24),
        jiff::SignedDuration::from_hours(24i64.saturating_mul(valid_for_days.clamp(-3650, 3650)))
            .checked_add(jiff::SignedDuration::ZERO)
            .and_then(|d| now.checked_add(d).ok())
            .ok_or("servingCertificateDays is out of range")?,
        vec![
            extension(BASIC_CONSTRAINTS, true, seq(&[])),
            // digitalSignature.
            extension(KEY_USAGE, true, tlv(0x03, &[0x07, 0x80])),
            extension(EXT_KEY_USAGE, false, seq(&[oid(SERVER_AUTH)])),
            extension(SUBJECT_ALT_NAME, false, seq(&[tlv(0x82, sni.as_bytes())])),
        ],
    )?;
    let key_der = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.pkcs8));
    let signing = rustls::crypto::ring::sign::any_supported_type(&key_der)
        .map_err(|e| format!("serving key: {e}"))?;
    Ok(Arc::new(CertifiedKey::new(
        vec![CertificateDer::from(der)],
        signing,
    )))
}
