//! Hostile inputs for `flexbuffers`: nesting and length bombs built by hand.

use super::FlexBuffers;
use crate::codec::hostile::{HostileInputs, Nest};

/// FlexBuffers packed type bytes (type << 2 | bit width 8).
const FBT_INT: u8 = 1 << 2;
const FBT_MAP: u8 = 9 << 2;
const FBT_VECTOR: u8 = 10 << 2;

/// FlexBuffers: values first, vectors after them with backward offsets, the
/// root at the end. Bombs use 8-bit widths throughout.
impl HostileInputs for FlexBuffers {
    fn format(&self) -> &'static str {
        "flexbuffers"
    }

    fn nesting_bomb(&self, shape: Nest, depth: usize, out: &mut Vec<u8>) {
        let base = out.len();
        match shape {
            // Each layer: [len=1][offset back to the child's data][type].
            Nest::Array => {
                out.reserve(3 * depth + 3);
                out.extend_from_slice(&[1, 0, FBT_INT]);
                for _ in 0..depth {
                    out.extend_from_slice(&[1, 3, FBT_VECTOR]);
                }
                let root_data = base + 3 * depth + 1;
                let root_offset = (out.len() - root_data) as u8;
                out.extend_from_slice(&[root_offset, FBT_VECTOR, 1]);
            }
            // Each layer (9 bytes at p): key "a\0" at p; a one-key vector
            // [len=1][3] at p+2 with data at p+3; a map prefix [keys offset
            // 1][keys width 1][len 1] at p+4; the value at p+7 (offset back
            // to the child map's data at p−2) and its type at p+8.
            Nest::Map => {
                out.reserve(9 * depth + 3);
                for layer in 0..depth {
                    let (value, ty) = if layer == 0 {
                        (0, FBT_INT)
                    } else {
                        (9, FBT_MAP)
                    };
                    out.extend_from_slice(&[b'a', 0, 1, 3, 1, 1, 1, value, ty]);
                }
                if depth == 0 {
                    out.extend_from_slice(&[0, FBT_INT, 1]);
                } else {
                    out.extend_from_slice(&[2, FBT_MAP, 1]);
                }
            }
        }
    }

    fn length_bombs(&self) -> Vec<(&'static str, Vec<u8>)> {
        vec![
            // A 64-bit-wide vector whose length word says 2^64−1.
            (
                "vector-len-2^64-1",
                [
                    &[0xff; 8][..],
                    &[0, 0, 0, 0, 0, 0, 0, 0],
                    &[8, FBT_VECTOR | 3, 8],
                ]
                .concat(),
            ),
            (
                "string-len-2^32-1",
                [&[0xff, 0xff, 0xff, 0xff][..], b"x\0", &[2, 5 << 2 | 2, 4]].concat(),
            ),
            (
                "blob-len-2^64-1",
                [
                    &[0xff; 8][..],
                    &[0, 0, 0, 0, 0, 0, 0, 0],
                    &[8, 25 << 2 | 3, 8],
                ]
                .concat(),
            ),
            (
                "root-offset-2^64-1",
                [&[0xff; 8][..], &[FBT_VECTOR | 3, 8]].concat(),
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::hostile::bomb;

    #[test]
    fn bombs_have_the_exact_bytes_and_are_well_formed() {
        assert_eq!(
            bomb(&FlexBuffers, Nest::Array, 1),
            [1, 0, FBT_INT, 1, 3, FBT_VECTOR, 2, FBT_VECTOR, 1]
        );
        for depth in [1usize, 2, 5] {
            let b = bomb(&FlexBuffers, Nest::Array, depth);
            let mut r = flexbuffers::Reader::get_root(&b[..]).unwrap();
            // The innermost layer is itself a vector (holding the 0).
            for _ in 0..=depth {
                assert_eq!(r.flexbuffer_type(), flexbuffers::FlexBufferType::Vector);
                r = r.as_vector().idx(0);
            }
            assert_eq!(r.as_i64(), 0);
            let b = bomb(&FlexBuffers, Nest::Map, depth);
            let mut r = flexbuffers::Reader::get_root(&b[..]).unwrap();
            for _ in 0..depth {
                assert_eq!(r.flexbuffer_type(), flexbuffers::FlexBufferType::Map);
                r = r.as_map().idx("a");
            }
            assert_eq!(r.as_i64(), 0);
        }
    }
}
