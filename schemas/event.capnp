# Binostr `capnp-packed` / `capnp-unpacked` profiles: one NIP-01 event per
# message. Generated Rust lives in crates/binostr-generated (scripts/regen.sh).
@0xb38e4a92e2da8312;

struct Event {
  id @0 :Data;          # exactly 32 bytes
  pubkey @1 :Data;      # exactly 32 bytes
  sig @2 :Data;         # exactly 64 bytes
  createdAt @3 :UInt64;
  kind @4 :UInt16;
  tags @5 :List(List(Value));
  content @6 :Text;
}

# One tag value.
struct Value {
  union {
    hex @0 :Data;       # bytes of a non-empty, even-length, lowercase hex string
    text @1 :Text;      # any other string, including ""
  }
}
