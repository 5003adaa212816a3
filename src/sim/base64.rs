//! Standard base64 (with padding) as Secret `data` and kubeconfig certificates are
//! written, and as the API server's JSON decoder reads `[]byte` fields: Go's
//! `base64.StdEncoding`, which skips line breaks and reports the first illegal byte.

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Encodes `data` as standard base64 with padding.
pub fn encode(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
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

/// Where Go's decoder stops on bad input: the offset of the illegal byte, worded as
/// `base64.CorruptInputError` is (`illegal base64 data at input byte N`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CorruptInput(pub usize);

impl std::fmt::Display for CorruptInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "illegal base64 data at input byte {}", self.0)
    }
}

fn is_line_break(c: u8) -> bool {
    c == b'\n' || c == b'\r'
}

/// The number of bytes `text` decodes to, or where decoding fails, following
/// `Encoding.decodeQuantum` quantum by quantum.
pub fn decoded_len(text: &str) -> Result<usize, CorruptInput> {
    let src = text.as_bytes();
    let mut si = 0;
    let mut total = 0;
    while si < src.len() {
        let mut j = 0;
        let mut len = 4;
        while j < 4 {
            if si == src.len() {
                if j == 0 {
                    return Ok(total);
                }
                // Padding is required: a short last quantum is corrupt where it began.
                return Err(CorruptInput(si - j));
            }
            let c = src[si];
            si += 1;
            if ALPHABET.contains(&c) {
                j += 1;
                continue;
            }
            if is_line_break(c) {
                continue;
            }
            if c != b'=' || j < 2 {
                return Err(CorruptInput(si - 1));
            }
            if j == 2 {
                // "==" is expected; the first "=" is consumed.
                while si < src.len() && is_line_break(src[si]) {
                    si += 1;
                }
                if si == src.len() {
                    return Err(CorruptInput(src.len()));
                }
                if src[si] != b'=' {
                    return Err(CorruptInput(si - 1));
                }
                si += 1;
            }
            while si < src.len() && is_line_break(src[si]) {
                si += 1;
            }
            if si < src.len() {
                // Something after the padding.
                return Err(CorruptInput(si));
            }
            len = j;
            break;
        }
        total += len - 1;
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_and_measures_as_go_does() {
        assert_eq!(encode(b"ab"), "YWI=");
        assert_eq!(encode(b"hunter2"), "aHVudGVyMg==");
        assert_eq!(decoded_len("YWI="), Ok(2));
        assert_eq!(decoded_len("aHVudGVyMg=="), Ok(7));
        assert_eq!(decoded_len("YW\nI="), Ok(2));
        assert_eq!(decoded_len(""), Ok(0));
        assert_eq!(decoded_len("!!"), Err(CorruptInput(0)));
        assert_eq!(decoded_len("YWJj!"), Err(CorruptInput(4)));
        // A missing pad is reported where the short quantum began.
        assert_eq!(decoded_len("YWI"), Err(CorruptInput(0)));
        assert_eq!(decoded_len("YWJjYW"), Err(CorruptInput(4)));
        assert_eq!(decoded_len("YQ="), Err(CorruptInput(3)));
        assert_eq!(decoded_len("YWI=YWI="), Err(CorruptInput(4)));
        assert_eq!(
            CorruptInput(6).to_string(),
            "illegal base64 data at input byte 6"
        );
    }
}
