package safefs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// tree writes files (slash name -> content) under a new folder.
func tree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// snapshot reads every file and link under dir: name -> content (a link's
// target after "-> ").
func snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	got := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir():
			return nil
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			got[rel] = "-> " + target
			return err
		}
		b, err := os.ReadFile(p)
		got[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func diff(got, want map[string]string) string {
	var out []string
	for k, w := range want {
		if g, ok := got[k]; !ok {
			out = append(out, fmt.Sprintf("%s: missing, want %q", k, w))
		} else if g != w {
			out = append(out, fmt.Sprintf("%s: got %q, want %q", k, g, w))
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			out = append(out, fmt.Sprintf("%s: unexpected, %q", k, g))
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// stage creates the new content of each file in tx, in name order, with the
// original's FileInfo as a reader would pass it.
func stage(t testing.TB, tx *Tx, dir string, files map[string]string) {
	t.Helper()
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		content := files[name]
		var orig fs.FileInfo
		if fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(name))); err == nil {
			orig = fi
		}
		if err := tx.WriteFile(name, orig, []byte(content)); err != nil {
			t.Fatal(err)
		}
	}
}

func TestCommitSmoke(t *testing.T) {
	old := map[string]string{"index.html": "old index", "blog/a/index.html": "old a", "keep.txt": "keep"}
	dir := tree(t, old)
	tx, err := Begin(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	stage(t, tx, dir, map[string]string{"index.html": "new index", "blog/a/index.html": "new a", "_headers": "new headers"})
	if err := tx.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"index.html": "new index", "blog/a/index.html": "new a", "keep.txt": "keep", "_headers": "new headers"}
	if d := diff(snapshot(t, dir), want); d != "" {
		t.Error(d)
	}
	_ = errors.New
}

var (
	oldSite = map[string]string{
		"index.html":           "old index",
		"blog/index.html":      "old blog",
		"blog/a/index.html":    "old a",
		"blog/b/index.html":    "old b",
		"files/report.pdf":     "old pdf, not changed",
		"docs/deep/x/y.html":   "old y",
		"odd name\n\"q\".html": "old odd",
	}
	changes = map[string]string{
		"index.html":           "new index",
		"blog/index.html":      "new blog",
		"blog/a/index.html":    "new a",
		"blog/b/index.html":    "new b",
		"docs/deep/x/y.html":   "new y",
		"odd name\n\"q\".html": "new odd",
		"_headers":             "new headers",
	}
)

func merged(a, b map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// order lists the names of changes in the order Create saw them.
func begin(t testing.TB, dir string) *Tx {
	t.Helper()
	tx, err := Begin(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return tx
}

func TestCommit(t *testing.T) {
	dir := tree(t, oldSite)
	tx := begin(t, dir)
	stage(t, tx, dir, changes)
	if tx.Len() == 0 {
		t.Fatal("nothing staged")
	}
	if err := tx.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	if d := diff(snapshot(t, dir), merged(oldSite, changes)); d != "" {
		t.Error(d)
	}
	if len(tx.Warnings) > 0 {
		t.Errorf("warnings: %v", tx.Warnings)
	}
	if tx.Len() != 0 || tx.entries.chunks != nil {
		t.Errorf("a committed transaction keeps %d entries in %d chunks, want none", tx.Len(), len(tx.entries.chunks))
	}
	if err := tx.Commit(context.Background()); !errors.Is(err, ErrDone) {
		t.Errorf("second Commit: got %v, want ErrDone", err)
	}
	if _, err := tx.Create("x.html", nil); !errors.Is(err, ErrDone) {
		t.Errorf("Create after Commit: got %v, want ErrDone", err)
	}
}

func TestCommitNothing(t *testing.T) {
	dir := tree(t, oldSite)
	tx := begin(t, dir)
	if err := tx.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	if d := diff(snapshot(t, dir), oldSite); d != "" {
		t.Error(d)
	}
}

func TestAbort(t *testing.T) {
	dir := tree(t, oldSite)
	tx := begin(t, dir)
	stage(t, tx, dir, changes)
	if err := tx.Abort(); err != nil {
		t.Fatal(err)
	}
	if d := diff(snapshot(t, dir), oldSite); d != "" {
		t.Error(d)
	}
	if err := tx.Abort(); err != nil {
		t.Errorf("second Abort: %v", err)
	}
}

// TestReadOnlyFolder: a build whose files cannot all be created (a read-only folder: a volume
// mounted read-only, where even root cannot write, or a folder of mode 0555) fails, and Abort
// leaves nothing of robotsmith's behind, the journal included: the undo removed the temporary files
// that were made, and found no file to remove where none could be made (a read-only file system
// refuses even to remove a name that is not there). Once Create succeeded everywhere, a folder that
// becomes read-only before the commit is an undo that cannot finish: Commit says so, and keeps the
// journal for the next run, which finishes it.
func TestReadOnlyFolder(t *testing.T) {
	for _, tc := range []struct {
		desc, folder string
		late         bool // made read-only after every file was created, before Commit
	}{
		{"a subfolder", "blog", false},
		{"a folder deep down", "docs/deep/x", false},
		{"a folder of one file", "blog/a", false},
		{"read-only at the commit", "blog", true},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			dir := tree(t, oldSite)
			ro := filepath.Join(dir, filepath.FromSlash(tc.folder))
			if !tc.late {
				testtool.ReadOnly(t, ro)
			}
			tx := begin(t, dir)
			names := slices.Sorted(maps.Keys(changes))
			var failed []string
			for _, name := range names {
				var orig fs.FileInfo
				if fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(name))); err == nil {
					orig = fi
				}
				if err := tx.WriteFile(name, orig, []byte(changes[name])); err != nil {
					failed = append(failed, name)
				}
			}
			if tc.late {
				if len(failed) > 0 {
					t.Fatalf("created before the folder was read-only: %q failed", failed)
				}
				testtool.ReadOnly(t, ro)
				err := tx.Commit(context.Background())
				if err == nil || !strings.Contains(err.Error(), "undoing the build in "+dir+" failed; the next robotsmith run finishes it") {
					t.Fatalf("Commit: got %v, want an error saying the undo could not finish", err)
				}
				if !hasCode(err, problem.UndoFailed) {
					t.Errorf("Commit: %v holds no problem of code %s", err, problem.UndoFailed)
				}
				if _, err := os.Lstat(filepath.Join(dir, journalName)); err != nil {
					t.Errorf("the journal: %v, want it kept for the next run", err)
				}
				return
			}
			if len(failed) == 0 {
				t.Fatalf("every file was created in the read-only %s", tc.folder)
			}
			if err := tx.Abort(); err != nil {
				t.Errorf("Abort: %v", err)
			}
			if d := diff(snapshot(t, dir), oldSite); d != "" {
				t.Errorf("after the failed build (%q not created):\n%s", failed, d)
			}
		})
	}
}

