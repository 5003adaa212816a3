//! The `Authorization` headers a credential is sent as, marked sensitive so that no layer
//! logs them.

use http::HeaderValue;

/// `Bearer <token>`; none for a token that cannot be a header (a control character).
pub fn bearer(token: &str) -> Option<HeaderValue> {
    sensitive(format!("Bearer {token}"))
}

/// `Basic <base64(user:password)>`.
pub fn basic(username: &str, password: &str) -> HeaderValue {
    let encoded = base64_encode(format!("{username}:{password}").as_bytes());
    // Base64 is always a valid header value.
    sensitive(format!("Basic {encoded}")).unwrap_or_else(|| HeaderValue::from_static("Basic"))
}

fn sensitive(text: String) -> Option<HeaderValue> {
    let mut value = HeaderValue::from_str(&text).ok()?;
    value.set_sensitive(true);
    Some(value)
}

/// Standard base64 with padding (RFC 4648).
fn base64_encode(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = (u32::from(chunk[0]) << 16)
            | (u32::from(*chunk.get(1).unwrap_or(&0)) << 8)
            | u32::from(*chunk.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_what_the_server_expects_and_sensitive() {
        assert_eq!(base64_encode(b"admin:secret"), "YWRtaW46c2VjcmV0");
        assert_eq!(base64_encode(b"a"), "YQ==");
        assert_eq!(base64_encode(b"ab"), "YWI=");
        let value = basic("admin", "secret");
        assert_eq!(value.to_str().unwrap(), "Basic YWRtaW46c2VjcmV0");
        assert!(value.is_sensitive());
        assert_eq!(bearer("t-1").unwrap().to_str().unwrap(), "Bearer t-1");
        assert!(bearer("bad\ntoken").is_none());
    }
}
