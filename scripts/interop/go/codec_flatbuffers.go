package main

import (
	"encoding/binary"
	"fmt"
	"strings"

	flatbuffers "github.com/google/flatbuffers/go"
)

// The Go runtime of github.com/google/flatbuffers with hand-written
// accessors for schemas/event.fbs: `flatc --go` 25.12.19 refuses the schema
// ("Arrays are not yet supported" for the Bytes32/Bytes64 structs). The slots
// and the build order below are what flatc generates for Rust.
const (
	fbEventID        = 4 // vtable slot offsets: 4 + 2·field index
	fbEventPubkey    = 6
	fbEventSig       = 8
	fbEventCreatedAt = 10
	fbEventKind      = 12
	fbEventTags      = 14
	fbEventContent   = 16
	fbTagValues      = 4
	fbValueHex       = 4
	fbValueText      = 6
)

func flatbuffersCodec() *Codec {
	b := flatbuffers.NewBuilder(1024)
	return &Codec{
		Profile: "flatbuffers", Library: "google/flatbuffers Go runtime (hand-written accessors)",
		Module: "github.com/google/flatbuffers",
		Decode: decodeFlatbuffers,
		Encode: func(e *Event) ([]byte, error) { return encodeFlatbuffers(b, e), nil },
		Note: "the Go runtime has no verifier: hostile buffers fail by index panics, " +
			"recovered by the harness; the adapter checks vector counts against the buffer size before allocating",
	}
}

func decodeFlatbuffers(buf []byte) (*Event, error) {
	if len(buf) < 8 {
		return nil, fmt.Errorf("buffer of %d bytes is shorter than a size prefix and root offset", len(buf))
	}
	if n := binary.LittleEndian.Uint32(buf); uint64(n) != uint64(len(buf)-4) {
		return nil, fmt.Errorf("size prefix %d, but %d bytes follow", n, len(buf)-4)
	}
	root := &flatbuffers.Table{Bytes: buf, Pos: flatbuffers.GetUOffsetT(buf[4:]) + 4}
	e := &Event{}
	for _, f := range []struct {
		name string
		slot flatbuffers.VOffsetT
		dst  []byte
	}{{"id", fbEventID, e.ID[:]}, {"pubkey", fbEventPubkey, e.PubKey[:]}, {"sig", fbEventSig, e.Sig[:]}} {
		o := root.Offset(f.slot)
		if o == 0 {
			return nil, fmt.Errorf("required field %s missing", f.name)
		}
		p := root.Pos + flatbuffers.UOffsetT(o)
		copy(f.dst, buf[p:p+flatbuffers.UOffsetT(len(f.dst))])
	}
	e.CreatedAt = root.GetUint64Slot(fbEventCreatedAt, 0)
	e.Kind = root.GetUint16Slot(fbEventKind, 0)
	if o := root.Offset(fbEventContent); o != 0 {
		e.Content = strings.Clone(root.String(root.Pos + flatbuffers.UOffsetT(o)))
	}
	tags, err := fbVector(root, fbEventTags)
	if err != nil {
		return nil, err
	}
	e.Tags = make([][]string, len(tags))
	for i, tp := range tags {
		tag := &flatbuffers.Table{Bytes: buf, Pos: tp}
		values, err := fbVector(tag, fbTagValues)
		if err != nil {
			return nil, err
		}
		e.Tags[i] = make([]string, len(values))
		for j, vp := range values {
			v := &flatbuffers.Table{Bytes: buf, Pos: vp}
			hexSlot, textSlot := v.Offset(fbValueHex), v.Offset(fbValueText)
			switch {
			case hexSlot != 0 && textSlot == 0:
				s, err := tagValue(v.ByteVector(v.Pos + flatbuffers.UOffsetT(hexSlot)))
				if err != nil {
					return nil, fmt.Errorf("tag %d value %d: %w", i, j, err)
				}
				e.Tags[i][j] = s
			case textSlot != 0 && hexSlot == 0:
				e.Tags[i][j] = strings.Clone(v.String(v.Pos + flatbuffers.UOffsetT(textSlot)))
			default:
				return nil, fmt.Errorf("tag %d value %d: want exactly one of hex and text", i, j)
			}
		}
	}
	return e, nil
}

// fbVector returns the table positions of a vector of tables.
func fbVector(t *flatbuffers.Table, slot flatbuffers.VOffsetT) ([]flatbuffers.UOffsetT, error) {
	o := t.Offset(slot)
	if o == 0 {
		return nil, nil
	}
	n := t.VectorLen(flatbuffers.UOffsetT(o))
	if n > len(t.Bytes)/4 {
		return nil, fmt.Errorf("vector of %d offsets in a %d-byte buffer", n, len(t.Bytes))
	}
	start := t.Vector(flatbuffers.UOffsetT(o))
	out := make([]flatbuffers.UOffsetT, n)
	for i := range out {
		out[i] = t.Indirect(start + flatbuffers.UOffsetT(4*i))
	}
	return out, nil
}

func fbStruct(b *flatbuffers.Builder, v []byte) flatbuffers.UOffsetT {
	b.Prep(1, len(v))
	for i := len(v) - 1; i >= 0; i-- {
		b.PlaceByte(v[i])
	}
	return b.Offset()
}

func fbOffsets(b *flatbuffers.Builder, offs []flatbuffers.UOffsetT) flatbuffers.UOffsetT {
	b.StartVector(4, len(offs), 4)
	for i := len(offs) - 1; i >= 0; i-- {
		b.PrependUOffsetT(offs[i])
	}
	return b.EndVector(len(offs))
}

func encodeFlatbuffers(b *flatbuffers.Builder, e *Event) []byte {
	b.Reset()
	tags := make([]flatbuffers.UOffsetT, len(e.Tags))
	for i, tag := range e.Tags {
		values := make([]flatbuffers.UOffsetT, len(tag))
		for j, v := range tag {
			if isLowerHex(v) {
				o := b.CreateByteVector(mustHex(v))
				b.StartObject(2)
				b.PrependUOffsetTSlot(0, o, 0)
			} else {
				o := b.CreateString(v)
				b.StartObject(2)
				b.PrependUOffsetTSlot(1, o, 0)
			}
			values[j] = b.EndObject()
		}
		vec := fbOffsets(b, values)
		b.StartObject(1)
		b.PrependUOffsetTSlot(0, vec, 0)
		tags[i] = b.EndObject()
	}
	tagsVec := fbOffsets(b, tags)
	content := b.CreateString(e.Content)
	b.StartObject(7)
	b.PrependUint64Slot(3, e.CreatedAt, 0)
	b.PrependUOffsetTSlot(6, content, 0)
	b.PrependUOffsetTSlot(5, tagsVec, 0)
	b.PrependStructSlot(2, fbStruct(b, e.Sig[:]), 0)
	b.PrependStructSlot(1, fbStruct(b, e.PubKey[:]), 0)
	b.PrependStructSlot(0, fbStruct(b, e.ID[:]), 0)
	b.PrependUint16Slot(4, e.Kind, 0)
	b.FinishSizePrefixed(b.EndObject())
	return append([]byte(nil), b.FinishedBytes()...)
}
