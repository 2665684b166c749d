//! `memeboard submit`: upload a prediction file to a running server.

use memeboard_server::submit_cli::{self, SubmitArgs};

/// `memeboard submit`: the report on stdout when accepted; every error line on stderr and exit
/// status 1 when the server refuses the file.
pub(super) async fn run(args: &SubmitArgs) -> anyhow::Result<()> {
    let outcome = submit_cli::submit(args).await?;
    if outcome.is_accepted() {
        print!("{}", outcome.render());
        Ok(())
    } else {
        eprint!("{}", outcome.render());
        std::process::exit(1);
    }
}
