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

    /// The recommendation's cost answer for the wire `role`, in the
    /// role's unit at the default prices ([`Decision::cost`]).
    pub fn wire_answer(&self, role: cost::Role) -> Option<&cost::Answer> {
        self.decisions
            .iter()
            .find(|d| d.role.wire == Some(role))?
            .cost
            .as_ref()
    }

    /// Each wire role's [`cost::PickMap`] on an `n` × `n` grid over the
    /// gated candidates, with the labels of its JSON-text candidates; a
    /// role without both kinds of candidate has none.
    pub fn pick_maps(&self, n: usize) -> Vec<(cost::PickMap, Vec<String>)> {
        let c = self.campaign;
        let is_json = |id: &str| cost::is_json(c, id);
        cost::Role::ALL
            .into_iter()
            .filter_map(|role| {
                let cands = cost::admitted(&c.links, role, &|id| self.admits(role, id));
                let map = cost::pick_map(&cands, role, &is_json, n)?;
                let json = cands
                    .iter()
                    .filter(|k| is_json(&k.profile))
                    .map(cost::Candidate::label)
                    .collect();
                Some((map, json))
            })
            .collect()
    }
}
