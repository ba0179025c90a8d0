package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/robotsmith/robotsmith/rules"
)

// TestSignalsWhileReading: SIGINT and SIGTERM stop `robotsmith build` promptly while it reads the
// site's sources and while it compiles them (SPEC §10: within a second in every phase), with exit
// status 130 or 143 and every file as it was. The build runs as a child process (this test binary
// running main, as the kill tests do), and /proc tells the test how far it is: the bytes it has
// read (rchar) show it reading the sources, and that it reads next to nothing more once signalled.
// Before, both phases ignored the signal to their end: a few thousand pages took seconds more to
// read, and a front matter naming 100,000 agents over ten seconds more to compile.
func TestSignalsWhileReading(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a site of a few thousand pages; not with -short")
	}
	if raceEnabled {
		t.Skip("the children run under an address-space limit: this runs without -race")
	}
	for _, tc := range []struct {
		desc string
		// site writes the site in dir and returns how many bytes the build reads before the moment
		// to signal it, and how long to wait after that.
		site  func(t *testing.T, dir string) (int64, time.Duration)
		sig   syscall.Signal
		want  int
		after int64 // the most the build may read once signalled
	}{
		{"reading sources", manySources, syscall.SIGINT, 130, 1 << 20},
		{"compiling", manyAgents, syscall.SIGTERM, 143, 1 << 20},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			dir := t.TempDir()
			readBefore, pause := tc.site(t, dir)
			before := siteState(t, dir)
			cmd, stdout, stderr := startBuild(t, dir, "build", "--no-command", dir)
			exited := make(chan buildResult, 1)
			go func() { exited <- wait(t, cmd, stdout, stderr) }()
			pid := cmd.Process.Pid
			var read int64
			for deadline := time.Now().Add(time.Minute); read < readBefore; read = rchar(pid) {
				select {
				case r := <-exited:
					t.Fatalf("the build ended before the moment (%d bytes read of %d): exit %d\n%s", read, readBefore, r.exit, r.stderr)
				default:
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					t.Fatalf("the moment never came: %d bytes read of %d", read, readBefore)
				}
				time.Sleep(2 * time.Millisecond)
			}
			time.Sleep(pause)
			read = rchar(pid)
			sent := time.Now()
			if err := cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			// What it reads after the signal, as far as /proc shows it until it exits.
			last := read
			var r buildResult
			for done := false; !done; {
				select {
				case r = <-exited:
					done = true
				case <-time.After(2 * time.Millisecond):
					if n := rchar(pid); n > last {
						last = n
					}
				}
			}
			took := time.Since(sent)
			t.Logf("signalled after %d bytes read; %d more read; stopped in %v", read, last-read, took)
			if r.exit != tc.want || !strings.Contains(r.stderr, "robotsmith: interrupted") {
				t.Errorf("exit %d (signal %v), want %d; stderr:\n%s", r.exit, r.signal, tc.want, r.stderr)
			}
			if took > 5*time.Second {
				t.Errorf("took %v to stop after %v", took, tc.sig)
			}
			if last-read > tc.after {
				t.Errorf("read %d bytes after %v, want at most %d: it went on reading the sources", last-read, tc.sig, tc.after)
			}
			if after := siteState(t, dir); !equalStates(after, before) {
				t.Errorf("the site changed: %d entries before, %d after", len(before), len(after))
			}
		})
	}
}

// manySources is a Hugo site of 2,000 pages, each with a front matter of 500 keys robotsmith does
// not own (9 MB to read and decode): it is signalled once it has read 1 MB of them.
func manySources(t *testing.T, dir string) (int64, time.Duration) {
	var fm bytes.Buffer
	for k := range 500 {
		fmt.Fprintf(&fm, "p%d: v%d\n", k, k)
	}
	writeFile(t, dir, "hugo.toml", "baseURL = \"https://example.org/\"\n")
	writeFile(t, dir, "public/index.html", "<!DOCTYPE html>\n<html><head><title>Home</title></head><body></body></html>\n")
	for i := range 2000 {
		writeFile(t, dir, fmt.Sprintf("content/s%d/p%d.md", i%40, i), fmt.Sprintf("---\ntitle: P%d\nrobots: noindex\n%s---\nbody\n", i, fm.Bytes()))
	}
	return 1 << 20, 0
}

// manyAgents is a Hugo site of 120 pages whose front matters each name rules.MaxAgents agents (the
// most a page may name; 1.2 million inputs, 28 MB, some ten seconds to compile here): it is signalled
// a second after it has read them, once they are decoded, while they are compiled.
func manyAgents(t *testing.T, dir string) (int64, time.Duration) {
	writeFile(t, dir, "hugo.toml", "baseURL = \"https://example.org/\"\n")
	var total int64
	for p := range 120 {
		var fm bytes.Buffer
		fmt.Fprintf(&fm, "---\ntitle: A%d\nrobots:\n", p)
		for i := range rules.MaxAgents {
			fmt.Fprintf(&fm, "  agent%dbot: noindex\n", i)
		}
		fm.WriteString("---\nbody\n")
		writeFile(t, dir, fmt.Sprintf("content/a%d.md", p), fm.String())
		writeFile(t, dir, fmt.Sprintf("public/a%d/index.html", p), "<!DOCTYPE html>\n<html><head><title>A</title></head><body></body></html>\n")
		total += int64(fm.Len())
	}
	return total, time.Second
}

// rchar is how many bytes the process pid has read (Linux /proc/PID/io); 0 once it is gone.
func rchar(pid int) int64 {
	f, err := os.Open(filepath.Join("/proc", strconv.Itoa(pid), "io"))
	if err != nil {
		return 0
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(s.Text(), "rchar: "); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			return n
		}
	}
	return 0
}
