//! Names for LaTeX: macro suffixes from profile ids, and escaped text.

const DIGITS: [&str; 10] = [
    "Zero", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine",
];

/// The CamelCase macro suffix for a profile id, digits spelled out, every
/// other character a word break: `event2` -> `EventTwo`, `json-simd` ->
/// `JsonSimd`, `capnp-packed` -> `CapnpPacked`.
pub fn macro_suffix(id: &str) -> String {
    let mut out = String::new();
    let mut word_start = true;
    for c in id.chars() {
        if let Some(d) = c.to_digit(10) {
            out.push_str(DIGITS[d as usize]);
            word_start = true;
        } else if c.is_ascii_alphabetic() {
            if word_start {
                out.push(c.to_ascii_uppercase());
            } else {
                out.push(c.to_ascii_lowercase());
            }
            word_start = false;
        } else {
            word_start = true;
        }
    }
    out
}

/// `s` with LaTeX's special characters escaped, for text inside a macro.
/// A double hyphen stays two hyphens (`-{}-`), so a copied `--flag` works;
/// `→`, which pdfLaTeX's utf8 input does not define, is `$\to$`.
pub fn tex_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '-' if out.ends_with('-') => out.push_str("{}-"),
            '\\' => out.push_str("\\textbackslash{}"),
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '→' => out.push_str("$\\to$"),
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// A sentence with profile ids in backticks as LaTeX: each id in
/// `\\prof{}`, the rest escaped.
pub fn tex_code(s: &str) -> String {
    s.split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                format!("\\prof{{{}}}", tex_escape(part))
            } else {
                tex_escape(part)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn double_hyphens_stay_hyphens() {
        assert_eq!(tex_escape("campaign --real"), "campaign -{}-real");
        assert_eq!(tex_escape("a---b"), "a-{}-{}-b");
        assert_eq!(tex_escape("kind-3 & co"), "kind-3 \\& co");
    }

    #[test]
    fn suffixes() {
        assert_eq!(macro_suffix("event2"), "EventTwo");
        assert_eq!(macro_suffix("json-simd"), "JsonSimd");
        assert_eq!(macro_suffix("json"), "Json");
        assert_eq!(macro_suffix("thrift-compact"), "ThriftCompact");
        assert_eq!(macro_suffix("p2p"), "PTwoP");
        assert_eq!(macro_suffix("cbor-intmap"), "CborIntmap");
    }

    #[test]
    fn code_spans_become_prof() {
        assert_eq!(
            tex_code("keep `json-sonic` at 5 %"),
            "keep \\prof{json-sonic} at 5 \\%"
        );
    }

    #[test]
    fn escapes() {
        assert_eq!(tex_escape("a_b 50% #1"), "a\\_b 50\\% \\#1");
        assert_eq!(tex_escape("host/Intel(R) Xeon"), "host/Intel(R) Xeon");
        assert_eq!(tex_escape("relay → client"), "relay $\\to$ client");
    }
}
