//! The relay calculator: its form, its table, and its data, embedded in the
//! page as JSON for `assets/calculator.js`.
//!
//! Every number is a record of the campaign as `summary.csv`, `sizes.csv`
//! and `transport.csv` hold it (ns with 2 decimals, ratios with 4, bytes
//! exact), so a reader can recompute the calculator from those files
//! (`scripts/page/calc_reference.py` does). The strata and their default
//! shares are the campaign's traffic mix (`model::calculator`).

use std::fmt::Write as _;

use anyhow::Result;
use binostr_records::{WINDOW, Workload};
use serde_json::{Map, Value, json};

use super::html::esc;
use crate::fmt::{NS, RATIO, fixed, json_number};
use crate::interval::Interval;
use crate::model::calculator::{self, Calculator, Origin, SocketStream, StratumSizes};
use crate::model::campaign::Campaign;
use crate::model::summary::BASELINE;
use crate::read::transport::Mode;

/// What a relay does with each event received, and the workloads it
/// spends CPU on.
#[derive(Clone, Copy, Debug)]
pub struct RelayMode {
    /// The mode's id.
    pub id: &'static str,
    /// The workloads timed per event.
    pub workloads: &'static [&'static str],
    /// What it does, in words.
    pub what: &'static str,
}

/// The relay modes the reader can choose.
pub const MODES: [RelayMode; 3] = [
    RelayMode {
        id: "forward",
        workloads: &[Workload::Decode.name()],
        what: "decodes each event to match subscriptions; no id or signature check",
    },
    RelayMode {
        id: Workload::Validate.name(),
        workloads: &[Workload::Validate.name()],
        what: "bounded decode, structural checks, id and BIP-340 signature",
    },
    RelayMode {
        id: "store",
        workloads: &[Workload::Validate.name(), Workload::Encode.name()],
        what: "validates, then re-encodes the event into its stored form",
    },
];

/// Where a compressed size comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A `sizes.csv` column per stratum, composed under the reader's shares.
    Sizes,
    /// `transport.csv`'s socket bytes per event of one mode, measured on the
    /// campaign's stream: the reader's shares do not apply.
    Socket,
}

/// One compressed size the reader can choose.
#[derive(Clone, Copy, Debug)]
pub struct Compression {
    /// The option's id.
    pub id: &'static str,
    /// Where its bytes come from.
    pub source: Source,
    /// The [`StratumSizes`] field, or the `transport.csv` mode.
    pub column: &'static str,
    /// Whether a 4-byte length per event is added (records compressed
    /// alone, the length outside).
    pub length: bool,
    /// The option's text.
    pub what: &'static str,
}

const fn sizes(id: &'static str, length: bool, what: &'static str) -> Compression {
    Compression {
        id,
        source: Source::Sizes,
        column: id,
        length,
        what,
    }
}

const fn socket(id: &'static str, mode: Mode, what: &'static str) -> Compression {
    Compression {
        id,
        source: Source::Socket,
        column: mode.name(),
        length: false,
        what,
    }
}

/// The compressed sizes the reader can choose.
pub const COMPRESSIONS: [Compression; 8] = [
    sizes(
        "deflate_stream",
        false,
        "permessage-deflate with context takeover, per kind (sizes.csv)",
    ),
    sizes(
        "deflate_event",
        false,
        "permessage-deflate without context takeover, per kind (sizes.csv)",
    ),
    sizes(
        "zstd_stream",
        false,
        "zstd stream: the whole framed connection, per kind (sizes.csv)",
    ),
    sizes(
        "zstd_event",
        true,
        "zstd per event, each alone + 4-byte length, per kind (sizes.csv)",
    ),
    sizes(
        "zstd_dict",
        true,
        "zstd per event with a trained dictionary + 4-byte length, per kind (sizes.csv)",
    ),
    socket(
        "socket-deflate-ctx",
        Mode::DeflateCtx,
        "permessage-deflate with context takeover, socket bytes (transport.csv)",
    ),
    socket(
        "socket-deflate",
        Mode::Deflate,
        "permessage-deflate without context takeover, socket bytes (transport.csv)",
    ),
    socket(
        "socket-none",
        Mode::None,
        "plain WebSocket, no compression, socket bytes (transport.csv)",
    ),
];

fn column(s: &StratumSizes, column: &str) -> Option<f64> {
    match column {
        "framed" => Some(s.framed),
        "zstd_event" => Some(s.zstd_event),
        "zstd_dict" => Some(s.zstd_dict),
        "zstd_stream" => s.zstd_stream,
        "deflate_event" => s.deflate_event,
        "deflate_stream" => s.deflate_stream,
        _ => None,
    }
}

