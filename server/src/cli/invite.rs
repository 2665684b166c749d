//! `memeboard invite-author`: an invitation code for one new author token.

use anyhow::Context;
use std::path::Path;

/// Prints a code valid for `days` days, signed with the admin token.
pub(super) fn run(config_dir: &Path, days: i64) -> anyhow::Result<()> {
    let settings = super::settings(config_dir)?;
    let today = memeboard_server::storage::now_ms().div_euclid(86_400_000);
    let code = memeboard_server::leaderboard::invites::mint(&settings.admin.token, today + days)?
        .context(
        "no admin token: set admin.token (MEMEBOARD__ADMIN__TOKEN), which signs invitations",
    )?;
    println!("{code}");
    eprintln!(
        "valid for {days} day(s), for one author token: POST /api/authors with \
         `Authorization: Bearer {code}`"
    );
    Ok(())
}