// TestCreatedTwice: a name created twice in one transaction (a caller's bug: which content would
// win?) fails Commit, which changes no file and leaves none of robotsmith's behind.
func TestCreatedTwice(t *testing.T) {
	for _, twice := range []string{"index.html", "blog/a/index.html", "_headers"} {
		t.Run(twice, func(t *testing.T) {
			dir := tree(t, oldSite)
			tx := begin(t, dir)
			stage(t, tx, dir, changes)
			orig := mustStat(t, filepath.Join(dir, filepath.FromSlash(twice)))
			if err := tx.WriteFile(twice, orig, []byte("again")); err != nil {
				t.Fatal(err)
			}
			err := tx.Commit(context.Background())
			if want := "safefs: " + twice + " created twice"; err == nil || err.Error() != want {
				t.Fatalf("got %v, want %q", err, want)
			}
			if d := diff(snapshot(t, dir), oldSite); d != "" {
				t.Error(d)
			}
		})
	}
}

// step is a point in Commit where a test fails or stops it.
type step struct {
	step string
	i    int
}

// steps are Commit's steps for the n files of changes: before the commit
// point, and with cleanup those after it too (file 0, _headers, is new: it
// has no second link to remove).
func steps(n int, cleanup bool) []step {
	out := []step{{"plan", 0}, {"done", 0}}
	for i := 0; i < n; i++ {
		out = append(out, step{"link", i}, step{"rename", i})
	}
	for i := 1; cleanup && i < n; i++ {
		out = append(out, step{"cleanup", i})
	}
	return out
}