/// Whether the campaign measured `comp` for json in every stratum (sizes)
/// or on the socket.
fn available(calc: &Calculator, comp: &Compression) -> bool {
    match comp.source {
        Source::Sizes => calc.strata.iter().any(|s| {
            calc.size(BASELINE, &s.subset)
                .and_then(|z| column(z, comp.column))
                .is_some()
        }),
        Source::Socket => {
            let mode = Mode::from_name(comp.column);
            calc.socket
                .get(BASELINE)
                .is_some_and(|b| mode.and_then(|m| *b.get(m)).is_some())
        }
    }
}

/// The default compression: per-kind deflate with context takeover (what
/// Nostr connections negotiate) where measured, else its socket bytes, else
/// zstd stream.
fn default_compression(calc: &Calculator) -> &'static str {
    ["deflate_stream", "socket-deflate-ctx", "zstd_stream"]
        .into_iter()
        .find(|id| {
            COMPRESSIONS
                .iter()
                .any(|c| c.id == *id && available(calc, c))
        })
        .unwrap_or("zstd_stream")
}

/// The calculator's default inputs (examples, except the mix's shares).
pub fn defaults(calc: &Calculator) -> Value {
    json!({
        "events_per_second": 500,
        "fanout": 10,
        "price_per_gb": 0.05,
        "mode": Workload::Validate.name(),
        "compression": default_compression(calc),
    })
}

fn triple(x: Interval, decimals: usize) -> Value {
    json!([
        json_number(x.est, decimals),
        json_number(x.lo, decimals),
        json_number(x.hi, decimals)
    ])
}

fn bytes(x: Option<f64>) -> Value {
    x.map_or(Value::Null, |x| json_number(x, 1))
}

/// How a stratum is labelled on the page.
fn label(calc: &Calculator, subset: &str) -> String {
    match subset {
        calculator::REST if calc.strata.len() == 1 => "all kinds".to_owned(),
        calculator::REST => "other kinds".to_owned(),
        "kind-other" => "other kinds".to_owned(),
        s => s.replace("kind-", "kind "),
    }
}

/// What a stratum lacks, as the page says it (`None` when measured).
fn gap(calc: &Calculator, origin: &Origin) -> Option<String> {
    let Origin::Remainder(of) = origin else {
        return None;
    };
    let measured: Vec<String> = calc
        .strata
        .iter()
        .filter(|s| s.origin == Origin::Measured)
        .map(|s| label(calc, &s.subset))
        .collect();
    if measured.is_empty() {
        return Some(
            "No kind has a subset of its own in this campaign: one stratum holds every event, \
             with subset all's sizes and times (the corpus's own kind mix, not the mix's shares)."
                .to_owned(),
        );
    }
    let minus = format!(" minus {}", measured.join(", "));
    Some(format!(
        "Other kinds ({} of the mix) have no subset of their own in this campaign: their sizes \
         are subset all{minus} (exact for raw, framed and per-event compression); their stream \
         compression, deflate and times were not measured, so those figures stay empty while \
         their share is above 0.",
        of.join(", "),
    ))
}

/// What the socket bytes were measured on.
fn socket_note(calc: &Calculator) -> String {
    let events = calc
        .socket_events
        .map_or_else(String::new, |n| format!("{n} events of "));
    match calc.socket_stream {
        SocketStream::Mix => format!(
            "Socket bytes (transport.csv) were measured on {events}the campaign's mix stream, \
             whose kinds follow the default shares; your shares do not change them."
        ),
        SocketStream::All => format!(
            "Socket bytes (transport.csv) were measured on {events}the campaign's whole corpus \
             (subset all), whose kinds follow the corpus, not the shares above; your shares do \
             not change them."
        ),
    }
}

