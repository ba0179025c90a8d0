//go:build unix

package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/robotsmith/robotsmith/internal/safefs"
	"github.com/robotsmith/robotsmith/sample-site/standin"
)

// The kill tests of a whole build (SPEC §10): `robotsmith build` on a synthetic Hugo site, run as a
// child process (this test binary again, running main, as the hostile corpus does), killed with
// SIGKILL at each phase of its work, or stopped with SIGTERM or SIGINT. After a kill every file of
// the output must be whole (the generator's bytes or the build's, nothing else); the next run (a
// check, or a build) must leave none of robotsmith's files; and a build then must give a site
// byte-identical to one built without interruption.
//
// Sites are copied with hard links: a build never writes into a file, it replaces files by renames,
// so the generated site they all share stays as the generator wrote it (the tests check this too).

// killSite is a generated site and what a build makes of it.
type killSite struct {
	dir     string            // the generated site (content and public/), never built
	old     map[string]string // public/ as generated: rel -> state (siteState)
	built   map[string]string // the whole site after an uninterrupted build
	newOut  map[string]string // public/ after it
	buildIn time.Duration     // how long the uninterrupted build took
	changed int               // files the build changes
}

// newKillSite generates a synthetic site of n source pages and builds a copy of it without
// interruption.
func newKillSite(t *testing.T, n int) *killSite {
	t.Helper()
	s := &killSite{dir: filepath.Join(t.TempDir(), "site")}
	if err := standin.Synthetic(s.dir, n, 1); err != nil {
		t.Fatal(err)
	}
	if err := standin.Generate(s.dir); err != nil {
		t.Fatal(err)
	}
	s.old = siteState(t, filepath.Join(s.dir, "public"))
	ref := filepath.Join(t.TempDir(), "site")
	linkTree(t, s.dir, ref)
	start := time.Now()
	r := runBuild(t, ref, "build", "--no-command", "--json", ref)
	s.buildIn = time.Since(start)
	if r.exit != 0 {
		t.Fatalf("uninterrupted build: exit %d\n%s", r.exit, r.stderr)
	}
	var rep struct{ Changed int }
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || rep.Changed == 0 {
		t.Fatalf("uninterrupted build: report %v: changed %d", err, rep.Changed)
	}
	s.changed = rep.Changed
	s.built = siteState(t, ref)
	s.newOut = siteState(t, filepath.Join(ref, "public"))
	return s
}

// siteState describes every entry under dir: rel -> kind, mode and a hash of a file's bytes, or a
// link's target.
func siteState(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fi, err := d.Info()
		if err != nil {
			return err
		}
		desc := fi.Mode().String()
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			desc += " -> " + target
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			desc += fmt.Sprintf(" %x", sha256.Sum256(b))
		}
		m[filepath.ToSlash(rel)] = desc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// linkTree copies the tree src to dst with hard links.
func linkTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		}
		return os.Link(p, to)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// buildResult is how a child run ended.
type buildResult struct {
	exit           int            // its exit status; -1 when a signal ended it
	signal         syscall.Signal // the signal that ended it
	stdout, stderr string
}

// startBuild starts robotsmith's main with args, in dir, as a child process.
func startBuild(t *testing.T, dir string, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	js, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), hostileChildEnv+"="+string(js))
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &stdout, &stderr
}

func wait(t *testing.T, cmd *exec.Cmd, stdout, stderr *bytes.Buffer) buildResult {
	t.Helper()
	err := cmd.Wait()
	r := buildResult{stdout: stdout.String(), stderr: stderr.String()}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee) && ee.Sys().(syscall.WaitStatus).Signaled():
		r.exit, r.signal = -1, ee.Sys().(syscall.WaitStatus).Signal()
	case errors.As(err, &ee):
		r.exit = ee.ExitCode()
	default:
		t.Fatal(err)
	}
	return r
}

func runBuild(t *testing.T, dir string, args ...string) buildResult {
	t.Helper()
	cmd, stdout, stderr := startBuild(t, dir, args...)
	return wait(t, cmd, stdout, stderr)
}

// The phases of a build a kill can land in, told from what the build leaves in the output.
const (
	phaseBefore  = "before writing"          // nothing of robotsmith's, every file as generated
	phaseWriting = "writing temporary files" // a journal without its commit record
	phaseRenames = "renaming"                // a journal with its commit record
	phaseCleanup = "cleaning up"             // the done marker: every file in place
	phaseAfter   = "after the build"         // nothing of robotsmith's, every file built
)

