//! Filler in explanation files: answers that copy the meme phrase, and one template sentence
//! given for many memes (the phrase swapped in). Flagged answers are credited at most chance
//! by the primary score, and the board shows the share of each.

use std::collections::HashMap;

/// Share of a file's answers that nearly repeat the prompt from which a board flags it.
pub const COPY_FLAG_SHARE: f64 = 0.5;

/// Whether an answer nearly repeats the meme phrase it should explain: the same text (case,
/// spaces and punctuation aside), the phrase (perhaps repeated) with at most three more
/// characters, or a
/// character-bigram overlap (Jaccard) of 0.8 or more.
pub fn copies_prompt(answer: &str, phrase: &str) -> bool {
    let norm = |s: &str| -> Vec<char> {
        s.to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric())
            .collect()
    };
    let (a, p) = (norm(answer), norm(phrase));
    if a.is_empty() || p.is_empty() {
        return false;
    }
    let (a_text, p_text): (String, String) = (a.iter().collect(), p.iter().collect());
    // The phrase, perhaps repeated, with at most three more characters.
    if a_text.contains(&p_text) && a_text.replace(&p_text, "").chars().count() <= 3 {
        return true;
    }
    let bigrams = |v: &[char]| -> std::collections::HashSet<(char, char)> {
        v.windows(2).map(|w| (w[0], w[1])).collect()
    };
    let (ba, bp) = (bigrams(&a), bigrams(&p));
    let union = ba.union(&bp).count();
    union > 0 && ba.intersection(&bp).count() as f64 / union as f64 >= 0.8
}

/// Fewest items one template must answer to count as filler.
pub const TEMPLATE_MIN_ITEMS: usize = 3;

/// Share of a file's answered items one template must answer to count as filler (besides
/// [`TEMPLATE_MIN_ITEMS`]): a file of 500 answers may say "a way to express surprise" twice.
pub const TEMPLATE_MIN_SHARE: f64 = 0.05;

/// An answer reduced to its template: lower case, letters and digits only (CJK included), the
/// item's meme phrase replaced by one placeholder, digits dropped (so "meme 1 means…" and
/// "meme 2 means…" are one template).
fn template_of(answer: &str, phrase: &str) -> String {
    let norm = |s: &str| -> String {
        s.to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() && !c.is_ascii_digit())
            .collect()
    };
    let phrase = norm(phrase);
    let answer = norm(answer);
    if phrase.is_empty() {
        answer
    } else {
        answer.replace(&phrase, "§")
    }
}

/// Which answers are filler templates: the same template (see [`template_of`]) given for at
/// least [`TEMPLATE_MIN_ITEMS`] items and [`TEMPLATE_MIN_SHARE`] of the answered items.
/// `answers` are (answer, meme phrase) pairs; the result is parallel to it.
///
/// ```
/// use memeboard_server::kinds::explanation::filler::templates;
/// let answers = [
///     ("“yyds”是一个网络流行语，用来表达某种情绪。", "yyds"),
///     ("“躺平”是一个网络流行语，用来表达某种情绪。", "躺平"),
///     ("“内卷”是一个网络流行语，用来表达某种情绪。", "内卷"),
///     ("形容人很累，什么都不想做", "摆烂"),
/// ];
/// assert_eq!(templates(&answers), vec![true, true, true, false]);
/// ```
pub fn templates(answers: &[(&str, &str)]) -> Vec<bool> {
    let keys: Vec<String> = answers.iter().map(|(a, p)| template_of(a, p)).collect();
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for k in &keys {
        *counts.entry(k.as_str()).or_default() += 1;
    }
    let needed =
        TEMPLATE_MIN_ITEMS.max((TEMPLATE_MIN_SHARE * answers.len() as f64).ceil() as usize);
    keys.iter()
        // The phrase alone ("§") is a copy of the prompt, flagged as such.
        .map(|k| !k.is_empty() && k != "§" && counts[k.as_str()] >= needed)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_answers_and_rare_repeats_are_not_filler() {
        // Letters, not digits (digits are dropped from templates).
        let word = |k: usize| -> String {
            [k / 26, k % 26]
                .iter()
                .map(|&d| char::from(b'a' + d as u8))
                .collect()
        };
        let mut answers: Vec<(String, String)> = (0..100)
            .map(|k| (format!("a meaning about {}", word(k)), format!("m{k}")))
            .collect();
        answers[0].0 = "expresses surprise".into();
        answers[1].0 = "expresses surprise".into();
        answers[2].0 = "expresses surprise".into();
        let pairs: Vec<(&str, &str)> = answers
            .iter()
            .map(|(a, p)| (a.as_str(), p.as_str()))
            .collect();
        // Three of 100 is under 5 %: not a template.
        assert!(templates(&pairs).iter().all(|f| !f));
    }

    #[test]
    fn the_prompt_repeated_is_a_copy() {
        assert!(copies_prompt("yyds!", "YYDS"));
        assert!(copies_prompt("yyds yyds", "yyds"));
        assert!(!copies_prompt("永远的神，形容非常厉害", "yyds"));
    }
}
