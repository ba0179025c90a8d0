//go:build linux || darwin

package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseArgs(t *testing.T) {
	tests := []struct {
		desc   string
		args   []string
		sizes  []int
		rounds int
		repeat int
		err    string // "usage", "help" or ""
	}{
		{"defaults", nil, []int{10000, 100000}, 3, 2, ""},
		{"what .ci/run runs", []string{"-pages", "1000", "-rounds", "1"}, []int{1000}, 1, 2, ""},
		{"sizes with blanks", []string{"-pages", "10, 20"}, []int{10, 20}, 3, 2, ""},
		{"no repeats", []string{"-repeat", "1"}, []int{10000, 100000}, 3, 1, ""},
		{"a size that is not a number", []string{"-pages", "10,ten"}, nil, 0, 0, "usage"},
		{"no rounds", []string{"-rounds", "0"}, nil, 0, 0, "usage"},
		{"no runs", []string{"-repeat", "0"}, nil, 0, 0, "usage"},
		{"an argument", []string{"extra"}, nil, 0, 0, "usage"},
		{"help", []string{"-h"}, nil, 0, 0, "help"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			o, err := parseArgs(tc.args, io.Discard)
			switch tc.err {
			case "usage":
				if !errors.As(err, new(usageError)) {
					t.Fatalf("got %v, want a usage error", err)
				}
				return
			case "help":
				if !errors.Is(err, flag.ErrHelp) {
					t.Fatalf("got %v, want flag.ErrHelp", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(o.sizes, tc.sizes) || o.rounds != tc.rounds || o.repeat != tc.repeat {
				t.Errorf("got sizes %v rounds %d repeat %d, want %v %d %d", o.sizes, o.rounds, o.repeat, tc.sizes, tc.rounds, tc.repeat)
			}
		})
	}
}

// TestExpect: the benchmark fails a run whose steps did not do what they must, whatever the times.
func TestExpect(t *testing.T) {
	tests := []struct {
		step string
		rep  report
		ok   bool
	}{
		{"build", report{Pages: 100, Changed: 100, Wrote: true}, true},
		{"build", report{Pages: 100, Changed: 0}, false},
		{"rebuild", report{Pages: 100}, true},
		{"rebuild", report{Pages: 100, Changed: 1, Wrote: true}, false},
		{"check", report{Pages: 100}, true},
		{"check", report{Pages: 100, Changed: 3}, false},
	}
	for _, tc := range tests {
		if err := tc.rep.expect(tc.step); (err == nil) != tc.ok {
			t.Errorf("%s with %+v: got %v, want ok %v", tc.step, tc.rep, err, tc.ok)
		}
	}
}

func TestFigures(t *testing.T) {
	ms := []measure{{wall: 3 * time.Second, rss: 5}, {wall: time.Second, rss: 9}, {wall: 2 * time.Second, rss: 7}}
	if got := median(ms, wall); got != 2*time.Second {
		t.Errorf("median: got %v, want 2s", got)
	}
	if got := median(ms[:2], wall); got != 2*time.Second {
		t.Errorf("median of two: got %v, want their mean, 2s", got)
	}
	if got := spread(ms); got != 1 {
		t.Errorf("spread: got %v, want (3s-1s)/2s = 1", got)
	}
	if got := spread(ms[:1]); got != 0 {
		t.Errorf("spread of one run: got %v, want 0", got)
	}
	if got := peak(ms); got != 9 {
		t.Errorf("peak: got %d, want 9", got)
	}
	for n, want := range map[int]string{7: "7", 1000: "1,000", 133817: "133,817", 1000000: "1,000,000"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestRoundSteps: a round runs every step once, build first of robotsmith's steps and only once
// (it needs a fresh copy), and runs again only the steps that leave the copy as they found it.
func TestRoundSteps(t *testing.T) {
	for repeat := 1; repeat <= 3; repeat++ {
		order := roundSteps(repeat)
		count := make(map[int]int)
		for _, i := range order {
			count[i]++
		}
		want := map[int]int{floorStep: repeat, floorTxStep: 1, buildStep: 1, rebuildStep: repeat, checkStep: repeat}
		if !reflect.DeepEqual(count, want) {
			t.Errorf("repeat %d: runs %v, want %v", repeat, count, want)
		}
		for _, i := range order {
			if i == buildStep {
				break
			}
			if i == rebuildStep || i == checkStep {
				t.Errorf("repeat %d: %s before build in %v", repeat, steps[i], order)
			}
		}
	}
}

// TestLaunch: the launcher runs a command and reports its time, CPU and peak RSS, and its failure
// with the end of its stderr.
func TestLaunch(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	out := t.TempDir() + "/stdout"
	res := launch(context.Background(), request{Args: []string{sh, "-c", "echo hello"}, Stdout: out})
	if res.Err != "" || res.Wall <= 0 || res.RSS <= 0 {
		t.Errorf("launch: got %+v, want a measured success", res)
	}
	if b, _ := os.ReadFile(out); string(b) != "hello\n" {
		t.Errorf("stdout: got %q", b)
	}
	res = launch(context.Background(), request{Args: []string{sh, "-c", "echo broken >&2; exit 3"}, Stdout: out})
	if res.Err == "" || !strings.Contains(res.Stderr, "broken") {
		t.Errorf("launch of a failing command: got %+v, want its error and stderr", res)
	}
	// The protocol the benchmark speaks with its launcher: one request in, one result out.
	var in, resp bytes.Buffer
	in.WriteString(`{"Args":["` + sh + `","-c","true"],"Stdout":"` + out + `"}` + "\n")
	if err := launcher(context.Background(), &in, &resp); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(resp.String(), `"RSS":`) || strings.Contains(resp.String(), `"Err":"e`) {
		t.Errorf("launcher answered %s", resp.String())
	}
}

// TestGeneratorFingerprint: a generated site is reused only while the generator writes the same
// site, so the fingerprint is the same for the same seed and differs for another.
func TestGeneratorFingerprint(t *testing.T) {
	a, err := generatorFingerprint(1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := generatorFingerprint(1)
	if err != nil {
		t.Fatal(err)
	}
	c, err := generatorFingerprint(2)
	if err != nil {
		t.Fatal(err)
	}
	if a != b || a == c {
		t.Errorf("fingerprints: seed 1 %s then %s, seed 2 %s; want the same twice and another", a, b, c)
	}
}

// TestTargets: the build's 1.2 × is judged for sites of up to 10,000 pages and reported, unjudged,
// above; the rebuild's, check's, memory and linearity targets are judged at every size.
func TestTargets(t *testing.T) {
	result := func(pages int, floor, build, rebuild, check time.Duration) sizeResult {
		r := sizeResult{site: site{pages: pages}}
		for i, d := range [len(steps)]time.Duration{floorStep: floor, floorTxStep: floor, buildStep: build, rebuildStep: rebuild, checkStep: check} {
			r.measures[i] = []measure{{wall: d, rss: 10 << 20}}
		}
		return r
	}
	var b strings.Builder
	printTargets(&b, []sizeResult{
		result(10000, 4*time.Second, 5*time.Second, time.Second, time.Second),          // build 1.25 ×: not met
		result(100000, 40*time.Second, 52*time.Second, 11*time.Second, 13*time.Second), // build 1.3 ×: no verdict
	})
	out := b.String()
	for _, want := range []string{
		"10,000 pages: build   ≤ 1.2 × floor: 1.25 × — NOT met",
		"100,000 pages: build   1.30 × floor (the 1.2 × target is the 10,000-page build's",
		"100,000 pages: rebuild ≤ 0.3 × floor: 0.28 × — met",
		"100,000 pages: check   ≤ 0.3 × floor: 0.33 × — NOT met",
		"100,000 pages / 10,000 pages, build   ≤ 10.5 × the time: 10.40 × — met",
		"100,000 pages / 10,000 pages, check   ≤ 10.5 × the time: 13.00 × — NOT met",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no line %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "100,000 pages: build   ≤") {
		t.Errorf("the 100,000-page build judged against 1.2 ×:\n%s", out)
	}
}
