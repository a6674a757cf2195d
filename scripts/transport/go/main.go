// Command transport-go is an independent Go client harness for `binostr
// relay` (NIP-01 over WebSocket, JSON profile), built on the libraries the
// `nak` CLI uses: github.com/coder/websocket for the connection and
// github.com/nbd-wtf/go-nostr for filter matching and BIP-340 verification.
//
// It reads the relay's NIP-11 document, connects with the requested
// permessage-deflate mode, sends every filter of filters.json as its own
// REQ, consecutive triples as multi-filter REQs, a `{}` REQ, large REQs (40
// authors, 25 `#e` values, 10 ids), limits that cut a created_at tie or are
// over max_limit, and compares each answer (ids and order) with the answer
// it computes itself from the events file: matches by go-nostr's
// Filter.Matches, newest first (created_at descending, then id ascending),
// each filter's limit (clamped to NIP-11 max_limit) applied to that filter
// alone, the union deduplicated. Every received event's id and signature
// are verified. It then publishes one event and expects a refusal
// (`["OK", id, false, "<prefix>: ..."]`).
//
// With compression on, REQs go out through the library's streaming writer,
// which is what Conn.Write itself does in coder/websocket v1.8.12 to v1.8.14:
// a message of 128 bytes (CompressionThreshold) or more goes out compressed
// and fragmented (a compressed data frame, then an empty FIN continuation).
// The EVENT goes out with Conn.Write, a single compressed frame in v1.8.15.
//
// Output: one JSON summary line on stdout and each mismatch on stderr; exit
// status 1 on any mismatch, failed verification or unexpected message.
//
// usage: transport-go --url ws://127.0.0.1:PORT --events FILE.jsonl
//
//	--filters filters.json --mode none|deflate|deflate-ctx [--timeout 30s]
//
// or: transport-go ties --events FILE.jsonl [--count 20] >> FILE.jsonl
// (tied events to serve as well; see ties).
package main

import (
	"bufio"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/coder/websocket"
	"github.com/nbd-wtf/go-nostr"
)

// readLimit bounds one message from the relay.
const readLimit = 16 << 20

// compressionThreshold is the smallest message the client compresses (the
// library's default with context takeover; without it the default is 512).
const compressionThreshold = 128

// maxReported is how many mismatch descriptions the summary carries.
const maxReported = 8

// okPrefixes are NIP-01's machine-readable prefixes of OK and CLOSED messages.
var okPrefixes = []string{
	"duplicate", "pow", "blocked", "rate-limited", "invalid", "restricted",
	"mute", "error", "auth-required",
}

type options struct {
	url, events, filters, mode string
	timeout                    time.Duration
}

type summary struct {
	Mode             string   `json:"mode"`
	Extension        string   `json:"extension"`
	MaxLimit         *int     `json:"max_limit"`
	Reqs             int      `json:"reqs"`
	ReqsExact        int      `json:"reqs_exact"`
	EventsReceived   int      `json:"events_received"`
	EventsVerified   int      `json:"events_verified"`
	Reconnects       int      `json:"reconnects"`
	Mismatches       int      `json:"mismatches"`
	FirstMismatches  []string `json:"first_mismatches,omitempty"`
	Notes            []string `json:"notes,omitempty"`
	PublishedRefusal string   `json:"published_refusal,omitempty"`
	OK               bool     `json:"ok"`
}

// request is one REQ: its filters as sent and as go-nostr parsed them.
type request struct {
	sub     string
	raw     []json.RawMessage
	filters []nostr.Filter
}

type harness struct {
	opt      options
	mode     websocket.CompressionMode
	events   []*nostr.Event // newest first, ties by id ascending
	byID     map[string]*nostr.Event
	maxLimit int // 0: no clamp
	conn     *websocket.Conn
	sum      summary
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "ties" {
		if err := ties(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "ties:", err)
			os.Exit(1)
		}
		return
	}
	var opt options
	flag.StringVar(&opt.url, "url", "", "relay WebSocket URL, ws://host:port")
	flag.StringVar(&opt.events, "events", "", "JSONL file of the events the relay serves")
	flag.StringVar(&opt.filters, "filters", "", "filters.json written by `binostr filters`")
	flag.StringVar(&opt.mode, "mode", "none", "compression: none, deflate or deflate-ctx")
	flag.DurationVar(&opt.timeout, "timeout", 30*time.Second, "limit on every wait")
	flag.Parse()
	if opt.url == "" || opt.events == "" || opt.filters == "" {
		fmt.Fprintln(os.Stderr, "usage: transport-go --url ws://HOST:PORT --events FILE.jsonl --filters filters.json --mode none|deflate|deflate-ctx")
		os.Exit(2)
	}
	h := &harness{opt: opt, sum: summary{Mode: opt.mode}}
	if err := h.run(); err != nil {
		h.mismatch("fatal: %v", err)
	}
	h.sum.OK = h.sum.Mismatches == 0
	line, _ := json.Marshal(h.sum)
	fmt.Println(string(line))
	if !h.sum.OK {
		os.Exit(1)
	}
}

