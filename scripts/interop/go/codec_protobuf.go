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
			if m.Kind > 0xffff {
				return nil, fmt.Errorf("kind %d above 65535", m.Kind)
			}
			e := &Event{CreatedAt: m.CreatedAt, Kind: uint16(m.Kind), Content: m.Content,
				Tags: make([][]string, len(m.Tags))}
			if err := setFixed("id", e.ID[:], m.Id); err != nil {
				return nil, err
			}
			if err := setFixed("pubkey", e.PubKey[:], m.Pubkey); err != nil {
				return nil, err
			}
			if err := setFixed("sig", e.Sig[:], m.Sig); err != nil {
				return nil, err
			}
			for i, t := range m.Tags {
				e.Tags[i] = make([]string, len(t.Values))
				for j, v := range t.Values {
					var s string
					var err error
					switch x := v.Value.(type) {
					case *pb.TagValue_Hex:
						s, err = tagValue(x.Hex)
					case *pb.TagValue_Text:
						s = x.Text
					default:
						err = fmt.Errorf("tag value with no member set")
					}
					if err != nil {
						return nil, fmt.Errorf("tag %d value %d: %w", i, j, err)
					}
					e.Tags[i][j] = s
				}
			}
			return e, nil
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
