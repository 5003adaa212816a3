//! The `labelSelector` query language, lexed and parsed as
//! `k8s.io/apimachinery/pkg/labels` does (same tokens, same grammar, same error texts):
//! `a=b`, `a==b`, `a!=b`, `a in (b,c)`, `a notin (b)`, `a`, `!a`, `a>1`, `a<1`.

use super::selector::Req;
use super::validation::{go_quote, label_key_errors, label_value_errors};

/// A lexer token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    EndOfString,
    ClosedPar,
    Comma,
    DoesNotExist,
    DoubleEquals,
    Equals,
    GreaterThan,
    Identifier,
    In,
    LessThan,
    NotEquals,
    NotIn,
    OpenPar,
}

fn token_of(s: &str) -> Option<Token> {
    Some(match s {
        ")" => Token::ClosedPar,
        "," => Token::Comma,
        "!" => Token::DoesNotExist,
        "==" => Token::DoubleEquals,
        "=" => Token::Equals,
        ">" => Token::GreaterThan,
        "in" => Token::In,
        "<" => Token::LessThan,
        "!=" => Token::NotEquals,
        "notin" => Token::NotIn,
        "(" => Token::OpenPar,
        _ => return None,
    })
}

fn is_special(c: char) -> bool {
    matches!(c, '=' | '!' | '(' | ')' | ',' | '>' | '<')
}

fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n')
}

/// Splits a selector into tokens, the last one `EndOfString`.
fn lex(s: &str) -> Vec<(Token, String)> {
    let chars: Vec<char> = s.chars().collect();
    let mut pos = 0;
    let mut out = Vec::new();
    loop {
        while pos < chars.len() && is_space(chars[pos]) {
            pos += 1;
        }
        if pos >= chars.len() {
            out.push((Token::EndOfString, String::new()));
            return out;
        }
        if is_special(chars[pos]) {
            // The longest run of special characters that is still a token.
            let mut buffer = String::new();
            let mut last: Option<(Token, String)> = None;
            while pos < chars.len() && is_special(chars[pos]) {
                buffer.push(chars[pos]);
                match token_of(&buffer) {
                    Some(t) => {
                        last = Some((t, buffer.clone()));
                        pos += 1;
                    }
                    None if last.is_some() => break,
                    None => pos += 1,
                }
            }
            match last {
                Some(item) => out.push(item),
                None => out.push((Token::Identifier, buffer)),
            }
        } else {
            let start = pos;
            while pos < chars.len() && !is_special(chars[pos]) && !is_space(chars[pos]) {
                pos += 1;
            }
            let word: String = chars[start..pos].iter().collect();
            match token_of(&word) {
                Some(t) => out.push((t, word)),
                None => out.push((Token::Identifier, word)),
            }
        }
    }
}

/// Where the parser is: in a value list `in` and `notin` are plain identifiers.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    KeyAndOperator,
    Values,
}

struct Parser {
    items: Vec<(Token, String)>,
    position: usize,
}

/// The operator of one requirement.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    In,
    NotIn,
    Equals,
    NotEquals,
    Exists,
    DoesNotExist,
    GreaterThan,
    LessThan,
}

impl Parser {
    fn at(&self, i: usize, ctx: Context) -> (Token, String) {
        let (tok, lit) = self
            .items
            .get(i)
            .cloned()
            .unwrap_or((Token::EndOfString, String::new()));
        match tok {
            Token::In | Token::NotIn if ctx == Context::Values => (Token::Identifier, lit),
            _ => (tok, lit),
        }
    }

    fn lookahead(&self, ctx: Context) -> (Token, String) {
        self.at(self.position, ctx)
    }

    fn consume(&mut self, ctx: Context) -> (Token, String) {
        self.position += 1;
        self.at(self.position - 1, ctx)
    }

