package watch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/robotsmith/robotsmith/internal/safefs"
)

// backends are the two ways the watcher learns of changes; every scenario runs with both.
var backends = []struct {
	name string
	poll bool
}{{"events", false}, {"poll", true}}

// testQuiet and testPoll keep the tests quick; the scenarios do not depend on them.
const (
	testQuiet = 50 * time.Millisecond
	testPoll  = 40 * time.Millisecond
	// patience bounds how long a test waits for a batch it expects; it is a failure bound, never
	// a measure of speed.
	patience = 10 * time.Second
)

// key names a change as the tests want it: "ROOT:REL", with "/" after a folder.
func key(c Change) string {
	k := fmt.Sprintf("%d:%s", c.Root, c.Rel)
	if c.Dir {
		k += "/"
	}
	return k
}

func TestWatcher(t *testing.T) {
	tests := []struct {
		desc  string
		roots []string                                              // relative to the site folder
		setup map[string]string                                     // files before the watcher starts ("x/" makes a folder)
		act   func(t *testing.T, dir string, wait func(key string)) // what happens while it watches; wait blocks until a change is reported
		want  []string                                              // changes that must be reported (keys)
		never []string                                              // changes that must not be reported (keys; "KEY OP": not with that op)
	}{
		{
			desc:  "a page the generator rewrites in place",
			roots: []string{"public", "content", "hugo.toml"},
			setup: map[string]string{"public/blog/a/index.html": "old", "content/blog/a.md": "a", "hugo.toml": ""},
			act: func(t *testing.T, dir string, wait func(string)) {
				write(t, filepath.Join(dir, "public/blog/a/index.html"), "new page")
			},
			want: []string{"0:blog/a/index.html"},
		},
		{
			desc:  "a new section: folders made at once and files written into them, then a later page",
			roots: []string{"public"},
			setup: map[string]string{"public/index.html": "x"},
			act: func(t *testing.T, dir string, wait func(string)) {
				mkdir(t, filepath.Join(dir, "public/news/first"))
				write(t, filepath.Join(dir, "public/news/first/index.html"), "n1")
				write(t, filepath.Join(dir, "public/news/index.html"), "list")
				wait("0:news/first/index.html")
				// By now the new folders are watched: a later page in them is seen by its event.
				write(t, filepath.Join(dir, "public/news/first/later.html"), "later")
			},
			want: []string{"0:news/", "0:news/first/", "0:news/first/index.html", "0:news/index.html", "0:news/first/later.html"},
		},
		{
			desc:  "a removed folder",
			roots: []string{"public"},
			setup: map[string]string{"public/old/a/index.html": "x", "public/old/index.html": "y", "public/index.html": "z"},
			act:   func(t *testing.T, dir string, wait func(string)) { removeAll(t, filepath.Join(dir, "public/old")) },
			want:  []string{"0:old/"},
		},
		{
			desc:  "a folder moved out of the tree is gone, and what happens in it later is not reported",
			roots: []string{"public"},
			// fsnotify drops the watch of the moved folder itself, but not those of its subfolders.
			setup: map[string]string{"public/tmpsec/sub/index.html": "x", "elsewhere/": ""},
			act: func(t *testing.T, dir string, wait func(string)) {
				if err := os.Rename(filepath.Join(dir, "public/tmpsec"), filepath.Join(dir, "elsewhere/tmpsec")); err != nil {
					t.Fatal(err)
				}
				wait("0:tmpsec/")
				write(t, filepath.Join(dir, "elsewhere/tmpsec/sub/index.html"), "changed outside")
				write(t, filepath.Join(dir, "elsewhere/tmpsec/sub/new.html"), "new outside")
			},
			want:  []string{"0:tmpsec/"},
			never: []string{"0:tmpsec/sub/index.html write", "0:tmpsec/sub/new.html"},
		},
		{
			desc:  "a folder renamed inside the tree: the old name goes, the new one's files come",
			roots: []string{"content"},
			setup: map[string]string{"content/drafts/a.md": "a"},
			act: func(t *testing.T, dir string, wait func(string)) {
				if err := os.Rename(filepath.Join(dir, "content/drafts"), filepath.Join(dir, "content/posts")); err != nil {
					t.Fatal(err)
				}
			},
			want: []string{"0:drafts/", "0:posts/", "0:posts/a.md"},
		},
		{
			desc:  "vim's save: the file renamed to a backup, a new file written, the backup removed",
			roots: []string{"content"},
			setup: map[string]string{"content/a.md": "old"},
			act: func(t *testing.T, dir string, wait func(string)) {
				p := filepath.Join(dir, "content/a.md")
				write(t, filepath.Join(dir, "content/4913"), "")
				os.Remove(filepath.Join(dir, "content/4913"))
				write(t, filepath.Join(dir, "content/.a.md.swp"), "swap")
				if err := os.Rename(p, p+"~"); err != nil {
					t.Fatal(err)
				}
				write(t, p, "new")
				os.Remove(p + "~")
				os.Remove(filepath.Join(dir, "content/.a.md.swp"))
			},
			want:  []string{"0:a.md"},
			never: []string{"0:a.md~", "0:4913", "0:.a.md.swp"},
		},
		{
			// GNU sed 4.9 `sed -i` writes the new file to sedXXXXXX (mkstemp) in the file's
			// folder and renames it over the file; BSD sed's is .!PID!NAME.
			desc:  "sed -i: its temporary file renamed over the page",
			roots: []string{"content"},
			setup: map[string]string{"content/posts/a.md": "old", "content/posts/b.md": "old"},
			act: func(t *testing.T, dir string, wait func(string)) {
				for tmp, p := range map[string]string{"sedWRLyiX": "a.md", ".!4242!b.md": "b.md"} {
					tmp, p := filepath.Join(dir, "content/posts", tmp), filepath.Join(dir, "content/posts", p)
					write(t, tmp, "new")
					if err := os.Rename(tmp, p); err != nil {
						t.Fatal(err)
					}
				}
			},
			want:  []string{"0:posts/a.md", "0:posts/b.md"},
			never: []string{"0:posts/sedWRLyiX", "0:posts/.!4242!b.md"},
		},
		{
			// A file of the site named like sed's temporary file, which stays, is the site's.
			desc:  "a file named like sed's temporary file that stays",
			roots: []string{"public"},
			setup: map[string]string{"public/index.html": "x"},
			act: func(t *testing.T, dir string, wait func(string)) {
				write(t, filepath.Join(dir, "public/sedatives"), "a file of the site")
			},
			want: []string{"0:sedatives"},
		},
		{
			desc:  "an atomic save: a temporary file renamed over the page",
			roots: []string{"content"},
			setup: map[string]string{"content/a.md": "old"},
			act: func(t *testing.T, dir string, wait func(string)) {
				tmp := filepath.Join(dir, "content/a.md.tmp")
				write(t, tmp, "new")
				if err := os.Rename(tmp, filepath.Join(dir, "content/a.md")); err != nil {
					t.Fatal(err)
				}
			},
			want:  []string{"0:a.md"},
			never: []string{"0:a.md.tmp"},
		},
		{
			desc:  "a configuration file replaced by rename is reported under its own name",
			roots: []string{"content", "hugo.toml"},
			setup: map[string]string{"content/a.md": "a", "hugo.toml": "title = 'a'", "README.md": "r"},
			act: func(t *testing.T, dir string, wait func(string)) {
				tmp := filepath.Join(dir, ".hugo.toml.swp")
				write(t, tmp, "title = 'b'")
				if err := os.Rename(tmp, filepath.Join(dir, "hugo.toml")); err != nil {
					t.Fatal(err)
				}
				write(t, filepath.Join(dir, "README.md"), "a sibling of the roots")
			},
			want:  []string{"1:."},
			never: []string{"1:README.md", "0:README.md"},
		},
		{
			desc:  "an output folder that appears after the watcher started",
			roots: []string{"public", "content"},
			setup: map[string]string{"content/a.md": "a"},
			act: func(t *testing.T, dir string, wait func(string)) {
				mkdir(t, filepath.Join(dir, "public/a"))
				write(t, filepath.Join(dir, "public/a/index.html"), "a")
			},
			want: []string{"0:./", "0:a/index.html"},
		},
		{
			desc:  "nested roots: a file in Jekyll's _site belongs to the output root, not to the site",
			roots: []string{".", "_site", "_config.yml"},
			setup: map[string]string{"_site/a.html": "a", "a.md": "a", "_config.yml": "", ".git/HEAD": "x"},
			act: func(t *testing.T, dir string, wait func(string)) {
				write(t, filepath.Join(dir, "_site/a.html"), "a2")
				write(t, filepath.Join(dir, "a.md"), "a2")
				write(t, filepath.Join(dir, "_config.yml"), "title: x")
				write(t, filepath.Join(dir, ".git/HEAD"), "y")
			},
			want:  []string{"1:a.html", "0:a.md", "2:."},
			never: []string{"0:_site/a.html", "0:.git/HEAD", "0:_config.yml"},
		},
		{
			desc:  "Skip leaves out a folder and everything in it",
			roots: []string{"."},
			setup: map[string]string{"node_modules/x/index.js": "x", "a.md": "a"},
			act: func(t *testing.T, dir string, wait func(string)) {
				write(t, filepath.Join(dir, "node_modules/x/index.js"), "y")
				mkdir(t, filepath.Join(dir, "node_modules/y"))
				write(t, filepath.Join(dir, "node_modules/y/z.js"), "z")
				write(t, filepath.Join(dir, "a.md"), "a2")
			},
			want:  []string{"0:a.md"},
			never: []string{"0:node_modules/x/index.js", "0:node_modules/y/", "0:node_modules/y/z.js", "0:node_modules/"},
		},
	}
	for _, be := range backends {
		for _, tc := range tests {
			t.Run(be.name+"/"+tc.desc, func(t *testing.T) {
				dir := t.TempDir()
				for name, content := range tc.setup {
					if strings.HasSuffix(name, "/") {
						mkdir(t, filepath.Join(dir, name))
						continue
					}
					mkdir(t, filepath.Join(dir, filepath.Dir(name)))
					write(t, filepath.Join(dir, name), content)
				}
				var roots []string
				for _, r := range tc.roots {
					roots = append(roots, filepath.Join(dir, r))
				}
				own := NewOwn()
				w, err := New(Options{
					Roots: roots, Own: own, Quiet: testQuiet, Poll: be.poll, PollInterval: testPoll,
					Skip: func(p string, isDir bool) bool { return isDir && filepath.Base(p) == "node_modules" },
				})
				if err != nil {
					t.Fatal(err)
				}
				defer w.Close()
				if w.Polling() != be.poll {
					t.Fatalf("Polling() = %v, want %v", w.Polling(), be.poll)
				}
				seen := collectWhile(t, w, tc.act, dir, tc.want)
				for _, k := range tc.never {
					k, op, withOp := strings.Cut(k, " ")
					if c, ok := seen[k]; ok && (!withOp || strings.Contains(c.Op.String(), op)) {
						t.Errorf("reported %s (%s), want it left out", k, c.Op)
					}
				}
			})
		}
	}
}

