package main

import (
	"bytes"
	"fmt"

	"github.com/fxamacker/cbor/v2"
	"github.com/vmihailenco/msgpack/v5"
)

// positional is the shared positional model: a 7-element array.
type positional struct {
	_         struct{} `cbor:",toarray"`
	_msgpack  struct{} `msgpack:",as_array"`
	ID        []byte
	PubKey    []byte
	CreatedAt uint64
	Kind      uint64
	Tags      [][]any
	Content   string
	Sig       []byte
}

func toPositional(e *Event) *positional {
	p := &positional{ID: e.ID[:], PubKey: e.PubKey[:], CreatedAt: e.CreatedAt, Kind: uint64(e.Kind),
		Tags: make([][]any, len(e.Tags)), Content: e.Content, Sig: e.Sig[:]}
	for i, t := range e.Tags {
		p.Tags[i] = make([]any, len(t))
		for j, v := range t {
			p.Tags[i][j] = packedValue(v)
		}
	}
	return p
}

func (p *positional) toEvent() (*Event, error) {
	e := &Event{CreatedAt: p.CreatedAt, Content: p.Content, Tags: make([][]string, len(p.Tags))}
	if p.Kind > 0xffff {
		return nil, fmt.Errorf("kind %d above 65535", p.Kind)
	}
	e.Kind = uint16(p.Kind)
	if err := setFixed("id", e.ID[:], p.ID); err != nil {
		return nil, err
	}
	if err := setFixed("pubkey", e.PubKey[:], p.PubKey); err != nil {
		return nil, err
	}
	if err := setFixed("sig", e.Sig[:], p.Sig); err != nil {
		return nil, err
	}
	for i, t := range p.Tags {
		e.Tags[i] = make([]string, len(t))
		for j, v := range t {
			s, err := tagValue(v)
			if err != nil {
				return nil, fmt.Errorf("tag %d value %d: %w", i, j, err)
			}
			e.Tags[i][j] = s
		}
	}
	return e, nil
}

func cborCodec() *Codec {
	dm, err := cbor.DecOptions{}.DecMode()
	if err != nil {
		panic(err)
	}
	em, err := cbor.CoreDetEncOptions().EncMode()
	if err != nil {
		panic(err)
	}
	return &Codec{
		Profile: "cbor-packed", Library: "fxamacker/cbor", Module: "github.com/fxamacker/cbor/v2",
		Decode: func(b []byte) (*Event, error) {
			var p positional
			if err := dm.Unmarshal(b, &p); err != nil {
				return nil, err
			}
			return p.toEvent()
		},
		Encode: func(e *Event) ([]byte, error) { return em.Marshal(toPositional(e)) },
		Note:   "default DecOptions: non-shortest heads, indefinite lengths and a CBOR tag around the event are accepted",
	}
}

func msgpackCodec() *Codec {
	return &Codec{
		Profile: "msgpack", Library: "vmihailenco/msgpack", Module: "github.com/vmihailenco/msgpack/v5",
		Decode: func(b []byte) (*Event, error) {
			r := bytes.NewReader(b)
			dec := msgpack.NewDecoder(r)
			var p positional
			if err := dec.Decode(&p); err != nil {
				return nil, err
			}
			if r.Len() != 0 {
				return nil, fmt.Errorf("trailing bytes")
			}
			return p.toEvent()
		},
		Encode: func(e *Event) ([]byte, error) {
			var buf bytes.Buffer
			enc := msgpack.NewEncoder(&buf)
			enc.UseCompactInts(true)
			if err := enc.Encode(toPositional(e)); err != nil {
				return nil, err
			}
			return buf.Bytes(), nil
		},
	}
}
