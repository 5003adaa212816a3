//! The tower layer that puts a cluster's credential on each request: the credential is in
//! hand before the request is sent (so a request's own timeouts start only then), and a
//! 401 asks the credential's source once more and sends the request again with the new
//! credential when the request can be sent twice (every request but a streamed upload).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use http::header::AUTHORIZATION;
use http::{Request, Response, StatusCode};
use kube::client::Body;
use tower::{BoxError, Layer, Service};

use super::cell::{CredentialCell, Issued};
use crate::model::live::CredentialProblem;

/// A request could not be sent for want of a usable credential.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{}", .0.reason())]
pub struct CredentialError(pub CredentialProblem);

impl CredentialError {
    /// The credential problem behind `error`, if it is one (looked for down its sources,
    /// as kube wraps what a layer returns).
    pub fn find<'a>(error: &'a (dyn std::error::Error + 'static)) -> Option<&'a CredentialProblem> {
        let mut next = Some(error);
        while let Some(e) = next {
            if let Some(found) = e.downcast_ref::<CredentialError>() {
                return Some(&found.0);
            }
            next = e.source();
        }
        None
    }
}

/// Adds the credential of one cell to every request.
#[derive(Clone)]
pub struct CredentialLayer {
    cell: Arc<CredentialCell>,
}

impl CredentialLayer {
    /// The layer for `cell`.
    pub fn new(cell: Arc<CredentialCell>) -> CredentialLayer {
        CredentialLayer { cell }
    }
}

impl<S> Layer<S> for CredentialLayer {
    type Service = CredentialService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        CredentialService {
            cell: Arc::clone(&self.cell),
            inner,
        }
    }
}

/// See [`CredentialLayer`].
#[derive(Clone)]
pub struct CredentialService<S> {
    cell: Arc<CredentialCell>,
    inner: S,
}

fn apply(request: &mut Request<Body>, issued: &Issued) {
    match &issued.authorization {
        Some(value) => {
            request.headers_mut().insert(AUTHORIZATION, value.clone());
        }
        None => {
            request.headers_mut().remove(AUTHORIZATION);
        }
    }
}

/// A copy of `request` to send again, when its body can be copied.
fn copy(request: &Request<Body>) -> Option<Request<Body>> {
    let body = request.body().try_clone()?;
    let mut again = Request::new(body);
    *again.method_mut() = request.method().clone();
    *again.uri_mut() = request.uri().clone();
    *again.version_mut() = request.version();
    *again.headers_mut() = request.headers().clone();
    *again.extensions_mut() = request.extensions().clone();
    Some(again)
}

impl<S, B> Service<Request<Body>> for CredentialService<S>
where
    S: Service<Request<Body>, Response = Response<B>, Error = BoxError> + Clone + Send + 'static,
    S::Future: Send + 'static,
    B: Send + 'static,
{
    type Response = Response<B>;
    type Error = BoxError;
    type Future = Pin<Box<dyn Future<Output = Result<Response<B>, BoxError>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: Request<Body>) -> Self::Future {
        let cell = Arc::clone(&self.cell);
        // The service polled ready is the one that takes this request; its clone takes
        // the next (tower's usual swap).
        let clone = self.inner.clone();
        let mut inner = std::mem::replace(&mut self.inner, clone);
        Box::pin(async move {
            let issued = cell
                .get()
                .await
                .map_err(|problem| BoxError::from(CredentialError(problem)))?;
            apply(&mut request, &issued);
            let again = copy(&request);
            let response = inner.call(request).await?;
            if response.status() != StatusCode::UNAUTHORIZED {
                cell.accepted(&issued);
                return Ok(response);
            }
            let Some(fresh) = cell.refused(&issued).await else {
                return Ok(response);
            };
            let Some(mut again) = again else {
                return Ok(response);
            };
            apply(&mut again, &fresh);
            let mut inner = inner.clone();
            std::future::poll_fn(|cx| inner.poll_ready(cx)).await?;
            let retried = inner.call(again).await?;
            if retried.status() == StatusCode::UNAUTHORIZED {
                cell.refused_again(&fresh);
            } else {
                cell.accepted(&fresh);
            }
            Ok(retried)
        })
    }
}