// phaseOf tells, from the output of a build just killed, which phase the kill landed in.
func phaseOf(t *testing.T, public string, s *killSite) string {
	t.Helper()
	j, err := os.ReadFile(filepath.Join(public, safefs.Prefix+"journal"))
	switch {
	case err == nil && bytes.Contains(j, []byte("\ncommit ")):
		return phaseRenames
	case err == nil:
		return phaseWriting
	}
	if _, err := os.Stat(filepath.Join(public, safefs.Prefix+"done")); err == nil {
		return phaseCleanup
	}
	if st := siteState(t, public); st["index.html"] == s.newOut["index.html"] {
		return phaseAfter
	}
	return phaseBefore
}

// trigger reports whether the build in public has reached a moment to stop it at.
type trigger func(public string) bool

// appears: the file name is in the output.
func appears(name string) trigger {
	return func(public string) bool {
		_, err := os.Lstat(filepath.Join(public, name))
		return err == nil
	}
}

// replaced: the file name is no longer the file it was when the trigger was made (a build put its
// new content in place).
func replaced(t *testing.T, public, name string) trigger {
	t.Helper()
	before, err := os.Lstat(filepath.Join(public, name))
	if err != nil {
		t.Fatal(err)
	}
	return func(public string) bool {
		fi, err := os.Lstat(filepath.Join(public, name))
		return err == nil && !os.SameFile(fi, before)
	}
}

// journalHas: the journal holds at least n lines that start with record.
func journalHas(record string, n int) trigger {
	return func(public string) bool {
		j, err := os.ReadFile(filepath.Join(public, safefs.Prefix+"journal"))
		return err == nil && bytes.Count(j, []byte("\n"+record+" ")) >= n
	}
}

// stopAt starts a build of dir and sends sig once trig holds (or after delay, when trig is nil);
// it returns how the build ended and, for a signal that lets it end by itself, how long that took.
func stopAt(t *testing.T, dir string, trig trigger, delay time.Duration, sig syscall.Signal) (buildResult, time.Duration) {
	t.Helper()
	public := filepath.Join(dir, "public")
	cmd, stdout, stderr := startBuild(t, dir, "build", "--no-command", dir)
	exited := make(chan buildResult, 1)
	go func() { exited <- wait(t, cmd, stdout, stderr) }()
	if trig == nil {
		select {
		case r := <-exited:
			return r, 0 // the build ended before the moment
		case <-time.After(delay):
		}
	} else {
		for deadline := time.Now().Add(time.Minute); !trig(public); {
			select {
			case r := <-exited:
				return r, 0
			default:
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatalf("the moment never came\n%s", stderr)
			}
		}
	}
	sent := time.Now()
	cmd.Process.Signal(sig)
	r := <-exited
	return r, time.Since(sent)
}

// checkWhole checks that every file of the output is as generated or as built, and that nothing
// else is there but robotsmith's own files; it returns how many are as built.
func checkWhole(t *testing.T, public string, s *killSite) (built, generated int) {
	t.Helper()
	got := siteState(t, public)
	for rel := range s.old {
		if _, ok := got[rel]; !ok {
			t.Fatalf("%s: gone", rel)
		}
	}
	for rel, st := range got {
		switch {
		case safefs.Own(filepath.Base(rel)):
		case st == s.newOut[rel] && st == s.old[rel]:
		case st == s.newOut[rel]:
			built++
		case st == s.old[rel]:
			generated++
		default:
			t.Fatalf("%s is neither as generated nor as built (torn, or another file): %s", rel, st)
		}
	}
	return built, generated
}

// ownFiles lists robotsmith's files under dir.
func ownFiles(t *testing.T, dir string) []string {
	t.Helper()
	var left []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && safefs.Own(d.Name()) {
			left = append(left, p)
		}
		return err
	})
	return left
}

