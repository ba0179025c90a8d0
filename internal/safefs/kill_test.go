//go:build unix

package safefs

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The kill tests run a small build in a child process (this test binary,
// re-executed: TestMain sees the helper variable) and kill it: with SIGKILL
// at a chosen step, with SIGTERM (which must undo and exit 143 within a
// second), or with SIGKILL at random moments (the long form). After each kill,
// every file must be whole, old or new; the next run must leave no file of
// robotsmith's and a consistent folder; and the build run again must give
// exactly what an uninterrupted build gives.

const (
	helperEnv = "SAFEFS_KILL_HELPER" // "dir files gen": run the toy build
	killAtEnv = "SAFEFS_KILL_AT"     // "step:i:KILL" or "step:i:TERM"
)

func TestMain(m *testing.M) {
	if args := os.Getenv(helperEnv); args != "" {
		os.Exit(helper(args, os.Getenv(killAtEnv)))
	}
	os.Exit(m.Run())
}

// content is page i of generation gen: whole pages are told from torn ones by
// their exact bytes, and sizes vary (up to about 9 KB).
func content(i, gen int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<!doctype html><title>page %d</title><!-- generation %d -->\n", i, gen)
	for n := (i * 7919) % 150; n > 0; n-- {
		fmt.Fprintf(&b, "<p>line %d of page %d, generation %d</p>\n", n, i, gen)
	}
	return b.String()
}

func pageName(i int) string { return fmt.Sprintf("s%02d/p%d/index.html", i%37, i) }

const headersName = "_headers"

func headersContent(gen int) string { return fmt.Sprintf("/*\n  X-Generation: %d\n", gen) }

// writeSite writes generation gen of a site of n pages (and no _headers).
func writeSite(t testing.TB, dir string, n, gen int) {
	t.Helper()
	for i := 0; i < n; i++ {
		p := filepath.Join(dir, filepath.FromSlash(pageName(i)))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content(i, gen)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// toyBuild turns every page into generation gen, as robotsmith build turns a
// site into its fixed form: read each page (bounded, regular files only),
// write what changes, commit. _headers is new in generation 1.
func toyBuild(ctx context.Context, dir string, n, gen int, hook func(string, int) error) error {
	tx, err := Begin(ctx, dir)
	if err != nil {
		return err
	}
	defer tx.Abort()
	tx.hook = hook
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	for i := 0; i <= n; i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		if hook != nil {
			if err := hook("write", i); err != nil {
				return err
			}
		}
		name, want := headersName, headersContent(gen)
		if i < n {
			name, want = pageName(i), content(i, gen)
		}
		var fi fs.FileInfo
		f, fi, err := OpenIn(root, name)
		switch {
		case errors.Is(err, fs.ErrNotExist) && name == headersName:
		case err != nil:
			return err
		default:
			old, err := ReadAll(f, fi, 1<<20)
			f.Close()
			if err != nil {
				return err
			}
			if string(old) == want {
				continue
			}
		}
		if err := tx.WriteFile(name, fi, []byte(want)); err != nil {
			return err
		}
	}
	return tx.Commit(ctx)
}

// helper is the child process: "dir n gen" and an optional kill point. It
// exits 0, 1 on an error, 130 or 143 when SIGINT or SIGTERM stopped it.
func helper(args, killAt string) int {
	var dir string
	var n, gen int
	if _, err := fmt.Sscan(args, &dir, &n, &gen); err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 2
	}
	ctx, stop := context.WithCancelCause(context.Background())
	defer stop(nil)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		s := <-sigs
		stop(fmt.Errorf("signal %v", s))
	}()
	var hook func(string, int) error
	if killAt != "" {
		parts := strings.Split(killAt, ":")
		at, _ := strconv.Atoi(parts[1])
		hook = func(step string, i int) error {
			if step != parts[0] || i != at {
				return nil
			}
			if parts[2] == "KILL" {
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
				select {}
			}
			fmt.Println("ready") // the parent sends SIGTERM now
			<-ctx.Done()
			return nil
		}
	}
	err := toyBuild(ctx, dir, n, gen, hook)
	if cause := context.Cause(ctx); err != nil && cause != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		if strings.Contains(cause.Error(), "interrupt") {
			return 130
		}
		return 143
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 1
	}
	return 0
}

