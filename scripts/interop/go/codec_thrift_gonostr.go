package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/binostr/binostr/scripts/interop/go/gen/thrift/event"
	"github.com/nbd-wtf/go-nostr"
	nostrbinary "github.com/nbd-wtf/go-nostr/binary"
)

var thriftConf = &thrift.TConfiguration{MaxMessageSize: 1 << 24}

func thriftCodec() *Codec {
	ctx := context.Background()
	return &Codec{
		Profile: "thrift-compact", Library: "apache/thrift (thrift --gen go 0.17.0)", Module: "github.com/apache/thrift",
		Decode: func(b []byte) (*Event, error) {
			trans := &thrift.TMemoryBuffer{Buffer: bytes.NewBuffer(b)}
			var m event.Event
			if err := m.Read(ctx, thrift.NewTCompactProtocolConf(trans, thriftConf)); err != nil {
				return nil, err
			}
			if trans.Len() != 0 {
				return nil, fmt.Errorf("%d trailing bytes", trans.Len())
			}
			if m.CreatedAt < 0 || m.Kind < 0 || m.Kind > 0xffff {
				return nil, fmt.Errorf("created_at %d or kind %d out of range", m.CreatedAt, m.Kind)
			}
			p := positional{ID: m.ID, PubKey: m.Pubkey, Sig: m.Sig, CreatedAt: uint64(m.CreatedAt),
				Kind: uint64(m.Kind), Content: m.Content, Tags: make([][]any, len(m.Tags))}
			for i, t := range m.Tags {
				p.Tags[i] = make([]any, len(t))
				for j, v := range t {
					switch {
					case v == nil || v.CountSetFieldsValue() != 1:
						return nil, fmt.Errorf("tag %d value %d: want exactly one field set", i, j)
					case v.IsSetHex():
						p.Tags[i][j] = v.Hex
					default:
						p.Tags[i][j] = *v.Text
					}
				}
			}
			return p.toEvent()
		},
		Encode: func(e *Event) ([]byte, error) {
			if e.CreatedAt > math.MaxInt64 {
				return nil, fmt.Errorf("created_at above Thrift i64")
			}
			m := &event.Event{ID: e.ID[:], Pubkey: e.PubKey[:], Sig: e.Sig[:], CreatedAt: int64(e.CreatedAt),
				Kind: int32(e.Kind), Content: e.Content, Tags: make([][]*event.Value, len(e.Tags))}
			for i, t := range e.Tags {
				m.Tags[i] = make([]*event.Value, len(t))
				for j, v := range t {
					if isLowerHex(v) {
						m.Tags[i][j] = &event.Value{Hex: mustHex(v)}
					} else {
						m.Tags[i][j] = &event.Value{Text: &v}
					}
				}
			}
			trans := thrift.NewTMemoryBufferLen(512)
			if err := m.Write(ctx, thrift.NewTCompactProtocolConf(trans, thriftConf)); err != nil {
				return nil, err
			}
			return trans.Bytes(), nil
		},
		Note: "TConfiguration MaxMessageSize 16 MiB bounds string and list allocations",
	}
}

// goNostrBinaryCodec is the Go original of gonostr-binary: go-nostr v0.32.0
// binary.Marshal / binary.Unmarshal (removed from later go-nostr releases).
func goNostrBinaryCodec() *Codec {
	return &Codec{
		Profile: "gonostr-binary", Library: "go-nostr binary (Marshal/Unmarshal)", Module: "github.com/nbd-wtf/go-nostr",
		Decode: func(b []byte) (*Event, error) {
			var n nostr.Event
			if err := nostrbinary.Unmarshal(b, &n); err != nil {
				return nil, err
			}
			// Unmarshal's strings alias the input (unsafe.String): copy them.
			n.Content = strings.Clone(n.Content)
			for _, t := range n.Tags {
				for i := range t {
					t[i] = strings.Clone(t[i])
				}
			}
			return fromNostr(&n)
		},
		Encode: func(e *Event) ([]byte, error) { return nostrbinary.Marshal(toNostr(e)) },
		ExplainEncodeError: func(e *Event, err error) (string, bool) {
			var p *PanicError
			if !errors.As(err, &p) {
				return "", false
			}
			// hybrid.go allocates 136 + len(content) + 65536 + 40·len(tags)
			// bytes and writes n_tags, then per tag 1 + per item 3 + len
			// (its cursor quirk), then keeps one byte more.
			need := 136 + len(e.Content) + 2 + 1
			for _, t := range e.Tags {
				need++
				for _, item := range t {
					need += 3 + len(item)
				}
			}
			if need <= 136+len(e.Content)+65536+40*len(e.Tags) {
				return "", false
			}
			return "Marshal panics (slice bounds out of range): its fixed 136 + content + 65536 + 40·n_tags byte buffer " +
				"is too small for this tag section (documented in src/profiles/gonostr_binary.rs)", true
		},
		Note: "upstream Unmarshal recovers its own index panics into errors, ignores trailing bytes " +
			"and does not validate UTF-8; Marshal panics (index out of range) when the tag section outgrows its fixed buffer",
	}
}
