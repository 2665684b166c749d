//! The table of interface strings: one field per string, filled once per language.

/// Every interface string of one language.
#[derive(Debug)]
pub struct Strings {
    /// The first content's words (home list, quiz intro, consent card), shared with the
    /// server's first paint; reached through `Deref` (`t.home_title`).
    pub page: memeboard_core::page_text::PageText,
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
    /// [`crate::i18n::fieldwork`], kept here so the quiz bundle does not carry that table).
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
    /// Footer note.
    pub footer: &'static str,

    /// Consent page: what the end of the batch shows, given the hidden share in percent.
    pub results_note: fn(Option<u8>) -> String,

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
    /// A judging task a rater may judge again: the button that starts their next batch.
    pub next_batch: &'static str,
    /// Under it: what the next batch is.
    pub next_batch_note: &'static str,
    /// Heading of the box a participant who finished the quiz in this browser sees instead.
    pub finished_title: &'static str,
    /// Its text: where the results and the completion code are.
    pub finished_text: &'static str,
    /// Step 2 heading.
    pub step2_title: &'static str,
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
    pub familiarity_label: fn(&str) -> String,
    /// The memes of the CHIME-style quizzes, as the survey names them (kinds may name theirs).
    pub memes_noun: &'static str,
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
    /// Explanation of the numbers (kinds scored right or wrong).
    pub ci_note: &'static str,
    /// The same for kinds scored on a continuous scale (explanations): not accuracies.
    pub ci_note_scores: &'static str,
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

    /// Copy button.
    pub copy: &'static str,
    /// After copying.
    pub copied: &'static str,
    /// The clipboard is unavailable for the completion code.
    pub copy_code_failed: &'static str,
}

impl std::ops::Deref for Strings {
    type Target = memeboard_core::page_text::PageText;
    fn deref(&self) -> &Self::Target {
        &self.page
    }
}
