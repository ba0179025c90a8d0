//go:build unix

package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// The hostile-input corpus: testdata/hostile/*.txtar, one case a file, each
// an input that an attacker or an unlucky user could hand robotsmith (SPEC
// §10). A case's files are the txtar sections; its comment holds directives:
//
//	desc: what the case is
//	args: build --no-command SITE     the command line (SITE is the case's folder; this is the default)
//	exit: 1                           the exit status wanted (0 or 1)
//	stderr: public/_headers:3:        text stderr must contain (repeatable); stdout: likewise
//	maxstderr: 8192                   the longest stderr allowed (default 8192: errors quote short excerpts)
//	output: _site                     the output folder (default public)
//	append: PATH N "TEXT"             append TEXT (a Go string) N times to PATH, after its section;
//	                                  {i} in TEXT is the repetition's number, from 0
//	files: PATTERN N "TEXT"           N files, {i} in PATTERN and TEXT their number
//	fifo: PATH                        a FIFO
//	socket: PATH                      a Unix socket
//	symlink: PATH TARGET              a symbolic link
//	hardlink: PATH EXISTING           a second name for a file
//	sparse: PATH SIZE                 a file of SIZE zero bytes that takes no disk
//	chmod: PATH 4755                  a mode (octal; 4, 2, 1 in front: setuid, setgid, sticky)
//	chown: PATH 1234 1234             an owner and group (only as root; skipped otherwise)
//
// Each case runs robotsmith's main in a child process (this test binary run
// again, as the kill tests do) with a time limit and an address-space limit,
// and must: end with the wanted status (never a crash or a hang); name what
// the case says in its messages; use memory and time in proportion to its
// input; change nothing when it fails; and, when it succeeds, keep every link a
// link and every special file as it was, change nothing outside the output
// folder, leave none of robotsmith's temporary files, and change nothing on a
// second run.

const (
	hostileChildEnv = "ROBOTSMITH_HOSTILE_CHILD" // the child's arguments, as JSON
	childMemory     = 3 << 30                    // the child's address-space limit
)

func TestMain(m *testing.M) {
	if args := os.Getenv(hostileChildEnv); args != "" {
		hostileChild(args)
		return
	}
	code := m.Run()
	testtool.RemoveBuilt()
	os.Exit(code)
}

// hostileChild is robotsmith's main under an address-space limit: a run that
// would take gigabytes dies instead of taking the machine with it.
func hostileChild(args string) {
	var argv []string
	if err := json.Unmarshal([]byte(args), &argv); err != nil {
		fmt.Fprintln(os.Stderr, "hostile child:", err)
		os.Exit(3)
	}
	lim := &syscall.Rlimit{Cur: childMemory, Max: childMemory}
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, lim); err != nil {
		fmt.Fprintln(os.Stderr, "hostile child: setrlimit:", err)
		os.Exit(3)
	}
	os.Args = append([]string{"robotsmith"}, argv...)
	main()
}

// hostileCase is one parsed case file.
type hostileCase struct {
	name      string
	desc      string
	args      []string
	exit      int
	stderr    []string
	stdout    []string
	maxStderr int
	output    string
	files     []archiveFile
	appends   []appendOp
	many      []appendOp // files: path is the pattern
	fifos     []string
	sockets   []string
	symlinks  [][2]string
	hardlinks [][2]string
	sparse    map[string]int64
	chmods    map[string]fs.FileMode
	chowns    map[string][2]int
	input     int64 // bytes of input, for the memory and time bounds
}

type appendOp struct {
	path  string
	count int
	text  string
}

// repeat is the appended bytes.
func (a appendOp) repeat() []byte {
	if !strings.Contains(a.text, "{i}") {
		return bytes.Repeat([]byte(a.text), a.count)
	}
	var b bytes.Buffer
	for i := 0; i < a.count; i++ {
		b.WriteString(strings.ReplaceAll(a.text, "{i}", strconv.Itoa(i)))
	}
	return b.Bytes()
}

