//! The recommendation: the roles a protocol designer decides for, the
//! criteria each weighs (every one bound to a measured column), and the
//! rules that turn them into one pick per role. This module is the rules;
//! `docs/METHOD.md` states them in words and the paper prints them.
//!
//! Rules, in order:
//! 1. **Gates.** A candidate must carry every event of the corpus (not be
//!    measured apart), have no failing robustness outcome (crash, hang,
//!    memory bound, invalid UTF-8 accepted), no silent change (an accepted
//!    input that does not re-encode to the same event), a reader in at least
//!    the role's number of languages, and a value for every criterion.
//! 2. **Comparison** of two values of one criterion ([`compare()`]): better,
//!    worse, equivalent or undecided. Equivalent means the difference lies
//!    within the criterion's margin ([`MARGIN`], or [`SITTING_MARGIN`] for
//!    timings from one sitting without an interval); better means the
//!    intervals are disjoint and the difference exceeds the margin.
//! 3. **Pareto set.** The gated candidates that no other gated candidate
//!    dominates (better on one criterion, better or equivalent on all).
//! 4. **Pick.** On the wire, the cost model's answer
//!    ([`crate::model::cost`]) over the gated candidates at the default
//!    prices: the cheapest binary candidate replaces the cheapest JSON-text
//!    one only when it saves more than the switching share of JSON's cost
//!    in the role's unit. Elsewhere (and on the wire without links rows)
//!    the role stays JSON ("no change") while a JSON-text candidate is in
//!    the Pareto set; otherwise the pick is a Pareto member that dominates
//!    `json`. Ties go lexicographically through the role's criteria in
//!    order, then to JSON text, then to the name.
//! 5. **What would change it**, computed, not asserted: the pick with the
//!    criteria that decided it given no weight, and the size measures over
//!    the traffic-mix grid ([`crate::model::sensitivity`]).
//!
//! The rules by concern: [`criteria`] (roles and criteria),
//! [`compare`](mod@compare) (rule 2), `gates` and `values` (what each
//! profile measured and the gates it fails), [`decide`] (rules 1, 3, 4
//! and 5), [`text`] (in words).

pub mod compare;
pub mod criteria;
pub mod decide;
mod gates;
pub mod text;
mod values;

pub use compare::{Cmp, Kind, MARGIN, SITTING_MARGIN, Value, compare};
pub use criteria::{Better, Criterion, Measure, ROLES, Role};
pub use decide::{Candidate, Change, Decision, MixSpan, recommend};
pub use gates::valid_refusals;
