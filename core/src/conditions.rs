//! Run conditions: how a model was run on a task (zero- or one-shot, audio only or with the
//! video, with or without the comic's context…). The papers compare the same model under
//! several conditions, so a submission states its values, a board keeps one row per model
//! *and* condition, and shows the paired difference between two conditions of one model.
//!
//! A kind declares the conditions its tasks take ([`ConditionDecl`], `Kind::CONDITIONS`);
//! values are plain keys (`one_shot`), checked against the declaration, with the default
//! filled in for a condition a submission does not name.

use crate::messages::Message;
use crate::msg;
use crate::stats::{item_bootstrap, Estimate};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One condition as a kind declares it (static data; see [`ConditionSpec`] on the wire).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConditionDecl {
    /// Key, e.g. `shot`.
    pub name: &'static str,
    /// The values it takes, the default first or not.
    pub values: &'static [&'static str],
    /// The value of a submission that does not name the condition (the paper's main setting).
    pub default: &'static str,
}

impl ConditionDecl {
    /// The declaration as sent on the wire.
    pub fn to_spec(&self) -> ConditionSpec {
        ConditionSpec {
            name: self.name.to_owned(),
            values: self.values.iter().map(|v| (*v).to_owned()).collect(),
            default: self.default.to_owned(),
        }
    }
}

/// One condition of a task: its key, the values it takes and its default.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ConditionSpec {
    /// Key, e.g. `shot`.
    pub name: String,
    /// The values it takes.
    pub values: Vec<String>,
    /// The value of a submission that does not name it.
    pub default: String,
}

/// A submission's condition values, by condition key (every declared condition, defaults
/// filled in).
pub type Conditions = BTreeMap<String, String>;

/// Most conditions one submission may name.
const MAX_CONDITIONS: usize = 16;

/// Reads `name=value` pairs separated by commas (the upload's `conditions` parameter and
/// the CLI's `--conditions`); blanks around names and values are ignored.
///
/// ```
/// use memeboard_core::conditions::parse_conditions;
/// let c = parse_conditions("shot=one_shot, options = with_meanings").unwrap();
/// assert_eq!(c["shot"], "one_shot");
/// assert_eq!(c["options"], "with_meanings");
/// assert!(parse_conditions("").unwrap().is_empty());
/// assert!(parse_conditions("shot").is_err());
/// assert!(parse_conditions("shot=a,shot=b").is_err());
/// ```
pub fn parse_conditions(text: &str) -> Result<BTreeMap<String, String>, Message> {
    let mut out = BTreeMap::new();
    for pair in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((name, value)) = pair.split_once('=') else {
            return Err(msg!("condition.pair", found = pair));
        };
        let (name, value) = (name.trim(), value.trim());
        if name.is_empty() || value.is_empty() {
            return Err(msg!("condition.pair", found = pair));
        }
        if out.insert(name.to_owned(), value.to_owned()).is_some() {
            return Err(msg!("condition.repeated", name = name));
        }
        if out.len() > MAX_CONDITIONS {
            return Err(msg!("condition.too_many", max = MAX_CONDITIONS));
        }
    }
    Ok(out)
}

