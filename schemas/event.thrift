// Binostr `thrift-compact` profile: one NIP-01 event per struct, compact
// protocol. Generated Rust lives in crates/binostr-generated (scripts/regen.sh).

namespace rs binostr

// One tag value: `hex` holds the bytes of a non-empty, even-length, lowercase
// hex string; `text` any other string, including "".
union Value {
  1: binary hex
  2: string text
}

struct Event {
  1: required binary id          // exactly 32 bytes
  2: required binary pubkey      // exactly 32 bytes
  3: required binary sig         // exactly 64 bytes
  4: required i64 created_at     // 0 ..= i64::MAX (Thrift has no unsigned types)
  5: required i32 kind           // 0 ..= 65535 (Thrift has no u16)
  6: required list<list<Value>> tags
  7: required string content
}