// mismatch records a failure: every one on stderr, the first few in the
// summary.
func (h *harness) mismatch(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintf(os.Stderr, "%s: MISMATCH %s\n", h.opt.mode, msg)
	h.sum.Mismatches++
	if len(h.sum.FirstMismatches) < maxReported {
		h.sum.FirstMismatches = append(h.sum.FirstMismatches, msg)
	}
}

func (h *harness) note(format string, args ...any) {
	h.sum.Notes = append(h.sum.Notes, fmt.Sprintf(format, args...))
}

func (h *harness) run() error {
	switch h.opt.mode {
	case "none":
		h.mode = websocket.CompressionDisabled
	case "deflate":
		h.mode = websocket.CompressionNoContextTakeover
	case "deflate-ctx":
		h.mode = websocket.CompressionContextTakeover
	default:
		return fmt.Errorf("unknown --mode %q", h.opt.mode)
	}
	if err := h.loadEvents(); err != nil {
		return err
	}
	drawn, err := loadFilters(h.opt.filters)
	if err != nil {
		return err
	}
	h.checkReferenceCounts(drawn)
	h.readNIP11()

	reqs := make([]request, 0, len(drawn.reqs)+len(drawn.reqs)/3+4)
	reqs = append(reqs, drawn.reqs...)
	for i := 0; i+3 <= len(drawn.reqs); i += 3 {
		r := request{sub: fmt.Sprintf("multi-%d", i)}
		for _, d := range drawn.reqs[i : i+3] {
			r.raw = append(r.raw, d.raw...)
			r.filters = append(r.filters, d.filters...)
		}
		reqs = append(reqs, r)
	}
	reqs = append(reqs, h.largeRequests()...)

	for _, r := range reqs {
		h.request(r)
	}
	h.publish()
	if h.conn != nil {
		// A normal closure: the relay must answer the close frame.
		if err := h.conn.Close(websocket.StatusNormalClosure, "done"); err != nil {
			h.mismatch("close: %v", err)
		}
	}
	return nil
}

// readEvents reads a JSONL events file in file order.
func readEvents(path string) ([]*nostr.Event, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var events []*nostr.Event
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), readLimit)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var e nostr.Event
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		events = append(events, &e)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(events) == 0 {
		return nil, fmt.Errorf("%s: no events", path)
	}
	return events, nil
}

// loadEvents reads the events file and sorts it into answer order.
func (h *harness) loadEvents() error {
	events, err := readEvents(h.opt.events)
	if err != nil {
		return err
	}
	h.byID = map[string]*nostr.Event{}
	for _, e := range events {
		if _, dup := h.byID[e.ID]; dup {
			h.note("events file repeats id %s; counted once", e.ID)
			continue
		}
		h.byID[e.ID] = e
		h.events = append(h.events, e)
	}
	slices.SortFunc(h.events, newestFirst)
	return nil
}

// ties prints signed events that share created_at with events of a file (the
// generated corpus has no two events with one created_at, so the answer
// order's tie rule, lowest id first, would otherwise go untested): for each
// of the first --count events, two kind-1 notes of one fixed key, with its
// created_at and an `e` tag naming it.
func ties(args []string) error {
	fs := flag.NewFlagSet("ties", flag.ContinueOnError)
	path := fs.String("events", "", "JSONL events file")
	count := fs.Int("count", 20, "events that get two tied notes each")
	if err := fs.Parse(args); err != nil {
		return err
	}
	events, err := readEvents(*path)
	if err != nil {
		return err
	}
	key := sha256.Sum256([]byte("transport-go tie key"))
	out := bufio.NewWriter(os.Stdout)
	for i, orig := range events[:min(*count, len(events))] {
		for j := range 2 {
			e := nostr.Event{
				CreatedAt: orig.CreatedAt,
				Kind:      1,
				Tags:      nostr.Tags{{"e", orig.ID}, {"t", "transport-go-tie"}},
				Content:   fmt.Sprintf("tie %d.%d", i, j),
			}
			if err := e.Sign(hex.EncodeToString(key[:])); err != nil {
				return err
			}
			line, err := json.Marshal(e)
			if err != nil {
				return err
			}
			out.Write(append(line, '\n'))
		}
	}
	return out.Flush()
}