    fn parse(&mut self) -> Result<Vec<Req>, String> {
        let mut reqs = Vec::new();
        loop {
            let (tok, lit) = self.lookahead(Context::Values);
            match tok {
                Token::Identifier | Token::DoesNotExist => {
                    let r = self
                        .requirement()
                        .map_err(|e| format!("unable to parse requirement: {e}"))?;
                    reqs.push(r);
                    let (t, l) = self.consume(Context::Values);
                    match t {
                        Token::EndOfString => return Ok(reqs),
                        Token::Comma => {
                            let (t2, l2) = self.lookahead(Context::Values);
                            if t2 != Token::Identifier && t2 != Token::DoesNotExist {
                                return Err(format!(
                                    "found '{l2}', expected: identifier after ','"
                                ));
                            }
                        }
                        _ => {
                            return Err(format!("found '{l}', expected: ',' or 'end of string'"));
                        }
                    }
                }
                Token::EndOfString => return Ok(reqs),
                _ => {
                    return Err(format!(
                        "found '{lit}', expected: !, identifier, or 'end of string'"
                    ));
                }
            }
        }
    }

    fn requirement(&mut self) -> Result<Req, String> {
        let (key, op) = self.key_and_inferred_operator()?;
        if let Some(op @ (Op::Exists | Op::DoesNotExist)) = op {
            return new_requirement(&key, op, Vec::new());
        }
        let op = self.operator()?;
        let values = match op {
            Op::In | Op::NotIn => self.values()?,
            _ => self.exact_value()?,
        };
        new_requirement(&key, op, values)
    }

    fn key_and_inferred_operator(&mut self) -> Result<(String, Option<Op>), String> {
        let mut op = None;
        let (mut tok, mut lit) = self.consume(Context::Values);
        if tok == Token::DoesNotExist {
            op = Some(Op::DoesNotExist);
            (tok, lit) = self.consume(Context::Values);
        }
        if tok != Token::Identifier {
            return Err(format!("found '{lit}', expected: identifier"));
        }
        let bad = label_key_errors(&lit);
        if !bad.is_empty() {
            // The parser has no field path: Go prints a nil path as "<nil>".
            return Err(format!(
                "<nil>: Invalid value: {}: {}",
                go_quote(&lit),
                bad.join("; ")
            ));
        }
        let (t, _) = self.lookahead(Context::Values);
        if (t == Token::EndOfString || t == Token::Comma) && op.is_none() {
            op = Some(Op::Exists);
        }
        Ok((lit, op))
    }

    fn operator(&mut self) -> Result<Op, String> {
        let (tok, lit) = self.consume(Context::KeyAndOperator);
        Ok(match tok {
            Token::In => Op::In,
            Token::Equals | Token::DoubleEquals => Op::Equals,
            Token::GreaterThan => Op::GreaterThan,
            Token::LessThan => Op::LessThan,
            Token::NotIn => Op::NotIn,
            Token::NotEquals => Op::NotEquals,
            _ => {
                return Err(format!(
                    "found '{lit}', expected: in, notin, =, ==, !=, gt, lt"
                ));
            }
        })
    }

    fn values(&mut self) -> Result<Vec<String>, String> {
        let (tok, lit) = self.consume(Context::Values);
        if tok != Token::OpenPar {
            return Err(format!("found '{lit}' expected: '('"));
        }
        let (tok, lit) = self.lookahead(Context::Values);
        match tok {
            Token::Identifier | Token::Comma => {
                let set = self.identifiers()?;
                let (t, _) = self.consume(Context::Values);
                if t != Token::ClosedPar {
                    return Err(format!("found '{lit}', expected: ')'"));
                }
                Ok(set)
            }
            Token::ClosedPar => {
                self.consume(Context::Values);
                Ok(vec![String::new()])
            }
            _ => Err(format!("found '{lit}', expected: ',', ')' or identifier")),
        }
    }

    fn identifiers(&mut self) -> Result<Vec<String>, String> {
        let mut set: Vec<String> = Vec::new();
        let insert = |set: &mut Vec<String>, v: &str| {
            if !set.iter().any(|s| s == v) {
                set.push(v.to_string());
            }
        };
        loop {
            let (tok, lit) = self.consume(Context::Values);
            match tok {
                Token::Identifier => {
                    insert(&mut set, &lit);
                    let (t2, l2) = self.lookahead(Context::Values);
                    match t2 {
                        Token::Comma => continue,
                        Token::ClosedPar => return Ok(set),
                        _ => return Err(format!("found '{l2}', expected: ',' or ')'")),
                    }
                }
                Token::Comma => {
                    if set.is_empty() {
                        insert(&mut set, "");
                    }
                    let (t2, _) = self.lookahead(Context::Values);
                    if t2 == Token::ClosedPar {
                        insert(&mut set, "");
                        return Ok(set);
                    }
                    if t2 == Token::Comma {
                        insert(&mut set, "");
                    }
                }
                _ => return Err(format!("found '{lit}', expected: ',', or identifier")),
            }
        }
    }

