//! Meaning identification in the browser, the same number the server computes: the task's
//! open dev meanings (the public dev-gold file) are the pool, the browser model gives the
//! cosines, and `memeboard_core` ranks them and floors non-answers, as on the server.

use crate::embedder;
use memeboard_core::embed::identification::{identification, CHANCE, MIN_POOL};
use memeboard_core::kinds::explanation::is_non_answer;

/// The identification of each `(item id, answer)` against `pool` (`(item id, meaning)` of the
/// open dev items), in one call to the browser model. An item must be in the pool (its own
/// meaning is the reference); non-answers score [`CHANCE`].
pub(super) async fn identify(
    answers: &[(String, String)],
    pool: &[(String, String)],
) -> Result<Vec<f64>, String> {
    // (One short message for every refusal: the quiz page's bundle has a size budget.)
    const UNSCORED: &str = "not scored in the browser (too few open meanings)";
    if pool.len() < MIN_POOL {
        return Err(UNSCORED.to_owned());
    }
    let pairs: Vec<[String; 2]> = answers
        .iter()
        .flat_map(|(_, answer)| pool.iter().map(move |(_, m)| [answer.clone(), m.clone()]))
        .collect();
    let cosines = embedder::cosines(&pairs).await?;
    if cosines.len() != pairs.len() {
        return Err(UNSCORED.to_owned());
    }
    answers
        .iter()
        .zip(cosines.chunks(pool.len()))
        .map(|((item_id, answer), row)| {
            if is_non_answer(answer) {
                return Ok(CHANCE);
            }
            let own = pool
                .iter()
                .position(|(id, _)| id == item_id)
                .ok_or_else(|| UNSCORED.to_owned())?;
            let others: Vec<f64> = row
                .iter()
                .enumerate()
                .filter(|(k, _)| *k != own)
                .map(|(_, c)| *c)
                .collect();
            identification(row[own], &others).ok_or_else(|| UNSCORED.to_owned())
        })
        .collect()
}