// sentinel is the file every scenario writes last, into its first root, so that its change comes
// after everything the scenario did: once it is seen, everything before it has been delivered.
const sentinel = "sentinel"

// reports is every change seen so far, for the test and for a scenario's act that must wait for
// one before it goes on (a folder must be known to be gone before what happens in it is checked).
type reports struct {
	mu      sync.Mutex
	seen    map[string]Change
	updated chan struct{} // signalled after each batch
}

func (r *reports) add(cs []Change) {
	r.mu.Lock()
	for _, c := range cs {
		r.seen[key(c)] = c
	}
	r.mu.Unlock()
	select {
	case r.updated <- struct{}{}:
	default:
	}
}

func (r *reports) missing(want []string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.DeleteFunc(slices.Clone(want), func(k string) bool { _, ok := r.seen[k]; return ok })
}

func (r *reports) list() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var got []string
	for k, c := range r.seen {
		got = append(got, k+" "+c.Op.String())
	}
	slices.Sort(got)
	return got
}

// wait blocks until the change k has been reported.
func (r *reports) wait(t *testing.T, k string) {
	t.Helper()
	deadline := time.After(patience)
	for len(r.missing([]string{k})) > 0 {
		select {
		case <-r.updated:
		case <-deadline:
			t.Fatalf("%s was not reported (reported: %v)", k, r.list())
		}
	}
}

