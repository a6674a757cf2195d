package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
)

// language is this harness's key in coverage.json and divergences.json.
const language = "go"

// statuses are the status words, shared with the Python and JS harnesses
// (coverage.json "statuses").
var statuses = []string{"ok", "known-divergence", "fail", "not-supported", "not-covered"}

const notCovered = "not in scripts/interop/coverage.json for go: add its library or a not-supported reason"

// Library is one coverage.json library entry; Version "runtime" is the Go
// toolchain's own, not pinned there.
type Library struct {
	Library string `json:"library"`
	Version string `json:"version"`
}

// Coverage is this language's entry for one profile: libraries, or a
// not-supported status with its reason; nil when the file has none.
type Coverage struct {
	Libraries []Library
	Status    string
	Reason    string
}

// Lists are scripts/interop/coverage.json (for Go) and divergences.json
// (Go's pins: profile -> library -> divergence key -> reason).
type Lists struct {
	Statuses []string
	Coverage map[string]*Coverage
	Profiles []string // coverage.json's profiles, every language
	Pins     map[string]map[string]map[string]string
}

func loadLists(coveragePath, divergencesPath string) (*Lists, error) {
	var cov struct {
		Statuses map[string]string                     `json:"statuses"`
		Profiles map[string]map[string]json.RawMessage `json:"profiles"`
	}
	if err := readJSON(coveragePath, &cov); err != nil {
		return nil, err
	}
	l := &Lists{Coverage: map[string]*Coverage{}}
	for s := range cov.Statuses {
		l.Statuses = append(l.Statuses, s)
	}
	for p, langs := range cov.Profiles {
		l.Profiles = append(l.Profiles, p)
		raw, ok := langs[language]
		if !ok {
			continue
		}
		c := &Coverage{}
		if strings.HasPrefix(strings.TrimSpace(string(raw)), "[") {
			err := json.Unmarshal(raw, &c.Libraries)
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", coveragePath, p, err)
			}
		} else {
			var s struct{ Status, Reason string }
			if err := json.Unmarshal(raw, &s); err != nil {
				return nil, fmt.Errorf("%s: %s: %w", coveragePath, p, err)
			}
			c.Status, c.Reason = s.Status, s.Reason
		}
		l.Coverage[p] = c
	}
	var div map[string]json.RawMessage
	if err := readJSON(divergencesPath, &div); err != nil {
		return nil, err
	}
	if raw, ok := div[language]; ok {
		if err := json.Unmarshal(raw, &l.Pins); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", divergencesPath, language, err)
		}
	}
	slices.Sort(l.Profiles)
	return l, nil
}

func readJSON(path string, v any) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// drift lists every disagreement between the lists, the registry (the
// vectors' profiles) and this harness's codecs.
func (l *Lists) drift(profiles []string, all []*Codec) []string {
	var out []string
	if got, want := slices.Sorted(slices.Values(l.Statuses)), slices.Sorted(slices.Values(statuses)); !slices.Equal(got, want) {
		out = append(out, fmt.Sprintf("coverage.json statuses %v are not %v", got, want))
	}
	for _, p := range l.Profiles {
		if !slices.Contains(profiles, p) {
			out = append(out, fmt.Sprintf("coverage.json: %s is not an enabled registry profile (vectors file)", p))
		}
	}
	have := map[string]map[string]string{} // profile -> library -> version
	for _, c := range all {
		if !slices.Contains(profiles, c.Profile) {
			out = append(out, fmt.Sprintf("this harness has a codec for %s, which is not an enabled registry profile", c.Profile))
		}
		if have[c.Profile] == nil {
			have[c.Profile] = map[string]string{}
		}
		have[c.Profile][c.Library] = moduleVersion(c.Module)
	}
	for _, p := range profiles {
		c := l.Coverage[p]
		var listed []string
		if c != nil && c.Libraries == nil && (c.Status != "not-supported" || c.Reason == "") {
			out = append(out, fmt.Sprintf("coverage.json: %s: %s must be a list of libraries or not-supported with a reason", p, language))
		}
		if c != nil {
			for _, lib := range c.Libraries {
				listed = append(listed, lib.Library)
				version, ok := have[p][lib.Library]
				switch {
				case !ok:
					out = append(out, fmt.Sprintf("coverage.json: %s: %s has no codec in this harness", p, lib.Library))
				case lib.Version != "runtime" && lib.Version != version:
					out = append(out, fmt.Sprintf("coverage.json: %s: %s is pinned at %s, the harness runs %s", p, lib.Library, lib.Version, version))
				}
			}
		}
		for _, lib := range slices.Sorted(maps.Keys(have[p])) {
			if !slices.Contains(listed, lib) {
				out = append(out, fmt.Sprintf("%s: this harness has a codec (%s) that coverage.json does not list", p, lib))
			}
		}
	}
	for _, p := range slices.Sorted(maps.Keys(l.Pins)) {
		if !slices.Contains(profiles, p) {
			out = append(out, fmt.Sprintf("divergences.json: %s is not an enabled registry profile", p))
			continue
		}
		for _, lib := range slices.Sorted(maps.Keys(l.Pins[p])) {
			if _, ok := have[p][lib]; !ok {
				out = append(out, fmt.Sprintf("divergences.json: %s: %s is no codec of this harness", p, lib))
			}
		}
	}
	return out
}

// pinned is the reason divergences.json gives for key, for one codec.
func (l *Lists) pinned(c *Codec, key string) (string, bool) {
	why, ok := l.Pins[c.Profile][c.Library][key]
	return why, ok
}