func helperCmd(dir string, n, gen int, killAt string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s %d %d", helperEnv, dir, n, gen), killAtEnv+"="+killAt)
	cmd.Stderr = os.Stderr
	return cmd
}

// checkWhole checks that every page is generation a or b exactly, and
// _headers absent (before generation 1) or one of theirs; it returns how many
// pages are generation b.
func checkWhole(t *testing.T, dir string, n, a, b int) int {
	t.Helper()
	atB := 0
	for i := 0; i < n; i++ {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(pageName(i))))
		if err != nil {
			t.Fatalf("page %d: %v", i, err)
		}
		switch string(got) {
		case content(i, b):
			atB++
		case content(i, a):
		default:
			t.Fatalf("page %d is torn: %d bytes, neither generation %d nor %d", i, len(got), a, b)
		}
	}
	h, err := os.ReadFile(filepath.Join(dir, headersName))
	switch {
	case errors.Is(err, fs.ErrNotExist) && a == 0:
	case err != nil:
		t.Fatalf("_headers: %v", err)
	case string(h) != headersContent(a) && string(h) != headersContent(b):
		t.Fatalf("_headers is torn: %q", h)
	}
	return atB
}

// ours lists robotsmith's own files left in dir.
func ours(t *testing.T, dir string) []string {
	t.Helper()
	var left []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), Prefix) {
			left = append(left, p)
		}
		return err
	})
	return left
}

// TestKill kills the toy build at every kind of step (SIGKILL), and stops it
// with SIGTERM at some, over a site of a few hundred pages.
func TestKill(t *testing.T) {
	n := 300
	if raceEnabled {
		n = 60
	}
	type point struct {
		at  string // step:i
		sig string
	}
	var points []point
	// Step numbers: 0 to n-1 are the pages, n is _headers; in the commit,
	// _headers (in the root folder) comes first.
	mid, last := strconv.Itoa(n/2), strconv.Itoa(n)
	for _, at := range []string{"write:0", "write:" + mid, "write:" + last, "plan:0", "link:0", "rename:0",
		"link:" + mid, "rename:" + mid, "rename:" + last, "done:0", "cleanup:1", "cleanup:" + last} {
		points = append(points, point{at, "KILL"})
	}
	for _, at := range []string{"write:" + mid, "plan:0", "rename:" + mid, "rename:" + last} {
		points = append(points, point{at, "TERM"})
	}
	for _, p := range points {
		t.Run(p.sig+" "+p.at, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			writeSite(t, dir, n, 0)
			cmd := helperCmd(dir, n, 1, p.at+":"+p.sig)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var stopped time.Duration
			if p.sig == "TERM" {
				line, _ := bufio.NewReader(out).ReadString('\n')
				if line != "ready\n" {
					cmd.Process.Kill()
					t.Fatalf("helper said %q", line)
				}
				sent := time.Now()
				cmd.Process.Signal(syscall.SIGTERM)
				err = cmd.Wait()
				stopped = time.Since(sent)
			} else {
				err = cmd.Wait()
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("helper: %v, want it killed", err)
			}
			ws := ee.Sys().(syscall.WaitStatus)
			switch p.sig {
			case "KILL":
				if !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
					t.Fatalf("helper ended with %v, want SIGKILL", ws)
				}
				checkWhole(t, dir, n, 0, 1)
				rec, err := Recover(context.Background(), dir)
				if err != nil {
					t.Fatal(err)
				}
				atNew := checkWhole(t, dir, n, 0, 1)
				if wantNew := map[bool]int{true: n}[strings.HasPrefix(p.at, "cleanup")]; atNew != wantNew {
					t.Errorf("after recovery (%v): %d pages new, want %d", rec, atNew, wantNew)
				}
			case "TERM":
				// The build undoes itself: nothing to recover.
				if ws.ExitStatus() != 143 {
					t.Fatalf("helper exited %v, want 143", ws)
				}
				t.Logf("stopped %v after SIGTERM", stopped)
				if stopped > 5*time.Second {
					t.Errorf("took %v to stop after SIGTERM, want well under a second", stopped)
				}
				if atNew := checkWhole(t, dir, n, 0, 1); atNew != 0 {
					t.Errorf("%d pages new after SIGTERM, want none", atNew)
				}
			}
			if left := ours(t, dir); len(left) > 0 {
				t.Fatalf("left behind: %v", left)
			}
			// The next build gives what an uninterrupted one gives.
			if err := toyBuild(context.Background(), dir, n, 1, nil); err != nil {
				t.Fatal(err)
			}
			if atNew := checkWhole(t, dir, n, 1, 1); atNew != n {
				t.Fatalf("%d pages new after the rerun, want %d", atNew, n)
			}
			if left := ours(t, dir); len(left) > 0 {
				t.Fatalf("left behind after the rerun: %v", left)
			}
		})
	}
}

