package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"unicode/utf8"

	"github.com/nbd-wtf/go-nostr"
)

// jsonCodec is encoding/json; json-sonic and json-simd carry the same bytes.
func jsonCodec(profile string) *Codec {
	return &Codec{
		Profile: profile, Library: "encoding/json",
		Decode: func(b []byte) (*Event, error) {
			dec := json.NewDecoder(bytes.NewReader(b))
			dec.DisallowUnknownFields()
			var j jsonEvent
			if err := dec.Decode(&j); err != nil {
				return nil, err
			}
			if _, err := dec.Token(); err != io.EOF {
				return nil, fmt.Errorf("trailing data at byte %d", dec.InputOffset())
			}
			return j.toEvent()
		},
		Encode: func(e *Event) ([]byte, error) {
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(e.toJSONShape()); err != nil {
				return nil, err
			}
			return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
		},
		ExplainDiff: explainLineSeparators,
		Note:        "encoding/json accepts duplicate keys (last wins) and any key order",
	}
}

// explainLineSeparators: encoding/json always writes U+2028 and U+2029 as
// \u2028 and \u2029 (for JavaScript), where NIP-01 and serde_json write them raw.
func explainLineSeparators(ours, goBytes []byte) []string {
	raw, escaped := unescapeExtra(goBytes)
	if bytes.Equal(raw, ours) && escaped[0x2028]+escaped[0x2029] > 0 &&
		escaped['<']+escaped['>']+escaped['&']+escaped['\b']+escaped['\f'] == 0 {
		return []string{"line-separators"}
	}
	return nil
}

// unescapeExtra rewrites the escapes that NIP-01 JSON never writes into
// its own form (<, >, &, U+2028 and U+2029 raw; \b and \f short) and
// counts them per character.
func unescapeExtra(b []byte) ([]byte, map[rune]int) {
	extra := map[string]rune{`\u003c`: '<', `\u003e`: '>', `\u0026`: '&', `\u2028`: 0x2028, `\u2029`: 0x2029,
		`\u0008`: '\b', `\u000c`: '\f'}
	counts := map[rune]int{}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 >= len(b) {
			out = append(out, b[i])
			continue
		}
		if i+6 <= len(b) {
			if r, ok := extra[string(b[i:i+6])]; ok {
				counts[r]++
				switch r {
				case '\b':
					out = append(out, `\b`...)
				case '\f':
					out = append(out, `\f`...)
				default:
					out = utf8.AppendRune(out, r)
				}
				i += 5
				continue
			}
		}
		out = append(out, b[i], b[i+1]) // any other escape, kept as written
		i++
	}
	return out, counts
}

// goNostrJSONCodec is go-nostr's own (easyjson) Event JSON.
func goNostrJSONCodec() *Codec {
	return &Codec{
		Profile: "json", Library: "go-nostr Event (easyjson)", Module: "github.com/nbd-wtf/go-nostr",
		Decode: func(b []byte) (*Event, error) {
			var n nostr.Event
			if err := n.UnmarshalJSON(b); err != nil {
				return nil, err
			}
			return fromNostr(&n)
		},
		ExplainDiff: explainKeyOrder,
		Encode: func(e *Event) ([]byte, error) {
			n, err := toNostr(e)
			if err != nil {
				return nil, err
			}
			return n.MarshalJSON()
		},
		Limit: func(e *Event) string {
			if e.CreatedAt > math.MaxInt64 {
				return "created-at-int64" // nostr.Timestamp is an int64
			}
			return ""
		},
		Note: "easyjson skips unknown keys and does not check the id, pubkey or sig hex (the adapter does)",
	}
}

func fromNostr(n *nostr.Event) (*Event, error) {
	if n.Kind < 0 || n.Kind > 0xffff {
		return nil, fmt.Errorf("kind %d outside 0..=65535", n.Kind)
	}
	if n.CreatedAt < 0 {
		return nil, fmt.Errorf("negative created_at")
	}
	j := jsonEvent{ID: n.ID, PubKey: n.PubKey, CreatedAt: uint64(n.CreatedAt), Kind: uint64(n.Kind),
		Content: n.Content, Sig: n.Sig}
	j.Tags = make([][]string, len(n.Tags))
	for i, t := range n.Tags {
		j.Tags[i] = []string(t)
	}
	return j.toEvent()
}

// toNostr converts to go-nostr's Event, whose created_at is an int64.
func toNostr(e *Event) (*nostr.Event, error) {
	if e.CreatedAt > math.MaxInt64 {
		return nil, fmt.Errorf("created_at %d above nostr.Timestamp (int64)", e.CreatedAt)
	}
	j := e.toJSONShape()
	tags := make(nostr.Tags, len(e.Tags))
	for i, t := range e.Tags {
		tags[i] = nostr.Tag(t)
	}
	return &nostr.Event{ID: j.ID, PubKey: j.PubKey, CreatedAt: nostr.Timestamp(e.CreatedAt),
		Kind: int(e.Kind), Tags: tags, Content: e.Content, Sig: j.Sig}, nil
}

// explainKeyOrder: go-nostr writes "kind" first (kind, id, pubkey,
// created_at, tags, content, sig) and escapes <, > and & as \u003c, \u003e,
// \u0026. With the keys in NIP-01 order and those escapes undone, the bytes
// must equal ours.
func explainKeyOrder(ours, goBytes []byte) []string {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(goBytes, &fields); err != nil || len(fields) != 7 {
		return nil
	}
	var buf bytes.Buffer
	for i, k := range []string{"id", "pubkey", "created_at", "kind", "tags", "content", "sig"} {
		buf.WriteString(map[bool]string{true: "{", false: ","}[i == 0])
		buf.WriteString(`"` + k + `":`)
		buf.Write(fields[k])
	}
	buf.WriteString("}")
	raw, escaped := unescapeExtra(buf.Bytes())
	if !bytes.Equal(raw, ours) {
		return nil
	}
	keys := []string{"key-order"}
	if escaped['<']+escaped['>']+escaped['&'] > 0 {
		keys = append(keys, "html-escapes")
	}
	if escaped[0x2028]+escaped[0x2029] > 0 {
		keys = append(keys, "line-separators")
	}
	if escaped['\b']+escaped['\f'] > 0 {
		keys = append(keys, "short-escapes")
	}
	return keys
}
