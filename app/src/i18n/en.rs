//! The English interface strings.

use super::Strings;
use memeboard_core::page_text::board::BOARD_EN as BOARD;
use memeboard_core::page_text::EN as PAGE;

/// English strings.
pub static EN: Strings = Strings {
    page: PAGE,
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
    footer: "memeboard collects anonymous human answers as baselines for meme-understanding benchmarks.",

    results_note: |hidden| match hidden {
        Some(h) => format!("At the end you will see your score on the open (practice) items of your batch and their correct answers; about {h}% of items are hidden test items whose answers are not shown."),
        None => "At the end you will see your score on the open (practice) items of your batch and their correct answers; some items are hidden test items whose answers are not shown.".to_owned(),
    },


    resume_title: "Resume your quiz",
    resume_text: "You already started this quiz in this browser.",
    resume_link: "Resume your quiz",
    start_over: "Start over",
    start_over_note: "Starting over gives you a new set of questions; answers you already sent stay recorded.",
    next_batch: "Judge the next batch",
    next_batch_note: "The next batch is one you have not judged yet; your judgements so far stay recorded.",
    finished_title: "You have finished this quiz",
    finished_text: "Your results and your completion code are on your results page.",
    step2_title: "Step 2 of 2: About you",
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
    familiarity_label: |memes| format!("How familiar are you with {memes}? (1–5)"),
    memes_noun: "Chinese internet memes",
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
    compare_title: "Compared with other participants",
    col_category: "Category",
    col_you: "You",
    col_average: "Human average",
    col_best: "Human best",
    col_pooled: "Pooled",
    col_n: "Participants",
    overall: BOARD.overall,
    ci_note: "Numbers are accuracies; brackets give 95% bootstrap confidence intervals; participants = people who answered in that category.",
    ci_note_scores: "Numbers are mean scores; brackets give 95% bootstrap confidence intervals; participants = people who answered in that category.",
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

    kind_model: BOARD.kind_model,




    copy: "Copy",
    copied: "Copied",
    copy_code_failed: "The clipboard is not available; select the code and copy it by hand.",

};
