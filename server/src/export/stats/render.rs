//! The report as text tables ([`render`]).

use super::StatsReport;
use memeboard_core::leaderboard::CategoryEstimate;
use memeboard_core::stats::Estimate;
use memeboard_core::tasks::label_key;
use std::fmt::Write as _;

fn estimate(e: Option<Estimate>) -> String {
    e.map_or_else(
        || "—".to_owned(),
        |e| format!("{:.4} [{:.4}, {:.4}]", e.value, e.ci_low, e.ci_high),
    )
}

/// The report as plain-text tables (full precision: `--json`).
pub fn render(report: &StatsReport) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "task {} ({}): {} answers in the file, {} counted (completed sessions, not excluded)",
        report.task, report.task_kind, report.answers_in_file, report.answers_counted
    );
    let _ = writeln!(
        out,
        "\nQuiz statistics, every item (GET /api/quizzes/{}/stats): {} participants",
        report.task, report.quiz.completed_participants
    );
    let _ = writeln!(
        out,
        "{:<24} {:>6}  {:<28} {:<28} {:<28}",
        "category", "people", "human average [95% CI]", "human best [95% CI]", "pooled [95% CI]"
    );
    for r in &report.quiz.rows {
        let _ = writeln!(
            out,
            "{:<24} {:>6}  {:<28} {:<28} {:<28}",
            r.category.as_deref().unwrap_or("overall"),
            r.participants,
            estimate(r.human_average),
            estimate(r.human_best),
            estimate(r.pooled)
        );
    }
    for a in &report.quiz.agreement {
        let f = |x: Option<f64>| x.map_or_else(|| "—".to_owned(), |x| format!("{x:.4}"));
        let _ = writeln!(
            out,
            "agreement on `{}`: Fleiss' kappa {}, Krippendorff's alpha {} ({} items, {} raters, {} ratings)",
            a.dimension,
            f(a.fleiss_kappa),
            f(a.krippendorff_alpha),
            a.items,
            a.raters,
            a.ratings
        );
    }
    for b in &report.boards {
        let _ = writeln!(
            out,
            "\nBoard {} / {} (GET /api/boards/{}?split={}&subset={}): {} participants",
            b.split, b.subset, report.task, b.split, b.subset, b.participants
        );
        let _ = writeln!(
            out,
            "{:<24} {:>6}  {:<28} {:<28}",
            "category", "items", "human average [95% CI]", "human best [95% CI]"
        );
        for (avg, best) in b.human_average.iter().zip(&b.human_best) {
            let shown = |c: &CategoryEstimate| {
                if c.suppressed {
                    "too few items to show".to_owned()
                } else {
                    estimate(c.estimate)
                }
            };
            let _ = writeln!(
                out,
                "{:<24} {:>6}  {:<28} {:<28}",
                avg.category.as_deref().unwrap_or("overall"),
                avg.items,
                shown(avg),
                shown(best)
            );
        }
        for f in &b.familiarity {
            let _ = writeln!(
                out,
                "familiarity {:<18} {:>3} participants, {:>4} answers: pooled {}",
                label_key(&f.familiarity),
                f.participants,
                f.answers,
                estimate(f.estimate)
            );
        }
    }
    out
}
