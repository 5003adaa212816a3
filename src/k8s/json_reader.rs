//! A small pull reader for the JSON of list pages and watch events.
//!
//! A fleet's first sync reads hundreds of MiB of list JSON of which fleetdeck keeps a few
//! percent. The reader is built for that shape: the fields that are read come out as
//! strings borrowed from the page (copied only when they contain escapes), and everything
//! else is skipped by finding the bracket that closes it, sixty-four bytes per step
//! (`json_skip`), instead of being parsed token by token.
//!
//! What is read is checked fully (string escapes, control characters, literals, integers).
//! What is skipped is checked for terminated strings and balanced, matching brackets, not
//! for every detail of the grammar: the text comes from an API server, and a page that is
//! not even that is reported with the byte where it went wrong.

use std::borrow::Cow;

/// Why a text could not be read, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid JSON at byte {offset}: {message} (near `{near}`)")]
pub struct JsonError {
    /// Byte offset in the text.
    pub offset: usize,
    /// What was expected or found.
    pub message: &'static str,
    /// A few characters of the text around the offset.
    pub near: String,
}

/// A cursor over one JSON text.
pub struct Reader<'a> {
    text: &'a str,
    pos: usize,
}

type Result<T> = std::result::Result<T, JsonError>;

impl<'a> Reader<'a> {
    /// A reader at the start of `text`.
    pub fn new(text: &'a str) -> Self {
        Reader { text, pos: 0 }
    }

    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    /// An error at the current position.
    pub fn error(&self, message: &'static str) -> JsonError {
        self.error_at(self.pos, message)
    }

    fn error_at(&self, offset: usize, message: &'static str) -> JsonError {
        let offset = offset.min(self.text.len());
        let mut start = offset.saturating_sub(20);
        while !self.text.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = (offset + 20).min(self.text.len());
        while !self.text.is_char_boundary(end) {
            end += 1;
        }
        JsonError {
            offset,
            message,
            near: self.text[start..end].to_owned(),
        }
    }

    /// The next byte that is not whitespace, without consuming it.
    #[inline]
    pub fn peek(&mut self) -> Option<u8> {
        let bytes = self.bytes();
        while let Some(&b) = bytes.get(self.pos) {
            if matches!(b, b' ' | b'\n' | b'\r' | b'\t') {
                self.pos += 1;
            } else {
                return Some(b);
            }
        }
        None
    }