// sameSite fails unless dir is byte for byte the uninterrupted build's site.
func sameSite(t *testing.T, dir string, s *killSite) {
	t.Helper()
	got := siteState(t, dir)
	var diffs []string
	for rel, want := range s.built {
		if got[rel] != want {
			diffs = append(diffs, fmt.Sprintf("%s: %q, want %q", rel, got[rel], want))
		}
	}
	for rel := range got {
		if _, ok := s.built[rel]; !ok {
			diffs = append(diffs, rel+": not in the uninterrupted build")
		}
	}
	if len(diffs) > 0 {
		sort.Strings(diffs)
		t.Fatalf("not the uninterrupted build's site (%d differences):\n%s", len(diffs), strings.Join(diffs[:min(len(diffs), 10)], "\n"))
	}
}

// TestKillBuild kills `robotsmith build` on a synthetic site of a few hundred pages at each phase
// of its work (SIGKILL), and stops it with SIGTERM and SIGINT while it writes and while it renames.
func TestKillBuild(t *testing.T) {
	if raceEnabled {
		t.Skip("the children run under an address-space limit: this runs without -race")
	}
	s := newKillSite(t, 300)
	t.Logf("%d files changed by an uninterrupted build in %v", s.changed, s.buildIn.Round(time.Millisecond))
	type point struct {
		desc  string
		trig  trigger
		delay time.Duration
		sig   syscall.Signal
		want  string // the phase it must land in (KILL)
		next  string // the next run: "check" (then a build) or "build"
	}
	half := s.changed / 2
	points := []point{
		{"SIGKILL while reading", nil, s.buildIn / 10, syscall.SIGKILL, phaseBefore, "build"},
		{"SIGKILL at the first temporary file", appears(safefs.Prefix + "journal"), 0, syscall.SIGKILL, phaseWriting, "check"},
		{"SIGKILL half way through the temporary files", journalHas("tmp", half), 0, syscall.SIGKILL, phaseWriting, "build"},
		{"SIGKILL at the commit record", journalHas("commit", 1), 0, syscall.SIGKILL, phaseRenames, "check"},
		// The root folder's files are renamed first: index.html built, the folders' pages not yet.
		{"SIGKILL during the renames", nil, 0, syscall.SIGKILL, phaseRenames, "build"},
		{"SIGKILL after the commit point", appears(safefs.Prefix + "done"), 0, syscall.SIGKILL, phaseCleanup, "check"},
		{"SIGTERM while writing", journalHas("tmp", half), 0, syscall.SIGTERM, "", "build"},
		{"SIGTERM while renaming", journalHas("commit", 1), 0, syscall.SIGTERM, "", "build"},
		{"SIGINT while writing", appears(safefs.Prefix + "journal"), 0, syscall.SIGINT, "", "check"},
	}
	for _, p := range points {
		t.Run(p.desc, func(t *testing.T) {
			var (
				dir     string
				r       buildResult
				stopped time.Duration
				phase   string
			)
			// A kill is a moment in another process: try again until it lands in the phase.
			for try := 1; ; try++ {
				dir = filepath.Join(t.TempDir(), "site")
				linkTree(t, s.dir, dir)
				trig := p.trig
				if trig == nil && p.delay == 0 {
					trig = replaced(t, filepath.Join(dir, "public"), "index.html")
				}
				r, stopped = stopAt(t, dir, trig, p.delay, p.sig)
				phase = phaseOf(t, filepath.Join(dir, "public"), s)
				if p.sig != syscall.SIGKILL && r.exit != 0 || phase == p.want || try == 10 {
					break
				}
				t.Logf("try %d landed %s, want %s", try, phase, p.want)
			}
			public := filepath.Join(dir, "public")
			built, generated := checkWhole(t, public, s)
			t.Logf("stopped %s: %d files built, %d as generated; exit %d %v", phase, built, generated, r.exit, r.signal)
			switch p.sig {
			case syscall.SIGKILL:
				if r.signal != syscall.SIGKILL {
					t.Fatalf("the build ended with exit %d before the kill\n%s", r.exit, r.stderr)
				}
				if phase != p.want {
					t.Fatalf("the kill landed %s, want %s", phase, p.want)
				}
			default:
				want := 128 + int(p.sig)
				t.Logf("%v: stopped %v after the signal", p.sig, stopped.Round(time.Millisecond))
				if r.exit != want {
					t.Fatalf("exit %d %v, want %d\n%s", r.exit, r.signal, want, r.stderr)
				}
				if stopped > 5*time.Second {
					t.Errorf("took %v to stop, want about a second at most", stopped)
				}
				// Undone by the build itself, before it exited (or, a signal after the
				// commit point, all done).
				if left := ownFiles(t, dir); len(left) > 0 {
					t.Fatalf("left behind: %v", left[:min(len(left), 5)])
				}
				if built > 0 && generated > 0 {
					t.Fatalf("%d files built and %d as generated: a half-built site", built, generated)
				}
			}
			if p.next == "check" {
				// Any command first finishes or undoes the interrupted build.
				r := runBuild(t, dir, "check", dir)
				if r.exit != 0 && r.exit != 1 {
					t.Fatalf("check after the stop: exit %d\n%s", r.exit, r.stderr)
				}
				if left := ownFiles(t, dir); len(left) > 0 {
					t.Fatalf("check left behind: %v", left[:min(len(left), 5)])
				}
				built, generated := checkWhole(t, public, s)
				if built > 0 && generated > 0 {
					t.Fatalf("after check: %d files built and %d as generated: a half-built site", built, generated)
				}
			}
			if r := runBuild(t, dir, "build", "--no-command", dir); r.exit != 0 {
				t.Fatalf("the build after the stop: exit %d\n%s", r.exit, r.stderr)
			}
			if left := ownFiles(t, dir); len(left) > 0 {
				t.Fatalf("left behind after the next build: %v", left[:min(len(left), 5)])
			}
			sameSite(t, dir, s)
		})
	}
	// The generated site that every copy shares is as the generator wrote it.
	if d := siteState(t, filepath.Join(s.dir, "public")); !equalStates(d, s.old) {
		t.Errorf("the generated site changed under its hard-linked copies")
	}
}