// collectWhile runs act, then writes the sentinel into the first root, and gathers batches until
// every key of want and the sentinel's have been reported. It returns every change seen.
func collectWhile(t *testing.T, w *Watcher, act func(*testing.T, string, func(string)), dir string, want []string) map[string]Change {
	t.Helper()
	want = append(slices.Clone(want), "0:"+sentinel)
	r := &reports{seen: make(map[string]Change), updated: make(chan struct{}, 1)}
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		for {
			b, err := w.Next(ctx)
			if err != nil {
				done <- err
				return
			}
			for _, err := range b.Errs {
				t.Logf("watch: %v", err)
			}
			r.add(b.Changes)
			if len(r.missing(want)) == 0 {
				done <- nil
				return
			}
		}
	}()
	act(t, dir, func(k string) { r.wait(t, k) })
	write(t, filepath.Join(w.roots[0], sentinel), time.Now().String())
	if err := <-done; err != nil {
		t.Fatalf("%v before every change was seen; missing %v, got %v", err, r.missing(want), r.list())
	}
	return r.seen
}

// failingNotifier is fsnotify that refuses watches once it has given limit of them, as inotify does
// at fs.inotify.max_user_watches.
type failingNotifier struct {
	notifier
	mu    sync.Mutex
	limit int
}