// TestCommitFails: a failure at any step of any file before the commit point
// leaves every file as it was and no file of robotsmith's behind.
func TestCommitFails(t *testing.T) {
	errDisk := errors.New("injected failure")
	n := len(changes)
	for _, p := range steps(n, false) {
		t.Run(fmt.Sprintf("%s %d", p.step, p.i), func(t *testing.T) {
			t.Parallel()
			dir := tree(t, oldSite)
			tx := begin(t, dir)
			stage(t, tx, dir, changes)
			tx.hook = func(step string, i int) error {
				if step == p.step && i == p.i {
					return errDisk
				}
				return nil
			}
			if err := tx.Commit(context.Background()); !errors.Is(err, errDisk) {
				t.Fatalf("got %v, want %v", err, errDisk)
			}
			if d := diff(snapshot(t, dir), oldSite); d != "" {
				t.Error(d)
			}
		})
	}
}

// TestCommitCancel: ctx ending during the renames (SIGTERM) undoes them.
func TestCommitCancel(t *testing.T) {
	dir := tree(t, oldSite)
	tx := begin(t, dir)
	stage(t, tx, dir, changes)
	ctx, cancel := context.WithCancel(context.Background())
	tx.hook = func(step string, i int) error {
		if step == "rename" && i == 3 {
			cancel()
		}
		return nil
	}
	if err := tx.Commit(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if d := diff(snapshot(t, dir), oldSite); d != "" {
		t.Error(d)
	}
}

// TestFolderDeleted: a folder deleted mid-commit (by another process) fails the
// commit, and the files already replaced are put back.
func TestFolderDeleted(t *testing.T) {
	dir := tree(t, oldSite)
	tx := begin(t, dir)
	names := []string{"index.html", "blog/index.html", "docs/deep/x/y.html", "blog/a/index.html"}
	for _, name := range names {
		fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		if err := tx.WriteFile(name, fi, []byte(changes[name])); err != nil {
			t.Fatal(err)
		}
	}
	tx.hook = func(step string, i int) error {
		if step == "link" && i == 2 {
			return os.RemoveAll(filepath.Join(dir, "docs"))
		}
		return nil
	}
	err := tx.Commit(context.Background())
	if !errors.Is(err, ErrChanged) {
		t.Fatalf("got %v, want ErrChanged", err)
	}
	want := merged(oldSite, nil)
	delete(want, "docs/deep/x/y.html")
	if d := diff(snapshot(t, dir), want); d != "" {
		t.Error(d)
	}
}

// TestChanged: a file another process rewrote, replaced or deleted after
// robotsmith read it, or a new file's name taken meanwhile, fails the commit
// and the other process's file stays as it left it.
func TestChanged(t *testing.T) {
	tests := []struct {
		desc   string
		name   string
		change func(p string) error
		want   string // the file afterwards; "" gone
		// sameTick keeps the original's time on the changed file, as a rewrite in the clock tick
		// of the read would: only its size tells it apart.
		sameTick bool
	}{
		{"rewritten in place", "blog/a/index.html", func(p string) error {
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
			if err != nil {
				return err
			}
			f.WriteString("theirs")
			return f.Close()
		}, "theirs", false},
		{"replaced", "blog/a/index.html", func(p string) error {
			if err := os.WriteFile(p+".x", []byte("theirs"), 0o644); err != nil {
				return err
			}
			return os.Rename(p+".x", p)
		}, "theirs", false},
		{"rewritten in place in the clock tick of the read", "blog/a/index.html", func(p string) error {
			return os.WriteFile(p, []byte("theirs, longer than ours"), 0)
		}, "theirs, longer than ours", true},
		{"deleted", "blog/a/index.html", os.Remove, "", false},
		{"made a link", "blog/a/index.html", func(p string) error {
			if err := os.Remove(p); err != nil {
				return err
			}
			return os.Symlink("../b/index.html", p)
		}, "-> ../b/index.html", false},
		{"new file created meanwhile", "_headers", func(p string) error { return os.WriteFile(p, []byte("theirs"), 0o644) }, "theirs", false},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			dir := tree(t, oldSite)
			tx := begin(t, dir)
			stage(t, tx, dir, changes)
			p := filepath.Join(dir, filepath.FromSlash(tc.name))
			// A file written in the same clock tick as the original would keep
			// its time; a real generator runs long after.
			past := mustStat(t, p)
			if err := tc.change(p); err != nil {
				t.Fatal(err)
			}
			switch {
			case past != nil && tc.sameTick:
				if err := os.Chtimes(p, past.ModTime(), past.ModTime()); err != nil {
					t.Fatal(err)
				}
			case past != nil:
				bump(t, p, past)
			}
			if err := tx.Commit(context.Background()); !errors.Is(err, ErrChanged) {
				t.Fatalf("got %v, want ErrChanged", err)
			}
			want := merged(oldSite, nil)
			delete(want, tc.name)
			if tc.want != "" {
				want[tc.name] = tc.want
			}
			if d := diff(snapshot(t, dir), want); d != "" {
				t.Error(d)
			}
		})
	}
}

