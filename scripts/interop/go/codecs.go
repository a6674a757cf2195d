package main

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// Codec is one Go library reading and writing one Binostr profile.
type Codec struct {
	Profile string
	Library string
	Module  string // Go module path; "" for the standard library
	Decode  func([]byte) (*Event, error)
	Encode  func(*Event) ([]byte, error)
	// ExplainDiff, when set, says why Go's bytes for an event differ from
	// ours in a known, documented way (ok=false: the difference is not that).
	ExplainDiff func(ours, goBytes []byte) (reason string, ok bool)
	// ExplainEncodeError, when set, says why encoding an event our profile
	// represents fails in the Go library, when that is a documented defect.
	ExplainEncodeError func(e *Event, err error) (reason string, ok bool)
	// Limit, when set, says why the library cannot hold an event that our
	// profile represents (a documented limitation): such vectors are
	// counted as known differences and not checked further.
	Limit func(e *Event) (reason string, ok bool)
	// Note is reported with the results (what the adapter adds or lacks).
	Note string
}

// PanicError is a panic inside a library, recovered by the harness.
type PanicError struct {
	Value any
	Where string
}

func (p *PanicError) Error() string { return fmt.Sprintf("panic: %v (in %s)", p.Value, p.Where) }

// SafeDecode runs Decode, turning a panic into a *PanicError.
func (c *Codec) SafeDecode(b []byte) (ev *Event, err error) {
	defer func() {
		if r := recover(); r != nil {
			ev, err = nil, &PanicError{Value: r, Where: panicSite(debug.Stack())}
		}
	}()
	return c.Decode(b)
}

// SafeEncode runs Encode, turning a panic into a *PanicError.
func (c *Codec) SafeEncode(e *Event) (b []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			b, err = nil, &PanicError{Value: r, Where: panicSite(debug.Stack())}
		}
	}()
	return c.Encode(e)
}

// panicSite is the function and file:line that panicked, from a stack.
func panicSite(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "panic(") && i+3 < len(lines) {
			fn := lines[i+2]
			if j := strings.LastIndex(fn, "("); j > 0 {
				fn = fn[:j]
			}
			loc := strings.TrimSpace(lines[i+3])
			if j := strings.LastIndex(loc, " +0x"); j > 0 {
				loc = loc[:j]
			}
			if j := strings.Index(loc, "/pkg/mod/"); j >= 0 {
				loc = loc[j+len("/pkg/mod/"):]
			} else if j := strings.Index(loc, "/scripts/interop/go/"); j >= 0 {
				loc = loc[j+1:]
			}
			return fn + " at " + loc
		}
	}
	return "unknown"
}

// Unsupported names a profile with no Go library here, and why.
type Unsupported struct{ Profile, Reason string }

func codecs() []*Codec {
	all := []*Codec{
		jsonCodec("json"), jsonCodec("json-sonic"), jsonCodec("json-simd"),
		goNostrJSONCodec(),
		cborCodec(), msgpackCodec(), protobufCodec(), flatbuffersCodec(),
	}
	all = append(all, avroCodecs()...)
	all = append(all, bsonCodec(), thriftCodec())
	return append(all, goNostrBinaryCodecs()...)
}

var unsupported = []Unsupported{
	{"flexbuffers", "the Go module github.com/google/flatbuffers has no FlexBuffers implementation (C++, Java, Rust, Python, JS only)"},
	{"capnp-packed", "capnproto.org/go/capnp/v3 (newest served v3.0.0-alpha.30) needs zenhack.net/go/util, which the Go module proxy refuses here (403)"},
	{"beve", "no Go BEVE library (BEVE's reference implementation is C++ Glaze)"},
	{"bincode", "Rust-only serde format; no Go implementation of bincode's layout"},
	{"postcard", "Rust-only serde format; no Go implementation of postcard's layout"},
	{"notepack", "the original is Rust (jb55/notepack); no Go original"},
	{"dannypack", "the original is Rust (dannym-arx/binostr); no Go original"},
	{"event2", "the Go original is mleku.net/nostr, which the Go module proxy refuses here (403)"},
	{"otnetstring", "not attempted in the Go harness (time); no Go library was looked up"},
	{"tnetstring", "not attempted in the Go harness (time); no Go library was looked up"},
	{"bencode", "github.com/jackpal/bencode-go and github.com/zeebo/bencode are refused by the Go module proxy here (403)"},
}