func (f *failingNotifier) Add(p string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.limit == 0 {
		return fmt.Errorf("add %s: %w", p, syscall.ENOSPC)
	}
	f.limit--
	return f.notifier.Add(p)
}

func TestFallbackToPolling(t *testing.T) {
	tests := []struct {
		desc     string
		notifier func() (notifier, error)
		// atStart says New must already poll; otherwise it starts with events and a new folder
		// makes it poll.
		atStart bool
	}{
		{
			desc:     "no inotify instances left",
			notifier: func() (notifier, error) { return nil, fmt.Errorf("inotify_init1: %w", syscall.EMFILE) },
			atStart:  true,
		},
		{
			desc: "the watch limit reached at start",
			notifier: func() (notifier, error) {
				n, err := newFsnotify()
				return &failingNotifier{notifier: n, limit: 2}, err
			},
			atStart: true,
		},
		{
			desc: "the watch limit reached by a new folder",
			notifier: func() (notifier, error) {
				n, err := newFsnotify()
				return &failingNotifier{notifier: n, limit: 4}, err // the site folder, public, public/a, public/b
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			dir := t.TempDir()
			mkdir(t, filepath.Join(dir, "public/a"))
			mkdir(t, filepath.Join(dir, "public/b"))
			w, err := New(Options{
				Roots: []string{filepath.Join(dir, "public")}, Quiet: testQuiet, PollInterval: testPoll,
				newNotifier: tc.notifier,
			})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			if w.Polling() != tc.atStart {
				t.Fatalf("Polling() after New = %v, want %v", w.Polling(), tc.atStart)
			}
			ctx, cancel := context.WithTimeout(context.Background(), patience)
			defer cancel()
			var errs []error
			lost := false
			mkdir(t, filepath.Join(dir, "public/c/d"))
			if !tc.atStart {
				for !lost {
					b, err := w.Next(ctx)
					if err != nil {
						t.Fatalf("no batch saying events were lost: %v", err)
					}
					lost = b.Lost
					errs = append(errs, b.Errs...)
				}
				if !w.Polling() {
					t.Fatal("Polling() = false after the watch limit was reached")
				}
			}
			// Polling sees what happens next, in old folders and new ones.
			write(t, filepath.Join(dir, "public/c/d/index.html"), "x")
			write(t, filepath.Join(dir, "public/a/index.html"), "y")
			seen := map[string]bool{}
			for !seen["0:c/d/index.html"] || !seen["0:a/index.html"] {
				b, err := w.Next(ctx)
				if err != nil {
					t.Fatalf("changes not seen while polling (seen %v): %v", seen, err)
				}
				for _, c := range b.Changes {
					seen[key(c)] = true
				}
				errs = append(errs, b.Errs...)
			}
			var said bool
			for _, err := range errs {
				if strings.Contains(err.Error(), "polling every") {
					said = true
				}
			}
			if !said {
				t.Errorf("no batch said the watcher polls now; errors: %v", errs)
			}
		})
	}
}

