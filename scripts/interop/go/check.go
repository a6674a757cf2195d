package main

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

type checkRow struct {
	profile, library, version, status, reason string
	vectors, decodeOK, reencode, rustDecodes  int
}

func runCheck(vectorsPath, outPath string) error {
	vs, err := loadVectors(filepath.Join(repoRoot, vectorsPath))
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "interop-go-check-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	covered := map[string]bool{}
	var rows []checkRow
	failed := false
	for _, c := range codecs() {
		covered[c.Profile] = true
		row, problems, err := checkCodec(c, vs, tmp)
		if err != nil {
			return err
		}
		for _, p := range problems {
			fmt.Printf("FAIL %s [%s]: %s\n", c.Profile, c.Library, p)
		}
		failed = failed || row.status == "fail"
		rows = append(rows, row)
		fmt.Printf("%-15s %-50s %s vectors=%d decode_ok=%d reencode=%d rust_decodes=%d %s\n",
			row.profile, row.library, row.status, row.vectors, row.decodeOK, row.reencode, row.rustDecodes, row.reason)
	}
	reasons := map[string]string{}
	for _, u := range unsupported {
		reasons[u.Profile] = u.Reason
	}
	for _, p := range vs.Profiles {
		if covered[p.ID] {
			continue
		}
		r, ok := reasons[p.ID]
		if !ok {
			r = "no Go codec in this harness"
		}
		rows = append(rows, checkRow{profile: p.ID, status: "unsupported", reason: r})
		fmt.Printf("%-15s unsupported: %s\n", p.ID, r)
	}

	var out bytes.Buffer
	out.WriteString("profile,library,version,vectors,decode_ok,reencode,rust_decodes,status,reason\n")
	for _, r := range rows {
		fmt.Fprintf(&out, "%s,%s,%s,%d,%d,%d,%d,%s,%s\n", r.profile, csvField(r.library), r.version,
			r.vectors, r.decodeOK, r.reencode, r.rustDecodes, r.status, csvField(r.reason))
	}
	if err := writeResult(outPath, out.Bytes()); err != nil {
		return err
	}
	passed, fails := 0, 0
	for _, r := range rows {
		switch r.status {
		case "ok", "known-difference":
			passed++
		case "fail":
			fails++
		}
	}
	fmt.Printf("go interop: %d passed, %d failed\n", passed, fails)
	if failed {
		return fmt.Errorf("interop checks failed (see FAIL lines)")
	}
	return nil
}

// checkCodec runs one codec over every vector that has bytes for its profile.
func checkCodec(c *Codec, vs *Vectors, tmp string) (checkRow, []string, error) {
	row := checkRow{profile: c.Profile, library: c.Library, version: moduleVersion(c.Module)}
	var problems, notes []string
	var goRecords [][]byte
	var goJSON, goNames []string
	known := map[string]int{}
	unrepGoEncodes, unrepLossy := 0, 0
	for _, v := range vs.Vectors {
		want, err := v.Event.toEvent()
		if err != nil {
			return row, nil, fmt.Errorf("vector %s: %w", v.Name, err)
		}
		enc := v.Encodings[c.Profile]
		if enc == nil {
			if gb, err := c.SafeEncode(want); err == nil {
				unrepGoEncodes++
				if back, err := c.SafeDecode(gb); err != nil || !back.Equal(want) {
					unrepLossy++
				}
			}
			continue
		}
		row.vectors++
		if c.Limit != nil {
			if why, ok := c.Limit(want); ok {
				known[why]++
				continue
			}
		}
		ours := mustHex(*enc)
		got, err := c.SafeDecode(ours)
		switch {
		case err != nil:
			problems = append(problems, fmt.Sprintf("%s: decode: %v", v.Name, err))
		case !got.Equal(want):
			problems = append(problems, fmt.Sprintf("%s: decoded event differs", v.Name))
		default:
			row.decodeOK++
			re, err := c.SafeEncode(got)
			switch {
			case err != nil && explainEncode(c, got, err, known):
			case err != nil:
				problems = append(problems, fmt.Sprintf("%s: re-encode: %v", v.Name, err))
			case bytes.Equal(re, ours):
				row.reencode++
			default:
				if why, ok := explain(c, ours, re); ok {
					known[why]++
				} else {
					problems = append(problems, fmt.Sprintf("%s: re-encoded bytes differ (ours %d bytes, Go %d bytes; first difference at byte %d)",
						v.Name, len(ours), len(re), firstDiff(ours, re)))
				}
			}
		}
		gb, err := c.SafeEncode(want)
		if err != nil && explainEncode(c, want, err, nil) {
			continue
		}
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: Go encode: %v", v.Name, err))
			continue
		}
		goRecords = append(goRecords, gb)
		goJSON = append(goJSON, v.JSON)
		goNames = append(goNames, v.Name)
	}
	ok, rustProblems, err := rustDecodes(c.Profile, goRecords, goJSON, goNames, tmp)
	if err != nil {
		return row, nil, err
	}
	row.rustDecodes = ok
	for _, p := range rustProblems {
		// Rust refusing Go's bytes is expected where those bytes differ
		// from ours in the documented way (checked per vector above).
		if len(known) > 0 && strings.Contains(p, "Rust rejects") && knownAll(c, vs, goRecords, goNames, p) {
			continue
		}
		problems = append(problems, p)
	}

	for _, why := range slices.Sorted(maps.Keys(known)) {
		notes = append(notes, fmt.Sprintf("%d vectors differ as documented: %s", known[why], why))
	}
	if rejected := len(goRecords) - row.rustDecodes; rejected > 0 && len(problems) == 0 {
		notes = append(notes, fmt.Sprintf("Rust rejects %d of Go's records, all of them ones that differ as documented", rejected))
	}
	if unrepGoEncodes > 0 {
		notes = append(notes, fmt.Sprintf("Go encodes %d vectors that our profile cannot represent, %d of them lossily "+
			"(Go's own decoder reads back another event or fails)", unrepGoEncodes, unrepLossy))
	}
	switch {
	case len(problems) > 0:
		row.status = "fail"
		notes = append([]string{fmt.Sprintf("%d problems, first: %s", len(problems), problems[0])}, notes...)
	case len(known) > 0:
		row.status = "known-difference"
	default:
		row.status = "ok"
	}
	if c.Note != "" {
		notes = append(notes, c.Note)
	}
	row.reason = strings.Join(notes, "; ")
	return row, problems, nil
}

