//! Text encodings the generated events carry: base64 (NIP-04, NIP-44),
//! bech32 (NIP-19 `npub`/`note`/`nevent`, LNURL, BOLT 11 invoices) and the
//! NIP-44 v2 padding rule that fixes ciphertext lengths.

use sha2::{Digest, Sha256};

use crate::rng::Gen;

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with `=` padding (RFC 4648 §4).
pub fn base64(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(B64[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Base64 of `n` random bytes.
pub fn random_base64(g: &mut Gen, n: usize) -> String {
    base64(&g.byte_vec(n))
}

/// Length of a NIP-44 v2 padded plaintext for an unpadded length `len`.
pub fn nip44_padded_len(len: usize) -> usize {
    if len <= 32 {
        return 32;
    }
    // The smallest power of two above len - 1.
    let next_power = len.next_power_of_two();
    let chunk = if next_power <= 256 {
        32
    } else {
        next_power / 8
    };
    chunk * ((len - 1) / chunk + 1)
}

/// A NIP-44 v2 payload (version, nonce, padded ciphertext, MAC; base64) for a
/// plaintext of `plain_len` bytes, with random bytes in place of ciphertext.
pub fn nip44_payload(g: &mut Gen, plain_len: usize) -> String {
    let mut raw = Vec::with_capacity(67 + nip44_padded_len(plain_len));
    raw.push(2);
    raw.extend(g.byte_vec(32 + 2 + nip44_padded_len(plain_len) + 32));
    base64(&raw)
}

/// Length of [`nip44_payload`] for a plaintext of `plain_len` bytes.
pub fn nip44_payload_len(plain_len: usize) -> usize {
    (1 + 32 + 2 + nip44_padded_len(plain_len) + 32).div_ceil(3) * 4
}

const CHARSET: &[u8; 32] = b"qpzry9x8gf2tvdw0s3jn54khce6mua7l";

fn polymod(values: impl Iterator<Item = u8>) -> u32 {
    const GEN: [u32; 5] = [
        0x3b6a_57b2,
        0x2650_8e6d,
        0x1ea1_19fa,
        0x3d42_33dd,
        0x2a14_62b3,
    ];
    let mut chk: u32 = 1;
    for v in values {
        let top = chk >> 25;
        chk = ((chk & 0x01ff_ffff) << 5) ^ u32::from(v);
        for (i, g) in GEN.iter().enumerate() {
            if (top >> i) & 1 == 1 {
                chk ^= g;
            }
        }
    }
    chk
}

/// Regroups 8-bit bytes into 5-bit words, zero-padding the last one.
pub fn to_words(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() * 8 / 5 + 1);
    let (mut acc, mut bits) = (0u32, 0u32);
    for &b in data {
        acc = (acc << 8) | u32::from(b);
        bits += 8;
        while bits >= 5 {
            bits -= 5;
            out.push(((acc >> bits) & 31) as u8);
        }
    }
    if bits > 0 {
        out.push(((acc << (5 - bits)) & 31) as u8);
    }
    out
}

/// Bech32 (BIP 173) of 5-bit `words` under `hrp`, with no length cap
/// (NIP-19 and BOLT 11 exceed BIP 173's 90 characters).
pub fn bech32_words(hrp: &str, words: &[u8]) -> String {
    let expanded = hrp
        .bytes()
        .map(|c| c >> 5)
        .chain([0])
        .chain(hrp.bytes().map(|c| c & 31));
    let chk = polymod(expanded.chain(words.iter().copied()).chain([0; 6])) ^ 1;
    let mut out = String::with_capacity(hrp.len() + 1 + words.len() + 6);
    out.push_str(hrp);
    out.push('1');
    out.extend(words.iter().map(|&w| char::from(CHARSET[usize::from(w)])));
    out.extend((0..6).map(|i| char::from(CHARSET[((chk >> (5 * (5 - i))) & 31) as usize])));
    out
}

/// Bech32 of bytes under `hrp` (NIP-19 `npub`, `note`, `nevent`; LNURL).
pub fn bech32(hrp: &str, data: &[u8]) -> String {
    bech32_words(hrp, &to_words(data))
}

/// A NIP-19 `nevent`: TLV 0 (id), optional TLV 1 (relay), optional TLV 2 (author).
pub fn nevent(id: &[u8; 32], relay: Option<&str>, author: Option<&[u8; 32]>) -> String {
    let mut tlv = vec![0, 32];
    tlv.extend_from_slice(id);
    if let Some(r) = relay {
        tlv.extend([1, r.len() as u8]);
        tlv.extend_from_slice(r.as_bytes());
    }
    if let Some(a) = author {
        tlv.extend([2, 32]);
        tlv.extend_from_slice(a);
    }
    bech32("nevent", &tlv)
}

/// NIP-19 `naddr` of a replaceable event: its `d` identifier (at most 255
/// bytes kept), author and kind.
pub fn naddr(d: &str, author: &[u8; 32], kind: u16) -> String {
    let d = &d.as_bytes()[..d.len().min(255)];
    let mut tlv = vec![0, d.len() as u8];
    tlv.extend_from_slice(d);
    tlv.extend([2, 32]);
    tlv.extend_from_slice(author);
    tlv.extend([3, 4]);
    tlv.extend_from_slice(&u32::from(kind).to_be_bytes());
    bech32("naddr", &tlv)
}

/// A BOLT 11 invoice (`lnbc…`) for `amount_msat`, with a valid bech32
/// checksum and the usual tagged fields: payment hash, payment secret,
/// description hash, expiry, min final CLTV expiry, features and often a
/// payee node key and a route hint; the signature is random bytes.
pub fn bolt11(
    g: &mut Gen,
    amount_msat: u64,
    timestamp: u64,
    payment_hash: &[u8; 32],
    description_hash: &[u8; 32],
) -> String {
    let mut words = Vec::with_capacity(400);
    for i in (0..7).rev() {
        words.push(((timestamp >> (5 * i)) & 31) as u8);
    }
    let field = |words: &mut Vec<u8>, tag: u8, data: Vec<u8>| {
        words.push(tag);
        words.push((data.len() >> 5) as u8);
        words.push((data.len() & 31) as u8);
        words.extend(data);
    };
    let int_words = |mut v: u64| {
        let mut w = Vec::new();
        while v > 0 {
            w.push((v & 31) as u8);
            v >>= 5;
        }
        w.reverse();
        w
    };
    let payment_secret: [u8; 32] = g.bytes();
    let mut fields: Vec<(u8, Vec<u8>)> = vec![
        (1, to_words(payment_hash)),
        (16, to_words(&payment_secret)),
        (23, to_words(description_hash)),
        (6, int_words(g.pick(&[600, 3600, 86_400]))),
        (24, int_words(g.pick(&[18, 40, 80, 144]))),
    ];
    if g.chance(0.7) {
        fields.push((5, int_words(g.pick(&[0x4100u64, 0x2_4100, 0x8_0000_4100]))));
    }
    // Real corpus: 426 of 720 receipts' invoices name the payee node, 556
    // carry a route hint.
    if g.chance(0.59) {
        let mut node = vec![if g.chance(0.5) { 2 } else { 3 }];
        node.extend(g.bytes::<32>());
        fields.push((19, to_words(&node)));
    }
    if g.chance(0.77) {
        let mut hint = Vec::with_capacity(51);
        hint.push(if g.chance(0.5) { 2 } else { 3 });
        hint.extend(g.bytes::<32>());
        hint.extend(g.byte_vec(18));
        fields.push((3, to_words(&hint)));
    }
    g.shuffle(&mut fields[1..]);
    for (tag, data) in fields {
        field(&mut words, tag, data);
    }
    let mut sig = g.byte_vec(64);
    sig.push(g.bytes::<1>()[0] & 1);
    words.extend(to_words(&sig));
    bech32_words(&format!("lnbc{}", bolt11_amount(amount_msat)), &words)
}

/// The human-readable amount of a BOLT 11 invoice: the shortest of
/// `m`, `u`, `n` or `p` bitcoin multiples that is exact.
pub fn bolt11_amount(msat: u64) -> String {
    // 1 BTC = 1e11 msat; m = 1e8 msat, u = 1e5, n = 1e2, p = 1e-1.
    for (div, unit) in [(100_000_000, 'm'), (100_000, 'u'), (100, 'n')] {
        if msat.is_multiple_of(div) {
            return format!("{}{unit}", msat / div);
        }
    }
    format!("{}p", msat * 10)
}

/// SHA-256 of `data`.
pub fn sha256(data: &[u8]) -> [u8; 32] {
    Sha256::digest(data).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_rfc4648_vectors() {
        let cases = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (raw, b64) in cases {
            assert_eq!(base64(raw.as_bytes()), b64);
        }
    }

    #[test]
    fn nip19_npub_vector() {
        // NIP-19's example key.
        let hex = "7e7e9c42a91bfef19fa929e5fda1b72e0ebc1a4c1141673e2794234d86addf4e";
        let mut pk = Vec::new();
        assert!(crate::model::hex::decode_into(hex, &mut pk));
        assert_eq!(
            bech32("npub", &pk),
            "npub10elfcs4fr0l0r8af98jlmgdh9c8tcxjvz9qkw038js35mp4dma8qzvjptg"
        );
    }

    #[test]
    fn bip173_checksum_vector() {
        assert_eq!(bech32_words("a", &[]), "a12uel5l");
    }

    #[test]
    fn nip44_padding_matches_the_spec_table() {
        let cases = [
            (1, 32),
            (32, 32),
            (33, 64),
            (37, 64),
            (64, 64),
            (65, 96),
            (100, 128),
            (256, 256),
            (257, 320),
            (383, 384),
            (384, 384),
            (385, 448),
            (1000, 1024),
            (1025, 1280),
            (65_535, 65_536),
        ];
        for (len, padded) in cases {
            assert_eq!(nip44_padded_len(len), padded, "{len}");
        }
        let mut g = Gen::new([0; 32], 0);
        assert_eq!(nip44_payload(&mut g, 300).len(), nip44_payload_len(300));
    }

    #[test]
    fn bolt11_amounts_and_shape() {
        assert_eq!(bolt11_amount(21_000), "210n");
        assert_eq!(bolt11_amount(1_000_000), "10u");
        assert_eq!(bolt11_amount(100_000_000), "1m");
        assert_eq!(bolt11_amount(1_500), "15n");
        assert_eq!(bolt11_amount(1_234), "12340p");
        let mut g = Gen::new([3; 32], 0);
        let inv = bolt11(&mut g, 21_000, 1_700_000_000, &[1; 32], &[2; 32]);
        assert!(inv.starts_with("lnbc210n1"), "{inv}");
        assert!((300..460).contains(&inv.len()), "{}", inv.len());
        assert!(
            inv[4..]
                .bytes()
                .all(|c| c.is_ascii_digit() || CHARSET.contains(&c))
        );
    }
}