func readHostileCase(t *testing.T, file string) *hostileCase {
	t.Helper()
	a, err := readArchive(file)
	if err != nil {
		t.Fatal(err)
	}
	c := &hostileCase{
		name:      strings.TrimSuffix(filepath.Base(file), ".txtar"),
		args:      []string{"build", "--no-command", "SITE"},
		exit:      -1,
		maxStderr: 8192,
		output:    "public",
		files:     a.Files,
		sparse:    map[string]int64{},
		chmods:    map[string]fs.FileMode{},
		chowns:    map[string][2]int{},
	}
	for n, line := range strings.Split(string(a.Comment), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		val = strings.TrimSpace(val)
		bad := func(err error) {
			t.Fatalf("%s:%d: %s: %v", file, n+1, key, err)
		}
		if !ok {
			bad(errors.New("want key: value"))
		}
		fields := strings.Fields(val)
		switch key {
		case "desc":
			c.desc = val
		case "output":
			c.output = val
		case "args":
			c.args = fields
		case "exit":
			if c.exit, err = strconv.Atoi(val); err != nil {
				bad(err)
			}
		case "stderr":
			c.stderr = append(c.stderr, val)
		case "stdout":
			c.stdout = append(c.stdout, val)
		case "maxstderr":
			if c.maxStderr, err = strconv.Atoi(val); err != nil {
				bad(err)
			}
		case "append", "files":
			parts := strings.SplitN(val, " ", 3)
			if len(parts) != 3 {
				bad(errors.New("want PATH N TEXT"))
			}
			count, err := strconv.Atoi(parts[1])
			if err != nil {
				bad(err)
			}
			text := parts[2]
			if strings.HasPrefix(text, `"`) {
				if text, err = strconv.Unquote(text); err != nil {
					bad(err)
				}
			}
			op := appendOp{parts[0], count, text}
			if key == "files" {
				c.many = append(c.many, op)
			} else {
				c.appends = append(c.appends, op)
			}
			c.input += int64(count * (len(text) + 4))
		case "fifo":
			c.fifos = append(c.fifos, val)
		case "socket":
			c.sockets = append(c.sockets, val)
		case "symlink":
			if len(fields) != 2 {
				bad(errors.New("want PATH TARGET"))
			}
			c.symlinks = append(c.symlinks, [2]string{fields[0], fields[1]})
		case "hardlink":
			if len(fields) != 2 {
				bad(errors.New("want PATH EXISTING"))
			}
			c.hardlinks = append(c.hardlinks, [2]string{fields[0], fields[1]})
		case "sparse":
			size, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil || len(fields) != 2 {
				bad(fmt.Errorf("want PATH SIZE: %v", err))
			}
			c.sparse[fields[0]] = size
			c.input += size
		case "chmod":
			m, err := strconv.ParseUint(fields[1], 8, 32)
			if err != nil || len(fields) != 2 {
				bad(fmt.Errorf("want PATH MODE: %v", err))
			}
			mode := fs.FileMode(m & 0o777)
			for bit, flag := range map[uint64]fs.FileMode{0o4000: fs.ModeSetuid, 0o2000: fs.ModeSetgid, 0o1000: fs.ModeSticky} {
				if m&bit != 0 {
					mode |= flag
				}
			}
			c.chmods[fields[0]] = mode
		case "chown":
			uid, err1 := strconv.Atoi(fields[1])
			gid, err2 := strconv.Atoi(fields[2])
			if err := errors.Join(err1, err2); err != nil || len(fields) != 3 {
				bad(fmt.Errorf("want PATH UID GID: %v", err))
			}
			c.chowns[fields[0]] = [2]int{uid, gid}
		default:
			bad(errors.New("unknown directive"))
		}
	}
	if c.desc == "" || c.exit < 0 {
		t.Fatalf("%s: every case needs desc and exit", file)
	}
	for _, f := range a.Files {
		c.input += int64(len(f.Data))
	}
	return c
}

