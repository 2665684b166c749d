//! Interface strings of the leaderboard, model and researcher pages in both languages, in a
//! table apart from the main [`Strings`] so that the quiz bundle, which has none of these
//! pages, does not carry them (issue 12's size budget). [`BoardStrings`] dereferences to the
//! main [`Strings`], so those pages read both from one value: `t.col_rank`, `t.loading`.

mod en;
mod zh;

pub use en::EN;
pub use zh::ZH;

use crate::i18n::{text, I18n, StringTable, Strings};
use memeboard_core::api::BoardSplit;

/// The board and researcher page strings of one language, plus the main table.
#[derive(Debug)]
pub struct BoardStrings {
    /// The main strings of the same language (reached through `Deref`).
    pub main: &'static Strings,
    /// Model page: the document title for a model name.
    pub model_page_title: fn(&str) -> String,
    /// Badge on a model row whose answers mostly repeat the prompt.
    pub flag_copies_prompt: &'static str,
    /// Badge on a model row whose answers are mostly one template for many memes.
    pub flag_filler: &'static str,
    /// "N participants" under a human row.
    pub participants_n: fn(usize) -> String,
    /// Column: rank.
    pub col_rank: &'static str,
    /// Column: row kind.
    pub col_kind: &'static str,
    /// Column: organisation.
    pub col_organisation: &'static str,
    /// Column: parameters.
    pub col_params: &'static str,
    /// Column: weights.
    pub col_weights: &'static str,
    /// Column: submission date.
    pub col_submitted: &'static str,
    /// Board filters: the group's label.
    pub filters_label: &'static str,
    /// Board filters: any value.
    pub filter_all: &'static str,
    /// Board filters: the size filter's label.
    pub filter_size: &'static str,
    /// Size bucket: up to 10B parameters.
    pub size_le10b: &'static str,
    /// Size bucket: 10B to 100B.
    pub size_10to100b: &'static str,
    /// Size bucket: over 100B.
    pub size_gt100b: &'static str,
    /// Size bucket: no size given (or not readable).
    pub size_unknown: &'static str,
    /// Board filters: the date filter's label.
    pub filter_since: &'static str,
    /// Board filters: reset link.
    pub filter_clear: &'static str,
    /// Board filters: how many model rows are shown (shown, total).
    pub filter_shown: fn(usize, usize) -> String,
    /// Attempts toggle: show every upload (total attempts).
    pub attempts_show_all: fn(usize) -> String,
    /// Attempts toggle: back to one row per model.
    pub attempts_one_per_model: &'static str,
    /// Board note: one row per model, its best upload.
    pub attempts_best_note: &'static str,
    /// Board note: one row per model, its latest upload.
    pub attempts_latest_note: &'static str,
    /// Board note: every upload of every model.
    pub attempts_all_note: &'static str,
    /// Rank cell of a human or baseline row (screen readers).
    pub not_ranked: &'static str,
    /// Withdraw: the submission's state afterwards.
    pub withdrawn: &'static str,
    /// Submit page: uploads left today before uploading (left, limit).
    pub quota_before: fn(usize, usize) -> String,
    /// Hint above a sortable table.
    pub sort_hint: &'static str,
    /// The phone's sort control: its label.
    pub sort_by: &'static str,
    /// The phone's sort direction button, per direction.
    pub sort_ascending: &'static str,
    /// See `sort_ascending`.
    pub sort_descending: &'static str,
    /// Leaderboard index heading.
    pub boards_title: &'static str,
    /// Leaderboard index introduction.
    pub boards_intro: &'static str,
    /// Shown when no task has a board.
    pub no_tasks: &'static str,
    /// Item counts per split: dev, public test, private test.
    pub split_counts: fn(usize, usize, usize) -> String,
    /// "N submissions".
    pub submissions_n: fn(usize) -> String,
    /// Link to a board.
    pub view_board: &'static str,
    /// Link to the submit page for a task.
    pub submit_to: &'static str,
    /// Public board toggle.
    pub board_public: &'static str,
    /// Private board toggle.
    pub board_private: &'static str,
    /// Whole test split toggle (both halves together, once the private half is revealed).
    pub board_whole: &'static str,
    /// Board history: heading of the rescorings list.
    pub rescorings_title: &'static str,
    /// Board history: uploads scored again and skipped in one rescoring.
    pub rescored_uploads: fn(u64, u64) -> String,
    /// Accessible name of the public/private toggle.
    pub board_split_label: &'static str,
    /// Accessible name of the item-subset switch.
    pub board_subset_label: &'static str,
    /// Subset `main`: items not answerable from the text alone.
    pub subset_main: &'static str,
    /// Subset `full`: every item.
    pub subset_full: &'static str,
    /// Subset switch: the comics with readers' comments (CMPM's context ablation).
    pub subset_cas: &'static str,
    /// Heading of the familiarity figure.
    pub familiarity_chart_title: &'static str,
    /// What the familiarity figure shows.
    pub familiarity_chart_note: &'static str,
    /// Familiarity table: caption.
    pub familiarity_table_caption: &'static str,
    /// Familiarity table: the group column.
    pub col_familiarity: &'static str,
    /// Familiarity table: accuracy with its interval.
    pub col_human_accuracy: &'static str,
    /// Under the board table: the categories whose column is left out because every
    /// figure in it is withheld for too few items (their names, joined).
    pub categories_too_small: fn(&str) -> String,
    /// Run conditions (how the model was run).
    pub conditions_label: &'static str,
    /// Under the run conditions: what they are for.
    pub conditions_hint: &'static str,
    /// Board filter: by run condition.
    pub filter_condition: &'static str,
    /// Link from a board to its benchmark's paper tables.
    pub tables_link: &'static str,
    /// Paper-tables page: the heading for a benchmark slug.
    pub tables_title: fn(&str) -> String,
    /// Paper-tables page: what the tables hold, on the private half (`true`) or the public.
    pub tables_intro: fn(BoardSplit) -> String,
    /// Paper-tables page: a benchmark whose tasks fill no paper table.
    pub tables_none: &'static str,
    /// Paper-tables page: a table with no run and no published figure yet.
    pub tables_empty: &'static str,
    /// Paper-tables page: under a table, the items behind its site figures.
    pub tables_items: fn(usize, BoardSplit) -> String,
    /// Paper-tables page: the mark and note of published rows.
    pub tables_published_note: &'static str,
    /// Paper-tables page: the LaTeX download.
    pub tables_download_tex: &'static str,
    /// Heading of the paired differences.
    pub paired_title: &'static str,
    /// Under the paired differences on the public half.
    pub paired_note_public: &'static str,
    /// Under the paired differences on a revealed half.
    pub paired_note_private: &'static str,
    /// Paired table: the condition that changes.
    pub paired_col_change: &'static str,
    /// Paired table: the difference.
    pub paired_col_delta: &'static str,
    /// Paired table: items behind the difference.
    pub paired_col_items: &'static str,
    /// Kind badge of a paper's published row.
    pub kind_published: &'static str,
    /// Familiarity table: participants.
    pub col_participants: &'static str,
    /// Familiarity table: answers.
    pub col_answers: &'static str,
    /// Under a bar: answers.
    pub familiarity_answers: fn(usize) -> String,
    /// A group with too few answers to show.
    pub too_few_answers: &'static str,
    /// Heading while the private board is not revealed.
    pub board_locked_title: &'static str,
    /// Blind board note.
    pub board_blind_note: &'static str,
    /// Board of a task without an automatic metric (comic explanations).
    pub board_unscored_note: &'static str,
    /// "Scored on N test items · metric: accuracy".
    pub board_items: fn(usize, &str) -> String,
    /// Label of the missing-items policy.
    pub missing_policy_label: &'static str,
    /// Explanation of the numbers on a board.
    pub board_ci_note: &'static str,
    /// Heading of the download links.
    pub downloads: &'static str,
    /// Download the board as CSV.
    pub download_csv: &'static str,
    /// Download the board as JSON.
    pub download_json: &'static str,
    /// Accessible name of the scrollable table region.
    pub board_table_label: &'static str,
    /// Submit page heading.
    pub submit_title: &'static str,
    /// Submit page introduction.
    pub submit_intro: &'static str,
    /// Help heading.
    pub help_title: &'static str,
    /// Limits (daily quota if known).
    pub help_limits: fn(Option<usize>) -> String,
    /// Heading of the per-task downloads.
    pub task_files: &'static str,
    /// Download: model inputs.
    pub dl_inputs: &'static str,
    /// Download: JSON Lines template.
    pub dl_template_jsonl: &'static str,
    /// Download: CSV template.
    pub dl_template_csv: &'static str,
    /// Download: dev gold.
    pub dl_dev_gold: &'static str,
    /// Command line heading.
    pub cli_title: &'static str,
    /// Before the curl example.
    pub cli_curl: &'static str,
    /// Before the CLI example.
    pub cli_tool: &'static str,
    /// Upload form heading.
    pub form_title: &'static str,
    /// Task select label.
    pub task_label: &'static str,
    /// Token field label.
    pub token_label: &'static str,
    /// Before the account link under the token field.
    pub token_missing: &'static str,
    /// Account link text under the token field.
    pub token_create_link: &'static str,
    /// Model name label.
    pub model_label: &'static str,
    /// Organisation label.
    pub organisation_label: &'static str,
    /// Organisation hint.
    pub organisation_hint: &'static str,
    /// Parameters label.
    pub parameters_label: &'static str,
    /// Weights label.
    pub weights_label: &'static str,
    /// Open weights option.
    pub weights_open_option: &'static str,
    /// Closed weights option.
    pub weights_closed_option: &'static str,
    /// Link label.
    pub link_label: &'static str,
    /// Description label.
    pub description_label: &'static str,
    /// File field label.
    pub file_label: &'static str,
    /// Drop zone text.
    pub drop_text: &'static str,
    /// "Selected: name (size)".
    pub file_selected: fn(&str, f64) -> String,
    /// While the file is read and checked.
    pub checking: &'static str,
    /// The file could not be read.
    pub file_unreadable: &'static str,
    /// The file is over the size limit.
    pub file_too_big: fn(f64, usize) -> String,
    /// Heading of the preview error list.
    pub preview_errors_title: &'static str,
    /// "N lines OK".
    pub lines_ok: fn(usize) -> String,
    /// Upload button while sending.
    pub uploading: &'static str,
    /// Accessible name of the progress bar.
    pub upload_progress: &'static str,
    /// Model name missing.
    pub need_model: &'static str,
    /// Token missing.
    pub need_token: &'static str,
    /// Heading of the server's error list.
    pub upload_failed: &'static str,
    /// Result heading.
    pub result_title: &'static str,
    /// Label of the status.
    pub status_label: &'static str,
    /// "N lines read".
    pub lines_read: fn(usize) -> String,
    /// Heading of the public score.
    pub public_score_title: &'static str,
    /// Blind board: scores later.
    pub received_note: &'static str,
    /// After an upload to a board without an automatic score (comic explanations), and on
    /// such a model's page: people judge the outputs instead.
    pub unscored_note: &'static str,
    /// Heading of the warnings.
    pub warnings_title: &'static str,
    /// "2 of 5 left today".
    pub quota_left: fn(usize, usize) -> String,
    /// Link to the board.
    pub see_board: &'static str,
    /// Link to the model page.
    pub see_model: &'static str,
    /// Account heading.
    pub account_title: &'static str,
    /// Account introduction.
    pub account_intro: &'static str,
    /// Create-token heading.
    pub create_title: &'static str,
    /// Name field.
    pub name_label: &'static str,
    /// Create button.
    pub create_token: &'static str,
    /// Create button while sending.
    pub creating: &'static str,
    /// Name missing.
    pub need_name: &'static str,
    /// New-token heading.
    pub new_token_title: &'static str,
    /// New-token note.
    pub new_token_note: &'static str,
    /// Clipboard unavailable.
    pub copy_failed: &'static str,
    /// Heading of the stored token's account.
    pub your_account: &'static str,
    /// Uploads left label.
    pub quota_label: &'static str,
    /// Own submissions heading.
    pub my_submissions: &'static str,
    /// No own submissions.
    pub no_submissions: &'static str,
    /// Forget-token button.
    pub forget_token: &'static str,
    /// Confirmation question.
    pub forget_confirm: &'static str,
    /// Confirm forgetting.
    pub forget_yes: &'static str,
    /// Summary of the "create another token" box.
    pub create_another: &'static str,
    /// Heading of the "use an existing token" box.
    pub use_existing: &'static str,
    /// Save button.
    pub save: &'static str,
    /// Model page: task label.
    pub model_task: &'static str,
    /// Model page: link label.
    pub model_link: &'static str,
    /// Model page: lines label.
    pub model_lines: &'static str,
    /// Model page: missing items label.
    pub model_missing: &'static str,
    /// Model page: scores hidden.
    pub scores_hidden: &'static str,
    /// Heading of the gap table.
    pub gaps_title: &'static str,
    /// Note under the gap heading.
    pub gaps_note: &'static str,
    /// No gap items.
    pub no_gaps: &'static str,
    /// Column: question.
    pub col_question: &'static str,
    /// Heading of the secondary metrics table.
    pub secondary_title: &'static str,
    /// Secondary figure: parse rate.
    pub metric_parse_rate: &'static str,
    /// Secondary figure: macro-F1.
    pub metric_macro_f1: &'static str,
    /// Secondary figure: weighted-F1.
    pub metric_weighted_f1: &'static str,
    /// Secondary figure: accuracy counting unparseable answers as wrong.
    pub metric_accuracy_all: &'static str,
    /// Secondary figure: accuracy on the comics of one structure type.
    pub metric_accuracy_of_type: fn(&str) -> String,
    /// Summary of a row's confusion matrix.
    pub confusion_title: fn(&str) -> String,
    /// Caption of a confusion matrix.
    pub confusion_caption: &'static str,
    /// Corner header: gold label.
    pub confusion_gold: &'static str,
    /// Column: unparseable answers.
    pub confusion_unparseable: &'static str,
    /// Column: value.
    pub col_value: &'static str,
    /// Column: the crowd's mean score on an item.
    pub col_crowd_score: &'static str,
    /// Column: model score on an item.
    pub col_model_score: &'static str,
    /// Withdraw button.
    pub withdraw: &'static str,
    /// Withdraw: the question of the confirmation step.
    pub withdraw_question: &'static str,
    /// Withdraw: the confirming button.
    pub withdraw_yes: &'static str,
    /// Withdraw: while the request runs.
    pub withdrawing: &'static str,
    /// Withdraw: the note shown afterwards.
    pub withdrawn_note: &'static str,
    /// Cancel.
    pub cancel: &'static str,
    /// Label of the chance line.
    pub chance: &'static str,
    /// Heading of the chart.
    pub chart_title: &'static str,
    /// Text description of the chart (for screen readers).
    pub chart_desc: &'static str,
    /// Shown instead of bars when no model is scored yet.
    pub no_models: &'static str,
    /// Upload button.
    pub upload: &'static str,
    /// Column: model / row label.
    pub col_model: &'static str,
    /// Column: metric name.
    pub col_metric: &'static str,
    /// Row kind badge: a crowd human row.
    pub kind_human: &'static str,
    /// Row kind badge: a chance baseline.
    pub kind_baseline: &'static str,
    /// Open weights.
    pub weights_open: &'static str,
    /// Closed weights.
    pub weights_closed: &'static str,
    /// Submission status: scored.
    pub status_scored: &'static str,
    /// Submission status: stored, scores hidden (blind board).
    pub status_received: &'static str,
    /// Submission status: stored without an automatic score (judged by people only).
    pub status_unscored: &'static str,
    /// Column: accuracy with interval.
    pub col_accuracy: &'static str,
    /// Column: items scored.
    pub col_items: &'static str,
    /// Heading of the dev preview score.
    pub preview_score_title: &'static str,
    /// Note under the dev preview score.
    pub preview_score_note: fn(usize) -> String,
    /// A category figure left out because the category has too few items on the board half.
    pub too_few_items: &'static str,
    /// Tooltip of [`Strings::too_few_items`].
    pub too_few_items_title: &'static str,
}

impl std::ops::Deref for BoardStrings {
    type Target = Strings;
    fn deref(&self) -> &Strings {
        self.main
    }
}

impl StringTable for BoardStrings {
    const EN: &'static Self = &EN;
    const ZH: &'static Self = &ZH;
}

impl I18n {
    /// The board and researcher page strings of the current language (tracked): [`I18n::table`]
    /// of [`BoardStrings`].
    pub fn bt(&self) -> &'static BoardStrings {
        self.table()
    }
}

/// [`text`] of the board and researcher page strings: `btr(|t| t.col_rank)`.
pub fn btr(
    pick: fn(&'static BoardStrings) -> &'static str,
) -> impl Fn() -> &'static str + Copy + Send + Sync + 'static {
    text(pick)
}