func newestFirst(a, b *nostr.Event) int {
	if a.CreatedAt != b.CreatedAt {
		if a.CreatedAt > b.CreatedAt {
			return -1
		}
		return 1
	}
	return strings.Compare(a.ID, b.ID)
}

type filterFile struct {
	reqs    []request
	matches []uint64
}

// loadFilters reads filters.json: {"filters": [...], "matches": [...]}.
func loadFilters(path string) (filterFile, error) {
	var doc struct {
		Filters []json.RawMessage `json:"filters"`
		Matches []uint64          `json:"matches"`
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return filterFile{}, err
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return filterFile{}, fmt.Errorf("%s: %w", path, err)
	}
	if len(doc.Filters) == 0 {
		return filterFile{}, fmt.Errorf("%s: no filters", path)
	}
	out := filterFile{matches: doc.Matches}
	for i, raw := range doc.Filters {
		var f nostr.Filter
		if err := json.Unmarshal(raw, &f); err != nil {
			return filterFile{}, fmt.Errorf("%s: filter %d: %w", path, i, err)
		}
		out.reqs = append(out.reqs, request{
			sub:     fmt.Sprintf("f%d", i),
			raw:     []json.RawMessage{raw},
			filters: []nostr.Filter{f},
		})
	}
	return out, nil
}

// checkReferenceCounts compares go-nostr's match counts (limit ignored) with
// the counts binostr's reference matcher wrote beside the filters.
func (h *harness) checkReferenceCounts(ff filterFile) {
	if len(ff.matches) != len(ff.reqs) {
		h.note("filters.json has %d match counts for %d filters; not compared", len(ff.matches), len(ff.reqs))
		return
	}
	for i, r := range ff.reqs {
		var n uint64
		for _, e := range h.events {
			if r.filters[0].Matches(e) {
				n++
			}
		}
		if n != ff.matches[i] {
			h.mismatch("filter %d: go-nostr matches %d events, filters.json says %d", i, n, ff.matches[i])
		}
	}
}

