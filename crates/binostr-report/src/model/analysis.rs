//! What several writers read, computed once per aggregate or page: the
//! language matrix and each role's decision (pick and scorecard). Every
//! renderer reads these here instead of computing them again.

use crate::model::campaign::Campaign;
use crate::model::cost;
use crate::model::languages::{MatrixRow, language_matrix};
use crate::model::recommend::{Decision, recommend};

/// The campaign with its derived views.
pub struct Analysis<'a> {
    /// The campaign as loaded.
    pub campaign: &'a Campaign,
    /// The language x format decode matrix ([`language_matrix`]).
    pub languages: Vec<MatrixRow>,
    /// Every role's decision, in [`crate::model::recommend::ROLES`] order.
    pub decisions: Vec<Decision>,
}

impl<'a> Analysis<'a> {
    /// Computes the matrix, then the recommendation from it.
    pub fn new(campaign: &'a Campaign) -> Self {
        let languages = language_matrix(campaign);
        let decisions = recommend(campaign, &languages);
        Analysis {
            campaign,
            languages,
            decisions,
        }
    }
}

impl Analysis<'_> {
    /// Whether `profile` passes the gates of the recommendation's role on
    /// the wire `role`: the cost model's candidates are these.
    pub fn admits(&self, role: cost::Role, profile: &str) -> bool {
        self.decisions
            .iter()
            .find(|d| d.role.wire == Some(role))
            .is_some_and(|d| d.admits(profile))
    }
}