func TestNewErrors(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "file"), "x")
	tests := []struct {
		desc  string
		roots []string
		want  string
	}{
		{"no roots", nil, "no roots"},
		{"a root whose parent is missing", []string{filepath.Join(dir, "missing/public")}, "no such file"},
		{"a root whose parent is a file", []string{filepath.Join(dir, "file/public")}, "not a folder"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			w, err := New(Options{Roots: tc.roots})
			if err == nil {
				w.Close()
				t.Fatalf("New succeeded, want an error containing %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// TestClose checks that Close stops every goroutine and that Next then says so.
func TestClose(t *testing.T) {
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			dir := t.TempDir()
			w, err := New(Options{Roots: []string{dir}, Poll: be.poll, PollInterval: testPoll, Quiet: testQuiet})
			if err != nil {
				t.Fatal(err)
			}
			write(t, filepath.Join(dir, "a"), "pending when closed")
			if err := w.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
			select {
			case <-w.done:
			default:
				t.Fatal("Close returned before the watcher's goroutines ended")
			}
			if _, err := w.Next(context.Background()); err != ErrClosed {
				t.Errorf("Next after Close: got %v, want ErrClosed", err)
			}
			if err := w.Close(); err != nil {
				t.Errorf("second Close: %v", err)
			}
		})
	}
}

func mkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func removeAll(t *testing.T, p string) {
	t.Helper()
	if err := os.RemoveAll(p); err != nil {
		t.Fatal(err)
	}
}

// TestOwnWritesNotReported runs a stand-in for the pipeline step against the watcher: each time it
// is told about a page it fixes the page as robotsmith does (a temporary file renamed into place)
// and records what it wrote. The generator's writes must each be reported once, and the fixes
// never: no reaction to its own writes, no loop.
func TestOwnWritesNotReported(t *testing.T) {
	const mark = "<!-- robotsmith -->"
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			public := filepath.Join(t.TempDir(), "public")
			mkdir(t, public)
			page := filepath.Join(public, "a.html")
			write(t, page, "<head></head>")
			own := NewOwn()
			w, err := New(Options{Roots: []string{public}, Own: own, Quiet: testQuiet, Poll: be.poll, PollInterval: testPoll})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			fix := func(p string) {
				b, err := os.ReadFile(p)
				if err != nil || strings.Contains(string(b), mark) {
					return
				}
				fixed := []byte(strings.Replace(string(b), "<head>", "<head>"+mark, 1))
				tmp := filepath.Join(filepath.Dir(p), safefs.Prefix+"1.tmp")
				write(t, tmp, string(fixed))
				if err := os.Rename(tmp, p); err != nil {
					t.Fatal(err)
				}
				own.Record(p, own.Stamp(fixed))
			}
			ctx, cancel := context.WithTimeout(context.Background(), patience)
			defer cancel()
			for round := range 3 {
				write(t, page, fmt.Sprintf("<head></head><p>the generator's version %d</p>", round))
				reported := 0
				sentinel := filepath.Join(public, fmt.Sprintf("sentinel-%d", round))
				fixed := false
				for done := false; !done; {
					b, err := w.Next(ctx)
					if err != nil {
						t.Fatalf("round %d: %v (a.html reported %d times)", round, err, reported)
					}
					for _, c := range b.Changes {
						switch c.Path {
						case page:
							reported++
							fix(page)
						case sentinel:
							done = true
						}
					}
					if reported > 0 && !fixed {
						// Everything the fix caused comes before the sentinel's change.
						fixed = true
						write(t, sentinel, "")
					}
				}
				if reported != 1 {
					t.Errorf("round %d: a.html reported in %d batches, want 1 (the generator's write only)", round, reported)
				}
				b, _ := os.ReadFile(page)
				if !strings.Contains(string(b), mark) || !strings.Contains(string(b), fmt.Sprint(round)) {
					t.Errorf("round %d: page is %q, want the generator's version fixed", round, b)
				}
			}
		})
	}
}

// chanNotifier is a notifier whose events and errors the test sends by hand.
type chanNotifier struct {
	events chan fsnotify.Event
	errors chan error
}

func (c *chanNotifier) Add(string) error              { return nil }
func (c *chanNotifier) Remove(string) error           { return nil }
func (c *chanNotifier) Close() error                  { return nil }
func (c *chanNotifier) Events() <-chan fsnotify.Event { return c.events }
func (c *chanNotifier) Errors() <-chan error          { return c.errors }

func TestNotifierErrors(t *testing.T) {
	tests := []struct {
		desc     string
		err      error
		wantLost bool
		wantErr  string
	}{
		{"the kernel's queue overflowed", fsnotify.ErrEventOverflow, true, ""},
		{"another error", errors.New("read: input/output error"), false, "watch: read: input/output error"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			n := &chanNotifier{events: make(chan fsnotify.Event), errors: make(chan error)}
			w, err := New(Options{
				Roots: []string{t.TempDir()}, Quiet: testQuiet,
				newNotifier: func() (notifier, error) { return n, nil },
			})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			n.errors <- tc.err
			ctx, cancel := context.WithTimeout(context.Background(), patience)
			defer cancel()
			b, err := w.Next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var errs []string
			for _, e := range b.Errs {
				errs = append(errs, e.Error())
			}
			if b.Lost != tc.wantLost || strings.Join(errs, "; ") != tc.wantErr {
				t.Errorf("got Lost %v, Errs %q; want Lost %v, Errs %q", b.Lost, errs, tc.wantLost, tc.wantErr)
			}
		})
	}
}