// readNIP11 fetches the relay information document and its max_limit.
func (h *harness) readNIP11() {
	httpURL := "http" + strings.TrimPrefix(h.opt.url, "ws")
	ctx, cancel := context.WithTimeout(context.Background(), h.opt.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, httpURL, nil)
	if err != nil {
		h.mismatch("nip11: %v", err)
		return
	}
	req.Header.Set("Accept", "application/nostr+json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.mismatch("nip11: GET %s: %v (relay without NIP-11?); limits not clamped", httpURL, err)
		return
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, readLimit))
	if err != nil {
		h.mismatch("nip11: reading body: %v", err)
		return
	}
	if resp.StatusCode != http.StatusOK {
		h.mismatch("nip11: GET %s: HTTP %d %q (relay without NIP-11?); limits not clamped", httpURL, resp.StatusCode, clip(string(body), 80))
		return
	}
	var doc struct {
		Limitation *struct {
			MaxLimit *int `json:"max_limit"`
		} `json:"limitation"`
		Binostr struct {
			Encodings []string `json:"encodings"`
		} `json:"binostr"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		h.mismatch("nip11: not JSON (%v): %q", err, clip(string(body), 80))
		return
	}
	if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "*" {
		h.mismatch("nip11: Access-Control-Allow-Origin %q, want \"*\"", got)
	}
	if !slices.Contains(doc.Binostr.Encodings, "json") {
		h.mismatch("nip11: binostr.encodings %q lacks json", doc.Binostr.Encodings)
	}
	if doc.Limitation == nil || doc.Limitation.MaxLimit == nil {
		h.note("nip11: no limitation.max_limit; limits not clamped")
		return
	}
	h.maxLimit = *doc.Limitation.MaxLimit
	h.sum.MaxLimit = doc.Limitation.MaxLimit
	if h.maxLimit <= 0 {
		h.mismatch("nip11: limitation.max_limit %d is not positive", h.maxLimit)
		h.maxLimit = 0
	}
}

// largeRequests builds the REQ-all, the REQs whose single filter is far over
// the compression threshold, one whose limit ends inside a created_at tie
// and, with a NIP-11 max_limit, one whose limit is over it.
func (h *harness) largeRequests() []request {
	var authors, etags, ids []string
	for _, e := range h.events {
		if len(authors) < 40 && !slices.Contains(authors, e.PubKey) {
			authors = append(authors, e.PubKey)
		}
		for _, t := range e.Tags {
			if len(etags) < 25 && len(t) >= 2 && t[0] == "e" && !slices.Contains(etags, t[1]) {
				etags = append(etags, t[1])
			}
		}
	}
	// Ids spread over the answer order, so some are old and some new.
	for i := 0; i < 10 && i < len(h.events); i++ {
		ids = append(ids, h.events[i*len(h.events)/10].ID)
	}
	authors = h.pad("authors", authors, 40)
	etags = h.pad("#e values", etags, 25)

	all := request{sub: "all", raw: []json.RawMessage{json.RawMessage(`{}`)}, filters: []nostr.Filter{{}}}
	reqs := []request{all}
	for _, l := range []struct {
		sub string
		f   nostr.Filter
	}{
		{"authors-40", nostr.Filter{Authors: authors}},
		{"e-25", nostr.Filter{Tags: nostr.TagMap{"e": etags}}},
		{"ids-10", nostr.Filter{IDs: ids}},
		{"authors-40-limit-25", nostr.Filter{Authors: authors, Limit: 25}},
	} {
		raw, err := json.Marshal(l.f)
		if err != nil {
			panic(err)
		}
		reqs = append(reqs, request{sub: l.sub, raw: []json.RawMessage{raw}, filters: []nostr.Filter{l.f}})
	}
	// A limit that ends inside a group of events with one created_at: which
	// of them it keeps is decided by the id order alone.
	for k := 1; k < len(h.events); k++ {
		if h.events[k-1].CreatedAt == h.events[k].CreatedAt {
			f := nostr.Filter{Limit: k}
			raw := json.RawMessage(fmt.Sprintf(`{"limit":%d}`, k))
			reqs = append(reqs, request{sub: "limit-cuts-tie", raw: []json.RawMessage{raw}, filters: []nostr.Filter{f}})
			break
		}
	}
	if h.maxLimit > 0 {
		// A limit over max_limit is clamped to it.
		f := nostr.Filter{Limit: h.maxLimit + 1000}
		raw := json.RawMessage(fmt.Sprintf(`{"limit":%d}`, f.Limit))
		reqs = append(reqs, request{sub: "over-max-limit", raw: []json.RawMessage{raw}, filters: []nostr.Filter{f}})
	}
	return reqs
}

// pad fills values up to n with hex values no event has (a corpus with fewer
// distinct values still gives a large REQ).
func (h *harness) pad(what string, values []string, n int) []string {
	if len(values) < n {
		h.note("events have %d distinct %s; padded to %d with absent values", len(values), what, n)
	}
	for i := 0; len(values) < n; i++ {
		sum := sha256.Sum256([]byte(fmt.Sprintf("transport-go absent %s %d", what, i)))
		values = append(values, hex.EncodeToString(sum[:]))
	}
	return values
}

// expected is the answer to r computed from the events file.
func (h *harness) expected(r request) []string {
	in := make(map[string]bool)
	for _, f := range r.filters {
		limit := -1
		if f.Limit > 0 || f.LimitZero {
			limit = f.Limit
			if h.maxLimit > 0 && limit > h.maxLimit {
				limit = h.maxLimit
			}
		}
		n := 0
		for _, e := range h.events {
			if limit >= 0 && n >= limit {
				break
			}
			if f.Matches(e) {
				in[e.ID] = true
				n++
			}
		}
	}
	var out []string
	for _, e := range h.events {
		if in[e.ID] {
			out = append(out, e.ID)
		}
	}
	return out
}

func (h *harness) dial() error {
	ctx, cancel := context.WithTimeout(context.Background(), h.opt.timeout)
	defer cancel()
	conn, resp, err := websocket.Dial(ctx, h.opt.url, &websocket.DialOptions{
		CompressionMode:      h.mode,
		CompressionThreshold: compressionThreshold,
	})
	if err != nil {
		return fmt.Errorf("dial %s: %w", h.opt.url, err)
	}
	conn.SetReadLimit(readLimit)
	ext := resp.Header.Get("Sec-WebSocket-Extensions")
	if h.sum.Extension == "" {
		h.sum.Extension = cmp.Or(ext, "none")
	}
	if problem := checkExtension(h.opt.mode, ext); problem != "" {
		h.mismatch("handshake: Sec-WebSocket-Extensions %q: %s", ext, problem)
	}
	h.conn = conn
	return nil
}

// checkExtension says what is wrong with the relay's extension answer for
// mode, or "" when it agrees.
func checkExtension(mode, ext string) string {
	params := map[string]bool{}
	name := ""
	for i, p := range strings.Split(ext, ";") {
		p = strings.TrimSpace(p)
		if i == 0 {
			name = p
		} else if p != "" {
			params[p] = true
		}
	}
	switch mode {
	case "none":
		if ext != "" {
			return "none was offered"
		}
		return ""
	case "deflate", "deflate-ctx":
		if name != "permessage-deflate" {
			return "want permessage-deflate"
		}
		want := mode == "deflate"
		if params["client_no_context_takeover"] != want || params["server_no_context_takeover"] != want {
			return fmt.Sprintf("no_context_takeover parameters should be %v, as offered", want)
		}
		return ""
	}
	return "unknown mode"
}

// send writes one text message the way nostr clients on coder/websocket
// v1.8.12..v1.8.14 do: with compression, through the streaming writer, so a
// message at or above the threshold goes out compressed and fragmented.
func (h *harness) send(ctx context.Context, msg []byte) error {
	if h.mode == websocket.CompressionDisabled {
		return h.conn.Write(ctx, websocket.MessageText, msg)
	}
	return writeFragmented(ctx, h.conn, msg)
}

func writeFragmented(ctx context.Context, conn *websocket.Conn, msg []byte) error {
	w, err := conn.Writer(ctx, websocket.MessageText)
	if err != nil {
		return err
	}
	if _, err := w.Write(msg); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

func (h *harness) dropConn() {
	if h.conn != nil {
		h.conn.CloseNow()
		h.conn = nil
		h.sum.Reconnects++
	}
}

// request sends one REQ, reads it to EOSE, sends CLOSE and compares.
func (h *harness) request(r request) {
	h.sum.Reqs++
	want := h.expected(r)
	if h.conn == nil {
		if err := h.dial(); err != nil {
			h.mismatch("%s: %v", r.sub, err)
			return
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), h.opt.timeout)
	defer cancel()
	msg, err := json.Marshal(append([]any{"REQ", r.sub}, rawAny(r.raw)...))
	if err != nil {
		panic(err)
	}
	if err := h.send(ctx, msg); err != nil {
		h.mismatch("%s: sending REQ (%d bytes): %v", r.sub, len(msg), err)
		h.dropConn()
		return
	}
	var got []string
	for done := false; !done; {
		typ, data, err := h.conn.Read(ctx)
		if err != nil {
			h.mismatch("%s: REQ of %d bytes: connection failed after %d of %d events: %v",
				r.sub, len(msg), len(got), len(want), err)
			h.dropConn()
			return
		}
		if typ != websocket.MessageText {
			h.mismatch("%s: binary message from a JSON relay", r.sub)
			continue
		}
		var env []json.RawMessage
		label := ""
		if json.Unmarshal(data, &env) != nil || len(env) == 0 || json.Unmarshal(env[0], &label) != nil {
			h.mismatch("%s: not a NIP-01 message: %q", r.sub, clip(string(data), 80))
			continue
		}
		sub := ""
		if len(env) > 1 {
			json.Unmarshal(env[1], &sub)
		}
		switch {
		case label == "EVENT" && len(env) == 3 && sub == r.sub:
			if id, ok := h.checkEvent(r.sub, env[2]); ok {
				got = append(got, id)
			}
		case label == "EOSE" && len(env) == 2 && sub == r.sub:
			done = true
		case label == "CLOSED" && sub == r.sub:
			h.mismatch("%s: relay closed the REQ: %s", r.sub, clip(string(data), 120))
			return
		default:
			h.mismatch("%s: unexpected message: %s", r.sub, clip(string(data), 120))
		}
	}
	closeMsg, _ := json.Marshal([]string{"CLOSE", r.sub})
	if err := h.send(ctx, closeMsg); err != nil {
		h.mismatch("%s: sending CLOSE: %v", r.sub, err)
		h.dropConn()
	}
	if d := diff(want, got, h.byID); d != "" {
		h.mismatch("%s (%s): %s", r.sub, clip(string(msg), 100), d)
		return
	}
	h.sum.ReqsExact++
}

func rawAny(raw []json.RawMessage) []any {
	out := make([]any, len(raw))
	for i, r := range raw {
		out[i] = r
	}
	return out
}

// checkEvent parses a received event, verifies its id and signature and
// compares it with the stored event of that id.
func (h *harness) checkEvent(sub string, raw json.RawMessage) (string, bool) {
	h.sum.EventsReceived++
	var e nostr.Event
	if err := json.Unmarshal(raw, &e); err != nil {
		h.mismatch("%s: unparsable event: %v", sub, err)
		return "", false
	}
	if e.GetID() != e.ID {
		h.mismatch("%s: event %s: id does not hash", sub, e.ID)
		return e.ID, true
	}
	if ok, err := e.CheckSignature(); !ok {
		h.mismatch("%s: event %s: bad signature (%v)", sub, e.ID, err)
		return e.ID, true
	}
	h.sum.EventsVerified++
	stored, ok := h.byID[e.ID]
	if !ok {
		h.mismatch("%s: event %s is not in the events file", sub, e.ID)
	} else if stored.Sig != e.Sig || string(stored.Serialize()) != string(e.Serialize()) {
		h.mismatch("%s: event %s differs from the stored event", sub, e.ID)
	}
	return e.ID, true
}

// diff describes how got differs from want, or "" when they are equal.
func diff(want, got []string, byID map[string]*nostr.Event) string {
	if slices.Equal(want, got) {
		return ""
	}
	wantSet := make(map[string]bool, len(want))
	for _, id := range want {
		wantSet[id] = true
	}
	gotSet := make(map[string]bool, len(got))
	dups, extra := 0, 0
	for _, id := range got {
		if gotSet[id] {
			dups++
		}
		gotSet[id] = true
		if !wantSet[id] {
			extra++
		}
	}
	missing := 0
	for _, id := range want {
		if !gotSet[id] {
			missing++
		}
	}
	s := fmt.Sprintf("expected %d events, received %d (%d missing, %d extra, %d duplicates)",
		len(want), len(got), missing, extra, dups)
	for i := 0; i < len(want) && i < len(got); i++ {
		if want[i] != got[i] {
			s += fmt.Sprintf("; first difference at #%d: expected %s, received %s",
				i, describe(want[i], byID), describe(got[i], byID))
			break
		}
	}
	if missing == 0 && extra == 0 && dups == 0 {
		s += "; same events, wrong order"
	}
	return s
}

func describe(id string, byID map[string]*nostr.Event) string {
	if e, ok := byID[id]; ok {
		return fmt.Sprintf("%s… created_at %d", id[:12], e.CreatedAt)
	}
	return clip(id, 12) + "… (unknown)"
}

// publish sends one stored event and expects a NIP-01 refusal.
func (h *harness) publish() {
	if h.conn == nil {
		if err := h.dial(); err != nil {
			h.mismatch("publish: %v", err)
			return
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), h.opt.timeout)
	defer cancel()
	e := h.events[len(h.events)/2]
	msg, err := json.Marshal([]any{"EVENT", e})
	if err != nil {
		panic(err)
	}
	if err := h.conn.Write(ctx, websocket.MessageText, msg); err != nil {
		h.mismatch("publish: sending EVENT: %v", err)
		h.dropConn()
		return
	}
	for {
		_, data, err := h.conn.Read(ctx)
		if err != nil {
			h.mismatch("publish: no OK for EVENT %s…: %v", e.ID[:12], err)
			h.dropConn()
			return
		}
		var env []json.RawMessage
		label := ""
		if json.Unmarshal(data, &env) != nil || len(env) == 0 || json.Unmarshal(env[0], &label) != nil || label != "OK" {
			h.mismatch("publish: unexpected message: %s", clip(string(data), 120))
			continue
		}
		var id, reason string
		var accepted bool
		if len(env) != 4 || json.Unmarshal(env[1], &id) != nil ||
			json.Unmarshal(env[2], &accepted) != nil || json.Unmarshal(env[3], &reason) != nil {
			h.mismatch("publish: malformed OK: %s", clip(string(data), 120))
			return
		}
		h.sum.PublishedRefusal = reason
		switch {
		case id != e.ID:
			h.mismatch("publish: OK for %s, sent %s", id, e.ID)
		case accepted:
			h.mismatch("publish: a read-only relay accepted EVENT %s…", e.ID[:12])
		case !hasPrefix(reason):
			h.mismatch("publish: OK message %q has no NIP-01 prefix", reason)
		}
		return
	}
}

func hasPrefix(reason string) bool {
	prefix, _, found := strings.Cut(reason, ":")
	return found && slices.Contains(okPrefixes, prefix)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