/// The given values checked against a task's conditions, with the defaults filled in: every
/// unknown name and every value outside a condition's values is a problem naming what is
/// allowed (all are reported at once).
///
/// ```
/// use memeboard_core::conditions::{resolve, ConditionSpec};
/// let specs = [ConditionSpec {
///     name: "shot".into(),
///     values: vec!["zero_shot".into(), "one_shot".into()],
///     default: "zero_shot".into(),
/// }];
/// let given = |pairs: &[(&str, &str)]| {
///     pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
/// };
/// assert_eq!(resolve(&specs, &given(&[])).unwrap()["shot"], "zero_shot");
/// assert_eq!(resolve(&specs, &given(&[("shot", "one_shot")])).unwrap()["shot"], "one_shot");
/// assert_eq!(resolve(&specs, &given(&[("shot", "two"), ("temp", "1")])).unwrap_err().len(), 2);
/// ```
pub fn resolve(
    specs: &[ConditionSpec],
    given: &BTreeMap<String, String>,
) -> Result<Conditions, Vec<Message>> {
    let mut problems = Vec::new();
    for (name, value) in given {
        match specs.iter().find(|s| &s.name == name) {
            None if specs.is_empty() => problems.push(msg!("condition.none", name = name)),
            None => problems.push(msg!(
                "condition.unknown",
                name = name,
                allowed = specs
                    .iter()
                    .map(|s| s.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            Some(s) if !s.values.contains(value) => problems.push(msg!(
                "condition.value",
                name = name,
                found = value,
                allowed = s.values.join(", ")
            )),
            Some(_) => {}
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(specs
        .iter()
        .map(|s| {
            let value = given.get(&s.name).unwrap_or(&s.default);
            (s.name.clone(), value.clone())
        })
        .collect())
}

/// A stored run's values read against the task's conditions as they are now: every declared
/// condition with the stored value where it is one of the condition's values, else the
/// default (a run stored before a condition was declared ran under its default).
///
/// ```
/// use memeboard_core::conditions::{stored_conditions, ConditionSpec};
/// let specs = [ConditionSpec {
///     name: "shot".into(),
///     values: vec!["zero_shot".into(), "one_shot".into()],
///     default: "zero_shot".into(),
/// }];
/// assert_eq!(stored_conditions(&specs, None)["shot"], "zero_shot");
/// assert_eq!(stored_conditions(&specs, Some(r#"{"shot":"one_shot"}"#))["shot"], "one_shot");
/// ```
pub fn stored_conditions(specs: &[ConditionSpec], stored_json: Option<&str>) -> Conditions {
    let stored: BTreeMap<String, String> = stored_json
        .and_then(|j| serde_json::from_str(j).ok())
        .unwrap_or_default();
    specs
        .iter()
        .map(|s| {
            let value = stored
                .get(&s.name)
                .filter(|v| s.values.contains(v))
                .unwrap_or(&s.default);
            (s.name.clone(), value.clone())
        })
        .collect()
}

/// The values that differ from their condition's default, in declaration order: what a
/// board row shows beside the model name (nothing for a run under the main setting).
///
/// ```
/// use memeboard_core::conditions::{non_default, ConditionSpec, Conditions};
/// let spec = |name: &str, default: &str| ConditionSpec {
///     name: name.into(),
///     values: vec![],
///     default: default.into(),
/// };
/// let specs = [spec("shot", "zero_shot"), spec("options", "labels_only")];
/// let run: Conditions = [("shot", "one_shot"), ("options", "labels_only")]
///     .iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
/// assert_eq!(non_default(&specs, &run), vec![("shot".to_string(), "one_shot".to_string())]);
/// ```
pub fn non_default(specs: &[ConditionSpec], conditions: &Conditions) -> Vec<(String, String)> {
    specs
        .iter()
        .filter_map(|s| {
            let v = conditions.get(&s.name)?;
            (v != &s.default).then(|| (s.name.clone(), v.clone()))
        })
        .collect()
}

/// The paired difference of two runs of one model on the same items: the mean item score
/// under the second run minus under the first, over the items both scored, with a 95%
/// interval from resampling those items (each draw keeps an item's two scores together, so
/// what the items share cancels out). `None` without a common item.
///
/// Worked example: items scored 1, 0, 1, 0 without the meanings and 1, 1, 1, 0 with them:
/// Δ = 0.75 − 0.5 = +0.25; the per-item differences are 0, 1, 0, 0, so a resample shows
/// 0 when it misses item 2 (probability (3/4)⁴ ≈ 32%) and at most +1: the interval is
/// [0, 0.75].
///
/// ```
/// use memeboard_core::conditions::paired_difference;
/// let first = [("a", 1.0), ("b", 0.0), ("c", 1.0), ("d", 0.0)];
/// let second = [("a", 1.0), ("b", 1.0), ("c", 1.0), ("d", 0.0), ("e", 1.0)];
/// let (delta, n) = paired_difference(&first, &second, 2000, 7).unwrap();
/// assert_eq!(n, 4);
/// assert_eq!(delta.value, 0.25);
/// assert_eq!(delta.ci_low, 0.0);
/// assert!(delta.ci_high > 0.25 && delta.ci_high <= 1.0);
/// ```
pub fn paired_difference(
    first: &[(&str, f64)],
    second: &[(&str, f64)],
    resamples: usize,
    seed: u64,
) -> Option<(Estimate, usize)> {
    let by_item: BTreeMap<&str, f64> = first.iter().copied().collect();
    let diffs: Vec<f64> = second
        .iter()
        .filter_map(|(item, b)| by_item.get(item).map(|a| b - a))
        .collect();
    if diffs.is_empty() {
        return None;
    }
    let estimate = item_bootstrap(diffs.len(), resamples, seed, |w| {
        let n: u32 = w.iter().sum();
        let sum: f64 = w.iter().zip(&diffs).map(|(&w, d)| f64::from(w) * d).sum();
        Some(sum / f64::from(n))
    })?;
    Some((estimate, diffs.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn specs() -> Vec<ConditionSpec> {
        vec![
            ConditionSpec {
                name: "shot".into(),
                values: vec!["zero_shot".into(), "one_shot".into()],
                default: "zero_shot".into(),
            },
            ConditionSpec {
                name: "options".into(),
                values: vec!["labels_only".into(), "with_meanings".into()],
                default: "labels_only".into(),
            },
        ]
    }

    #[test]
    fn problems_name_the_condition_and_what_is_allowed() {
        let given = parse_conditions("shot=two_shot,temperature=0").expect("pairs");
        let problems = resolve(&specs(), &given).expect_err("two problems");
        let text: Vec<String> = problems.iter().map(ToString::to_string).collect();
        assert!(
            text.iter()
                .any(|t| t.contains("shot") && t.contains("zero_shot, one_shot")),
            "{text:?}"
        );
        assert!(
            text.iter()
                .any(|t| t.contains("temperature") && t.contains("shot, options")),
            "{text:?}"
        );
        let none = resolve(&[], &given).expect_err("no conditions");
        assert_eq!(none.len(), 2);
    }

    #[test]
    fn every_declared_condition_gets_a_value() {
        let c = resolve(
            &specs(),
            &parse_conditions("options=with_meanings").expect("pair"),
        )
        .expect("valid");
        assert_eq!(c.len(), 2);
        assert_eq!(c["shot"], "zero_shot");
        assert_eq!(
            non_default(&specs(), &c),
            vec![("options".to_owned(), "with_meanings".to_owned())]
        );
    }

    #[test]
    fn a_paired_difference_of_identical_runs_is_exactly_zero() {
        let run = [("a", 1.0), ("b", 0.0), ("c", 0.5)];
        let (d, n) = paired_difference(&run, &run, 500, 1).expect("common items");
        assert_eq!((d.value, d.ci_low, d.ci_high, n), (0.0, 0.0, 0.0, 3));
        assert!(paired_difference(&run, &[("z", 1.0)], 500, 1).is_none());
    }
}
