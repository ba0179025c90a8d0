package watch

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestOwnSame(t *testing.T) {
	const ours = "<head><!-- robotsmith --><meta name=\"robots\" content=\"noindex\"><!-- /robotsmith --></head>"
	tests := []struct {
		desc  string
		after func(t *testing.T, path string) // what happens to the file after robotsmith wrote it
		want  bool
	}{
		{"untouched", func(*testing.T, string) {}, true},
		{"touched only", func(t *testing.T, p string) { touch(t, p) }, true},
		{"rewritten by the generator, other size", func(t *testing.T, p string) {
			write(t, p, "<head><meta name=\"robots\" content=\"index, follow\"></head>")
		}, false},
		{"rewritten in place, same size", func(t *testing.T, p string) {
			write(t, p, strings.Replace(ours, "noindex", "nofollo", 1))
		}, false},
		{"rewritten with the same bytes", func(t *testing.T, p string) { write(t, p, ours) }, true},
		{"replaced by rename with the same bytes", func(t *testing.T, p string) {
			tmp := p + ".new"
			write(t, tmp, ours)
			if err := os.Rename(tmp, p); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"grown", func(t *testing.T, p string) { write(t, p, ours+"\n") }, false},
		{"removed", func(t *testing.T, p string) { os.Remove(p) }, false},
		{"replaced by a folder", func(t *testing.T, p string) {
			os.Remove(p)
			os.Mkdir(p, 0o755)
		}, false},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "index.html")
			write(t, p, ours)
			own := NewOwn()
			own.Record(p, own.Stamp([]byte(ours)))
			tc.after(t, p)
			if got := own.Same(p); got != tc.want {
				t.Errorf("Same = %v, want %v", got, tc.want)
			}
			// A file found not to be robotsmith's loses its record: putting robotsmith's bytes back
			// by another hand is then an ordinary change.
			if !tc.want {
				if err := os.RemoveAll(p); err != nil {
					t.Fatal(err)
				}
				write(t, p, ours)
				if own.Same(p) {
					t.Errorf("Same after the record was dropped = true, want false")
				}
			}
		})
	}
}

func TestOwnUnrecorded(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.html")
	write(t, p, "x")
	own := NewOwn()
	if own.Same(p) {
		t.Error("Same for a file never recorded = true, want false")
	}
	own.Record(p, own.Stamp([]byte("x")))
	own.Forget(p)
	if own.Same(p) {
		t.Error("Same after Forget = true, want false")
	}
}

// TestOwnPaths checks that a relative path recorded and the absolute path an event names are the
// same file.
func TestOwnPaths(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	write(t, filepath.Join(dir, "a.html"), "x")
	own := NewOwn()
	own.Record("./sub/../a.html", own.Stamp([]byte("x")))
	if !own.Same(filepath.Join(dir, "a.html")) {
		t.Error("Same(absolute) after Record(relative) = false, want true")
	}
}

func TestDigest(t *testing.T) {
	own := NewOwn()
	content := strings.Repeat("<p>page</p>\n", 10000)
	d := own.NewDigest()
	if _, err := io.Copy(d, strings.NewReader(content)); err != nil {
		t.Fatal(err)
	}
	if got, want := d.Stamp(), own.Stamp([]byte(content)); got != want {
		t.Errorf("Digest stamp %+v, want Stamp's %+v", got, want)
	}
	if other := NewOwn(); other.Stamp([]byte(content)) == own.Stamp([]byte(content)) {
		t.Error("two Owns stamp alike; each should hash with its own seed")
	}
}

// TestOwnConcurrent records from many workers while the watcher compares, as the pipeline's
// workers and Next do; run with -race.
func TestOwnConcurrent(t *testing.T) {
	dir := t.TempDir()
	own := NewOwn()
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 50 {
				p := filepath.Join(dir, fmt.Sprintf("%d-%d.html", w, i))
				content := fmt.Sprintf("page %d %d", w, i)
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Error(err)
					return
				}
				own.Record(p, own.Stamp([]byte(content)))
				if !own.Same(p) {
					t.Errorf("%s: Same = false right after Record", p)
				}
			}
		})
	}
	wg.Wait()
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func touch(t *testing.T, p string) {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	later := fi.ModTime().Add(5e9)
	if err := os.Chtimes(p, later, later); err != nil {
		t.Fatal(err)
	}
}