// build makes the case's folder.
func (c *hostileCase) build(t *testing.T, dir string) {
	t.Helper()
	write := func(name string, data []byte, flag int) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|flag, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write(data); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range c.files {
		write(f.Name, f.Data, os.O_TRUNC)
	}
	for _, a := range c.appends {
		write(a.path, a.repeat(), os.O_APPEND)
	}
	for _, m := range c.many {
		for i := 0; i < m.count; i++ {
			n := strconv.Itoa(i)
			write(strings.ReplaceAll(m.path, "{i}", n), []byte(strings.ReplaceAll(m.text, "{i}", n)), os.O_TRUNC)
		}
	}
	mkdir := func(name string) string {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, name := range c.fifos {
		if err := syscall.Mkfifo(mkdir(name), 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	}
	for _, name := range c.sockets {
		fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
		if err != nil {
			t.Skipf("socket: %v", err)
		}
		err = syscall.Bind(fd, &syscall.SockaddrUnix{Name: mkdir(name)})
		syscall.Close(fd) // the socket's file stays
		if err != nil {
			t.Skipf("bind: %v", err)
		}
	}
	for _, l := range c.symlinks {
		if err := os.Symlink(l[1], mkdir(l[0])); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range c.hardlinks {
		if err := os.Link(filepath.Join(dir, filepath.FromSlash(l[1])), mkdir(l[0])); err != nil {
			t.Fatal(err)
		}
	}
	for name, size := range c.sparse {
		p := mkdir(name)
		f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(size); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	for name, mode := range c.chmods {
		if err := os.Chmod(filepath.Join(dir, filepath.FromSlash(name)), mode); err != nil {
			t.Fatal(err)
		}
	}
	for name, ids := range c.chowns {
		if os.Geteuid() != 0 {
			t.Skip("chown: not root")
		}
		if err := os.Lchown(filepath.Join(dir, filepath.FromSlash(name)), ids[0], ids[1]); err != nil {
			t.Fatal(err)
		}
	}
}

// hostileState is one entry of a folder, as compared before and after a run:
// its kind and mode, owner, size and time, a link's target, and a hash of a
// regular file's bytes (files over 8 MB by size and time only).
type hostileState map[string]string

func stateOf(t *testing.T, dir string) hostileState {
	t.Helper()
	s := hostileState{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		st := fi.Sys().(*syscall.Stat_t)
		desc := fmt.Sprintf("%v %d:%d", fi.Mode(), st.Uid, st.Gid)
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			desc += " -> " + target
		case fi.Mode().IsRegular() && fi.Size() <= 8<<20:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			desc += fmt.Sprintf(" %x", sha256.Sum256(b))
		case fi.Mode().IsRegular():
			desc += fmt.Sprintf(" %d bytes %v", fi.Size(), fi.ModTime().UnixNano())
		}
		s[filepath.ToSlash(rel)] = desc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// changes lists the entries that differ, sorted.
func (a hostileState) changes(b hostileState) []string {
	var out []string
	for k, v := range a {
		if w, ok := b[k]; !ok {
			out = append(out, k+": removed")
		} else if v != w {
			out = append(out, fmt.Sprintf("%s: %s -> %s", k, v, w))
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k+": created")
		}
	}
	sort.Strings(out)
	return out
}

type childResult struct {
	exit           int
	stdout, stderr string
	took           time.Duration
	rss            int64 // peak resident set, bytes
	killed         string
}

func runHostileChild(t *testing.T, dir string, args []string, limit time.Duration) childResult {
	t.Helper()
	argv := make([]string, len(args))
	for i, a := range args {
		argv[i] = strings.ReplaceAll(a, "SITE", dir)
	}
	js, _ := json.Marshal(argv)
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), hostileChildEnv+"="+string(js))
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r := childResult{took: time.Since(start), stdout: stdout.String(), stderr: stderr.String()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.rss = ru.Maxrss << 10
	}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		r.killed = fmt.Sprintf("still running after %v: a hang", limit)
	case errors.As(err, &ee) && ee.Sys().(syscall.WaitStatus).Signaled():
		r.killed = fmt.Sprintf("killed by %v", ee.Sys().(syscall.WaitStatus).Signal())
	case errors.As(err, &ee):
		r.exit = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return r
}

// TestHostile runs the corpus.
func TestHostile(t *testing.T) {
	if raceEnabled {
		t.Skip("the corpus measures its children's memory: it runs without -race")
	}
	files, err := filepath.Glob(filepath.Join("testdata", "hostile", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 80 {
		t.Fatalf("got %d hostile cases, want at least 80", len(files))
	}
	for _, file := range files {
		c := readHostileCase(t, file)
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			c.build(t, dir)
			// In proportion: a generous constant (a bound on a hang, which is minutes, not a measure: a
			// loaded 2-core machine takes 15 s for a 10,000-agent config), and per megabyte of input.
			mb := float64(c.input) / (1 << 20)
			timeLimit := 90*time.Second + time.Duration(mb*float64(2*time.Second))
			memLimit := int64(300<<20) + 4*c.input
			before := stateOf(t, dir)
			r := runHostileChild(t, dir, c.args, timeLimit)
			t.Logf("%s: exit %d in %v, %d MB peak", c.desc, r.exit, r.took.Round(time.Millisecond), r.rss>>20)
			if r.killed != "" {
				t.Fatalf("%s\nstderr: %.2000s", r.killed, r.stderr)
			}
			if r.exit != c.exit {
				t.Errorf("exit %d, want %d\nstdout: %.2000s\nstderr: %.2000s", r.exit, c.exit, r.stdout, r.stderr)
			}
			if strings.Contains(r.stderr, "panic") || strings.Contains(r.stderr, "goroutine ") {
				t.Errorf("a panic:\n%.4000s", r.stderr)
			}
			// Every problem a hostile input makes has a code of its own: one robotsmith did not
			// expect is a problem the registry lacks.
			if i := strings.Index(r.stderr, "[RS0005 internal-error]"); i >= 0 {
				t.Errorf("an error of no code of its own:\n%.2000s", r.stderr[max(0, strings.LastIndex(r.stderr[:i], "\n")):])
			}
			for _, want := range c.stderr {
				if !strings.Contains(r.stderr, strings.ReplaceAll(want, "SITE", dir)) {
					t.Errorf("stderr does not say %q:\n%.2000s", want, r.stderr)
				}
			}
			for _, want := range c.stdout {
				if !strings.Contains(r.stdout, strings.ReplaceAll(want, "SITE", dir)) {
					t.Errorf("stdout does not say %q:\n%.2000s", want, r.stdout)
				}
			}
			if len(r.stderr) > c.maxStderr {
				t.Errorf("stderr of %d bytes, want at most %d (short excerpts):\n%.1000s...", len(r.stderr), c.maxStderr, r.stderr)
			}
			if r.rss > memLimit {
				t.Errorf("peak memory %d MB for %.1f MB of input, want at most %d MB", r.rss>>20, mb, memLimit>>20)
			}
			after := stateOf(t, dir)
			if r.exit != 0 {
				if ch := before.changes(after); len(ch) > 0 {
					t.Fatalf("a failing run changed files:\n%s", strings.Join(ch, "\n"))
				}
				return
			}
			checkSucceeded(t, c.output, before, after)
			// A second run changes nothing.
			r2 := runHostileChild(t, dir, c.args, timeLimit)
			if r2.killed != "" || r2.exit != 0 {
				t.Fatalf("second run: exit %d %s\nstderr: %.2000s", r2.exit, r2.killed, r2.stderr)
			}
			if ch := after.changes(stateOf(t, dir)); len(ch) > 0 {
				t.Errorf("the second run changed files:\n%s", strings.Join(ch, "\n"))
			}
		})
	}
}

// checkSucceeded: a successful run kept every link a link (same target) and
// every special file, mode and owner; left none of robotsmith's own files;
// and changed nothing outside the output folder.
func checkSucceeded(t *testing.T, output string, before, after hostileState) {
	t.Helper()
	meta := func(desc string) string {
		// Kind, mode, owner; and the target of a link.
		f := strings.Fields(desc)
		if i := strings.Index(desc, " -> "); i >= 0 {
			return desc
		}
		if len(f) >= 2 {
			return f[0] + " " + f[1]
		}
		return desc
	}
	for name, b := range before {
		a, ok := after[name]
		switch {
		case !ok:
			t.Errorf("%s: removed", name)
		case !strings.HasPrefix(name, output+"/") && name != output && a != b:
			t.Errorf("%s: changed outside the output folder: %s -> %s", name, b, a)
		case meta(a) != meta(b):
			t.Errorf("%s: %s -> %s", name, meta(b), meta(a))
		}
	}
	for name := range after {
		_, existed := before[name]
		switch {
		case existed:
		case strings.HasPrefix(filepath.Base(name), ".robotsmith-"):
			t.Errorf("%s: robotsmith's own file left behind", name)
		case name != output+"/_headers":
			t.Errorf("%s: created", name)
		}
	}
}