    #[inline]
    fn expect(&mut self, byte: u8, message: &'static str) -> Result<()> {
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error(message))
        }
    }

    fn literal(&mut self, word: &'static str, message: &'static str) -> Result<()> {
        if self.bytes()[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(())
        } else {
            Err(self.error(message))
        }
    }

    /// Consumes `null` if it comes next; whether it did.
    #[inline]
    pub fn null(&mut self) -> Result<bool> {
        if self.peek() == Some(b'n') {
            self.literal("null", "expected `null`")?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    /// Calls `member` with each key of the object that comes next; `member` must read or
    /// skip the value. `null` reads as an object without members, the way the Kubernetes
    /// types treat an explicit `null` like an absent field.
    pub fn object(
        &mut self,
        mut member: impl FnMut(&mut Self, Cow<'a, str>) -> Result<()>,
    ) -> Result<()> {
        if self.null()? {
            return Ok(());
        }
        self.expect(b'{', "expected an object")?;
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(());
        }
        loop {
            if self.peek() != Some(b'"') {
                return Err(self.error("expected a key"));
            }
            self.pos += 1;
            let key = self.string_body()?;
            self.expect(b':', "expected `:`")?;
            member(self, key)?;
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(());
                }
                _ => return Err(self.error("expected `,` or `}`")),
            }
        }
    }

    /// Calls `element` for each element of the array that comes next; `element` must read
    /// or skip it. `null` reads as an empty array.
    pub fn array(&mut self, mut element: impl FnMut(&mut Self) -> Result<()>) -> Result<()> {
        if self.null()? {
            return Ok(());
        }
        self.expect(b'[', "expected an array")?;
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(());
        }
        loop {
            element(self)?;
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(());
                }
                _ => return Err(self.error("expected `,` or `]`")),
            }
        }
    }

    /// The string that comes next, borrowed from the text unless it has escapes.
    #[inline]
    pub fn string(&mut self) -> Result<Cow<'a, str>> {
        self.expect(b'"', "expected a string")?;
        self.string_body()
    }

    /// After an opening quote: the string up to the closing one.
    #[inline]
    fn string_body(&mut self) -> Result<Cow<'a, str>> {
        let start = self.pos;
        let bytes = self.bytes();
        let Some(at) = string_special(bytes, start) else {
            return Err(self.error_at(start, "unterminated string"));
        };
        match bytes[at] {
            b'"' => {
                self.pos = at + 1;
                Ok(Cow::Borrowed(&self.text[start..at]))
            }
            b'\\' => self.unescape(start, at),
            _ => Err(self.error_at(at, "control character in string")),
        }
    }

    /// `null` as `None`, a string as `Some`.
    #[inline]
    pub fn optional_string(&mut self) -> Result<Option<Cow<'a, str>>> {
        if self.null()? {
            Ok(None)
        } else {
            self.string().map(Some)
        }
    }

    /// `null` as `None`, `true`/`false` as `Some`.
    pub fn optional_bool(&mut self) -> Result<Option<bool>> {
        match self.peek() {
            Some(b't') => self.literal("true", "expected `true`").map(|()| Some(true)),
            Some(b'f') => self
                .literal("false", "expected `false`")
                .map(|()| Some(false)),
            Some(b'n') => self.literal("null", "expected `null`").map(|()| None),
            _ => Err(self.error("expected a boolean")),
        }
    }

    /// `null` as `None`, an integer as `Some`.
    pub fn optional_integer(&mut self) -> Result<Option<i64>> {
        if self.null()? {
            return Ok(None);
        }
        let start = self.pos;
        let token = self.number_token()?;
        token
            .parse::<i64>()
            .map(Some)
            .map_err(|_| self.error_at(start, "expected an integer"))
    }

    /// The text of the number that comes next (checked only for its characters).
    pub fn number_token(&mut self) -> Result<&'a str> {
        if !matches!(self.peek(), Some(b'-' | b'0'..=b'9')) {
            return Err(self.error("expected a number"));
        }
        let bytes = self.bytes();
        let start = self.pos;
        let mut end = start + 1;
        while let Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') = bytes.get(end) {
            end += 1;
        }
        self.pos = end;
        Ok(&self.text[start..end])
    }

    /// Skips the value that comes next.
    pub fn skip(&mut self) -> Result<()> {
        match self.peek() {
            Some(b'"') => {
                self.pos += 1;
                self.skip_string_body()
            }
            Some(b'{' | b'[') => self.skip_container(),
            Some(b't') => self.literal("true", "expected a value"),
            Some(b'f') => self.literal("false", "expected a value"),
            Some(b'n') => self.literal("null", "expected a value"),
            Some(b'-' | b'0'..=b'9') => self.number_token().map(drop),
            _ => Err(self.error("expected a value")),
        }
    }

    /// Skips the value that comes next and returns its text.
    pub fn raw_value(&mut self) -> Result<&'a str> {
        self.peek();
        let start = self.pos;
        self.skip()?;
        Ok(&self.text[start..self.pos])
    }

    /// Checks that nothing but whitespace follows.
    pub fn end(&mut self) -> Result<()> {
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(self.error("trailing characters")),
        }
    }

    /// After an opening quote: moves past the closing one.
    fn skip_string_body(&mut self) -> Result<()> {
        let bytes = self.bytes();
        loop {
            let Some(at) = string_special(bytes, self.pos) else {
                return Err(self.error_at(bytes.len(), "unterminated string"));
            };
            match bytes[at] {
                b'"' => {
                    self.pos = at + 1;
                    return Ok(());
                }
                // An escape: whatever follows the backslash is part of the string.
                b'\\' => self.pos = at + 2,
                _ => return Err(self.error_at(at, "control character in string")),
            }
        }
    }

    /// At `{` or `[`: moves past the matching bracket (see [`super::json_skip`]).
    fn skip_container(&mut self) -> Result<()> {
        match super::json_skip::container_end(self.bytes(), self.pos) {
            Ok(end) => {
                self.pos = end;
                Ok(())
            }
            Err((at, message)) => Err(self.error_at(at, message)),
        }
    }

    /// The slow path of [`Reader::string`]: a string with escapes, from `start` (after
    /// the opening quote), with the first backslash at `escape`.
    fn unescape(&mut self, start: usize, escape: usize) -> Result<Cow<'a, str>> {
        let bytes = self.bytes();
        let mut out = String::with_capacity(escape - start + 16);
        out.push_str(&self.text[start..escape]);
        let mut pos = escape;
        loop {
            // `pos` is at a backslash or the closing quote.
            if bytes[pos] == b'"' {
                self.pos = pos + 1;
                return Ok(Cow::Owned(out));
            }
            let after = match bytes.get(pos + 1) {
                Some(b'u') => {
                    let (c, after) = self.unicode_escape(pos)?;
                    out.push(c);
                    after
                }
                Some(&b) => {
                    out.push(match b {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        _ => return Err(self.error_at(pos, "invalid escape")),
                    });
                    pos + 2
                }
                None => return Err(self.error_at(pos, "unterminated string")),
            };
            let next = self.next_special(after)?;
            out.push_str(&self.text[after..next]);
            pos = next;
        }
    }

    /// The next quote or backslash at or after `pos`, with no control character before it.
    fn next_special(&self, pos: usize) -> Result<usize> {
        let bytes = self.bytes();
        match string_special(bytes, pos) {
            Some(at) if bytes[at] >= 0x20 => Ok(at),
            Some(at) => Err(self.error_at(at, "control character in string")),
            None => Err(self.error_at(bytes.len(), "unterminated string")),
        }
    }

    /// `\uXXXX` at `pos` (a surrogate pair takes two): the character and the position after.
    fn unicode_escape(&self, pos: usize) -> Result<(char, usize)> {
        let unit = |at: usize| -> Result<u32> {
            let bytes = self.bytes();
            if bytes.get(at..at + 2) != Some(b"\\u") {
                return Err(self.error_at(at, "expected `\\u`"));
            }
            self.text
                .get(at + 2..at + 6)
                .filter(|hex| hex.bytes().all(|b| b.is_ascii_hexdigit()))
                .and_then(|hex| u32::from_str_radix(hex, 16).ok())
                .ok_or_else(|| self.error_at(at, "invalid \\u escape"))
        };
        let first = unit(pos)?;
        match first {
            0xD800..=0xDBFF => {
                let second = unit(pos + 6)?;
                if !(0xDC00..=0xDFFF).contains(&second) {
                    return Err(self.error_at(pos + 6, "unpaired surrogate"));
                }
                let code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
                char::from_u32(code)
                    .map(|c| (c, pos + 12))
                    .ok_or_else(|| self.error_at(pos, "invalid \\u escape"))
            }
            0xDC00..=0xDFFF => Err(self.error_at(pos, "unpaired surrogate")),
            _ => char::from_u32(first)
                .map(|c| (c, pos + 6))
                .ok_or_else(|| self.error_at(pos, "invalid \\u escape")),
        }
    }
}

