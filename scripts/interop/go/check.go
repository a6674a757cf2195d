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

func runCheck(vectorsPath, outPath, coveragePath, divergencesPath string) error {
	vs, err := loadVectors(repoPath(vectorsPath))
	if err != nil {
		return err
	}
	lists, err := loadLists(repoPath(coveragePath), repoPath(divergencesPath))
	if err != nil {
		return err
	}
	var profiles []string
	for _, p := range vs.Profiles {
		profiles = append(profiles, p.ID)
	}
	all := codecs()
	if drift := lists.drift(profiles, all); len(drift) > 0 {
		for _, d := range drift {
			fmt.Printf("fail: %s\n", d)
		}
		return fmt.Errorf("%d disagreements between the registry, scripts/interop/*.json and this harness", len(drift))
	}
	tmp, err := os.MkdirTemp("", "interop-go-check-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	var rows []checkRow
	failed := false
	for _, p := range profiles {
		covered := false
		for _, c := range all {
			if c.Profile != p {
				continue
			}
			covered = true
			row, problems, err := checkCodec(c, vs, tmp, lists)
			if err != nil {
				return err
			}
			for _, msg := range problems {
				fmt.Printf("fail %s [%s]: %s\n", c.Profile, c.Library, msg)
			}
			failed = failed || row.status == "fail"
			rows = append(rows, row)
			fmt.Printf("%-15s %-50s %s vectors=%d decode_ok=%d reencode=%d rust_decodes=%d %s\n",
				row.profile, row.library, row.status, row.vectors, row.decodeOK, row.reencode, row.rustDecodes, row.reason)
		}
		if covered {
			continue
		}
		row := checkRow{profile: p, status: "not-covered", reason: notCovered}
		if c := lists.Coverage[p]; c != nil {
			row.status, row.reason = c.Status, c.Reason
		} else {
			fmt.Fprintf(os.Stderr, "NOT COVERED: %s: %s\n", p, notCovered)
		}
		rows = append(rows, row)
		fmt.Printf("%-15s %s: %s\n", p, row.status, row.reason)
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
		case "ok", "known-divergence":
			passed++
		case "fail":
			fails++
		}
	}
	fmt.Printf("go interop: %d passed, %d failed\n", passed, fails)
	if failed {
		return fmt.Errorf("interop checks failed (see the fail lines)")
	}
	return nil
}

// checkCodec runs one codec over every vector that has bytes for its profile.
// A divergence its recognisers name passes where lists pins it; a pin that
// no vector meets is stale, and fails.
func checkCodec(c *Codec, vs *Vectors, tmp string, lists *Lists) (checkRow, []string, error) {
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
			if key := c.Limit(want); key != "" {
				if ok, missing := lists.accept(c, []string{key}, known); !ok {
					problems = append(problems, fmt.Sprintf("%s: the library cannot hold this event%s", v.Name, missing))
				}
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
			case err != nil:
				if ok, missing := lists.accept(c, explainEncode(c, got, err), known); !ok {
					problems = append(problems, fmt.Sprintf("%s: re-encode: %v%s", v.Name, err, missing))
				}
			case bytes.Equal(re, ours):
				row.reencode++
			default:
				if ok, missing := lists.accept(c, explain(c, ours, re), known); !ok {
					problems = append(problems, fmt.Sprintf("%s: re-encoded bytes differ (ours %d bytes, Go %d bytes; first difference at byte %d)%s",
						v.Name, len(ours), len(re), firstDiff(ours, re), missing))
				}
			}
		}
		gb, err := c.SafeEncode(want)
		if err != nil {
			if ok, missing := lists.accept(c, explainEncode(c, want, err), nil); !ok {
				problems = append(problems, fmt.Sprintf("%s: Go encode: %v%s", v.Name, err, missing))
			}
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
		if len(known) > 0 && strings.Contains(p, "Rust rejects") && knownAll(c, vs, goRecords, goNames, p, lists) {
			continue
		}
		problems = append(problems, p)
	}

	for _, key := range slices.Sorted(maps.Keys(known)) {
		why, _ := lists.pinned(c, key)
		notes = append(notes, fmt.Sprintf("%d vectors differ as documented: %s", known[key], why))
	}
	for _, key := range slices.Sorted(maps.Keys(lists.Pins[c.Profile][c.Library])) {
		if known[key] == 0 {
			problems = append(problems, fmt.Sprintf("pinned divergence no longer happens (%s); update scripts/interop/divergences.json", key))
		}
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
		row.status = "known-divergence"
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
// ExplainDiff accounts for with pinned divergences.
func knownAll(c *Codec, vs *Vectors, goRecords [][]byte, goNames []string, p string, lists *Lists) bool {
	for i, name := range goNames {
		if !strings.HasPrefix(p, name+":") {
			continue
		}
		for _, v := range vs.Vectors {
			if v.Name == name && v.Encodings[c.Profile] != nil {
				ok, _ := lists.accept(c, explain(c, mustHex(*v.Encodings[c.Profile]), goRecords[i]), nil)
				return ok
			}
		}
	}
	return false
}

// explainEncode is the divergence the codec recognises in an encode error.
func explainEncode(c *Codec, e *Event, err error) []string {
	if c.ExplainEncodeError == nil {
		return nil
	}
	if key := c.ExplainEncodeError(e, err); key != "" {
		return []string{key}
	}
	return nil
}

// explain is the divergences the codec recognises between our bytes and Go's.
func explain(c *Codec, ours, goBytes []byte) []string {
	if c.ExplainDiff == nil {
		return nil
	}
	return c.ExplainDiff(ours, goBytes)
}

// accept reports whether keys name divergences that are all pinned for c,
// and counts them in known (when given); missing is what to add to the
// problem when a key is not pinned.
func (l *Lists) accept(c *Codec, keys []string, known map[string]int) (ok bool, missing string) {
	if len(keys) == 0 {
		return false, ""
	}
	for _, k := range keys {
		if _, pinned := l.pinned(c, k); !pinned {
			return false, fmt.Sprintf(" (divergence %q is not pinned in scripts/interop/divergences.json)", k)
		}
	}
	if known != nil {
		for _, k := range keys {
			known[k]++
		}
	}
	return true, ""
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

// repoPath is p, relative to the repository root unless absolute.
func repoPath(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(repoRoot, p)
}

func writeResult(rel string, data []byte) error {
	path := repoPath(rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	fmt.Printf("wrote %s\n", rel)
	return os.WriteFile(path, data, 0o644)
}
