//! Interface strings in Chinese and English, and the reactive language choice.
//!
//! The choice lives in a context ([`I18n`]) provided by the app root; it starts from
//! localStorage (`memeboard.lang`) or, failing that, from `navigator.language`, and every
//! switch is written back to localStorage and to `<html lang>`.

use crate::storage;
use leptos::prelude::*;
use memeboard_core::tasks::{CategoryInfo, MemeType};

/// An interface language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// Simplified Chinese.
    Zh,
    /// English.
    En,
}

impl Lang {
    /// The value stored in localStorage.
    pub fn code(self) -> &'static str {
        match self {
            Self::Zh => "zh",
            Self::En => "en",
        }
    }

    /// The BCP 47 tag for `<html lang>`.
    pub fn html_tag(self) -> &'static str {
        match self {
            Self::Zh => "zh-CN",
            Self::En => "en",
        }
    }

    /// Parses a stored code or a browser language tag (`zh-CN`, `en-GB`…).
    pub fn parse(s: &str) -> Option<Self> {
        let s = s.trim().to_ascii_lowercase();
        if s.starts_with("zh") {
            Some(Self::Zh)
        } else if s.starts_with("en") {
            Some(Self::En)
        } else {
            None
        }
    }

    /// The other language.
    pub fn other(self) -> Self {
        match self {
            Self::Zh => Self::En,
            Self::En => Self::Zh,
        }
    }

    /// The same language for the shared message catalogue (server errors, file checks).
    pub fn locale(self) -> memeboard_core::messages::Locale {
        match self {
            Self::Zh => memeboard_core::messages::Locale::Zh,
            Self::En => memeboard_core::messages::Locale::En,
        }
    }

    /// The strings of this language.
    pub fn strings(self) -> &'static Strings {
        match self {
            Self::Zh => &ZH,
            Self::En => &EN,
        }
    }
}

/// The language context: a reactive [`Lang`] shared by every page.
#[derive(Debug, Clone, Copy)]
pub struct I18n {
    lang: RwSignal<Lang>,
}

impl I18n {
    /// The current language (tracked).
    pub fn lang(&self) -> Lang {
        self.lang.get()
    }

    /// The current language, untracked (for async code and event handlers).
    pub fn lang_untracked(&self) -> Lang {
        self.lang.get_untracked()
    }

    /// The current strings (tracked).
    pub fn t(&self) -> &'static Strings {
        self.lang.get().strings()
    }

    /// Switches language and remembers the choice.
    pub fn set(&self, lang: Lang) {
        storage::set(storage::LANG_KEY, lang.code());
        CURRENT.with(|c| c.set(Some(lang)));
        self.lang.set(lang);
    }

    /// Switches to the other language.
    pub fn toggle(&self) {
        self.set(self.lang.get_untracked().other());
    }
}

thread_local! {
    /// The language last chosen, for code outside the reactive tree (API error messages).
    static CURRENT: std::cell::Cell<Option<Lang>> = const { std::cell::Cell::new(None) };
}

/// The current language without a context (for messages built in async API code): the last
/// choice, else the starting one.
pub fn current_lang() -> Lang {
    CURRENT.with(|c| {
        c.get().unwrap_or_else(|| {
            // (Native unit tests have no browser to ask.)
            let lang = if cfg!(target_arch = "wasm32") {
                initial_lang()
            } else {
                Lang::En
            };
            c.set(Some(lang));
            lang
        })
    })
}

/// The language to start with: the stored choice, else the browser's, else English.
fn initial_lang() -> Lang {
    storage::get(storage::LANG_KEY)
        .and_then(|s| Lang::parse(&s))
        .or_else(|| {
            web_sys::window()
                .and_then(|w| w.navigator().language())
                .and_then(|l| Lang::parse(&l))
        })
        .unwrap_or(Lang::En)
}

/// Provides the [`I18n`] context and keeps `<html lang>` in sync. Call once, at the root.
pub fn provide_i18n() -> I18n {
    let i18n = I18n {
        lang: RwSignal::new(initial_lang()),
    };
    provide_context(i18n);
    Effect::new(move |_| {
        let lang = i18n.lang();
        CURRENT.with(|c| c.set(Some(lang)));
        let tag = lang.html_tag();
        if let Some(root) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
        {
            let _ = root.set_attribute("lang", tag);
        }
    });
    i18n
}

/// The [`I18n`] context (falls back to a fresh one if the root did not provide it).
pub fn use_i18n() -> I18n {
    use_context::<I18n>().unwrap_or_else(|| I18n {
        lang: RwSignal::new(initial_lang()),
    })
}