/// The first byte at or after `pos` that ends a plain run inside a string: a quote, a
/// backslash, or a control character (which JSON forbids there). This is where reading
/// spends most of its time, so it looks at sixteen bytes per step with SSE2 (part of the
/// x86_64 baseline: no detection needed), then eight with plain integer arithmetic.
#[inline]
fn string_special(bytes: &[u8], pos: usize) -> Option<usize> {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    let pos = {
        use std::arch::x86_64::{
            __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8,
            _mm_or_si128, _mm_set1_epi8,
        };
        let mut pos = pos;
        while pos + 16 <= bytes.len() {
            // SAFETY: `pos + 16 <= bytes.len()`, so the sixteen bytes loaded lie inside
            // `bytes` (an unaligned load has no alignment requirement), and SSE2, which
            // the other calls need, is enabled for this target (checked by the `cfg`).
            let found = unsafe {
                let chunk = _mm_loadu_si128(bytes.as_ptr().add(pos).cast::<__m128i>());
                let quote = _mm_cmpeq_epi8(chunk, _mm_set1_epi8(b'"' as i8));
                let backslash = _mm_cmpeq_epi8(chunk, _mm_set1_epi8(b'\\' as i8));
                // Unsigned `byte < 0x20` is `min(byte, 0x1f) == byte`.
                let control = _mm_cmpeq_epi8(_mm_min_epu8(chunk, _mm_set1_epi8(0x1f)), chunk);
                _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, backslash), control))
            };
            if found != 0 {
                return Some(pos + found.trailing_zeros() as usize);
            }
            pos += 16;
        }
        pos
    };
    string_special_words(bytes, pos)
}

/// [`string_special`] eight bytes at a time, then byte by byte.
fn string_special_words(bytes: &[u8], mut pos: usize) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    // A byte of `v` is zero: its high bit in the result (exact up to the first such byte,
    // which is all that is used).
    let zero_bytes = |v: u64| v.wrapping_sub(ONES) & !v & HIGHS;
    while let Some(chunk) = bytes.get(pos..pos + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let word = u64::from_le_bytes(word);
        let found = zero_bytes(word ^ (ONES * u64::from(b'"')))
            | zero_bytes(word ^ (ONES * u64::from(b'\\')))
            | (word.wrapping_sub(ONES * 0x20) & !word & HIGHS);
        if found != 0 {
            return Some(pos + (found.trailing_zeros() / 8) as usize);
        }
        pos += 8;
    }
    let rest = bytes.get(pos..)?;
    rest.iter()
        .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
        .map(|i| pos + i)
}

#[cfg(test)]
#[path = "json_reader_tests.rs"]
mod tests;