/// The calculator's data for `profiles` on the primary host.
pub fn data(c: &Campaign, calc: &Calculator, profiles: &[String]) -> Value {
    let host = c.primary_host();
    let mut workloads: Vec<&str> = MODES
        .iter()
        .flat_map(|m| m.workloads.iter().copied())
        .collect();
    workloads.push(Workload::Compress.name());
    workloads.sort_unstable();
    workloads.dedup();
    let mut per_profile = Map::new();
    for p in profiles {
        let mut subsets = Map::new();
        for stratum in &calc.strata {
            let subset = &stratum.subset;
            let mut cell = Map::new();
            // Times: the stratum's subset's, or all's when it is all of it.
            let timed = match &stratum.origin {
                Origin::Measured => Some(subset.as_str()),
                Origin::Remainder(_) if calc.strata.len() == 1 => Some("all"),
                Origin::Remainder(_) => None,
            };
            if let Some(timed) = timed {
                for w in &workloads {
                    let Some(row) = c.row(host, w, p, timed, 1) else {
                        continue;
                    };
                    let mut t = Map::new();
                    t.insert(
                        "ns".into(),
                        triple(Interval::new(row.median_ns, row.ci_ns), NS),
                    );
                    if let Some(r) = row.ratio_json {
                        t.insert("ratio".into(), triple(r, RATIO));
                    }
                    cell.insert((*w).to_owned(), Value::Object(t));
                }
            }
            if let Some(s) = calc.size(p, subset) {
                cell.insert(
                    "sizes".into(),
                    json!({
                        "events": json_number(s.events, 1),
                        "raw": json_number(s.raw, 1),
                        "framed": json_number(s.framed, 1),
                        "zstd_event": json_number(s.zstd_event, 1),
                        "zstd_stream": bytes(s.zstd_stream),
                        "zstd_dict": json_number(s.zstd_dict, 1),
                        "deflate_event": bytes(s.deflate_event),
                        "deflate_stream": bytes(s.deflate_stream),
                    }),
                );
            }
            subsets.insert(subset.clone(), Value::Object(cell));
        }
        per_profile.insert(p.clone(), Value::Object(subsets));
    }
    let socket: Map<String, Value> = calc
        .socket
        .iter()
        .filter(|(p, _)| profiles.contains(p))
        .map(|(p, b)| {
            let modes: Map<String, Value> = b
                .iter()
                .map(|(m, x)| (m.name().to_owned(), x.map_or(Value::Null, |x| json!(x))))
                .collect();
            (p.clone(), Value::Object(modes))
        })
        .collect();
    let ties: Map<String, Value> = MODES
        .iter()
        .map(|m| {
            let groups: Vec<&Vec<String>> = calc
                .ties
                .iter()
                .filter(|t| m.workloads.contains(&t.workload.as_str()))
                .map(|t| &t.profiles)
                .collect();
            (m.id.to_owned(), json!(groups))
        })
        .collect();
    json!({
        "baseline": BASELINE,
        "profiles": profiles,
        "mix": {
            "name": calc.mix.name,
            "source": calc.mix.source,
            "stated": calc.mix_stated,
        },
        "strata": calc.strata.iter().map(|s| json!({
            "subset": s.subset,
            "label": label(calc, &s.subset),
            "name": s.name,
            "share": json_number(s.share_pct, 4),
            "gap": gap(calc, &s.origin),
        })).collect::<Vec<_>>(),
        "modes": MODES.iter().map(|m| json!({
            "id": m.id, "workloads": m.workloads, "what": m.what,
        })).collect::<Vec<_>>(),
        "compressions": COMPRESSIONS.iter().map(|c| json!({
            "id": c.id,
            "source": match c.source { Source::Sizes => "sizes", Source::Socket => "socket" },
            "column": c.column,
            "length": c.length,
            "what": c.what,
            "available": available(calc, c),
        })).collect::<Vec<_>>(),
        "transport": {"note": socket_note(calc), "bytes": socket},
        "ties": ties,
        "defaults": defaults(calc),
        "data": per_profile,
    })
}