// knownAll reports whether the vector named in problem p has Go bytes that
// ExplainDiff accounts for.
func knownAll(c *Codec, vs *Vectors, goRecords [][]byte, goNames []string, p string) bool {
	for i, name := range goNames {
		if !strings.HasPrefix(p, name+":") {
			continue
		}
		for _, v := range vs.Vectors {
			if v.Name == name && v.Encodings[c.Profile] != nil {
				_, ok := explain(c, mustHex(*v.Encodings[c.Profile]), goRecords[i])
				return ok
			}
		}
	}
	return false
}

// explainEncode reports (and counts in known, when given) an encode error
// that the codec documents.
func explainEncode(c *Codec, e *Event, err error, known map[string]int) bool {
	if c.ExplainEncodeError == nil {
		return false
	}
	why, ok := c.ExplainEncodeError(e, err)
	if ok && known != nil {
		known[why]++
	}
	return ok
}

func explain(c *Codec, ours, goBytes []byte) (string, bool) {
	if c.ExplainDiff == nil {
		return "", false
	}
	return c.ExplainDiff(ours, goBytes)
}

func firstDiff(a, b []byte) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// rustDecodes has the Rust CLI decode Go's bytes and compares each line
// with the vector's JSON; a failing stream is retried record by record.
func rustDecodes(profile string, records [][]byte, wantJSON, names []string, tmp string) (int, []string, error) {
	if len(records) == 0 {
		return 0, nil, nil
	}
	path := filepath.Join(tmp, profile+".frames")
	if err := writeFrames(path, records); err != nil {
		return 0, nil, err
	}
	lines, stderr, err := binostrDecode(profile, path)
	if err == nil && len(lines) == len(records) {
		ok := 0
		var problems []string
		for i, l := range lines {
			if l == wantJSON[i] {
				ok++
			} else {
				problems = append(problems, fmt.Sprintf("%s: Rust decodes Go's bytes to a different event", names[i]))
			}
		}
		return ok, problems, nil
	}
	if _, isExit := err.(*exec.ExitError); err != nil && !isExit {
		return 0, nil, fmt.Errorf("running binostr decode: %w", err)
	}
	ok := 0
	var problems []string
	for i, r := range records {
		if err := writeFrames(path, [][]byte{r}); err != nil {
			return 0, nil, err
		}
		lines, stderr, err = binostrDecode(profile, path)
		switch {
		case err != nil:
			problems = append(problems, fmt.Sprintf("%s: Rust rejects Go's bytes: %s", names[i], strings.TrimSpace(stderr)))
		case len(lines) != 1 || lines[0] != wantJSON[i]:
			problems = append(problems, fmt.Sprintf("%s: Rust decodes Go's bytes to a different event", names[i]))
		default:
			ok++
		}
	}
	return ok, problems, nil
}

func binostrDecode(profile, path string) ([]string, string, error) {
	argv := append(binostrCommand(), "decode", "--profile", profile, path)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = repoRoot
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	text := strings.TrimSuffix(stdout.String(), "\n")
	if text == "" {
		return nil, stderr.String(), err
	}
	return strings.Split(text, "\n"), stderr.String(), err
}

func writeResult(rel string, data []byte) error {
	path := rel
	if !filepath.IsAbs(rel) {
		path = filepath.Join(repoRoot, rel)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	fmt.Printf("wrote %s\n", rel)
	return os.WriteFile(path, data, 0o644)
}
