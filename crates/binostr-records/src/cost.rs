//! The cost model's parameters: each with a default, a range and where they
//! come from. `binostr-report` prices campaigns with them (`model::cost`),
//! `binostr sizes` prices an operator's own events, and the page's
//! calculator reads them as data.

/// One parameter of the model: a default, a range and where they come from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Param {
    /// Key (the page's and the CSV's).
    pub id: &'static str,
    /// Unit.
    pub unit: &'static str,
    /// Default.
    pub default: f64,
    /// Lowest value worth drawing.
    pub low: f64,
    /// Highest value worth drawing.
    pub high: f64,
    /// Where the default and range come from.
    pub source: &'static str,
}

/// Link rate.
pub const LINK: Param = Param {
    id: "link_mbit",
    unit: "Mbit/s",
    default: 10.0,
    low: 1.0,
    high: 1000.0,
    source: "the rates the links workload shapes (1, 10, 100 and 1000 Mbit/s); the default \
             stands for a slow mobile or shared uplink",
};

/// Egress price.
pub const EGRESS: Param = Param {
    id: "egress_usd_per_gb",
    unit: "$/GB",
    default: 0.09,
    low: 0.0,
    high: 0.12,
    source: "AWS EC2 data transfer out to the internet, first 10 TB a month (0.09 $/GB); 0 for \
             hosts whose traffic is included; 0.12 $/GB for Google Cloud's premium tier \
             (list prices as recorded in 2026, not fetched by this artifact)",
};

/// Relay CPU price.
pub const CPU: Param = Param {
    id: "cpu_usd_per_core_hour",
    unit: "$/core-hour",
    default: 0.0425,
    low: 0.005,
    high: 0.1,
    source: "AWS c6i.large on demand, 0.085 $/h for 2 vCPUs (list price as recorded in 2026, \
             not fetched by this artifact); the range spans small dedicated hosts to larger \
             cloud instances",
};

/// The share of json's total a term's difference must reach to decide.
pub const DECISIVE: Param = Param {
    id: "decisive_pct",
    unit: "%",
    default: 1.0,
    low: 0.0,
    high: 10.0,
    source: "a policy, not a measurement: a term moving the total by less than this is \
             not worth a protocol change on its own",
};

/// The saving a change must exceed, in % of json's cost.
pub const SWITCH: Param = Param {
    id: "switch_pct",
    unit: "%",
    default: 10.0,
    low: 0.0,
    high: 50.0,
    source: "a policy, not a measurement: a second encoding costs every client, relay and \
             SDK an implementation and a negotiation; the text gives each candidate's margin \
             so a reader can apply another threshold",
};

/// Every parameter, in the order the page lists them.
pub const PARAMS: [Param; 5] = [LINK, EGRESS, CPU, DECISIVE, SWITCH];

/// Parameter values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prices {
    /// Link rate, Mbit/s.
    pub link_mbit: f64,
    /// Egress, $/GB.
    pub egress_usd_per_gb: f64,
    /// Relay CPU, $/core-hour.
    pub cpu_usd_per_core_hour: f64,
}

impl Default for Prices {
    fn default() -> Self {
        Prices {
            link_mbit: LINK.default,
            egress_usd_per_gb: EGRESS.default,
            cpu_usd_per_core_hour: CPU.default,
        }
    }
}

impl Prices {
    /// Seconds to send `bytes` per event, a million times, on the link.
    pub fn transfer_s_per_million(&self, bytes: f64) -> f64 {
        bytes * 8.0 / (self.link_mbit * 1e6) * 1e6
    }

    /// Dollars of egress for `bytes` per event, a million times.
    pub fn egress_usd_per_million(&self, bytes: f64) -> f64 {
        bytes * 1e6 / 1e9 * self.egress_usd_per_gb
    }
}
