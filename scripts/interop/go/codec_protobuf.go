package main

import (
	"fmt"

	"github.com/binostr/binostr/scripts/interop/go/gen/pb"
	"google.golang.org/protobuf/proto"
)

func protobufCodec() *Codec {
	marshal := proto.MarshalOptions{Deterministic: true}
	return &Codec{
		Profile: "protobuf", Library: "google.golang.org/protobuf (protoc-gen-go)", Module: "google.golang.org/protobuf",
		Decode: func(b []byte) (*Event, error) {
			var m pb.Event
			if err := proto.Unmarshal(b, &m); err != nil {
				return nil, err
			}
			p := positional{ID: m.Id, PubKey: m.Pubkey, Sig: m.Sig, CreatedAt: m.CreatedAt,
				Kind: uint64(m.Kind), Content: m.Content, Tags: make([][]any, len(m.Tags))}
			for i, t := range m.Tags {
				p.Tags[i] = make([]any, len(t.Values))
				for j, v := range t.Values {
					switch x := v.Value.(type) {
					case *pb.TagValue_Hex:
						p.Tags[i][j] = x.Hex
					case *pb.TagValue_Text:
						p.Tags[i][j] = x.Text
					default:
						return nil, fmt.Errorf("tag %d value %d: no member set", i, j)
					}
				}
			}
			return p.toEvent()
		},
		Encode: func(e *Event) ([]byte, error) {
			m := &pb.Event{Id: e.ID[:], Pubkey: e.PubKey[:], CreatedAt: e.CreatedAt, Kind: uint32(e.Kind),
				Content: e.Content, Sig: e.Sig[:], Tags: make([]*pb.Tag, len(e.Tags))}
			for i, t := range e.Tags {
				tag := &pb.Tag{Values: make([]*pb.TagValue, len(t))}
				for j, v := range t {
					if isLowerHex(v) {
						tag.Values[j] = &pb.TagValue{Value: &pb.TagValue_Hex{Hex: mustHex(v)}}
					} else {
						tag.Values[j] = &pb.TagValue{Value: &pb.TagValue_Text{Text: v}}
					}
				}
				m.Tags[i] = tag
			}
			return marshal.Marshal(m)
		},
		Note: "proto.Unmarshal accepts any field order, repeated singular fields and unknown fields",
	}
}
