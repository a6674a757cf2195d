package main

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"syscall"
	"time"
)

// runBench times each Go library decoding the framed corpus stream that
// `binostr encode` writes for its profile: the median over rounds of one
// pass over every record, divided by the record count. Time is the
// process's CPU time (user + system, getrusage) with GOMAXPROCS 1, so that
// other processes on a shared machine do not inflate it while the garbage
// collector's work still counts.
func runBench(corpus, outPath string, quick bool) error {
	runtime.GOMAXPROCS(1)
	if corpus == "" {
		corpus = filepath.Join(repoRoot, "results", "corpus", "default", "selection.jsonl")
	}
	rounds, limit := 15, 0
	if quick {
		rounds, limit = 3, 1000
	}
	tmp, err := os.MkdirTemp("", "interop-go-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	var out bytes.Buffer
	out.WriteString("language,format,library,version,ns_per_event,events\n")
	streams := map[string][][]byte{}
	jsonFrames, err := encodeCorpus("json", corpus, tmp)
	if err != nil {
		return err
	}
	reference := make([]*Event, len(jsonFrames))
	for i, f := range jsonFrames {
		if reference[i], err = jsonCodec("json").Decode(f); err != nil {
			return fmt.Errorf("corpus record %d: %w", i, err)
		}
	}
	for _, c := range codecs() {
		frames, ok := streams[c.Profile]
		if !ok {
			if frames, err = encodeCorpus(c.Profile, corpus, tmp); err != nil {
				return err
			}
			if len(frames) != len(reference) {
				// The profile refused some records (nson: headers over 255
				// bytes), so its stream no longer lines up with json's.
				fmt.Fprintf(os.Stderr, "%-15s %-55s not timed: %d records, json has %d (the rest not representable)\n",
					c.Profile, c.Library, len(frames), len(reference))
				continue
			}
			if limit > 0 && len(frames) > limit {
				frames = frames[:limit]
			}
			streams[c.Profile] = frames
		}
		if err := corpusRoundTrip(c, frames, reference); err != nil {
			return err
		}
		ns, err := medianNsPerEvent(rounds, len(frames), func() error {
			for i, f := range frames {
				if _, err := c.Decode(f); err != nil {
					return fmt.Errorf("%s [%s] record %d: %w", c.Profile, c.Library, i, err)
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		fmt.Printf("%-15s %-55s %8.0f ns/event (%d events)\n", c.Profile, c.Library, ns, len(frames))
		fmt.Fprintf(&out, "go,%s,%s,%s,%.1f,%d\n", c.Profile, csvField(c.Library), moduleVersion(c.Module), ns, len(frames))
	}
	ns, n, err := benchGob(streams["json"], rounds)
	if err != nil {
		return err
	}
	fmt.Printf("%-15s %-55s %8.0f ns/event (%d events)\n", "gob", "encoding/gob", ns, n)
	fmt.Fprintf(&out, "go,gob,%s,%s,%.1f,%d\n", csvField("encoding/gob (one stream, types sent once)"), moduleVersion(""), ns, n)
	return writeResult(outPath, out.Bytes())
}

func encodeCorpus(profile, corpus, tmp string) ([][]byte, error) {
	path := filepath.Join(tmp, profile+".frames")
	argv := append(binostrCommand(), "encode", "--profile", profile, "-o", path, corpus)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = repoRoot
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("binostr encode --profile %s: %w", profile, err)
	}
	return readFrames(path)
}

// medianNsPerEvent runs pass once to warm up, then rounds times.
func medianNsPerEvent(rounds, events int, pass func() error) (float64, error) {
	if events == 0 {
		return 0, fmt.Errorf("no events to time")
	}
	if err := pass(); err != nil {
		return 0, err
	}
	times := make([]time.Duration, rounds)
	for r := range times {
		start, err := cpuTime()
		if err != nil {
			return 0, err
		}
		if err := pass(); err != nil {
			return 0, err
		}
		end, err := cpuTime()
		if err != nil {
			return 0, err
		}
		times[r] = end - start
	}
	slices.Sort(times)
	return float64(times[rounds/2].Nanoseconds()) / float64(events), nil
}

// benchGob is the Go-native reference: the corpus as one gob stream of
// Event values, decoded with one Decoder per pass, after one pass whose
// events are compared with the corpus.
func benchGob(jsonFrames [][]byte, rounds int) (float64, int, error) {
	var stream bytes.Buffer
	enc := gob.NewEncoder(&stream)
	json := jsonCodec("json")
	events := make([]*Event, len(jsonFrames))
	for i, f := range jsonFrames {
		e, err := json.Decode(f)
		if err != nil {
			return 0, 0, err
		}
		if err := enc.Encode(e); err != nil {
			return 0, 0, err
		}
		events[i] = e
	}
	data := stream.Bytes()
	if err := gobRoundTrip(data, events); err != nil {
		return 0, 0, err
	}
	n := len(jsonFrames)
	ns, err := medianNsPerEvent(rounds, n, func() error {
		dec := gob.NewDecoder(bytes.NewReader(data))
		for i := 0; i < n; i++ {
			var e Event
			if err := dec.Decode(&e); err != nil {
				return fmt.Errorf("gob record %d: %w", i, err)
			}
		}
		return nil
	})
	return ns, n, err
}

// gobRoundTrip checks that the gob stream decodes to exactly `events` (a
// timing of a wrong decode means nothing).
func gobRoundTrip(data []byte, events []*Event) error {
	dec := gob.NewDecoder(bytes.NewReader(data))
	for i, want := range events {
		var e Event
		if err := dec.Decode(&e); err != nil {
			return fmt.Errorf("gob record %d of %d: %w", i, len(events), err)
		}
		if !e.Equal(want) {
			return fmt.Errorf("gob record %d decodes to a different event than the corpus's", i)
		}
	}
	return nil
}

// cpuTime is this process's user + system CPU time so far.
func cpuTime() (time.Duration, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, err
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), nil
}

// corpusRoundTrip checks that the library decodes every timed record to the
// corpus event (a timing of a wrong decoder means nothing) and reports how
// many records it re-encodes to identical bytes.
func corpusRoundTrip(c *Codec, frames [][]byte, reference []*Event) error {
	same, explained := 0, 0
	var firstOther string
	for i, f := range frames {
		e, err := c.SafeDecode(f)
		if err != nil {
			return fmt.Errorf("%s [%s] corpus record %d: %w", c.Profile, c.Library, i, err)
		}
		if !e.Equal(reference[i]) {
			return fmt.Errorf("%s [%s] corpus record %d decodes to a different event", c.Profile, c.Library, i)
		}
		re, err := c.SafeEncode(e)
		switch {
		case err == nil && bytes.Equal(re, f):
			same++
		case err != nil && len(explainEncode(c, e, err)) > 0:
			explained++
		case err == nil:
			if len(explain(c, f, re)) > 0 {
				explained++
				continue
			}
			fallthrough
		default:
			if firstOther == "" {
				firstOther = fmt.Sprintf("record %d: %v", i, err)
			}
		}
	}
	fmt.Printf("%-15s %-55s corpus: %d decode to the corpus event, %d re-encode identically, %d differ as documented",
		c.Profile, c.Library, len(frames), same, explained)
	if firstOther != "" {
		fmt.Printf(", %d other (first: %s)", len(frames)-same-explained, firstOther)
	}
	fmt.Println()
	return nil
}
