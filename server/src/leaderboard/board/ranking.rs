//! A board's order: by overall score (ties: the earlier upload first), or for boards without
//! an automatic metric by people's judgements of the models.

use memeboard_core::api::BoardRow;
use memeboard_core::human_eval::board::BoardHumanEval;
use memeboard_core::stats::Estimate;

/// Sorts rows by their overall figure, best first (ties: the earlier upload first).
pub(super) fn by_overall(rows: &mut [BoardRow]) {
    let overall = |r: &BoardRow| {
        r.scores
            .first()
            .and_then(|s| s.estimate)
            .map_or(f64::NEG_INFINITY, |e| e.value)
    };
    rows.sort_by(|a, b| {
        overall(b)
            .total_cmp(&overall(a))
            .then(a.submitted_at.cmp(&b.submitted_at))
    });
}

/// Boards without an automatic metric rank their models by people's judgements
/// (Bradley–Terry rating, then Core4, then % agree).
pub(super) fn by_human_eval(rows: &mut [BoardRow], h: &BoardHumanEval) {
    let key = |r: &BoardRow| -> [f64; 3] {
        let col = r
            .submission_id
            .as_ref()
            .and_then(|id| h.columns.iter().find(|c| &c.submission_id == id));
        let v = |e: Option<Estimate>| e.map_or(f64::NEG_INFINITY, |e| e.value);
        col.map_or([f64::NEG_INFINITY; 3], |c| {
            [v(c.bt_rating), v(c.core4), v(c.agree)]
        })
    };
    rows.sort_by(|a, b| {
        let (ka, kb) = (key(a), key(b));
        kb[0]
            .total_cmp(&ka[0])
            .then(kb[1].total_cmp(&ka[1]))
            .then(kb[2].total_cmp(&ka[2]))
    });
}
