//go:build unix

package safefs

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/robotsmith/robotsmith/problem"
)

// TestKeepMode: the new file has the original's mode, setuid, setgid and
// sticky bits included, and the bits the umask takes from a new file (the
// temporary file is created with the original's, less the umask).
func TestKeepMode(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	for _, mode := range []fs.FileMode{
		0o644, 0o600, 0o755, 0o444, 0o666, 0o777, 0o000,
		0o755 | fs.ModeSetuid, 0o755 | fs.ModeSetgid, 0o644 | fs.ModeSticky,
		0o755 | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky,
	} {
		t.Run(mode.String(), func(t *testing.T) {
			dir := tree(t, map[string]string{"a.html": "old"})
			p := filepath.Join(dir, "a.html")
			if err := os.Chmod(p, mode); err != nil {
				t.Fatal(err)
			}
			fi := mustStat(t, p)
			if fi.Mode() != mode&(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky) {
				t.Skipf("the file system keeps %v of %v", fi.Mode(), mode)
			}
			tx := begin(t, dir)
			if err := tx.WriteFile("a.html", fi, []byte("new")); err != nil {
				t.Fatal(err)
			}
			if err := tx.Commit(context.Background()); err != nil {
				t.Fatal(err)
			}
			if got := mustStat(t, p).Mode(); got != fi.Mode() {
				t.Errorf("got mode %v, want %v", got, fi.Mode())
			}
		})
	}
}

// TestKeepOwner: as root, the new file has the original's owner and group
// (also with setuid, which chown clears); as another user, the file keeps
// what the process may set.
func TestKeepOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root may give a file another owner")
	}
	dir := tree(t, map[string]string{"a.html": "old", "b.html": "old"})
	for _, name := range []string{"a.html", "b.html"} {
		if err := os.Chown(filepath.Join(dir, name), 1234, 5678); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(dir, "b.html"), 0o755|fs.ModeSetuid); err != nil {
		t.Fatal(err)
	}
	tx := begin(t, dir)
	for _, name := range []string{"a.html", "b.html"} {
		if err := tx.WriteFile(name, mustStat(t, filepath.Join(dir, name)), []byte("new")); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a.html", "b.html"} {
		fi := mustStat(t, filepath.Join(dir, name))
		st := fi.Sys().(*syscall.Stat_t)
		if st.Uid != 1234 || st.Gid != 5678 {
			t.Errorf("%s: got owner %d:%d, want 1234:5678", name, st.Uid, st.Gid)
		}
	}
	if m := mustStat(t, filepath.Join(dir, "b.html")).Mode(); m&fs.ModeSetuid == 0 {
		t.Errorf("b.html: got mode %v, want setuid kept", m)
	}
}

// TestNeverThroughLinks: Create refuses names outside the folder and robotsmith's
// own; a folder link that leads outside cannot be written through; a file
// swapped for a link is not replaced.
func TestNeverThroughLinks(t *testing.T) {
	dir := tree(t, map[string]string{"a.html": "old"})
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "x.html"), []byte("outside"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	tx := begin(t, dir)
	defer tx.Abort()
	for _, name := range []string{"../x.html", "/etc/passwd", "a/../../x", ".robotsmith-journal", "x/.robotsmith-1.tmp", "", "."} {
		if _, err := tx.Create(name, nil); err == nil {
			t.Errorf("Create(%q): no error", name)
		}
	}
	if _, err := tx.Create("out/x.html", mustStat(t, filepath.Join(outside, "x.html"))); err == nil {
		t.Error("Create through a link out of the folder: no error")
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "x.html")); string(b) != "outside" {
		t.Errorf("the file outside changed: %q", b)
	}
	entries, _ := os.ReadDir(outside)
	if len(entries) != 1 {
		t.Errorf("files outside: %v", entries)
	}
}

// TestLinkNotReplaced: a page swapped for a link after it was read stays a
// link; its target is untouched.
func TestLinkNotReplaced(t *testing.T) {
	dir := tree(t, map[string]string{"a.html": "old a", "b.html": "old b"})
	p := filepath.Join(dir, "a.html")
	fi := mustStat(t, p)
	tx := begin(t, dir)
	if err := tx.WriteFile("a.html", fi, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("b.html", p); err != nil {
		t.Fatal(err)
	}
	err := tx.Commit(context.Background())
	if !errors.Is(err, ErrChanged) {
		t.Fatalf("got %v, want ErrChanged", err)
	}
	if got := problem.CodeOf(err); got != problem.FileChanged {
		t.Errorf("code %s, want %s", got, problem.FileChanged)
	}
	if d := diff(snapshot(t, dir), map[string]string{"a.html": "-> b.html", "b.html": "old b"}); d != "" {
		t.Error(d)
	}
}