/// A piece of interface text that follows the language: `tr(|t| t.title)`.
///
/// Every call returns the same closure type, so the view code that renders such text is
/// compiled once for the whole app instead of once per string (a large wasm saving).
pub fn tr(
    pick: fn(&'static Strings) -> &'static str,
) -> impl Fn() -> &'static str + Copy + Send + Sync + 'static {
    let i18n = use_i18n();
    move || pick(i18n.t())
}

/// A category's label in `lang`: from the quiz's own labels, else the CHIME meme types,
/// else the raw key.
pub fn category_label(lang: Lang, key: &str, categories: &[CategoryInfo]) -> String {
    if let Some(c) = categories.iter().find(|c| c.key == key) {
        return match lang {
            Lang::Zh => c.label_zh.clone(),
            Lang::En => c.label_en.clone(),
        };
    }
    if let Some(t) = MemeType::from_key(key) {
        return match lang {
            Lang::Zh => t.upstream_cn().to_owned(),
            Lang::En => t.upstream_en().to_owned(),
        };
    }
    key.to_owned()
}

/// Every interface string of one language.
#[derive(Debug)]
pub struct Strings {
    /// Name of the *other* language, shown on the switch button.
    pub other_language: &'static str,
    /// Accessible label of the switch button.
    pub switch_language: &'static str,
    /// Placeholder while data loads.
    pub loading: &'static str,
    /// Heading of the shared error view.
    pub error_title: &'static str,
    /// Link back to the home page.
    pub back_home: &'static str,
    /// Body of the 404 page.
    pub not_found: &'static str,
    /// Heading shown when the server sent a smaller bundle for a page it lacks (the bigger
    /// bundle, `dist/boards-app/` or `dist/studio/`, was not built).
    pub bundle_missing: &'static str,
    /// What to do about [`Strings::bundle_missing`].
    pub bundle_missing_detail: &'static str,
    /// Attention check heading (these study strings are the participant side of
    /// [`crate::study_i18n`], kept here so the quiz bundle does not carry that table).
    pub check_title: &'static str,
    /// Continue after a check.
    pub check_continue: &'static str,
    /// Screened-out heading.
    pub screened_title: &'static str,
    /// Screened-out text.
    pub screened_text: &'static str,
    /// Redirect note.
    pub redirect_note: &'static str,
    /// Redirect link.
    pub redirect_link: &'static str,
    /// Code label.
    pub study_code: &'static str,
    /// Full quiz badge (home page).
    pub full: &'static str,
    /// Footer note.
    pub footer: &'static str,

    /// Consent page: what the end of the batch shows, given the hidden share in percent.
    pub results_note: fn(Option<u8>) -> String,
    /// Model page: the document title for a model name.
    pub model_page_title: fn(&str) -> String,

    /// Home page heading.
    pub home_title: &'static str,
    /// Home page introduction.
    pub home_intro: &'static str,
    /// Shown when no quiz is open.
    pub no_quizzes: &'static str,
    /// "N items in the pool".
    pub item_count: fn(usize) -> String,
    /// "N questions per participant".
    pub batch_size: fn(usize) -> String,
    /// "N participants completed".
    pub participants: fn(usize) -> String,
    /// Label before the category chips.
    pub categories: &'static str,
    /// Start link on a quiz card.
    pub start: &'static str,

    /// Heading of the resume box.
    pub resume_title: &'static str,
    /// Text of the resume box.
    pub resume_text: &'static str,
    /// Resume link.
    pub resume_link: &'static str,
    /// Start-over button.
    pub start_over: &'static str,
    /// Note under the start-over button.
    pub start_over_note: &'static str,
    /// Step 1 heading.
    pub step1_title: &'static str,
    /// Heading above the rules.
    pub rules_title: &'static str,
    /// The rules participants agree to.
    pub rules: [&'static str; 5],
    /// Consent checkbox label.
    pub consent_label: &'static str,
    /// Continue button of step 1.
    pub continue_: &'static str,
    /// Step 2 heading.
    pub step2_title: &'static str,
    /// Step 1 heading when the flow has three steps (clip quizzes add a headphone check).
    pub step1_of3_title: &'static str,
    /// The survey's heading when the flow has three steps.
    pub step3_of3_title: &'static str,
    /// Step 2 introduction.
    pub survey_intro: &'static str,
    /// Placeholder option of the survey selects.
    pub choose: &'static str,
    /// Age question.
    pub age_label: &'static str,
    /// Labels of `AgeRange::ALL`.
    pub ages: [&'static str; 6],
    /// Native language question.
    pub language_label: &'static str,
    /// Labels of `NativeLanguage::ALL`.
    pub languages: [&'static str; 8],
    /// Time online question.
    pub online_label: &'static str,
    /// Labels of `OnlineTime::ALL`.
    pub online: [&'static str; 4],
    /// Familiarity question.
    pub familiarity_label: &'static str,
    /// Labels of familiarity 1..=5.
    pub familiarity: [&'static str; 5],
    /// Skip-flagged checkbox label.
    pub skip_flagged_label: &'static str,
    /// Survey submit button.
    pub survey_submit: &'static str,
    /// Survey submit button while sending.
    pub starting: &'static str,
    /// Shown when a survey question is unanswered.
    pub survey_missing: &'static str,
    /// Back button of step 2.
    pub back: &'static str,
    /// "You will answer N questions".
    pub batch_note: fn(usize) -> String,

    /// "Question k of N".
    pub progress: fn(usize, usize) -> String,
    /// Content warning above a flagged question.
    pub content_warning: &'static str,
    /// Accessible name of the blank.
    pub blank: &'static str,
    /// Instruction above the options.
    pub options_label: &'static str,
    /// Submit button.
    pub submit: &'static str,
    /// Submit button while sending.
    pub sending: &'static str,
    /// Keyboard hint.
    pub keyboard_hint: &'static str,
    /// Shown when Enter is pressed with nothing chosen.
    pub choose_first: &'static str,
    /// Prefix of a failed submission message.
    pub answer_failed: &'static str,
    /// Shown while a failed answer is being resent automatically (attempt number).
    pub answer_retrying: fn(u32) -> String,
    /// Retry button.
    pub retry: &'static str,
    /// Heading once the batch is done.
    pub done_title: &'static str,
    /// Label of the completion code.
    pub completion_code: &'static str,
    /// What to do with the completion code.
    pub completion_hint: &'static str,
    /// Link to the results page.
    pub see_results: &'static str,

    /// Results heading.
    pub results_title: &'static str,
    /// "Your score: c / n".
    pub your_score: &'static str,
    /// Results: answers to hidden test items are not scored or reviewed.
    pub held_out_note: fn(usize) -> String,
    /// The headline score when every answer was on hidden test items (nothing to score here).
    pub all_held_out: &'static str,
    /// Similarity kinds: the rounded mean over the hidden items (count, mean).
    pub hidden_mean_note: fn(usize, f64) -> String,
    /// A category figure left out because the category has too few items on the board half.
    pub too_few_items: &'static str,
    /// Tooltip of [`Strings::too_few_items`].
    pub too_few_items_title: &'static str,
    /// Heading of the comparison table.
    pub compare_title: &'static str,
    /// Column: category.
    pub col_category: &'static str,
    /// Column: you.
    pub col_you: &'static str,
    /// Column: human average.
    pub col_average: &'static str,
    /// Column: human best.
    pub col_best: &'static str,
    /// Column: pooled.
    pub col_pooled: &'static str,
    /// Column: participants.
    pub col_n: &'static str,
    /// Row label of the overall row.
    pub overall: &'static str,
    /// Label of the chance line.
    pub chance: &'static str,
    /// Explanation of the numbers.
    pub ci_note: &'static str,
    /// Label of the agreement line.
    pub agreement: &'static str,
    /// Review heading.
    pub review_title: &'static str,
    /// Review: your answer.
    pub your_answer: &'static str,
    /// Review: correct answer.
    pub correct_answer: &'static str,
    /// Review: meaning.
    pub meaning: &'static str,
    /// Review: crowd accuracy.
    pub crowd_accuracy: &'static str,
    /// Review: right.
    pub right: &'static str,
    /// Review: wrong.
    pub wrong: &'static str,
    /// Review: gold withheld (hidden test item).
    pub withheld: &'static str,
    /// Review: why the correct answer is not shown.
    pub withheld_note: &'static str,
    /// Heading when results are not available yet.
    pub results_not_ready: &'static str,
    /// Link back to an unfinished quiz.
    pub continue_quiz: &'static str,

    /// Accessible name of the main navigation.
    pub nav_label: &'static str,
    /// Nav: quizzes (home).
    pub nav_quizzes: &'static str,
    /// Nav: leaderboards.
    pub nav_boards: &'static str,
    /// Nav: submit predictions.
    pub nav_submit: &'static str,
    /// Nav: account (author token).
    pub nav_account: &'static str,

    /// Row kind badge: a submitted model.
    pub kind_model: &'static str,
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
    /// Label of the human-average board row.
    pub row_human_average: &'static str,
    /// Label of the human-best board row.
    pub row_human_best: &'static str,
    /// Label of the chance board row (the expected score of random answers).
    pub row_chance: &'static str,
    /// Label of the display-order baseline row (panel order boards).
    pub row_display_order: &'static str,
    /// Label of the seeded random-order baseline row.
    pub row_random_order: &'static str,
    /// Label of the majority-type baseline row (structure boards).
    pub row_majority_type: &'static str,
    /// Label of the seeded random-type baseline row.
    pub row_random_type: &'static str,
    /// Label of the "copy of the prompt" baseline row (explanation boards).
    pub row_prompt_copy: &'static str,
    /// Badge on a model row whose answers mostly repeat the prompt.
    pub flag_copies_prompt: &'static str,
    /// Label of the "all answers pooled" human board row.
    pub row_human_pooled: &'static str,
    /// "N participants" under a human row.
    pub participants_n: fn(usize) -> String,
    /// Column: rank.
    pub col_rank: &'static str,
    /// Column: model / row label.
    pub col_model: &'static str,
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
    /// Withdraw button.
    pub withdraw: &'static str,
    /// Withdraw: the question of the confirmation step.
    pub withdraw_question: &'static str,
    /// Withdraw: the confirming button.
    pub withdraw_yes: &'static str,
    /// Withdraw: while the request runs.
    pub withdrawing: &'static str,
    /// Withdraw: the submission's state afterwards.
    pub withdrawn: &'static str,
    /// Withdraw: the note shown afterwards.
    pub withdrawn_note: &'static str,
    /// Submit page: uploads left today before uploading (left, limit).
    pub quota_before: fn(usize, usize) -> String,
    /// Column: accuracy with interval.
    pub col_accuracy: &'static str,
    /// Column: items scored.
    pub col_items: &'static str,
    /// Hint above a sortable table.
    pub sort_hint: &'static str,

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
    /// Accessible name of the public/private toggle.
    pub board_split_label: &'static str,
    /// Accessible name of the item-subset switch.
    pub board_subset_label: &'static str,
    /// Subset `main`: items not answerable from the text alone.
    pub subset_main: &'static str,
    /// Subset `full`: every item.
    pub subset_full: &'static str,
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
    /// Familiarity table: participants.
    pub col_participants: &'static str,
    /// Familiarity table: answers.
    pub col_answers: &'static str,
    /// Under a bar: participants.
    pub familiarity_participants: fn(usize) -> String,
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
    /// Heading of the chart.
    pub chart_title: &'static str,
    /// Text description of the chart (for screen readers).
    pub chart_desc: &'static str,
    /// Shown instead of bars when no model is scored yet.
    pub no_models: &'static str,
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
    /// While the task manifest loads.
    pub task_loading: &'static str,
    /// The file could not be read.
    pub file_unreadable: &'static str,
    /// The file is over the size limit.
    pub file_too_big: fn(f64, usize) -> String,
    /// Heading of the preview error list.
    pub preview_errors_title: &'static str,
    /// "N lines OK".
    pub lines_ok: fn(usize) -> String,
    /// Heading of the dev preview score.
    pub preview_score_title: &'static str,
    /// Note under the dev preview score.
    pub preview_score_note: fn(usize) -> String,
    /// Upload button.
    pub upload: &'static str,
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
    /// Copy button.
    pub copy: &'static str,
    /// After copying.
    pub copied: &'static str,
    /// Clipboard unavailable.
    pub copy_failed: &'static str,
    /// The clipboard is unavailable for the completion code.
    pub copy_code_failed: &'static str,
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
    /// Cancel.
    pub cancel: &'static str,
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
    /// Label of the "random pair of reference meanings" baseline row (explanation boards).
    pub row_random_pair: &'static str,
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
    /// Column: metric name.
    pub col_metric: &'static str,
    /// Column: value.
    pub col_value: &'static str,
    /// Column: the crowd's mean score on an item.
    pub col_crowd_score: &'static str,
    /// Column: model score on an item.
    pub col_model_score: &'static str,
}

/// Chinese strings.
pub static ZH: Strings = Strings {
    other_language: "English",
    switch_language: "切换语言 / Switch language",
    loading: "加载中…",
    error_title: "出错了",
    back_home: "返回首页",
    not_found: "页面不存在。",
    bundle_missing: "此页面未安装",
    bundle_missing_detail: "排行榜页面（dist/boards-app/）和研究者页面（dist/studio/：控制台、研究、提交、账户）是单独构建的，本服务器上没有。请用 scripts/build-web.sh 构建前端。",
    check_title: "注意力检查",
    check_continue: "继续",
    screened_title: "谢谢：本研究对你到此结束",
    screened_text: "你的会话已提前结束。请用下面的代码或链接返回研究平台。",
    redirect_note: "几秒后将带你返回研究平台…",
    redirect_link: "立即返回研究平台",
    study_code: "研究代码",
    full: "已满：不再接收新参与者",
    footer: "memeboard：为梗理解基准收集匿名的人类作答。",

    results_note: |hidden| match hidden {
        Some(h) => format!("结束时你会看到自己在本组公开（练习）题目上的得分，以及这些题目的正确答案；约 {h}% 的题目属于隐藏测试集，不显示其答案。"),
        None => "结束时你会看到自己在本组公开（练习）题目上的得分，以及这些题目的正确答案；部分题目属于隐藏测试集，不显示其答案。".to_owned(),
    },
    model_page_title: |name| format!("模型：{name}"),

    home_title: "梗理解：人类基准测试",
    home_intro: "参与一个关于中文网络梗的小测验。你的匿名作答将成为与 AI 模型对比的人类基准。",
    no_quizzes: "目前没有开放的测验。",
    item_count: |n| format!("题库共 {n} 题"),
    batch_size: |n| format!("每人作答 {n} 题"),
    participants: |n| format!("已有 {n} 人完成"),
    categories: "类别",
    start: "开始",

    resume_title: "继续你的测验",
    resume_text: "你在此浏览器中已开始过这个测验。",
    resume_link: "继续作答",
    start_over: "重新开始",
    start_over_note: "重新开始会分配一组新的题目；之前已提交的答案仍会保留。",
    step1_title: "第 1 步（共 2 步）：说明与知情同意",
    rules_title: "作答规则",
    rules: [
        "请勿上网搜索，也不要使用 AI 工具或其他参考资料。",
        "请独立作答，不要向他人求助。",
        "请如实作答：不确定时可以凭直觉选择，答错没有惩罚。",
        "参与完全匿名：我们只保存你的答案、作答用时和简短的背景问卷，并以随机编号关联。",
        "你必须年满 18 周岁。",
    ],
    consent_label: "我同意：我已年满 18 周岁，并会遵守以上规则。",
    continue_: "继续",
    step2_title: "第 2 步（共 2 步）：关于你",
    step1_of3_title: "第 1 步（共 3 步）：说明与知情同意",
    step3_of3_title: "第 3 步（共 3 步）：关于你",
    survey_intro: "几个粗略的背景问题，不涉及任何可识别个人身份的信息。",
    choose: "请选择…",
    age_label: "年龄段",
    ages: ["18–24 岁", "25–34 岁", "35–44 岁", "45–54 岁", "55 岁及以上", "不愿透露"],
    language_label: "母语",
    languages: [
        "中文", "英语", "西班牙语", "法语", "德语", "日语", "韩语", "其他",
    ],
    online_label: "每天上网时间",
    online: ["少于 1 小时", "1–3 小时", "3–6 小时", "超过 6 小时"],
    familiarity_label: "你对中文网络梗的熟悉程度（1–5）",
    familiarity: [
        "1 – 完全不熟悉",
        "2 – 不太熟悉",
        "3 – 一般",
        "4 – 比较熟悉",
        "5 – 非常熟悉",
    ],
    skip_flagged_label: "跳过被标记为含有粗俗或冒犯性内容的题目",
    survey_submit: "开始答题",
    starting: "正在开始…",
    survey_missing: "请回答以上所有问题。",
    back: "返回上一步",
    batch_note: |n| format!("你将回答 {n} 道题。"),

    progress: |k, n| format!("第 {k} 题，共 {n} 题"),
    content_warning: "内容提醒：本题可能含有粗俗或冒犯性的语言。",
    blank: "空白处",
    options_label: "选择最适合填入空白处的梗：",
    submit: "提交答案",
    sending: "提交中…",
    keyboard_hint: "键盘操作：按 1–5 或 A–E 选择，按 Enter 提交。",
    choose_first: "请先选择一个选项。",
    answer_failed: "答案未能保存：",
    answer_retrying: |n| format!("正在保存……（连接有问题，第 {n} 次重试）"),
    retry: "重试",
    done_title: "全部完成，谢谢参与！",
    completion_code: "你的完成码",
    completion_hint: "如果你来自招募平台，请把这个完成码粘贴回该平台。",
    see_results: "查看你的结果",

    results_title: "你的结果",
    your_score: "你的得分",
    held_out_note: |n| {
        format!("你有 {n} 道题属于隐藏测试集：这些作答计入人类基准，但不计入此处得分，也不显示正确答案。")
    },
    all_held_out: "你的题目都属于隐藏测试集：作答已计入人类基准，此处不显示得分。",
    hidden_mean_note: |n, mean| {
        format!("隐藏测试题（{n} 道）的平均相似度：{mean:.1}（四舍五入；不显示单题得分）")
    },
    too_few_items: "题目太少，不显示",
    too_few_items_title: "仅公布本榜单中题目足够多的类别",
    compare_title: "与其他参与者比较",
    col_category: "类别",
    col_you: "你",
    col_average: "人类平均",
    col_best: "人类最佳",
    col_pooled: "合并正确率",
    col_n: "人数",
    overall: "总体",
    chance: "随机猜测",
    ci_note: "数值为正确率；方括号内为 95% 自助法置信区间；人数为作答过该类别的参与者数。",
    agreement: "标注一致性",
    review_title: "逐题回顾",
    your_answer: "你的答案",
    correct_answer: "正确答案",
    meaning: "含义",
    crowd_accuracy: "参与者正确率",
    right: "答对",
    wrong: "答错",
    withheld: "答案保密",
    withheld_note: "本题属于隐藏测试集，不公布正确答案。",
    results_not_ready: "结果尚不可用",
    continue_quiz: "继续答题",

    nav_label: "主导航",
    nav_quizzes: "测验",
    nav_boards: "排行榜",
    nav_submit: "提交",
    nav_account: "账户",

    kind_model: "模型",
    kind_human: "人类",
    kind_baseline: "基线",
    weights_open: "开放",
    weights_closed: "闭源",
    status_scored: "已评分",
    status_received: "已接收",
    status_unscored: "仅人工评判",
    row_human_average: "人类平均（众包）",
    row_human_best: "人类最佳（众包）",
    row_chance: "随机猜测（期望值）",
    row_display_order: "按展示顺序作答",
    row_random_order: "随机顺序（每题一次固定种子抽样）",
    row_majority_type: "总选最常见的类型",
    row_random_type: "随机类型（每题一次固定种子抽样）",
    row_prompt_copy: "照抄题目（把梗本身当作释义）",
    flag_copies_prompt: "多数回答照抄了题目",
    row_human_pooled: "人类（众包，全部作答合并）",
    participants_n: |n| format!("{n} 名参与者"),
    col_rank: "排名",
    col_model: "模型",
    col_kind: "类型",
    col_organisation: "机构",
    col_params: "参数量",
    col_weights: "权重",
    col_submitted: "提交日期",
    filters_label: "筛选模型",
    filter_all: "全部",
    filter_size: "规模（参数量）",
    size_le10b: "≤ 10B",
    size_10to100b: "10B–100B",
    size_gt100b: "> 100B",
    size_unknown: "未知",
    filter_since: "提交日期不早于",
    filter_clear: "清除筛选",
    filter_shown: |shown, total| format!("显示 {total} 个模型行中的 {shown} 个"),
    attempts_show_all: |n| format!("显示全部 {n} 次提交"),
    attempts_one_per_model: "每个模型只显示一行",
    attempts_best_note: "每个模型一行：其最佳提交。",
    attempts_latest_note: "每个模型一行：其最新提交。",
    attempts_all_note: "显示每个模型的每一次提交。",
    not_ranked: "不参与排名",
    withdraw: "撤回",
    withdraw_question: "要将此提交从所有排行榜撤下吗？此操作无法撤销。",
    withdraw_yes: "确定撤回",
    withdrawing: "正在撤回…",
    withdrawn: "已撤回",
    withdrawn_note: "已撤回：此提交不再出现在任何排行榜上。",
    quota_before: |left, limit| format!("此令牌今日还可上传 {left} 次（共 {limit} 次）"),
    col_accuracy: "得分（95% 置信区间）",
    col_items: "题数",
    sort_hint: "点击列标题可排序。",

    boards_title: "排行榜",
    boards_intro: "模型在隐藏的测试题上评分，并与众包得到的人类基线并列展示。",
    no_tasks: "目前还没有排行榜。",
    split_counts: |dev, public, private| {
        format!("开发集 {dev} 题 · 公开榜 {public} 题 · 私有榜 {private} 题")
    },
    submissions_n: |n| format!("{n} 次提交"),
    view_board: "查看排行榜",
    submit_to: "提交预测",

    board_public: "公开榜",
    board_private: "私有榜",
    board_split_label: "选择榜单",
    board_subset_label: "题目范围",
    subset_main: "主要子集（不能仅凭文字作答的题目）",
    subset_full: "全部题目",
    familiarity_chart_title: "人类准确率与熟悉程度",
    familiarity_chart_note: "按参与者在看题前对片段熟悉程度的回答分组；竖线为 95% 置信区间（对参与者和题目做自助法重抽样）。",
    familiarity_table_caption: "各熟悉程度组的人类准确率",
    col_familiarity: "熟悉程度",
    col_human_accuracy: "准确率 [95% 置信区间]",
    col_participants: "参与者",
    col_answers: "作答数",
    familiarity_participants: |p| format!("{p} 人"),
    familiarity_answers: |a| format!("{a} 次作答"),
    too_few_answers: "作答太少，不显示",
    board_locked_title: "私有榜尚未公布",
    board_blind_note: "本榜为盲评：组织者公布之前，模型成绩保持隐藏。",
    board_unscored_note: "这项任务没有标准答案，也没有自动指标：模型的解读由人工评判，排名来自人工评测。",
    board_items: |n, metric| format!("基于 {n} 道测试题评分 · 指标：{metric}"),
    missing_policy_label: "缺失的预测",
    board_ci_note: "数值为本榜指标（见上方）；方括号内为按题目自助法得到的 95% 置信区间。",
    chart_title: "各类别得分（总体前 5 名模型）",
    chart_desc: "柱形为总体成绩前 5 名模型在每个类别上的得分；实线为人类平均，点线为人类最佳，虚线为随机基线。",
    no_models: "还没有已评分的模型提交。",
    downloads: "下载",
    download_csv: "下载 CSV",
    download_json: "下载 JSON",
    board_table_label: "排行榜表格（可横向滚动）",

    submit_title: "提交预测",
    submit_intro: "上传模型对某个任务全部题目的预测，即可在隐藏测试题上评分并进入排行榜。",
    help_title: "如何提交",
    help_limits: |quota| match quota {
        Some(q) => format!("限制：文件不超过 20 MB、20 万行；每个令牌每天（UTC）最多上传 {q} 次。"),
        None => "限制：文件不超过 20 MB、20 万行；每个令牌每天（UTC）有上传次数上限（见账户页）。".to_owned(),
    },
    task_files: "本任务的文件",
    dl_inputs: "模型输入（inputs.jsonl）",
    dl_template_jsonl: "模板（JSON Lines）",
    dl_template_csv: "模板（CSV）",
    dl_dev_gold: "开发集答案（dev-gold.jsonl）",
    cli_title: "命令行提交",
    cli_curl: "使用 curl：",
    cli_tool: "使用 memeboard 命令行工具：",
    form_title: "上传",
    task_label: "任务",
    token_label: "作者令牌",
    token_missing: "还没有令牌？",
    token_create_link: "在账户页创建",
    model_label: "模型名称（必填）",
    organisation_label: "机构",
    organisation_hint: "留空则使用账户中的机构。",
    parameters_label: "参数量（如 7B）",
    weights_label: "权重",
    weights_open_option: "开放权重",
    weights_closed_option: "闭源（仅 API 或未发布）",
    link_label: "链接（论文或代码，http/https）",
    description_label: "说明",
    file_label: "预测文件",
    drop_text: "把 .jsonl 或 .csv 文件拖到这里，或选择文件：",
    file_selected: |name, bytes| format!("已选择：{name}（{:.1} KB）", bytes / 1024.0),
    checking: "正在检查文件…",
    task_loading: "正在加载任务清单…",
    file_unreadable: "无法读取该文件。",
    file_too_big: |bytes, limit| format!("文件大小为 {bytes} 字节，上限为 {limit} 字节。"),
    preview_errors_title: "文件有以下问题，修正后才能上传：",
    lines_ok: |n| format!("{n} 行格式正确"),
    preview_score_title: "开发集（公开答案）——不是排行榜成绩",
    preview_score_note: |n| {
        format!("在你的浏览器中仅用 {n} 道开发集题目计算；排行榜使用隐藏的测试题。")
    },
    upload: "上传并评分",
    uploading: "上传中…",
    upload_progress: "上传进度",
    need_model: "请填写模型名称。",
    need_token: "请填写作者令牌（可在账户页创建）。",
    upload_failed: "服务器拒绝了这次上传：",
    result_title: "上传成功",
    status_label: "状态",
    lines_read: |n| format!("读取 {n} 行"),
    public_score_title: "公开榜成绩",
    received_note: "本榜为盲评：文件已保存并评分，成绩将在组织者公布后显示。",
    warnings_title: "提醒",
    quota_left: |left, limit| format!("今日还剩 {left} / {limit} 次"),
    see_board: "查看排行榜",
    see_model: "模型页面",

    account_title: "账户",
    account_intro: "上传预测需要作者令牌。在这里创建令牌：令牌只显示一次，并保存在此浏览器中。",
    create_title: "创建令牌",
    name_label: "姓名或团队名",
    create_token: "创建令牌",
    creating: "正在创建…",
    need_name: "请填写姓名或团队名。",
    new_token_title: "你的新令牌",
    new_token_note: "请立即复制并妥善保存：它不会再次显示。此浏览器已记住它。",
    copy: "复制",
    copied: "已复制",
    copy_failed: "无法访问剪贴板，请手动选中令牌并复制。",
    copy_code_failed: "无法访问剪贴板，请手动选中完成码并复制。",
    your_account: "你的账户",
    quota_label: "今日上传",
    my_submissions: "你的提交",
    no_submissions: "还没有提交。",
    forget_token: "在此浏览器中忘记令牌",
    forget_confirm: "确定忘记吗？没有这个令牌，就无法再以该作者身份上传。",
    forget_yes: "确定忘记",
    cancel: "取消",
    create_another: "创建另一个令牌",
    use_existing: "使用已有令牌",
    save: "保存",

    model_task: "任务",
    model_link: "链接",
    model_lines: "行数",
    model_missing: "缺失题目（按答错计）",
    scores_hidden: "本榜为盲评：成绩将在组织者公布后显示。",
    gaps_title: "模型答错、但多数人答对的题目",
    gaps_note: "只有提交者本人能看到（仅开发集题目：测试集题目的对错会泄露答案）。",
    no_gaps: "没有这样的题目。",
    col_question: "题目",
    row_random_pair: "随机配对的参考释义",
    secondary_title: "次要指标（总体）",
    metric_parse_rate: "可解析率",
    metric_macro_f1: "宏平均 F1",
    metric_weighted_f1: "加权 F1",
    metric_accuracy_all: "准确率（无法解析算错）",
    metric_accuracy_of_type: |t| format!("准确率：{t}"),
    confusion_title: |row| format!("混淆矩阵：{row}"),
    confusion_caption: "行为标注类型，列为预测类型（最后一列：无法解析）",
    confusion_gold: "标注 \\ 预测",
    confusion_unparseable: "无法解析",
    col_metric: "指标",
    col_value: "数值",
    col_crowd_score: "人群得分",
    col_model_score: "模型得分",
};

/// English strings.
pub static EN: Strings = Strings {
    other_language: "中文",
    switch_language: "Switch language / 切换语言",
    loading: "Loading…",
    error_title: "Something went wrong",
    back_home: "Back to home",
    not_found: "Page not found.",
    bundle_missing: "This page is not installed",
    bundle_missing_detail: "The leaderboard pages (dist/boards-app/) and the researcher pages (dist/studio/: console, studies, submit, account) are separate builds, which this server does not have. Build the front end with scripts/build-web.sh.",
    check_title: "Attention check",
    check_continue: "Continue",
    screened_title: "Thank you: the study ends here for you",
    screened_text: "Your session has ended early. Return to the study with this code or link.",
    redirect_note: "Taking you back to the study in a few seconds…",
    redirect_link: "Return to the study now",
    study_code: "Code for the study",
    full: "Full: no new participants",
    footer: "memeboard collects anonymous human answers as baselines for meme-understanding benchmarks.",

    results_note: |hidden| match hidden {
        Some(h) => format!("At the end you will see your score on the open (practice) items of your batch and their correct answers; about {h}% of items are hidden test items whose answers are not shown."),
        None => "At the end you will see your score on the open (practice) items of your batch and their correct answers; some items are hidden test items whose answers are not shown.".to_owned(),
    },
    model_page_title: |name| format!("Model: {name}"),

    home_title: "Meme understanding: human baselines",
    home_intro: "Take a short quiz on Chinese internet memes. Your anonymous answers become the human baseline that AI models are compared against.",
    no_quizzes: "No quizzes are open right now.",
    item_count: |n| format!("{n} items in the pool"),
    batch_size: |n| format!("{n} questions per participant"),
    participants: |n| {
        if n == 1 {
            "1 participant completed".to_owned()
        } else {
            format!("{n} participants completed")
        }
    },
    categories: "Categories",
    start: "Start",

    resume_title: "Resume your quiz",
    resume_text: "You already started this quiz in this browser.",
    resume_link: "Resume your quiz",
    start_over: "Start over",
    start_over_note: "Starting over gives you a new set of questions; answers you already sent stay recorded.",
    step1_title: "Step 1 of 2: Instructions and consent",
    rules_title: "Rules",
    rules: [
        "Do not search the web, and do not use AI tools or other references.",
        "Answer on your own; do not ask anyone for help.",
        "Answer honestly. If you are unsure, go with your best guess; there is no penalty for wrong answers.",
        "Participation is anonymous: we store only your answers, response times and the short background survey, under a random id.",
        "You must be 18 or older.",
    ],
    consent_label: "I agree: I am 18 or older and I will follow these rules.",
    continue_: "Continue",
    step2_title: "Step 2 of 2: About you",
    step1_of3_title: "Step 1 of 3: Instructions and consent",
    step3_of3_title: "Step 3 of 3: About you",
    survey_intro: "A few coarse background questions; nothing that identifies you.",
    choose: "Choose…",
    age_label: "Age range",
    ages: ["18–24", "25–34", "35–44", "45–54", "55 or older", "Prefer not to say"],
    language_label: "Native language",
    languages: [
        "Chinese", "English", "Spanish", "French", "German", "Japanese", "Korean", "Other",
    ],
    online_label: "Time online per day",
    online: ["Under 1 hour", "1–3 hours", "3–6 hours", "Over 6 hours"],
    familiarity_label: "How familiar are you with Chinese internet memes? (1–5)",
    familiarity: [
        "1 – Not at all familiar",
        "2 – Slightly familiar",
        "3 – Somewhat familiar",
        "4 – Quite familiar",
        "5 – Very familiar",
    ],
    skip_flagged_label: "Skip questions flagged for profanity or offensive content",
    survey_submit: "Start the quiz",
    starting: "Starting…",
    survey_missing: "Please answer every question above.",
    back: "Back",
    batch_note: |n| format!("You will answer {n} questions."),

    progress: |k, n| format!("Question {k} of {n}"),
    content_warning: "Content warning: this question may contain profanity or offensive language.",
    blank: "blank",
    options_label: "Choose the meme that fills the blank:",
    submit: "Submit answer",
    sending: "Sending…",
    keyboard_hint: "Keyboard: press 1–5 or A–E to choose, Enter to submit.",
    choose_first: "Choose an option first.",
    answer_failed: "Your answer was not saved: ",
    answer_retrying: |n| format!("Saving… (connection trouble, retry {n})"),
    retry: "Retry",
    done_title: "All done — thank you!",
    completion_code: "Your completion code",
    completion_hint: "If you came from a recruitment platform, paste this code there.",
    see_results: "See your results",

    results_title: "Your results",
    your_score: "Your score",
    held_out_note: |n| {
        format!("{n} of your answers are to hidden test items: they count towards the crowd baseline, but not towards your score here, and their correct answers are not shown.")
    },
    all_held_out: "All your items are hidden test items: your answers count toward the human baseline; no score is shown here.",
    hidden_mean_note: |n, mean| {
        format!("Hidden test items ({n}): average similarity {mean:.1} (rounded; no per-item scores)")
    },
    too_few_items: "too few items to show",
    too_few_items_title: "Published only for categories with enough items on this board half",
    compare_title: "Compared with other participants",
    col_category: "Category",
    col_you: "You",
    col_average: "Human average",
    col_best: "Human best",
    col_pooled: "Pooled",
    col_n: "Participants",
    overall: "Overall",
    chance: "Chance",
    ci_note: "Numbers are accuracies; brackets give 95% bootstrap confidence intervals; participants = people who answered in that category.",
    agreement: "Agreement",
    review_title: "Review",
    your_answer: "Your answer",
    correct_answer: "Correct answer",
    meaning: "Meaning",
    crowd_accuracy: "Crowd accuracy",
    right: "Right",
    wrong: "Wrong",
    withheld: "Answer withheld",
    withheld_note: "This question belongs to a hidden test set, so its answer is not shown.",
    results_not_ready: "Results are not available yet",
    continue_quiz: "Continue the quiz",

    nav_label: "Main",
    nav_quizzes: "Quizzes",
    nav_boards: "Leaderboards",
    nav_submit: "Submit",
    nav_account: "Account",

    kind_model: "model",
    kind_human: "human",
    kind_baseline: "baseline",
    weights_open: "open",
    weights_closed: "closed",
    status_scored: "scored",
    status_received: "received",
    status_unscored: "judged by people only",
    row_human_average: "Human average (crowd)",
    row_human_best: "Human best (crowd)",
    row_chance: "Chance (expected score of random answers)",
    row_display_order: "Display order (answer = the order shown)",
    row_random_order: "Random order (one seeded draw per item)",
    row_majority_type: "Majority type (always the most common type)",
    row_random_type: "Random type (one seeded draw per item)",
    row_prompt_copy: "Copy of the prompt (the meme phrase as its meaning)",
    flag_copies_prompt: "most answers copy the prompt",
    row_human_pooled: "Humans pooled (crowd)",
    participants_n: |n| {
        if n == 1 {
            "1 participant".to_owned()
        } else {
            format!("{n} participants")
        }
    },
    col_rank: "Rank",
    col_model: "Model",
    col_kind: "Type",
    col_organisation: "Organisation",
    col_params: "Params",
    col_weights: "Weights",
    col_submitted: "Submitted",
    filters_label: "Filter models",
    filter_all: "All",
    filter_size: "Size (parameters)",
    size_le10b: "≤ 10B",
    size_10to100b: "10B–100B",
    size_gt100b: "> 100B",
    size_unknown: "unknown",
    filter_since: "Submitted on or after",
    filter_clear: "Clear filters",
    filter_shown: |shown, total| format!("Showing {shown} of {total} model rows"),
    attempts_show_all: |n| format!("Show all {n} attempts"),
    attempts_one_per_model: "Show one row per model",
    attempts_best_note: "One row per model: its best upload.",
    attempts_latest_note: "One row per model: its latest upload.",
    attempts_all_note: "Every upload of every model.",
    not_ranked: "not ranked",
    withdraw: "Withdraw",
    withdraw_question: "Take this submission off every board? This cannot be undone.",
    withdraw_yes: "Yes, withdraw",
    withdrawing: "Withdrawing…",
    withdrawn: "Withdrawn",
    withdrawn_note: "Withdrawn: this submission is on no board.",
    quota_before: |left, limit| format!("{left} of {limit} uploads left today for this token"),
    col_accuracy: "Score (95% CI)",
    col_items: "Items",
    sort_hint: "Select a column header to sort.",

    boards_title: "Leaderboards",
    boards_intro: "Models are scored on hidden test items and shown beside the crowd's human baseline.",
    no_tasks: "No leaderboards yet.",
    split_counts: |dev, public, private| {
        format!("{dev} dev · {public} public-board · {private} private-board items")
    },
    submissions_n: |n| {
        if n == 1 {
            "1 submission".to_owned()
        } else {
            format!("{n} submissions")
        }
    },
    view_board: "View leaderboard",
    submit_to: "Submit predictions",

    board_public: "Public board",
    board_private: "Private board",
    board_split_label: "Board",
    board_subset_label: "Items",
    subset_main: "Main subset (not answerable from the text alone)",
    subset_full: "All items",
    familiarity_chart_title: "Human accuracy by familiarity",
    familiarity_chart_note: "Grouped by what participants said about knowing each clip before its question; whiskers show 95% intervals (bootstrap over participants and items).",
    familiarity_table_caption: "Human accuracy per familiarity group",
    col_familiarity: "Familiarity",
    col_human_accuracy: "Accuracy [95% interval]",
    col_participants: "Participants",
    col_answers: "Answers",
    familiarity_participants: |p| format!("{p} participants"),
    familiarity_answers: |a| format!("{a} answers"),
    too_few_answers: "too few answers to show",
    board_locked_title: "The private board is not revealed yet",
    board_blind_note: "This board is blind: model scores stay hidden until the organisers reveal them.",
    board_unscored_note: "This task has no gold and no automatic metric: the models' explanations are judged by people, and human evaluation ranks them.",
    board_items: |n, metric| format!("Scored on {n} test items · metric: {metric}"),
    missing_policy_label: "Missing predictions",
    board_ci_note: "Numbers use the board's metric (above); brackets give 95% item-bootstrap confidence intervals.",
    chart_title: "Scores by category (top 5 models overall)",
    chart_desc: "Bars show the score of the five best models overall in each category; the solid line marks the human average, the dotted line the human best and the dashed line the chance baseline.",
    no_models: "No scored model submissions yet.",
    downloads: "Download",
    download_csv: "Download CSV",
    download_json: "Download JSON",
    board_table_label: "Leaderboard table (scrolls sideways)",

    submit_title: "Submit predictions",
    submit_intro: "Upload your model's predictions for every item of a task; they are scored on hidden test items and join the leaderboard.",
    help_title: "How to submit",
    help_limits: |quota| match quota {
        Some(q) => format!("Limits: files up to 20 MB and 200,000 lines; {q} uploads per token per UTC day."),
        None => "Limits: files up to 20 MB and 200,000 lines; a daily upload quota per token (see your account page).".to_owned(),
    },
    task_files: "Files for this task",
    dl_inputs: "Model inputs (inputs.jsonl)",
    dl_template_jsonl: "Template (JSON Lines)",
    dl_template_csv: "Template (CSV)",
    dl_dev_gold: "Dev gold (dev-gold.jsonl)",
    cli_title: "From the command line",
    cli_curl: "With curl:",
    cli_tool: "With the memeboard CLI:",
    form_title: "Upload",
    task_label: "Task",
    token_label: "Author token",
    token_missing: "No token yet?",
    token_create_link: "Create one on the account page",
    model_label: "Model name (required)",
    organisation_label: "Organisation",
    organisation_hint: "Leave empty to use your account's.",
    parameters_label: "Parameters (e.g. 7B)",
    weights_label: "Weights",
    weights_open_option: "Open weights",
    weights_closed_option: "Closed (API only or unreleased)",
    link_label: "Link (paper or code, http/https)",
    description_label: "Description",
    file_label: "Prediction file",
    drop_text: "Drop a .jsonl or .csv file here, or choose one:",
    file_selected: |name, bytes| format!("Selected: {name} ({:.1} KB)", bytes / 1024.0),
    checking: "Checking the file…",
    task_loading: "Loading the task manifest…",
    file_unreadable: "The file could not be read.",
    file_too_big: |bytes, limit| format!("The file is {bytes} bytes; the limit is {limit} bytes."),
    preview_errors_title: "The file has problems; fix them to upload:",
    lines_ok: |n| if n == 1 { "1 line OK".to_owned() } else { format!("{n} lines OK") },
    preview_score_title: "Dev split (public gold) — not the leaderboard score",
    preview_score_note: |n| {
        format!("Computed in your browser on the {n} dev items only; the leaderboard uses hidden test items.")
    },
    upload: "Upload and score",
    uploading: "Uploading…",
    upload_progress: "Upload progress",
    need_model: "Enter a model name.",
    need_token: "Enter your author token (create one on the account page).",
    upload_failed: "The server rejected the upload:",
    result_title: "Uploaded",
    status_label: "Status",
    lines_read: |n| if n == 1 { "1 line read".to_owned() } else { format!("{n} lines read") },
    public_score_title: "Public board score",
    received_note: "This board is blind: your file is stored and scored, and the scores appear when the organisers reveal the board.",
    warnings_title: "Warnings",
    quota_left: |left, limit| format!("{left} of {limit} left today"),
    see_board: "See the leaderboard",
    see_model: "Model page",

    account_title: "Account",
    account_intro: "Uploading predictions needs an author token. Create one here: it is shown only once and kept in this browser.",
    create_title: "Create a token",
    name_label: "Your name or team",
    create_token: "Create token",
    creating: "Creating…",
    need_name: "Enter your name or team.",
    new_token_title: "Your new token",
    new_token_note: "Copy it now and keep it safe: it will not be shown again. This browser remembers it.",
    copy: "Copy",
    copied: "Copied",
    copy_code_failed: "The clipboard is not available; select the code and copy it by hand.",
    copy_failed: "The clipboard is not available; select the token and copy it by hand.",
    your_account: "Your account",
    quota_label: "Uploads today",
    my_submissions: "Your submissions",
    no_submissions: "No submissions yet.",
    forget_token: "Forget the token in this browser",
    forget_confirm: "Forget it? Without this token you cannot upload as this author again.",
    forget_yes: "Yes, forget it",
    cancel: "Cancel",
    create_another: "Create another token",
    use_existing: "Use an existing token",
    save: "Save",

    model_task: "Task",
    model_link: "Link",
    model_lines: "Lines",
    model_missing: "Missing items (scored as wrong)",
    scores_hidden: "This board is blind: scores appear when the organisers reveal it.",
    gaps_title: "Items the model missed that most people got right",
    gaps_note: "Only you, the author, see this (dev items only: right/wrong on test items would reveal their answers).",
    no_gaps: "No such items.",
    col_question: "Question",
    row_random_pair: "Random pair of reference meanings",
    secondary_title: "Secondary metrics (overall)",
    metric_parse_rate: "parse rate",
    metric_macro_f1: "macro-F1",
    metric_weighted_f1: "weighted-F1",
    metric_accuracy_all: "accuracy, unparseable as wrong",
    metric_accuracy_of_type: |t| format!("accuracy: {t}"),
    confusion_title: |row| format!("Confusion matrix: {row}"),
    confusion_caption: "Rows: annotated type; columns: predicted type (last: unparseable)",
    confusion_gold: "gold \\ predicted",
    confusion_unparseable: "unparseable",
    col_metric: "Metric",
    col_value: "Value",
    col_crowd_score: "Crowd score",
    col_model_score: "Model score",
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn browser_tags_map_to_languages() {
        assert_eq!(Lang::parse("zh-CN"), Some(Lang::Zh));
        assert_eq!(Lang::parse("zh-Hant-TW"), Some(Lang::Zh));
        assert_eq!(Lang::parse("en-GB"), Some(Lang::En));
        assert_eq!(Lang::parse("de"), None);
        assert_eq!(Lang::parse(Lang::Zh.code()), Some(Lang::Zh));
    }

    #[test]
    fn category_labels_prefer_the_quiz_then_meme_types() {
        let cats = vec![CategoryInfo {
            key: "slang".into(),
            label_en: "Slang!".into(),
            label_zh: "俗语！".into(),
        }];
        assert_eq!(category_label(Lang::En, "slang", &cats), "Slang!");
        assert_eq!(category_label(Lang::Zh, "homophonic_pun", &cats), "谐音");
        assert_eq!(category_label(Lang::En, "other", &cats), "other");
    }

    #[test]
    fn leaderboard_strings() {
        assert_eq!((EN.quota_left)(2, 5), "2 of 5 left today");
        assert_eq!((ZH.quota_left)(2, 5), "今日还剩 2 / 5 次");
        assert_eq!((EN.lines_ok)(36), "36 lines OK");
        assert_eq!((EN.participants_n)(1), "1 participant");
        assert!((EN.help_limits)(Some(5)).contains("5 uploads"));
    }

    #[test]
    fn progress_strings() {
        assert_eq!((EN.progress)(3, 24), "Question 3 of 24");
        assert_eq!((ZH.progress)(3, 24), "第 3 题，共 24 题");
    }
}
