//! A small client of Prometheus's HTTP query API (`GET /api/v1/query`): one instant query,
//! one number. Anything else — no series, several series, NaN, an error, no answer within
//! the timeout — is an error saying why, which the rollout gates treat as "metrics
//! unknown", never as healthy.

use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Empty};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde_json::Value;

/// Why a query gave no usable number.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum QueryError {
    /// Prometheus could not be reached or did not answer in time.
    #[error("Prometheus unreachable at {url}: {why}")]
    Unreachable {
        /// The base URL.
        url: String,
        /// What happened.
        why: String,
    },
    /// Prometheus answered with an error (bad PromQL, timeout on its side).
    #[error("Prometheus refused the query: {0}")]
    Refused(String),
    /// The query matched no series: the scrape stopped or the metric does not exist.
    #[error("no samples")]
    NoSamples,
    /// The query did not reduce to one number.
    #[error("the query returned {0} series; it must return one")]
    NotOneSeries(usize),
    /// The value is not a number (e.g. NaN: no requests in the window).
    #[error("the value is {0}, not a number")]
    NotANumber(String),
}

/// A Prometheus server.
#[derive(Clone)]
pub struct Prometheus {
    base: String,
    client: Client<HttpConnector, Empty<Bytes>>,
    timeout: Duration,
}

impl std::fmt::Debug for Prometheus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Prometheus")
            .field("base", &self.base)
            .finish()
    }
}

/// Percent-encodes a query parameter (RFC 3986 unreserved characters stay as they are).
fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                out.push(byte as char)
            }
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

/// Reads the one number out of a query answer.
pub fn single_value(answer: &Value) -> Result<f64, QueryError> {
    if answer.get("status").and_then(Value::as_str) != Some("success") {
        let why = answer
            .get("error")
            .and_then(Value::as_str)
            .unwrap_or("no status in the answer");
        return Err(QueryError::Refused(why.to_string()));
    }
    let data = answer.get("data").cloned().unwrap_or(Value::Null);
    let sample = match data.get("resultType").and_then(Value::as_str) {
        Some("scalar") => data.get("result").cloned(),
        Some("vector") => {
            let series = data
                .get("result")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            match series.len() {
                0 => return Err(QueryError::NoSamples),
                1 => series[0].get("value").cloned(),
                n => return Err(QueryError::NotOneSeries(n)),
            }
        }
        other => {
            return Err(QueryError::Refused(format!(
                "result type {} is not a vector or scalar",
                other.unwrap_or("missing")
            )));
        }
    };
    let text = sample
        .as_ref()
        .and_then(|s| s.get(1))
        .and_then(Value::as_str)
        .unwrap_or("missing");
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(QueryError::NotANumber(text.to_string())),
    }
}

impl Prometheus {
    /// A client of the server at `base` (e.g. `http://127.0.0.1:9090`).
    pub fn new(base: &str) -> Self {
        Prometheus {
            base: base.trim_end_matches('/').to_string(),
            client: Client::builder(TokioExecutor::new()).build_http(),
            timeout: Duration::from_secs(5),
        }
    }

    /// Runs one instant query and returns its single value.
    pub async fn query(&self, promql: &str) -> Result<f64, QueryError> {
        let unreachable = |why: String| QueryError::Unreachable {
            url: self.base.clone(),
            why,
        };
        let uri = format!("{}/api/v1/query?query={}", self.base, encode(promql));
        let uri: http::Uri = uri.parse().map_err(|e| unreachable(format!("{e}")))?;
        let call = async {
            let response = self
                .client
                .get(uri)
                .await
                .map_err(|e| unreachable(e.to_string()))?;
            let status = response.status();
            let body = response
                .into_body()
                .collect()
                .await
                .map_err(|e| unreachable(e.to_string()))?
                .to_bytes();
            let answer: Value = serde_json::from_slice(&body).map_err(|e| {
                QueryError::Refused(format!("HTTP {status}, answer is not JSON: {e}"))
            })?;
            single_value(&answer)
        };
        match tokio::time::timeout(self.timeout, call).await {
            Ok(result) => result,
            Err(_) => Err(unreachable(format!("no answer within {:?}", self.timeout))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn one_number_or_why_not() {
        let vector = |result: Value| json!({"status": "success", "data": {"resultType": "vector", "result": result}});
        assert_eq!(
            single_value(&vector(json!([{"metric": {}, "value": [1.0, "0.25"]}]))),
            Ok(0.25)
        );
        assert_eq!(single_value(&vector(json!([]))), Err(QueryError::NoSamples));
        assert_eq!(
            single_value(&vector(json!([{"value": [1, "1"]}, {"value": [1, "2"]}]))),
            Err(QueryError::NotOneSeries(2))
        );
        assert_eq!(
            single_value(&vector(json!([{"value": [1, "NaN"]}]))),
            Err(QueryError::NotANumber("NaN".into()))
        );
        assert!(matches!(
            single_value(&json!({"status": "error", "error": "parse error"})),
            Err(QueryError::Refused(_))
        ));
    }

    #[test]
    fn queries_are_percent_encoded() {
        assert_eq!(encode("a{b=\"c\"}[5m]"), "a%7Bb%3D%22c%22%7D%5B5m%5D");
    }
}
