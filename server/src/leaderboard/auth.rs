//! Author tokens and the upload quota: token hashing, bearer and admin authentication,
//! per-network token-creation limits, and the quota scopes (token, author, model name).

use super::*;
use crate::config::Settings;
use crate::error::{ApiError, ApiResult};
use crate::ids::random_hex;
use crate::storage::{self, AuthorRecord, ScopeLimit, Storage};
use axum::http::HeaderMap;
use memeboard_core::api::{CreateAuthorRequest, CreateAuthorResponse, Quota};
use memeboard_core::messages::Message;
use memeboard_core::msg;
use sha2::{Digest, Sha256};

pub(super) const MS_PER_DAY: i64 = 86_400_000;

pub(crate) fn hash_token(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Where a request comes from, for the per-address limit on new tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientAddress {
    /// The client's IP address (TCP peer, or the configured proxy header).
    Ip(std::net::IpAddr),
    /// Not known: requests served without connection info (in-process calls, e.g. tests)
    /// all share one bucket.
    Unknown,
}

impl ClientAddress {
    /// The client address of a request: the `client_ip_header` set by a trusted proxy when
    /// configured and parsable, else the TCP peer address, else [`ClientAddress::Unknown`].
    ///
    /// Only the value the proxy itself wrote counts: the **rightmost** entry of the **last**
    /// line of the header. A proxy appends its peer's address (`X-Forwarded-For: client,
    /// proxy-peer`) or adds its own line after whatever the client sent, so every earlier
    /// entry or line is the client's own claim and is ignored.
    pub fn of(
        settings: &Settings,
        headers: &HeaderMap,
        peer: Option<std::net::SocketAddr>,
    ) -> Self {
        let header = settings.leaderboard.client_ip_header.trim();
        let from_header = (!header.is_empty())
            .then(|| proxy_address(headers, header))
            .flatten();
        match from_header.or(peer.map(|p| p.ip())) {
            Some(ip) => Self::Ip(ip),
            None => Self::Unknown,
        }
    }

    /// The wider network counted together for new tokens: the IPv4 /24 or the IPv6 /48 (a
    /// provider's customer or a cloud tenant often holds a whole one), so that one party
    /// rotating addresses inside it cannot use up the site-wide daily cap.
    pub(crate) fn wider_network(self) -> String {
        use std::net::IpAddr;
        let v4 = |v4: std::net::Ipv4Addr| {
            let o = v4.octets();
            format!("{}.{}.{}.0/24", o[0], o[1], o[2])
        };
        match self {
            Self::Ip(IpAddr::V6(v6)) => match v6.to_ipv4_mapped() {
                Some(mapped) => v4(mapped),
                None => {
                    let s = v6.segments();
                    format!("{:x}:{:x}:{:x}::/48", s[0], s[1], s[2])
                }
            },
            Self::Ip(IpAddr::V4(addr)) => v4(addr),
            Self::Unknown => "unknown".into(),
        }
    }

    /// The network counted as one client: the IPv4 address, or the IPv6 /64 (one end site
    /// usually holds a whole /64, so single IPv6 addresses would be free to rotate).
    pub(crate) fn network(self) -> String {
        use std::net::IpAddr;
        match self {
            Self::Ip(IpAddr::V6(v6)) => match v6.to_ipv4_mapped() {
                Some(v4) => v4.to_string(),
                None => {
                    let s = v6.segments();
                    format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
                }
            },
            Self::Ip(IpAddr::V4(v4)) => v4.to_string(),
            Self::Unknown => "unknown".into(),
        }
    }
}

/// The address a trusted proxy put in `header`: the last entry of the last line (see
/// [`ClientAddress::of`]); `None` when absent or not an IP address.
pub(crate) fn proxy_address(headers: &HeaderMap, header: &str) -> Option<std::net::IpAddr> {
    headers
        .get_all(header)
        .iter()
        .next_back()?
        .to_str()
        .ok()?
        .rsplit(',')
        .next()?
        .trim()
        .parse()
        .ok()
}

pub(super) fn utc_day(now_ms: i64) -> i64 {
    now_ms.div_euclid(MS_PER_DAY)
}

/// Case- and spacing-insensitive form of a name, for counting quotas by name.
pub(super) fn name_key(name: &str) -> String {
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// How a new token is admitted past the daily token caps.
enum Admission {
    /// Anyone: per address, per wider network, and the site-wide cap.
    Open,
    /// The request carries the token of an author with an accepted upload: per address, per
    /// wider network and per proving author, but not the site-wide cap.
    Proven(String),
    /// An owner's invitation (its nonce): no cap; the invitation is used once.
    Invited(String),
}

/// The admission a request's bearer credential earns (none: [`Admission::Open`]).
async fn admission(
    storage: &Storage,
    settings: &Settings,
    headers: &HeaderMap,
) -> ApiResult<Admission> {
    let Some(credential) = bearer(headers) else {
        return Ok(Admission::Open);
    };
    if credential.starts_with(super::invites::INVITE_PREFIX) {
        let today = utc_day(storage::now_ms());
        return super::invites::verify(&settings.admin.token, credential, today)
            .map(Admission::Invited)
            .ok_or_else(|| ApiError::Forbidden(msg!("auth.invite_invalid")));
    }
    let author = storage
        .find_author_by_token_hash(&hash_token(credential))
        .await?
        .ok_or_else(|| ApiError::Unauthorized(msg!("auth.unknown_token")))?;
    if storage.author_submissions(&author.id).await?.is_empty() {
        Ok(Admission::Open)
    } else {
        Ok(Admission::Proven(author.id))
    }
}

/// Mints a token for a new author. The token is returned once; only its hash is stored.
/// New tokens are limited per client address, per wider network (IPv4 /24, IPv6 /48) and for
/// the whole site per UTC day (429). The site-wide cap cannot lock out everyone: a request
/// carrying (as bearer) the token of an author with an accepted upload is not counted in it,
/// and one carrying an owner's invitation code is not counted at all.
pub async fn create_author(
    storage: &Storage,
    settings: &Settings,
    req: CreateAuthorRequest,
    client: ClientAddress,
    headers: &HeaderMap,
) -> ApiResult<CreateAuthorResponse> {
    let name = clean_text("name", &req.name, 100, true)?;
    let organisation = clean_text("organisation", &req.organisation, 100, false)?;
    let admitted = admission(storage, settings, headers).await?;
    let token = format!("mb_{}", random_hex(24)?);
    let id = match &admitted {
        Admission::Invited(nonce) => super::invites::author_id(nonce),
        _ => format!("A-{}", random_hex(6)?.to_uppercase()),
    };
    if matches!(admitted, Admission::Invited(_)) && storage.find_author(&id).await?.is_some() {
        return Err(ApiError::Conflict(msg!("auth.invite_used")));
    }
    let author = AuthorRecord {
        id,
        name: name.clone(),
        organisation: organisation.clone(),
        token_hash: hash_token(&token),
        daily_quota: settings.leaderboard.daily_quota as i64,
    };
    let day = utc_day(storage::now_ms());
    let (limits, refusals) = token_limits(settings, client, &admitted, day);
    if let Err(exceeded) = storage.create_author_within(&author, &limits, day).await? {
        let refusal = refusals.get(exceeded.index).cloned().unwrap_or_else(|| {
            msg!(
                "auth.tokens_site",
                limit = settings.leaderboard.tokens_per_day
            )
        });
        return Err(ApiError::TooManyRequests(refusal));
    }
    Ok(CreateAuthorResponse {
        author_id: author.id,
        name,
        organisation,
        token,
        quota: Quota {
            used_today: 0,
            daily_limit: settings.leaderboard.daily_quota,
            remaining: settings.leaderboard.daily_quota,
        },
    })
}

/// The counted scopes of a new token and the refusal of each.
///
/// Only a hash of the network is stored; the day is part of the hash so that keys of
/// different days cannot be linked. (An IPv4 hash can be reversed by trying all 2^32
/// addresses: this is pseudonymisation, and counters are deleted after a week.)
fn token_limits(
    settings: &Settings,
    client: ClientAddress,
    admitted: &Admission,
    day: i64,
) -> (Vec<ScopeLimit>, Vec<Message>) {
    let lb = &settings.leaderboard;
    let limit = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
    let mut limits = Vec::new();
    let mut refusals = Vec::new();
    if matches!(admitted, Admission::Invited(_)) {
        return (limits, refusals);
    }
    limits.push(ScopeLimit {
        key: format!(
            "tokens-from:{}",
            hash_token(&format!("{day}:{}", client.network()))
        ),
        limit: limit(lb.tokens_per_address_per_day),
    });
    refusals.push(msg!(
        "auth.tokens_network",
        limit = lb.tokens_per_address_per_day
    ));
    limits.push(ScopeLimit {
        key: format!(
            "tokens-net:{}",
            hash_token(&format!("{day}:{}", client.wider_network()))
        ),
        limit: limit(lb.tokens_per_network_per_day),
    });
    refusals.push(msg!(
        "auth.tokens_wider_network",
        limit = lb.tokens_per_network_per_day
    ));
    match admitted {
        Admission::Proven(author_id) => {
            limits.push(ScopeLimit {
                key: format!("tokens-proven:{author_id}"),
                limit: limit(lb.tokens_per_address_per_day),
            });
            refusals.push(msg!(
                "auth.tokens_proven",
                limit = lb.tokens_per_address_per_day
            ));
        }
        _ => {
            limits.push(ScopeLimit {
                key: "tokens-all".into(),
                limit: limit(lb.tokens_per_day),
            });
            refusals.push(msg!("auth.tokens_site", limit = lb.tokens_per_day));
        }
    }
    (limits, refusals)
}

pub(crate) fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(axum::http::header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
}

/// The author behind the request's bearer token (401 when missing or unknown).
pub async fn authenticate(storage: &Storage, headers: &HeaderMap) -> ApiResult<AuthorRecord> {
    let token =
        bearer(headers).ok_or_else(|| ApiError::Unauthorized(msg!("auth.missing_token")))?;
    storage
        .find_author_by_token_hash(&hash_token(token))
        .await?
        .ok_or_else(|| ApiError::Unauthorized(msg!("auth.unknown_token")))
}

/// Whether the request carries the configured admin token.
pub fn is_admin(settings: &Settings, headers: &HeaderMap) -> bool {
    let configured = settings.admin.token.as_str();
    !configured.is_empty()
        && bearer(headers).is_some_and(|t| hash_token(t) == hash_token(configured))
}

pub(crate) fn require_admin(settings: &Settings, headers: &HeaderMap) -> ApiResult<()> {
    if settings.admin.token.is_empty() {
        return Err(ApiError::Forbidden(msg!("auth.admin_disabled")));
    }
    if is_admin(settings, headers) {
        Ok(())
    } else {
        Err(ApiError::Unauthorized(msg!("auth.admin_required")))
    }
}

/// One counted scope of the upload quota and how its refusal reads.
pub(super) struct UploadScope {
    pub(super) limit: ScopeLimit,
    /// "daily quota{what} used up: …".
    pub(super) what: Message,
}

/// The scopes an upload counts in: the token, the author name (whatever the token), and,
/// for an upload, the model name on the task (whatever the token or author).
pub(super) fn upload_scopes(
    settings: &Settings,
    author: &AuthorRecord,
    model: Option<(&str, &str)>,
) -> Vec<UploadScope> {
    let lb = &settings.leaderboard;
    let limit = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
    let mut scopes = vec![
        UploadScope {
            limit: ScopeLimit {
                key: format!("token:{}", author.id),
                limit: author.daily_quota,
            },
            what: msg!("quota.scope_token"),
        },
        UploadScope {
            limit: ScopeLimit {
                key: format!("author:{}", hash_token(&name_key(&author.name))),
                limit: limit(lb.daily_quota_per_author),
            },
            what: msg!("quota.scope_author", author = author.name),
        },
    ];
    if let Some((task_id, model)) = model {
        scopes.push(UploadScope {
            limit: ScopeLimit {
                key: format!("model:{task_id}:{}", hash_token(&name_key(model))),
                limit: limit(lb.daily_quota_per_model),
            },
            what: msg!("quota.scope_model", model = model),
        });
    }
    scopes
}

pub(super) fn quota_refusal(scope: &UploadScope, used: i64) -> ApiError {
    ApiError::TooManyRequests(
        msg!("quota.used_up", used = used, limit = scope.limit.limit)
            .with_message("scope", scope.what.clone()),
    )
}

/// Today's use of each scope.
pub(super) async fn scope_usage(storage: &Storage, scopes: &[UploadScope]) -> ApiResult<Vec<i64>> {
    let keys: Vec<String> = scopes.iter().map(|s| s.limit.key.clone()).collect();
    Ok(storage
        .quota_usage(&keys, utc_day(storage::now_ms()))
        .await?)
}

/// The quota as shown: the scope with the least left (the token's on a tie).
pub(super) async fn quota_of(storage: &Storage, scopes: &[UploadScope]) -> ApiResult<Quota> {
    let used = scope_usage(storage, scopes).await?;
    let shown = scopes
        .iter()
        .zip(&used)
        .map(|(s, &u)| {
            let limit = usize::try_from(s.limit.limit).unwrap_or(usize::MAX);
            let used = usize::try_from(u).unwrap_or(0);
            Quota {
                used_today: used,
                daily_limit: limit,
                remaining: limit.saturating_sub(used),
            }
        })
        .min_by_key(|q| q.remaining);
    Ok(shown.unwrap_or(Quota {
        used_today: 0,
        daily_limit: 0,
        remaining: 0,
    }))
}

pub(super) async fn quota(
    storage: &Storage,
    settings: &Settings,
    author: &AuthorRecord,
) -> ApiResult<Quota> {
    quota_of(storage, &upload_scopes(settings, author, None)).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn client(lines: &[&str]) -> ClientAddress {
        let mut settings = Settings::defaults().expect("defaults");
        settings.leaderboard.client_ip_header = "x-forwarded-for".into();
        let mut headers = HeaderMap::new();
        for line in lines {
            headers.append(
                "x-forwarded-for",
                HeaderValue::from_str(line).expect("header"),
            );
        }
        let peer = "192.0.2.1:4000".parse().ok();
        ClientAddress::of(&settings, &headers, peer)
    }

    #[test]
    fn the_proxy_header_counts_only_what_the_proxy_appended() {
        let ip = |s: &str| ClientAddress::Ip(s.parse().expect("ip"));
        assert_eq!(client(&["203.0.113.7"]), ip("203.0.113.7"));
        // A client's own line comes first; the proxy's line is the last one.
        assert_eq!(client(&["1.2.3.4", "203.0.113.7"]), ip("203.0.113.7"));
        // In one line, the proxy appended the rightmost entry.
        assert_eq!(
            client(&["1.2.3.4, 5.6.7.8, 203.0.113.7"]),
            ip("203.0.113.7")
        );
        assert_eq!(
            client(&["9.9.9.9", "1.2.3.4,203.0.113.7"]),
            ip("203.0.113.7")
        );
        // No header, or garbage where the proxy's entry should be: the TCP peer.
        assert_eq!(client(&[]), ip("192.0.2.1"));
        assert_eq!(client(&["203.0.113.7, nonsense"]), ip("192.0.2.1"));
    }
}
