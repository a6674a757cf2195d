package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/hamba/avro/v2"
	"go.mongodb.org/mongo-driver/v2/bson"
)

type avroEvent struct {
	ID        [32]byte `avro:"id"`
	PubKey    [32]byte `avro:"pubkey"`
	CreatedAt int64    `avro:"created_at"`
	Kind      int32    `avro:"kind"`
	Tags      [][]any  `avro:"tags"`
	Content   string   `avro:"content"`
	Sig       [64]byte `avro:"sig"`
}

// avroCodecs: hamba/avro configured to write one block per array with a
// plain count (our canonical form) and to bound slice allocations, and
// hamba/avro with its default configuration.
func avroCodecs() []*Codec {
	text, err := os.ReadFile(filepath.Join(repoRoot, "schemas", "event.avsc"))
	if err != nil {
		panic(err)
	}
	schema := avro.MustParse(string(text))
	canonical := avro.Config{BlockLength: math.MaxInt32, DisableBlockSizeHeader: true, MaxSliceAllocSize: 1 << 24}.Freeze()
	configured := avroCodec(schema, canonical, "hamba/avro (one block per array, no byte size, MaxSliceAllocSize 16 MiB)")
	dflt := avroCodec(schema, avro.DefaultConfig, "hamba/avro (default config)")
	// The default config writes arrays as blocks of at most 100 items, each
	// with a byte size: the same event, in other bytes.
	dflt.ExplainDiff = func(ours, goBytes []byte) []string {
		e, err := dflt.Decode(goBytes)
		if err != nil {
			return nil
		}
		re, err := configured.Encode(e)
		if err != nil || !bytes.Equal(re, ours) {
			return nil
		}
		return []string{"block-layout"}
	}
	return []*Codec{configured, dflt}
}

func avroCodec(schema avro.Schema, api avro.API, library string) *Codec {
	return &Codec{
		Profile: "avro", Library: library, Module: "github.com/hamba/avro/v2",
		Decode: func(b []byte) (*Event, error) {
			var a avroEvent
			if err := api.Unmarshal(schema, b, &a); err != nil {
				return nil, err
			}
			if a.CreatedAt < 0 || a.Kind < 0 || a.Kind > 0xffff {
				return nil, fmt.Errorf("created_at %d or kind %d out of range", a.CreatedAt, a.Kind)
			}
			p := positional{ID: a.ID[:], PubKey: a.PubKey[:], Sig: a.Sig[:], CreatedAt: uint64(a.CreatedAt),
				Kind: uint64(a.Kind), Content: a.Content, Tags: a.Tags}
			return p.toEvent()
		},
		Encode: func(e *Event) ([]byte, error) {
			if e.CreatedAt > math.MaxInt64 {
				return nil, fmt.Errorf("created_at above Avro long")
			}
			p := toPositional(e)
			return api.Marshal(schema, &avroEvent{ID: e.ID, PubKey: e.PubKey, Sig: e.Sig,
				CreatedAt: int64(e.CreatedAt), Kind: int32(e.Kind), Tags: p.Tags, Content: e.Content})
		},
		Note: "avro.Unmarshal ignores bytes after the datum",
	}
}

var bsonKeys = []string{"id", "pubkey", "created_at", "kind", "tags", "content", "sig"}

func bsonCodec() *Codec {
	return &Codec{
		Profile: "bson", Library: "mongo-driver/v2 bson", Module: "go.mongodb.org/mongo-driver/v2",
		Decode: func(b []byte) (*Event, error) {
			var d bson.D
			if err := bson.Unmarshal(b, &d); err != nil {
				return nil, err
			}
			if len(d) != len(bsonKeys) {
				return nil, fmt.Errorf("%d keys, want %d", len(d), len(bsonKeys))
			}
			var p positional
			for i, el := range d {
				if el.Key != bsonKeys[i] {
					return nil, fmt.Errorf("key %d is %q, want %q", i, el.Key, bsonKeys[i])
				}
				var ok bool
				switch el.Key {
				case "id":
					p.ID, ok = bsonBinary(el.Value)
				case "pubkey":
					p.PubKey, ok = bsonBinary(el.Value)
				case "sig":
					p.Sig, ok = bsonBinary(el.Value)
				case "created_at":
					var v int64
					v, ok = el.Value.(int64)
					ok = ok && v >= 0
					p.CreatedAt = uint64(v)
				case "kind":
					var v int32
					v, ok = el.Value.(int32)
					ok = ok && v >= 0
					p.Kind = uint64(v)
				case "content":
					p.Content, ok = el.Value.(string)
				case "tags":
					p.Tags, ok = bsonTags(el.Value)
				}
				if !ok {
					return nil, fmt.Errorf("%s: unexpected %T", el.Key, el.Value)
				}
			}
			return p.toEvent()
		},
		Encode: func(e *Event) ([]byte, error) {
			if e.CreatedAt > math.MaxInt64 {
				return nil, fmt.Errorf("created_at above BSON int64")
			}
			p := toPositional(e)
			tags := make(bson.A, len(p.Tags))
			for i, t := range p.Tags {
				tags[i] = bson.A(t)
			}
			return bson.Marshal(bson.D{
				{Key: "id", Value: p.ID}, {Key: "pubkey", Value: p.PubKey},
				{Key: "created_at", Value: int64(e.CreatedAt)}, {Key: "kind", Value: int32(e.Kind)},
				{Key: "tags", Value: tags}, {Key: "content", Value: e.Content}, {Key: "sig", Value: p.Sig},
			})
		},
		Note: "bson.Unmarshal into bson.D; array keys are not checked to be \"0\",\"1\",...",
	}
}

func bsonBinary(v any) ([]byte, bool) {
	b, ok := v.(bson.Binary)
	return b.Data, ok && b.Subtype == 0
}

func bsonTags(v any) ([][]any, bool) {
	a, ok := v.(bson.A)
	if !ok {
		return nil, false
	}
	out := make([][]any, len(a))
	for i, t := range a {
		vals, ok := t.(bson.A)
		if !ok {
			return nil, false
		}
		out[i] = make([]any, len(vals))
		for j, x := range vals {
			switch y := x.(type) {
			case string:
				out[i][j] = y
			case bson.Binary:
				if y.Subtype != 0 {
					return nil, false
				}
				out[i][j] = y.Data
			default:
				return nil, false
			}
		}
	}
	return out, true
}