func equalStates(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestKillBuildLong is the long form (ROBOTSMITH_LONG=1; ROBOTSMITH_LONG_PAGES overrides the
// 10,000 source pages): the build of a generated site killed (SIGKILL) at 30 random moments of
// its run, each time on a fresh copy; after each kill every file is whole, and after the next run
// the site is byte-identical to one built without interruption, with no file of robotsmith's.
func TestKillBuildLong(t *testing.T) {
	if os.Getenv("ROBOTSMITH_LONG") == "" {
		t.Skip("the long kill test runs with ROBOTSMITH_LONG=1")
	}
	if raceEnabled {
		t.Skip("runs without -race")
	}
	n, kills := 10000, 30
	if v, err := strconv.Atoi(os.Getenv("ROBOTSMITH_LONG_PAGES")); err == nil {
		n = v
	}
	s := newKillSite(t, n)
	t.Logf("%d source pages: %d files changed by an uninterrupted build in %v", n, s.changed, s.buildIn.Round(time.Millisecond))
	rng := rand.New(rand.NewPCG(12, 1))
	phases := map[string]int{}
	landed := 0
	for round := 1; landed < kills && round <= 3*kills; round++ {
		dir := filepath.Join(t.TempDir(), "site")
		linkTree(t, s.dir, dir)
		after := time.Duration(rng.Int64N(int64(s.buildIn)))
		r, _ := stopAt(t, dir, nil, after, syscall.SIGKILL)
		if r.signal != syscall.SIGKILL {
			t.Logf("round %d: the build ended before the kill at %v", round, after)
			os.RemoveAll(dir)
			continue
		}
		landed++
		public := filepath.Join(dir, "public")
		phase := phaseOf(t, public, s)
		phases[phase]++
		built, generated := checkWhole(t, public, s)
		if r := runBuild(t, dir, "build", "--no-command", dir); r.exit != 0 {
			t.Fatalf("kill %d: the next build: exit %d\n%s", landed, r.exit, r.stderr)
		}
		if left := ownFiles(t, dir); len(left) > 0 {
			t.Fatalf("kill %d: left behind after the next build: %v", landed, left[:min(len(left), 5)])
		}
		sameSite(t, dir, s)
		t.Logf("kill %d at %v (%s; %d files built, %d as generated): the next build gives the uninterrupted site",
			landed, after.Round(time.Millisecond), phase, built, generated)
		os.RemoveAll(dir)
	}
	if landed < kills {
		t.Fatalf("only %d kills landed", landed)
	}
	t.Logf("%d kills, by phase: %v; every one byte-identical to the uninterrupted build after the next run", landed, phases)
}
