// Tests of the harness itself: that its REQs really go out compressed and
// fragmented (the case the relay must accept), and that its expected answers
// follow the NIP-01 order, limit and union rules.
package main

import (
	"bufio"
	"bytes"
	"compress/flate"
	"context"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/nbd-wtf/go-nostr"
)

type frame struct {
	fin, rsv1 bool
	opcode    byte
	payload   []byte
}

// readFrame reads one masked client frame.
func readFrame(r *bufio.Reader) (frame, error) {
	var hdr [2]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return frame{}, err
	}
	f := frame{fin: hdr[0]&0x80 != 0, rsv1: hdr[0]&0x40 != 0, opcode: hdr[0] & 0x0f}
	n := uint64(hdr[1] & 0x7f)
	switch n {
	case 126:
		var b [2]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return frame{}, err
		}
		n = uint64(binary.BigEndian.Uint16(b[:]))
	case 127:
		var b [8]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return frame{}, err
		}
		n = binary.BigEndian.Uint64(b[:])
	}
	if hdr[1]&0x80 == 0 {
		return frame{}, fmt.Errorf("unmasked client frame")
	}
	var mask [4]byte
	if _, err := io.ReadFull(r, mask[:]); err != nil {
		return frame{}, err
	}
	f.payload = make([]byte, n)
	if _, err := io.ReadFull(r, f.payload); err != nil {
		return frame{}, err
	}
	for i := range f.payload {
		f.payload[i] ^= mask[i%4]
	}
	return f, nil
}

