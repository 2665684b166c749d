//! A deadline for reading a request's body: a client that sends its headers and then trickles
//! (or stalls) its body would otherwise hold a connection slot and a handler for as long as it
//! likes. Past the deadline the body fails, the handler's extractor gives up, and the client
//! gets 408 with the error envelope and `Connection: close`.

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::header::CONNECTION;
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use hyper::body::{Body as HttpBody, Frame, SizeHint};
use memeboard_core::api::ApiErrorBody;
use memeboard_core::msg;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

/// The error a late body ends with.
#[derive(Debug, thiserror::Error)]
#[error("the request body did not arrive in time")]
struct BodyTimedOut;

/// A request body that fails once its deadline has passed (what has arrived by then is still
/// delivered first).
struct DeadlineBody {
    inner: Body,
    deadline: Pin<Box<tokio::time::Sleep>>,
    fired: Arc<AtomicBool>,
}

impl HttpBody for DeadlineBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        if let Poll::Ready(frame) = Pin::new(&mut self.inner).poll_frame(cx) {
            return Poll::Ready(frame);
        }
        if self.deadline.as_mut().poll(cx).is_ready() {
            self.fired.store(true, Ordering::SeqCst);
            return Poll::Ready(Some(Err(axum::Error::new(BodyTimedOut))));
        }
        Poll::Pending
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// Middleware of the `/api` router: bodies must arrive within `limit` of the headers.
pub async fn limit(State(limit): State<Duration>, request: Request, next: Next) -> Response {
    let (parts, body) = request.into_parts();
    if body.is_end_stream() {
        return next.run(Request::from_parts(parts, body)).await;
    }
    let fired = Arc::new(AtomicBool::new(false));
    let body = Body::new(DeadlineBody {
        inner: body,
        deadline: Box::pin(tokio::time::sleep(limit)),
        fired: fired.clone(),
    });
    let response = next.run(Request::from_parts(parts, body)).await;
    if !fired.load(Ordering::SeqCst) {
        return response;
    }
    let mut late = (
        StatusCode::REQUEST_TIMEOUT,
        Json(ApiErrorBody::single(msg!(
            "request.body_timeout",
            secs = limit.as_secs()
        ))),
    )
        .into_response();
    late.headers_mut()
        .insert(CONNECTION, HeaderValue::from_static("close"));
    late
}