/// `data` as text safe inside `<script type="application/json">`.
pub fn embed(v: &Value) -> String {
    serde_json::to_string(v)
        .expect("a JSON value serialises")
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

/// The calculator's part of the page.
pub struct Section {
    /// Its section: form, table, formulas.
    pub html: String,
    /// Its data, as [`embed`] writes it.
    pub data: String,
}

/// The calculator's section and its embedded data.
pub fn section(c: &Campaign, profiles: &[String]) -> Result<Section> {
    let calc = calculator::build(c, profiles)?;
    let mut out = String::new();
    form(&mut out, &calc);
    table(&mut out, c.primary_host(), profiles);
    formulas(&mut out, &calc);
    Ok(Section {
        html: out,
        data: embed(&data(c, &calc, profiles)),
    })
}

/// The calculator's inputs: the mix, the traffic and the relay mode.
fn form(out: &mut String, calc: &Calculator) {
    out.push_str(
        "<section id=\"calculator\"><h2>Relay calculator</h2>\n<p>What would switching your \
         relay from JSON to a binary profile cost or save? Set your traffic mix, traffic and \
         bandwidth price. Every input number is a record of this campaign: sizes and times per \
         kind stratum, and the socket bytes of its WebSocket loop; the arithmetic is the \
         documented script <code>calculator.js</code> embedded in this page.</p>\n\
         <form id=\"calc-form\" autocomplete=\"off\">\n<fieldset><legend>Traffic mix (% of events)</legend>\n",
    );
    for s in &calc.strata {
        let _ = writeln!(
            out,
            "<label>{} <span class=\"what\">{}</span> \
             <input type=\"number\" min=\"0\" step=\"any\" name=\"share-{2}\" id=\"share-{2}\" value=\"{3}\"></label>",
            esc(&label(calc, &s.subset)),
            esc(&s.name),
            esc(&s.subset),
            fixed(s.share_pct, 2)
        );
    }
    let _ = writeln!(
        out,
        "<button type=\"button\" id=\"reset-mix\">the mix's shares</button>\n\
         <p class=\"note\">Default: the traffic mix <code>{}</code> ({}), {}. Every stratum \
         counts, other kinds too; shares that do not sum to 100 are scaled to it, and the line \
         under the form says so.</p></fieldset>",
        esc(&calc.mix.name),
        esc(&calc.mix.source),
        if calc.mix_stated {
            "as campaign.json states it"
        } else {
            "which this campaign's campaign.json predates: the report's default mix"
        },
    );
    let d = defaults(calc);
    let num = |k: &str| d[k].to_string();
    let _ = writeln!(
        out,
        "<fieldset><legend>Traffic</legend>\n\
         <label>events received per second <input type=\"number\" min=\"0\" step=\"any\" id=\"rate\" value=\"{}\"></label>\n\
         <label>copies sent per event (subscribers) <input type=\"number\" min=\"0\" step=\"any\" id=\"fanout\" value=\"{}\"></label>\n\
         <label>bandwidth price, $ per GB <input type=\"number\" min=\"0\" step=\"any\" id=\"price\" value=\"{}\"></label>\n\
         <p class=\"note\">Defaults are examples, not measurements. GB = 10<sup>9</sup> bytes; a month is 30 days.</p></fieldset>",
        num("events_per_second"),
        num("fanout"),
        num("price_per_gb")
    );
    out.push_str("<fieldset><legend>The relay</legend>\n");
    for RelayMode {
        id,
        workloads,
        what,
    } in MODES
    {
        let checked = if d["mode"] == id { " checked" } else { "" };
        let _ = writeln!(
            out,
            "<label class=\"radio\"><input type=\"radio\" name=\"mode\" value=\"{id}\"{checked}> \
             <strong>{id}</strong>: {what} <span class=\"what\">(CPU: {})</span></label>",
            esc(&workloads.join(" + "))
        );
    }
    out.push_str("<label class=\"radio\">compressed columns use <select id=\"compression\">");
    for comp in COMPRESSIONS {
        let sel = if d["compression"] == comp.id {
            " selected"
        } else {
            ""
        };
        let (disabled, missing) = if available(calc, &comp) {
            ("", "")
        } else {
            (" disabled", " (not measured in this campaign)")
        };
        let _ = write!(
            out,
            "<option value=\"{}\"{sel}{disabled}>{}{missing}</option>",
            comp.id,
            esc(comp.what)
        );
    }
    let _ = writeln!(
        out,
        "</select></label>\n<p class=\"note\">Per kind: each stratum's <code>sizes.csv</code> \
         row, composed under your shares. Socket bytes: <code>transport.csv</code>. {}</p>\
         </fieldset>\n</form>",
        esc(&socket_note(calc))
    );
}

/// The calculator's table, one row per profile (`calculator.js` fills it).
fn table(out: &mut String, host: &str, profiles: &[String]) {
    let _ = writeln!(
        out,
        "<p id=\"calc-summary\" class=\"summary\"></p>\n\
         <noscript><p class=\"warn\">The calculator needs JavaScript; every table below works \
         without it.</p></noscript>\n\
         <div class=\"scroll calc\"><table class=\"sortable\" id=\"calc\"><thead><tr>\
         <th scope=\"col\" data-type=\"text\"><button type=\"button\">profile</button></th>\
         <th scope=\"col\" data-type=\"num\" title=\"mix-weighted bytes per event, with the 4-byte length\"><button type=\"button\">B/event</button></th>\
         <th scope=\"col\" data-type=\"num\" title=\"bytes in and out per second, uncompressed\"><button type=\"button\">MB/s</button></th>\
         <th scope=\"col\" data-type=\"num\" title=\"bytes in and out per second, compressed as chosen above\"><button type=\"button\">MB/s compressed</button></th>\
         <th scope=\"col\" data-type=\"num\" title=\"bandwidth per 30 days, uncompressed\"><button type=\"button\">$/month</button></th>\
         <th scope=\"col\" data-type=\"num\" title=\"bandwidth per 30 days, compressed as chosen above\"><button type=\"button\">$/month compressed</button></th>\
         <th scope=\"col\" data-type=\"num\" title=\"1 - bytes / json bytes, uncompressed (exact)\"><button type=\"button\">bytes saved</button></th>\
         <th scope=\"col\" data-type=\"num\" title=\"1 - bytes / json bytes, both compressed as chosen above (exact)\"><button type=\"button\">bytes saved compressed</button></th>\
         <th scope=\"col\" data-type=\"num\" title=\"absolute ns of host {}, 95 % CI below\"><button type=\"button\">CPU cores</button></th>\
         <th scope=\"col\" data-type=\"num\" title=\"1 - paired ratio to json, 95 % CI below\"><button type=\"button\">CPU saved vs json</button></th>\
         <th scope=\"col\" data-type=\"num\" title=\"compress workload (zstd), once per copy sent\"><button type=\"button\">zstd cores</button></th>\
         </tr></thead><tbody>",
        esc(host)
    );
    for p in profiles {
        let _ = write!(
            out,
            "<tr data-profile=\"{0}\"><td data-sort=\"{0}\"><code>{0}</code></td></tr>",
            esc(p)
        );
    }
}

/// How the calculator computes, under the table.
fn formulas(out: &mut String, calc: &Calculator) {
    let strata: Vec<String> = calc.strata.iter().map(|s| label(calc, &s.subset)).collect();
    let _ = writeln!(
        out,
        "</tbody></table></div>\n<details class=\"formulas\"><summary>How the calculator \
         computes</summary>\n<p>With shares <i>s<sub>k</sub></i> over the strata {} (every \
         stratum, other kinds too) scaled to weights <i>w<sub>k</sub></i> = <i>s<sub>k</sub></i> / \
         Σ <i>s</i>, events received per second <i>R</i> and copies sent per event <i>F</i>, for \
         each profile (a stratum with <i>w<sub>k</sub></i> = 0 takes no part; a figure a stratum \
         with <i>w<sub>k</sub></i> &gt; 0 lacks leaves the result empty):</p>\n<ul>\n\
         <li>bytes per event <i>b</i> = Σ <i>w<sub>k</sub></i> · framed bytes<sub>k</sub> / \
         events<sub>k</sub> (<code>sizes.csv</code>). Compressed, per kind: the chosen \
         <code>sizes.csv</code> column the same way (zstd per event and with a dictionary plus \
         the 4-byte length; deflate without context takeover deflates each framed event alone, \
         with context takeover one deflate context runs over the stratum's framed events, flushed \
         after each). Compressed, socket bytes: <code>transport.csv</code>'s relay → client bytes \
         per event of that WebSocket mode, frame headers included, measured on one stream whose \
         mix is the campaign's, not yours. wire bytes/s = <i>R</i> · (1 + <i>F</i>) · <i>b</i>; \
         $/month = wire bytes/s · 2 592 000 s / 10<sup>9</sup> · price. Sizes are exact, so byte \
         savings have no interval.</li>\n\
         <li>CPU seconds per event <i>t</i> = Σ <i>w<sub>k</sub></i> Σ<sub>workloads of the \
         mode</sub> ns<sub>k</sub> / 10<sup>9</sup>; cores = <i>R</i> · <i>t</i>. The CI adds \
         the endpoints of each term's bootstrap CI (as if the errors moved together, the \
         widest case). These absolute times belong to the host.</li>\n\
         <li>CPU saved vs json = 1 − ρ, with ρ = Σ ω<sub>k,W</sub> · r<sub>k,W</sub>: the paired \
         ratios to json r of each stratum and workload, weighted by json's share ω of the mix's \
         time (w<sub>k</sub> · json ns<sub>k,W</sub>, normalised). Its CI weights the paired CI \
         endpoints the same way. Paired ratios cancel the host's drift; they are the numbers \
         to carry to another machine. Green: the CI is above 0; red: below 0; grey otherwise, \
         and for every profile of a group the Claims call tied for a workload of the mode when \
         the group's colours would differ.</li>\n\
         <li>zstd cores = <i>R</i> · <i>F</i> · <code>compress</code> ns / 10<sup>9</sup>: \
         zstd over {WINDOW}-event windows, once per copy sent. Deflate's CPU is not timed per kind \
         (the WebSocket loop's times are under Latency &amp; memory).</li>\n</ul></details>\n</section>",
        esc(&strata.join(", "))
    );
}