func mustStat(t *testing.T, p string) fs.FileInfo {
	fi, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return fi
}

// bump moves a regular file's time past the original's, as a later write would.
func bump(t *testing.T, p string, orig fs.FileInfo) {
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return
	}
	later := orig.ModTime().Add(time.Second)
	if err := os.Chtimes(p, later, later); err != nil {
		t.Fatal(err)
	}
}

// crash runs Commit in its own goroutine and ends that goroutine at the
// step, as a kill would end the process there: what was written stays,
// nothing is undone. (Deferred closes run; a dead process's descriptors close
// too.)
func crash(t *testing.T, tx *Tx, step string, at int) {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		defer close(done)
		tx.hook = func(s string, i int) error {
			if s == step && i == at {
				runtime.Goexit()
			}
			return nil
		}
		done <- tx.Commit(context.Background())
	}()
	if err, ok := <-done; ok {
		t.Fatalf("Commit returned %v; the crash point %s %d was never reached", err, step, at)
	}
}

// TestRecover: whatever step a run dies at, the next run's Begin (or Recover)
// leaves the folder exactly as before the build (or, past the commit point,
// as after it), with none of robotsmith's files left.
func TestRecover(t *testing.T) {
	n := len(changes)
	for _, p := range steps(n, true) {
		for _, how := range []string{"Begin", "Recover"} {
			t.Run(fmt.Sprintf("%s %d/%s", p.step, p.i, how), func(t *testing.T) {
				t.Parallel()
				dir := tree(t, oldSite)
				tx := begin(t, dir)
				stage(t, tx, dir, changes)
				crash(t, tx, p.step, p.i)
				want := oldSite
				if p.step == "cleanup" {
					want = merged(oldSite, changes)
				}
				var rec Recovery
				if how == "Begin" {
					tx2 := begin(t, dir)
					rec = tx2.Recovered
					if err := tx2.Commit(context.Background()); err != nil {
						t.Fatal(err)
					}
				} else {
					var err error
					if rec, err = Recover(context.Background(), dir); err != nil {
						t.Fatal(err)
					}
				}
				if !rec.Any() {
					t.Errorf("Recovery %+v: found nothing to do", rec)
				}
				if d := diff(snapshot(t, dir), want); d != "" {
					t.Errorf("after recovery (%v):\n%s", rec, d)
				}
				// And the build run again gives what an uninterrupted one gives.
				tx3 := begin(t, dir)
				stage(t, tx3, dir, changes)
				if err := tx3.Commit(context.Background()); err != nil {
					t.Fatal(err)
				}
				if d := diff(snapshot(t, dir), merged(oldSite, changes)); d != "" {
					t.Errorf("after the rerun:\n%s", d)
				}
			})
		}
	}
}

