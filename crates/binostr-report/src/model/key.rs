//! The benchmark key every row and paired ratio is filed under.

/// The benchmark key columns of `samples.csv`.
pub const KEY: [&str; 4] = ["workload", "profile", "subset", "threads"];

/// A benchmark key, ordered field by field as declared.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key {
    /// Host id.
    pub host: String,
    /// Workload.
    pub workload: String,
    /// Profile id.
    pub profile: String,
    /// Corpus subset.
    pub subset: String,
    /// Thread count.
    pub threads: i64,
}

impl Key {
    /// The key of these five.
    pub fn new(host: &str, workload: &str, profile: &str, subset: &str, threads: i64) -> Key {
        Key {
            host: host.to_owned(),
            workload: workload.to_owned(),
            profile: profile.to_owned(),
            subset: subset.to_owned(),
            threads,
        }
    }

    /// `host|workload|profile|subset|threads`.
    pub fn joined(&self) -> String {
        format!(
            "{}|{}|{}|{}|{}",
            self.host, self.workload, self.profile, self.subset, self.threads
        )
    }
}

/// Every profile's key of one host, workload, subset and thread count: the
/// group a rank orders and the passes of one round (`S`: `String` owned,
/// `&str` borrowed). Ordered field by field as declared.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Group<S> {
    /// Host id.
    pub host: S,
    /// Workload.
    pub workload: S,
    /// Corpus subset.
    pub subset: S,
    /// Thread count.
    pub threads: i64,
}

/// The key of a paired ratio: its numerator's key and the profile or
/// reference it is taken against.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PairKey {
    /// The numerator's key.
    pub key: Key,
    /// The denominator.
    pub against: String,
}
