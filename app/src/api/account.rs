//! Authors: creating one (and its token), and what a token's author sees.

use super::{get_json_with_token, post_json, ApiError};
use memeboard_core::api::{CreateAuthorRequest, CreateAuthorResponse, MeResponse};

/// `POST /api/authors`: a new author and its bearer token (shown only in this response).
pub async fn create_author(
    request: &CreateAuthorRequest,
) -> Result<CreateAuthorResponse, ApiError> {
    post_json("/api/authors", request).await
}

/// `GET /api/me`: the token's author, quota and submissions (401 for an unknown token).
pub async fn me(token: &str) -> Result<MeResponse, ApiError> {
    get_json_with_token("/api/me", token).await
}