// TestKillLong is the long form: a 10,000-page site, each round killed
// (SIGKILL) at a random moment of a build to the next generation; after each
// kill every page is whole, and after the next, uninterrupted run the site is
// byte-identical to one built without interruption (built beside it), with
// no file of robotsmith's left. It takes minutes: set ROBOTSMITH_LONG=1.
func TestKillLong(t *testing.T) {
	if os.Getenv("ROBOTSMITH_LONG") == "" {
		t.Skip("the long kill test runs with ROBOTSMITH_LONG=1")
	}
	n, kills := 10000, 30
	if v, err := strconv.Atoi(os.Getenv("ROBOTSMITH_LONG_PAGES")); err == nil {
		n = v
	}
	dir, ref := t.TempDir(), t.TempDir()
	writeSite(t, dir, n, 0)
	writeSite(t, ref, n, 0)
	// How long an uninterrupted build takes here: kills land anywhere in it.
	start := time.Now()
	if err := helperCmd(ref, n, 1, "").Run(); err != nil {
		t.Fatal(err)
	}
	span := time.Since(start)
	t.Logf("an uninterrupted build of %d pages: %v", n, span)
	rng := rand.New(rand.NewPCG(1, 2))
	gen, landed := 0, 0
	for round := 0; landed < kills && round < 3*kills; round++ {
		next := gen + 1
		cmd := helperCmd(dir, n, next, "")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		after := time.Duration(rng.Int64N(int64(span)))
		timer := time.AfterFunc(after, func() { cmd.Process.Kill() })
		err := cmd.Wait()
		timer.Stop()
		if err == nil {
			gen = next // finished before the kill: no kill landed
			continue
		}
		landed++
		checkWhole(t, dir, n, gen, next)
		// The next run: recover, then build to completion.
		if err := helperCmd(dir, n, next, "").Run(); err != nil {
			t.Fatalf("the run after kill %d: %v", landed, err)
		}
		gen = next
		if left := ours(t, dir); len(left) > 0 {
			t.Fatalf("after kill %d at %v: left behind %v", landed, after, left[:min(len(left), 5)])
		}
		if checkWhole(t, dir, n, gen, gen) != n {
			t.Fatalf("after kill %d: not every page is generation %d", landed, gen)
		}
	}
	if landed < kills {
		t.Fatalf("only %d kills landed", landed)
	}
	// The reference, built to the same generation without interruption.
	for g := 2; g <= gen; g++ {
		if err := helperCmd(ref, n, g, "").Run(); err != nil {
			t.Fatal(err)
		}
	}
	if d := diff(snapshot(t, dir), snapshot(t, ref)); d != "" {
		t.Fatalf("differs from the uninterrupted build:\n%.2000s", d)
	}
	t.Logf("%d kills, generation %d: byte-identical to the uninterrupted build", landed, gen)
}
