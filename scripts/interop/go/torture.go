package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

const (
	// caseTimeout: a case with no verdict after this long is a hang.
	caseTimeout = 10 * time.Second
	// childMemory caps each child's address space (RLIMIT_AS).
	childMemory = 4 << 30
)

type tortureCounts struct {
	cases, cleanError, accepted, panicRecovered, crash, hang int
	examples                                                 []string
}

// runTorture decodes every case file that `binostr torture generate` wrote
// for a codec's profile, each file in child processes with a per-case
// timeout; a child that dies or hangs is restarted after the case it was on.
func runTorture(dir, outPath string) error {
	if dir == "" {
		return fmt.Errorf("-cases DIR is required")
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	var out bytes.Buffer
	out.WriteString("profile,library,version,case_file,cases,clean_error,accepted,panic_recovered,crash,hang,examples\n")
	for ci, c := range codecs() {
		files, _ := filepath.Glob(filepath.Join(dir, c.Profile, "*.frames"))
		sort.Strings(files)
		if len(files) == 0 {
			return fmt.Errorf("no case files for %s in %s", c.Profile, dir)
		}
		for _, f := range files {
			t, err := tortureFile(self, ci, f)
			if err != nil {
				return err
			}
			name := strings.TrimSuffix(filepath.Base(f), ".frames")
			fmt.Printf("%-15s %-45s %-17s cases=%d error=%d accepted=%d panic_recovered=%d crash=%d hang=%d\n",
				c.Profile, c.Library, name, t.cases, t.cleanError, t.accepted, t.panicRecovered, t.crash, t.hang)
			fmt.Fprintf(&out, "%s,%s,%s,%s,%d,%d,%d,%d,%d,%d,%s\n", c.Profile, csvField(c.Library), moduleVersion(c.Module),
				name, t.cases, t.cleanError, t.accepted, t.panicRecovered, t.crash, t.hang, csvField(strings.Join(t.examples, " | ")))
		}
	}
	return writeResult(outPath, out.Bytes())
}

func tortureFile(self string, codec int, path string) (*tortureCounts, error) {
	frames, err := readFrames(path)
	if err != nil {
		return nil, err
	}
	names := caseNames(strings.TrimSuffix(path, ".frames")+".names", len(frames))
	t := &tortureCounts{cases: len(frames)}
	perKind := map[string]int{}
	example := func(kind string, i int, detail string) {
		if perKind[kind]++; perKind[kind] <= 2 {
			t.examples = append(t.examples, fmt.Sprintf("%s %s: %s", kind, names[i], detail))
		}
	}
	for start := 0; start < len(frames); {
		next, verdict, detail, err := runChild(self, codec, start, path, t, func(i int, kind, detail string) {
			if kind == "panic" {
				example("panic", i, detail)
			}
		})
		if err != nil {
			return nil, err
		}
		if next >= len(frames) {
			break
		}
		// The child stopped on case `next` without a verdict.
		if verdict == "hang" {
			t.hang++
		} else {
			t.crash++
		}
		example(verdict, next, detail)
		start = next + 1
	}
	return t, nil
}

// runChild decodes cases from start on in a child process and returns the
// index of the first case without a verdict (len(frames) when all done).
func runChild(self string, codec, start int, path string, t *tortureCounts,
	onCase func(i int, kind, detail string)) (int, string, string, error) {
	cmd := exec.Command(self, "torture-child", "-repo", repoRoot, "-codec", strconv.Itoa(codec),
		"-start", strconv.Itoa(start), path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return 0, "", "", err
	}
	if err := cmd.Start(); err != nil {
		return 0, "", "", err
	}
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	next := start
	timer := time.NewTimer(caseTimeout)
	defer timer.Stop()
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				waitErr := cmd.Wait()
				if next < 0 { // "done" seen
					return 1 << 62, "", "", nil
				}
				return next, "crash", crashDetail(waitErr, stderr.String()), nil
			}
			if l == "done" {
				next = -1
				continue
			}
			i, kind, detail, ok := parseVerdict(l)
			if !ok {
				fmt.Fprintf(os.Stderr, "torture: ignoring child output %q\n", oneLine(l))
				continue
			}
			switch kind {
			case "error":
				t.cleanError++
			case "accepted":
				t.accepted++
			case "panic":
				t.panicRecovered++
			}
			onCase(i, kind, detail)
			next = i + 1
			timer.Reset(caseTimeout)
		case <-timer.C:
			_ = cmd.Process.Kill()
			for range lines {
			}
			_ = cmd.Wait()
			return next, "hang", fmt.Sprintf("no verdict within %s", caseTimeout), nil
		}
	}
}

func parseVerdict(l string) (int, string, string, bool) {
	parts := strings.SplitN(l, " ", 3)
	i, err := strconv.Atoi(parts[0])
	if err != nil || len(parts) < 2 {
		return 0, "", "", false
	}
	detail := ""
	if len(parts) > 2 {
		detail = parts[2]
	}
	return i, parts[1], detail, true
}

func crashDetail(err error, stderr string) string {
	first := strings.SplitN(strings.TrimSpace(stderr), "\n", 2)[0]
	return fmt.Sprintf("%v: %s", err, first)
}

func caseNames(path string, n int) []string {
	names := make([]string, n)
	raw, _ := os.ReadFile(path)
	got := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	for i := range names {
		if i < len(got) && got[i] != "" {
			names[i] = got[i]
		} else {
			names[i] = fmt.Sprintf("#%d", i)
		}
	}
	return names
}

// tortureChild prints one verdict line per case: "<index> error|accepted|panic <detail>".
func tortureChild(codec, start int, path string) error {
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: childMemory, Max: childMemory}); err != nil {
		return err
	}
	all := codecs()
	if codec < 0 || codec >= len(all) {
		return fmt.Errorf("no codec %d", codec)
	}
	c := all[codec]
	frames, err := readFrames(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(os.Stdout)
	for i := start; i < len(frames); i++ {
		_, err := c.SafeDecode(frames[i])
		var p *PanicError
		switch {
		case err == nil:
			fmt.Fprintf(w, "%d accepted\n", i)
		case errors.As(err, &p):
			fmt.Fprintf(w, "%d panic %s\n", i, oneLine(p.Error()))
		default:
			fmt.Fprintf(w, "%d error\n", i)
		}
		if err := w.Flush(); err != nil {
			return err
		}
	}
	fmt.Fprintln(w, "done")
	return w.Flush()
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 240 {
		s = s[:240]
	}
	return s
}
