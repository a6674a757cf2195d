package main

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"strings"
)

// Event is a NIP-01 event with its fixed-size fields as raw bytes.
type Event struct {
	ID        [32]byte
	PubKey    [32]byte
	Sig       [64]byte
	CreatedAt uint64
	Kind      uint16
	Tags      [][]string
	Content   string
}

// Equal reports whether two events carry the same NIP-01 fields.
func (e *Event) Equal(o *Event) bool {
	return e.ID == o.ID && e.PubKey == o.PubKey && e.Sig == o.Sig &&
		e.CreatedAt == o.CreatedAt && e.Kind == o.Kind && e.Content == o.Content &&
		slices.EqualFunc(e.Tags, o.Tags, slices.Equal)
}

// jsonEvent is the NIP-01 JSON shape, as encoding/json sees it.
type jsonEvent struct {
	ID        string     `json:"id"`
	PubKey    string     `json:"pubkey"`
	CreatedAt uint64     `json:"created_at"`
	Kind      uint64     `json:"kind"`
	Tags      [][]string `json:"tags"`
	Content   string     `json:"content"`
	Sig       string     `json:"sig"`
}

func (j *jsonEvent) toEvent() (*Event, error) {
	e := &Event{CreatedAt: j.CreatedAt, Tags: j.Tags, Content: j.Content}
	if e.Tags == nil {
		e.Tags = [][]string{}
	}
	if j.Kind > 0xffff {
		return nil, fmt.Errorf("kind %d above 65535", j.Kind)
	}
	e.Kind = uint16(j.Kind)
	for _, f := range []struct {
		name string
		text string
		dst  []byte
	}{{"id", j.ID, e.ID[:]}, {"pubkey", j.PubKey, e.PubKey[:]}, {"sig", j.Sig, e.Sig[:]}} {
		if err := decodeHexField(f.name, f.text, f.dst); err != nil {
			return nil, err
		}
	}
	return e, nil
}

func (e *Event) toJSONShape() *jsonEvent {
	return &jsonEvent{
		ID: hex.EncodeToString(e.ID[:]), PubKey: hex.EncodeToString(e.PubKey[:]),
		CreatedAt: e.CreatedAt, Kind: uint64(e.Kind), Tags: e.Tags, Content: e.Content,
		Sig: hex.EncodeToString(e.Sig[:]),
	}
}

// decodeHexField decodes lowercase hex of exactly len(dst) bytes.
func decodeHexField(name, text string, dst []byte) error {
	if len(text) != 2*len(dst) || !isLowerHex(text) {
		return fmt.Errorf("%s: want %d lowercase hex characters", name, 2*len(dst))
	}
	_, err := hex.Decode(dst, []byte(text))
	return err
}

// isLowerHex is the profiles' hex-packing rule: non-empty, even-length,
// lowercase hex.
func isLowerHex(s string) bool {
	if s == "" || len(s)%2 != 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func mustHex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// setFixed copies b into dst when the length matches exactly.
func setFixed(name string, dst, b []byte) error {
	if len(b) != len(dst) {
		return fmt.Errorf("%s: %d bytes, want %d", name, len(b), len(dst))
	}
	copy(dst, b)
	return nil
}

// tagValue turns a decoded packed-or-text tag value back into its string.
func tagValue(v any) (string, error) {
	switch x := v.(type) {
	case []byte:
		if len(x) == 0 {
			return "", fmt.Errorf("empty packed hex value")
		}
		return hex.EncodeToString(x), nil
	case string:
		return x, nil
	default:
		return "", fmt.Errorf("tag value of type %T", v)
	}
}

// packedValue is the profiles' hex policy: lowercase hex travels as bytes.
func packedValue(s string) any {
	if isLowerHex(s) {
		return mustHex(s)
	}
	return s
}

// readFrames splits a stream of 4-byte big-endian length + record.
func readFrames(path string) ([][]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out [][]byte
	for off := 0; off < len(data); {
		if len(data)-off < 4 {
			return nil, fmt.Errorf("%s: truncated frame header at byte %d", path, off)
		}
		n := int(binary.BigEndian.Uint32(data[off:]))
		off += 4
		if n > len(data)-off {
			return nil, fmt.Errorf("%s: frame of %d bytes at byte %d runs past the end", path, n, off-4)
		}
		out = append(out, data[off:off+n:off+n])
		off += n
	}
	return out, nil
}

func writeFrames(path string, records [][]byte) error {
	var buf bytes.Buffer
	for _, r := range records {
		buf.Write(binary.BigEndian.AppendUint32(nil, uint32(len(r))))
		buf.Write(r)
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// Vectors is vectors/interop-v1.json.
type Vectors struct {
	Schema    int    `json:"schema"`
	Generator string `json:"generator"`
	Profiles  []struct {
		ID            string `json:"id"`
		Deterministic bool   `json:"deterministic"`
	} `json:"profiles"`
	Vectors []struct {
		Name            string             `json:"name"`
		Event           jsonEvent          `json:"event"`
		JSON            string             `json:"json"`
		Encodings       map[string]*string `json:"encodings"`
		Unrepresentable map[string]string  `json:"unrepresentable"`
	} `json:"vectors"`
}

func loadVectors(path string) (*Vectors, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var v Vectors
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if v.Schema != 1 {
		return nil, fmt.Errorf("%s: schema %d, want 1", path, v.Schema)
	}
	return &v, nil
}

// moduleVersion is the version of a module in this build ("" = the Go
// standard library, reported as the Go version).
func moduleVersion(module string) string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	if module == "" {
		return info.GoVersion
	}
	for _, d := range info.Deps {
		if d.Path == module {
			return d.Version
		}
	}
	return "unknown"
}

func csvField(s string) string {
	if strings.ContainsAny(s, ",\"\n") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}
