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
	// The recognisers below name a divergence they see (nil or "": none);
	// it passes only where divergences.json pins that key for this codec,
	// with the reason.
	//
	// ExplainDiff: why Go's bytes for an event differ from ours.
	ExplainDiff func(ours, goBytes []byte) (keys []string)
	// ExplainEncodeError: why encoding an event our profile represents fails.
	ExplainEncodeError func(e *Event, err error) (key string)
	// Limit: why the library cannot hold an event that our profile
	// represents; such vectors are not checked further.
	Limit func(e *Event) (key string)
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

// codecs are every (profile, library) of this harness, as coverage.json lists them.
func codecs() []*Codec {
	all := []*Codec{
		jsonCodec("json"), jsonCodec("json-sonic"), jsonCodec("json-simd"),
		goNostrJSONCodec(),
		cborCodec(), msgpackCodec(), protobufCodec(), flatbuffersCodec(),
	}
	all = append(all, avroCodecs()...)
	all = append(all, bsonCodec(), thriftCodec())
	all = append(all, goNostrBinaryCodecs()...)
	return append(all, nsonCodec())
}
