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

// goNostrBinaryCodecs are the Go originals of gonostr-binary: go-nostr
// v0.32.0 binary.Marshal/Unmarshal (hybrid.go) and MarshalBinary/
// UnmarshalBinary (binary.go, same layout, no limit checks), removed from
// later go-nostr releases.
func goNostrBinaryCodecs() []*Codec {
	hybrid := &Codec{
		Profile: "gonostr-binary", Library: "go-nostr binary (Marshal/Unmarshal)", Module: "github.com/nbd-wtf/go-nostr",
		Decode: func(b []byte) (*Event, error) {
			var n nostr.Event
			if err := nostrbinary.Unmarshal(b, &n); err != nil {
				return nil, err
			}
			return fromAliasedNostr(&n)
		},
		Encode: func(e *Event) ([]byte, error) {
			n, err := toNostr(e)
			if err != nil {
				return nil, err
			}
			return nostrbinary.Marshal(n)
		},
		ExplainEncodeError: bufferOverflow(40),
		Note: "upstream Unmarshal recovers its own index panics into errors, ignores trailing bytes " +
			"and does not validate UTF-8; Marshal panics (index out of range) when the tag section outgrows its fixed buffer",
	}
	lean := &Codec{
		Profile: "gonostr-binary", Library: "go-nostr binary (MarshalBinary/UnmarshalBinary)", Module: "github.com/nbd-wtf/go-nostr",
		Decode: func(b []byte) (*Event, error) {
			var be nostrbinary.Event
			if err := nostrbinary.UnmarshalBinary(b, &be); err != nil {
				return nil, err
			}
			return fromAliasedNostr(be.ToNormalEvent())
		},
		Encode: func(e *Event) ([]byte, error) {
			n, err := toNostr(e)
			if err != nil {
				return nil, err
			}
			return nostrbinary.MarshalBinary(nostrbinary.BinaryEvent(n)), nil
		},
		ExplainEncodeError: bufferOverflow(0),
		Note: "MarshalBinary checks no limits: lengths and counts are truncated to u16/u8 without an error; " +
			"it panics when the tag section outgrows its fixed buffer",
	}
	return []*Codec{hybrid, lean}
}

// fromAliasedNostr copies an event whose strings alias the input
// (go-nostr's decoders use unsafe.String).
func fromAliasedNostr(n *nostr.Event) (*Event, error) {
	n.Content = strings.Clone(n.Content)
	for _, t := range n.Tags {
		for i := range t {
			t[i] = strings.Clone(t[i])
		}
	}
	return fromNostr(n)
}

// bufferOverflow explains the panic of go-nostr's encoders, which allocate
// 136 + len(content) + 65536 + perTag·len(tags) bytes and write n_tags, then
// per tag 1 + per item 3 + len (the cursor quirk), then keep one byte more.
func bufferOverflow(perTag int) func(e *Event, err error) string {
	return func(e *Event, err error) string {
		var p *PanicError
		if !errors.As(err, &p) {
			return ""
		}
		need := 136 + len(e.Content) + 2 + 1
		for _, t := range e.Tags {
			need++
			for _, item := range t {
				need += 3 + len(item)
			}
		}
		if need <= 136+len(e.Content)+65536+perTag*len(e.Tags) {
			return ""
		}
		return "buffer-overflow"
	}
}