// captureMessage accepts one WebSocket connection, agrees to the offered
// extension and returns the frames of the first message the client sends.
func captureMessage(ln net.Listener) ([]frame, error) {
	c, err := ln.Accept()
	if err != nil {
		return nil, err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReader(c)
	req, err := http.ReadRequest(r)
	if err != nil {
		return nil, err
	}
	sum := sha1.Sum([]byte(req.Header.Get("Sec-WebSocket-Key") + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	resp := "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Accept: " + base64.StdEncoding.EncodeToString(sum[:]) + "\r\n"
	if ext := req.Header.Get("Sec-WebSocket-Extensions"); ext != "" {
		resp += "Sec-WebSocket-Extensions: " + ext + "\r\n"
	}
	if _, err := io.WriteString(c, resp+"\r\n"); err != nil {
		return nil, err
	}
	var frames []frame
	for {
		f, err := readFrame(r)
		if err != nil {
			return frames, err
		}
		frames = append(frames, f)
		if f.fin {
			return frames, nil
		}
	}
}

func TestLargeREQsGoOutCompressedAndFragmented(t *testing.T) {
	msg := []byte(`["REQ","authors-40",{"authors":["` + strings.Repeat("ab", 32) + `","` +
		strings.Repeat("cd", 32) + `"]}]`)
	if len(msg) < compressionThreshold {
		t.Fatalf("test message of %d bytes is under the threshold", len(msg))
	}
	for name, mode := range map[string]websocket.CompressionMode{
		"deflate":     websocket.CompressionNoContextTakeover,
		"deflate-ctx": websocket.CompressionContextTakeover,
	} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		got := make(chan []frame, 1)
		errs := make(chan error, 1)
		go func() {
			frames, err := captureMessage(ln)
			got <- frames
			errs <- err
		}()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		conn, _, err := websocket.Dial(ctx, "ws://"+ln.Addr().String(), &websocket.DialOptions{
			CompressionMode:      mode,
			CompressionThreshold: compressionThreshold,
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := writeFragmented(ctx, conn, msg); err != nil {
			t.Fatal(err)
		}
		frames := <-got
		if err := <-errs; err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		conn.CloseNow()
		cancel()
		ln.Close()

		if len(frames) < 2 {
			t.Fatalf("%s: %d frame(s), want a fragmented message", name, len(frames))
		}
		if frames[0].opcode != 1 || !frames[0].rsv1 || frames[0].fin {
			t.Fatalf("%s: first frame opcode %d rsv1 %v fin %v, want a compressed text fragment",
				name, frames[0].opcode, frames[0].rsv1, frames[0].fin)
		}
		var deflated []byte
		for i, f := range frames {
			if i > 0 && (f.opcode != 0 || f.rsv1) {
				t.Fatalf("%s: frame %d opcode %d rsv1 %v, want a continuation", name, i, f.opcode, f.rsv1)
			}
			deflated = append(deflated, f.payload...)
		}
		deflated = append(deflated, 0, 0, 0xff, 0xff)
		inflated, err := io.ReadAll(flate.NewReader(bytes.NewReader(deflated)))
		if err != nil && err != io.ErrUnexpectedEOF {
			t.Fatalf("%s: inflating: %v", name, err)
		}
		if !bytes.Equal(inflated, msg) {
			t.Fatalf("%s: inflated %q, sent %q", name, inflated, msg)
		}
	}
}

func event(id string, createdAt int64, kind int, pubkey string) *nostr.Event {
	return &nostr.Event{ID: id, CreatedAt: nostr.Timestamp(createdAt), Kind: kind, PubKey: pubkey}
}

func TestExpectedOrderLimitAndUnion(t *testing.T) {
	h := &harness{events: []*nostr.Event{
		event("c", 10, 1, "x"),
		event("a", 20, 1, "y"),
		event("b", 10, 7, "x"),
		event("d", 30, 0, "y"),
	}}
	slices.SortFunc(h.events, newestFirst)
	var order []string
	for _, e := range h.events {
		order = append(order, e.ID)
	}
	if want := []string{"d", "a", "b", "c"}; !slices.Equal(order, want) {
		t.Fatalf("answer order %v, want %v (created_at descending, then id ascending)", order, want)
	}
	cases := []struct {
		filters  []nostr.Filter
		maxLimit int
		want     []string
	}{
		{[]nostr.Filter{{}}, 0, []string{"d", "a", "b", "c"}},
		{[]nostr.Filter{{Authors: []string{"x"}, Limit: 1}}, 0, []string{"b"}},
		{[]nostr.Filter{{Limit: 3}}, 2, []string{"d", "a"}},
		{[]nostr.Filter{{Kinds: []int{1}}, {Authors: []string{"x"}}}, 0, []string{"a", "b", "c"}},
		{[]nostr.Filter{{Kinds: []int{1}, Limit: 1}, {Kinds: []int{7}}}, 0, []string{"a", "b"}},
		{[]nostr.Filter{{LimitZero: true}}, 0, nil},
	}
	for i, c := range cases {
		h.maxLimit = c.maxLimit
		if got := h.expected(request{filters: c.filters}); !slices.Equal(got, c.want) {
			t.Errorf("case %d: expected() = %v, want %v", i, got, c.want)
		}
	}
}

func TestCheckExtension(t *testing.T) {
	for _, c := range []struct {
		mode, ext string
		ok        bool
	}{
		{"none", "", true},
		{"none", "permessage-deflate", false},
		{"deflate", "permessage-deflate; client_no_context_takeover; server_no_context_takeover", true},
		{"deflate", "permessage-deflate", false},
		{"deflate-ctx", "permessage-deflate", true},
		{"deflate-ctx", "permessage-deflate; server_no_context_takeover", false},
		{"deflate-ctx", "", false},
	} {
		if got := checkExtension(c.mode, c.ext) == ""; got != c.ok {
			t.Errorf("checkExtension(%q, %q) ok = %v, want %v", c.mode, c.ext, got, c.ok)
		}
	}
}

func TestRefusalPrefix(t *testing.T) {
	for reason, want := range map[string]bool{
		"blocked: read-only relay": true,
		"invalid: bad id":          true,
		"read-only relay":          false,
		"nope: x":                  false,
	} {
		if hasPrefix(reason) != want {
			t.Errorf("hasPrefix(%q) = %v, want %v", reason, !want, want)
		}
	}
}