    fn exact_value(&mut self) -> Result<Vec<String>, String> {
        let (tok, _) = self.lookahead(Context::Values);
        if tok == Token::EndOfString || tok == Token::Comma {
            return Ok(vec![String::new()]);
        }
        let (tok, lit) = self.consume(Context::Values);
        if tok == Token::Identifier {
            return Ok(vec![lit]);
        }
        Err(format!("found '{lit}', expected: identifier"))
    }
}

/// Checks a requirement's values as `labels.NewRequirement` does.
fn new_requirement(key: &str, op: Op, mut values: Vec<String>) -> Result<Req, String> {
    values.sort();
    let mut errs: Vec<String> = Vec::new();
    let mut number = None;
    if matches!(op, Op::GreaterThan | Op::LessThan) {
        for (i, v) in values.iter().enumerate() {
            match v.parse::<i64>() {
                Ok(n) => number = Some(n),
                Err(_) => errs.push(format!(
                    "values[{i}]: Invalid value: {}: for 'Gt', 'Lt' operators, the value must be an integer",
                    go_quote(v)
                )),
            }
        }
    }
    for (i, v) in values.iter().enumerate() {
        let bad = label_value_errors(v);
        if !bad.is_empty() {
            errs.push(format!(
                "values[{i}][{key}]: Invalid value: {}: {}",
                go_quote(v),
                bad.join("; ")
            ));
        }
    }
    match errs.len() {
        0 => {}
        1 => return Err(errs.remove(0)),
        _ => return Err(format!("[{}]", errs.join(", "))),
    }
    let key = key.to_string();
    Ok(match op {
        Op::In => Req::In(key, values),
        Op::NotIn => Req::NotIn(key, values),
        Op::Equals => Req::Eq(key, values.remove(0)),
        Op::NotEquals => Req::NotEq(key, values.remove(0)),
        Op::Exists => Req::Exists(key),
        Op::DoesNotExist => Req::NotExists(key),
        Op::GreaterThan => Req::Gt(key, number.unwrap_or_default()),
        Op::LessThan => Req::Lt(key, number.unwrap_or_default()),
    })
}

/// Parses a `labelSelector`; the error is the API server's message for a 400.
pub fn parse(selector: &str) -> Result<Vec<Req>, String> {
    let mut p = Parser {
        items: lex(selector),
        position: 0,
    };
    let mut reqs = p.parse()?;
    reqs.sort_by(|a, b| a.key().cmp(b.key()));
    Ok(reqs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grammar_of_the_api_server() {
        assert_eq!(
            parse("Bad Key=x"),
            Err(
                "unable to parse requirement: found 'Key', expected: in, notin, =, ==, !=, gt, lt"
                    .into()
            )
        );
        assert_eq!(parse("app>1"), Ok(vec![Req::Gt("app".into(), 1)]));
        assert_eq!(
            parse("a in (x, y),!b,c,d notin (in)"),
            Ok(vec![
                Req::In("a".into(), vec!["x".into(), "y".into()]),
                Req::NotExists("b".into()),
                Req::Exists("c".into()),
                Req::NotIn("d".into(), vec!["in".into()]),
            ])
        );
        assert_eq!(
            parse("a=b,"),
            Err("found '', expected: identifier after ','".into())
        );
        assert_eq!(
            parse("a>x"),
            Err("unable to parse requirement: values[0]: Invalid value: \"x\": for 'Gt', 'Lt' operators, the value must be an integer".into())
        );
        assert!(
            parse("app=-bad")
                .is_err_and(|e| e.starts_with("unable to parse requirement: values[0][app]: Invalid value: \"-bad\": a valid label must be"))
        );
        assert!(parse("bad_=x").is_err_and(|e| e.starts_with(
            "unable to parse requirement: <nil>: Invalid value: \"bad_\": name part must consist"
        )));
        assert_eq!(parse(""), Ok(vec![]));
        assert_eq!(parse("a==b"), Ok(vec![Req::Eq("a".into(), "b".into())]));
        assert_eq!(
            parse("=x"),
            Err("found '=', expected: !, identifier, or 'end of string'".into())
        );
    }
}
