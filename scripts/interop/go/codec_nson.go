package main

import (
	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nson"
)

// nsonCodec is go-nostr v0.32.0's nson package (NSON, nips PR #515),
// removed from go-nostr after v0.34.
func nsonCodec() *Codec {
	return &Codec{
		Profile: "nson", Library: "go-nostr nson", Module: "github.com/nbd-wtf/go-nostr",
		Decode: func(b []byte) (*Event, error) {
			var n nostr.Event
			if err := nson.UnmarshalBytes(b, &n); err != nil {
				return nil, err
			}
			return fromAliasedNostr(&n)
		},
		Encode: func(e *Event) ([]byte, error) {
			n, err := toNostr(e)
			if err != nil {
				return nil, err
			}
			s, err := nson.Marshal(n)
			return []byte(s), err
		},
		Note: "upstream Unmarshal recovers its own index panics, ignores parse errors of kind, created_at and strings " +
			"and trailing bytes; Marshal wraps u8/u16 header fields and panics past a 256-byte header",
	}
}