// TestRecoverKeepsNewerFiles: a generator that ran between the killed build
// and the next robotsmith (hugo && robotsmith build) keeps its output.
func TestRecoverKeepsNewerFiles(t *testing.T) {
	dir := tree(t, oldSite)
	tx := begin(t, dir)
	stage(t, tx, dir, changes)
	crash(t, tx, "rename", 4) // files 0-3 replaced
	regenerated := map[string]string{}
	for name := range changes {
		p := filepath.Join(dir, filepath.FromSlash(name))
		fi := mustStat(t, p)
		// In place, as Hugo writes (O_TRUNC keeps the inode).
		if err := os.WriteFile(p, []byte("regenerated "+name), 0o644); err != nil {
			t.Fatal(err)
		}
		if fi != nil {
			bump(t, p, fi)
		}
		regenerated[name] = "regenerated " + name
	}
	rec, err := Recover(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Undone != 0 {
		t.Errorf("Recovery %+v: put back files the generator wrote since", rec)
	}
	if d := diff(snapshot(t, dir), merged(oldSite, regenerated)); d != "" {
		t.Error(d)
	}
}

// TestRemoveLeftover: a build removes a file under one of robotsmith's own
// names that no journal named (a power loss took its tmp record), and refuses
// every other name: the site's files, and the transaction's own.
func TestRemoveLeftover(t *testing.T) {
	dir := tree(t, map[string]string{
		"index.html":            "page",
		"a/.robotsmith-3.tmp":   "left by a power loss",
		".robotsmith-9.old":     "left",
		".robotsmith-page.html": "the site's",
	})
	tx, err := Begin(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Abort()
	for _, name := range []string{"a/.robotsmith-3.tmp", ".robotsmith-9.old"} {
		if err := tx.RemoveLeftover(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	stage(t, tx, dir, map[string]string{"index.html": "new"})
	for _, name := range []string{".robotsmith-page.html", "index.html", ".robotsmith-0.tmp", ".robotsmith-journal", "../.robotsmith-1.tmp"} {
		if err := tx.RemoveLeftover(name); err == nil {
			t.Errorf("%s: removed, want it refused", name)
		}
	}
	if err := tx.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"index.html": "new", ".robotsmith-page.html": "the site's"}
	if d := diff(snapshot(t, dir), want); d != "" {
		t.Error(d)
	}
}

// TestRemoveLeftoverNumbers: RemoveLeftover tells this build's own temporary files and second
// links by their number and folder, however the name is spelt, and removes a leftover whose
// number is another folder's, or no file's of this build.
func TestRemoveLeftoverNumbers(t *testing.T) {
	leftovers := []string{".robotsmith-0.tmp", "a/.robotsmith-1.tmp", "a/.robotsmith-2.tmp", "a/.robotsmith-99999999999.old"}
	files := map[string]string{"index.html": "page", "a/b.html": "b"}
	for _, name := range leftovers {
		files[name] = "left"
	}
	dir := tree(t, files)
	tx := begin(t, dir)
	defer tx.Abort()
	stage(t, tx, dir, map[string]string{"index.html": "new", "a/b.html": "new b"}) // 0 a/b.html, 1 index.html
	for _, name := range []string{"a/.robotsmith-0.tmp", "a/.robotsmith-0.old", "a//.robotsmith-0.tmp", ".robotsmith-1.tmp", ".robotsmith-1.old", "./.robotsmith-1.tmp"} {
		if err := tx.RemoveLeftover(name); err == nil || !strings.Contains(err.Error(), "this build's own") {
			t.Errorf("%s: got %v, want it refused as this build's own", name, err)
		}
	}
	for _, name := range leftovers {
		if err := tx.RemoveLeftover(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := tx.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"index.html": "new", "a/b.html": "new b"}
	if d := diff(snapshot(t, dir), want); d != "" {
		t.Error(d)
	}
}

// TestFolders: each folder of a commit's run, in folder order, is the folder of that name (its
// marker file is there), with the folders on the way kept open and no more; a folder reached
// through a link that stays inside the root, but not inside its parent, is found too.
func TestFolders(t *testing.T) {
	names := []string{"a", "a/b", "a/b/c", "a/b/d", "a/e", "a/e/f/g", "h", "h/i", "hh", "j/k/l/m"}
	site := map[string]string{}
	for _, n := range names {
		site[n+"/marker"] = n
	}
	dir := tree(t, site)
	if err := os.Symlink("../h", filepath.Join(dir, "a", "up")); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	f := folders{root: root}
	defer f.close()
	for _, n := range append(names, "a/up", "a/up/i", "h", ".", "a/b/c") {
		d, err := f.in(n)
		if err != nil {
			t.Fatalf("in(%q): %v", n, err)
		}
		want := n
		if strings.HasPrefix(n, "a/up") {
			want = "h" + strings.TrimPrefix(n, "a/up")
		}
		if b, err := d.ReadFile("marker"); n != "." && (err != nil || string(b) != want) {
			t.Errorf("in(%q): marker %q, %v; want %q", n, b, err, want)
		}
		if depth := strings.Count(n, "/") + 1; len(f.path) > depth {
			t.Errorf("in(%q): %d folders open, want at most %d", n, len(f.path), depth)
		}
	}
	if _, err := f.in("a/nothing"); !errors.Is(err, ErrChanged) {
		t.Errorf("a folder that is not there: got %v, want ErrChanged", err)
	}
}

// TestCommitParallel: a commit of many files in many folders (put in place on several goroutines)
// replaces every one; and when one of them was replaced by another process meanwhile, it fails
// with ErrChanged and every file is as it was, whichever files the other goroutines had already
// put in place.
func TestCommitParallel(t *testing.T) {
	old, changed := map[string]string{}, map[string]string{}
	name := func(i int) string {
		// Folders of a few files to a few hundred: runs shorter and longer than a worker's share.
		return fmt.Sprintf("s%d/f%d/p%d.html", i%3, i%40*i%7, i)
	}
	for i := range 1500 {
		old[name(i)], changed[name(i)] = "old "+name(i), "new "+name(i)
	}
	for _, fail := range []bool{false, true} {
		dir := tree(t, old)
		tx := begin(t, dir)
		stage(t, tx, dir, changed)
		victim := name(999)
		if fail {
			// Another process rewrites one page (a new inode) after robotsmith read it.
			p := filepath.Join(dir, filepath.FromSlash(victim))
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte("theirs"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		err := tx.Commit(context.Background())
		want := merged(old, changed)
		if fail {
			if !errors.Is(err, ErrChanged) {
				t.Fatalf("got %v, want ErrChanged", err)
			}
			want = merged(old, map[string]string{victim: "theirs"})
		} else if err != nil {
			t.Fatal(err)
		}
		if d := diff(snapshot(t, dir), want); d != "" {
			t.Errorf("fail=%v:\n%s", fail, d)
		}
	}
}

// TestWriteDuringRename: a generator that rewrites a page in place (O_TRUNC) between the commit's
// check of the original and its rename keeps its write: the commit fails with ErrChanged and the
// page holds the generator's bytes, not robotsmith's and not the original's.
func TestWriteDuringRename(t *testing.T) {
	dir := tree(t, map[string]string{"a.html": "old", "b.html": "old b"})
	p := filepath.Join(dir, "a.html")
	tx := begin(t, dir)
	for _, name := range []string{"a.html", "b.html"} {
		if err := tx.WriteFile(name, mustStat(t, filepath.Join(dir, name)), []byte("robotsmith's "+name)); err != nil {
			t.Fatal(err)
		}
	}
	tx.hook = func(step string, i int) error {
		if step == "rename" && tx.entries.at(i).name == "a.html" {
			return os.WriteFile(p, []byte("the generator's"), 0o644) // in place, as Hugo writes
		}
		return nil
	}
	if err := tx.Commit(context.Background()); !errors.Is(err, ErrChanged) {
		t.Fatalf("got %v, want ErrChanged", err)
	}
	if d := diff(snapshot(t, dir), map[string]string{"a.html": "the generator's", "b.html": "old b"}); d != "" {
		t.Error(d)
	}
}
