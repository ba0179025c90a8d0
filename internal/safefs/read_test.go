//go:build unix

package safefs

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// special makes the odd file kinds a hostile output folder can hold.
func special(t *testing.T, dir string) {
	t.Helper()
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.html"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	links := map[string]string{
		"zero.html":     "/dev/zero",
		"inside.html":   "real/page.html",
		"outside.html":  "/etc/hostname",
		"dotdot.html":   "../elsewhere.html",
		"loop1.html":    "loop2.html",
		"loop2.html":    "loop1.html",
		"dangling.html": "nothing-here.html",
		"dirlink":       "real",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "real", "page.html"), []byte("<p>real</p>"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReadFile: only regular files are read, never a FIFO (which would block
// for ever) or a device (/dev/zero never ends), and never more than the limit.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	special(t, dir)
	big := filepath.Join(dir, "big.html")
	if err := os.WriteFile(big, []byte(strings.Repeat("x", 1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		limit int64
		want  error // nil: read
		bytes string
	}{
		{"real/page.html", 100, nil, "<p>real</p>"},
		{"inside.html", 100, nil, "<p>real</p>"}, // ReadFile follows links
		{"fifo.html", 100, ErrNotRegular, ""},
		{"zero.html", 100, ErrNotRegular, ""},
		{"real", 100, ErrNotRegular, ""},
		{"dirlink", 100, ErrNotRegular, ""},
		{"big.html", 999, ErrTooLarge, ""},
		{"big.html", 1000, nil, strings.Repeat("x", 1000)},
		{"loop1.html", 100, syscall.ELOOP, ""},
		{"dangling.html", 100, fs.ErrNotExist, ""},
		{"/dev/zero", 1 << 20, ErrNotRegular, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			name := tc.name
			if !filepath.IsAbs(name) {
				name = filepath.Join(dir, name)
			}
			done := make(chan struct{})
			var got []byte
			var err error
			go func() {
				defer close(done)
				got, err = ReadFile(name, tc.limit)
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("ReadFile blocked")
			}
			if tc.want == nil {
				if err != nil || string(got) != tc.bytes {
					t.Fatalf("got %q, %v; want %q", got, err, tc.bytes)
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %q, %v; want %v", got, err, tc.want)
			}
			if len(err.Error()) > 300 {
				t.Errorf("error of %d bytes, want a short one", len(err.Error()))
			}
		})
	}
}

// TestReadAllGrowing: a file that grows after fstat is still bounded.
func TestReadAllGrowing(t *testing.T) {
	p := filepath.Join(t.TempDir(), "grow")
	if err := os.WriteFile(p, []byte("small"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, fi, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := os.WriteFile(p, []byte(strings.Repeat("y", 5000)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadAll(f, fi, 100); !errors.Is(err, ErrTooLarge) {
		t.Errorf("got %v, want ErrTooLarge", err)
	}
}

// specialFolder is a folder of special (links, a FIFO, a folder), opened as a root and a Folder of
// it, both closed when the test ends.
func specialFolder(t *testing.T) (string, *os.Root, *Folder) {
	t.Helper()
	dir := t.TempDir()
	special(t, dir)
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	folder := NewFolder(root)
	t.Cleanup(func() {
		folder.Close()
		root.Close()
	})
	return dir, root, folder
}

// TestOpenIn: in the output, a link is never opened as if it were its target,
// and nothing outside the folder is reachable.
func TestOpenIn(t *testing.T) {
	dir, root, folder := specialFolder(t)
	tests := []struct {
		name string
		want error
	}{
		{"real/page.html", nil},
		{"inside.html", ErrSymlink},
		{"zero.html", ErrSymlink},
		{"outside.html", ErrSymlink},
		{"loop1.html", ErrSymlink},
		{"fifo.html", ErrNotRegular},
		{"real", ErrNotRegular},
		{"dirlink/page.html", nil}, // a folder link inside the root: os.Root follows it
		{"../x.html", nil},         // escapes: os.Root's own error
	}
	opens := map[string]func(string) (*os.File, fs.FileInfo, error){
		"OpenIn":      func(name string) (*os.File, fs.FileInfo, error) { return OpenIn(root, name) },
		"Folder.Open": folder.Open,
	}
	for _, tc := range tests {
		for how, open := range opens {
			t.Run(how+"/"+tc.name, func(t *testing.T) {
				f, fi, err := open(tc.name)
				if tc.name == "../x.html" {
					if err == nil {
						t.Fatal("opened a name outside the folder")
					}
					return
				}
				if !errors.Is(err, tc.want) && !(tc.want == nil && err == nil) {
					t.Fatalf("got %v, want %v", err, tc.want)
				}
				if err == nil {
					defer f.Close()
					if !fi.Mode().IsRegular() {
						t.Errorf("got mode %v", fi.Mode())
					}
					if want := filepath.Join(dir, tc.name); f.Name() != want {
						t.Errorf("file named %q, want %q", f.Name(), want)
					}
				}
			})
		}
	}
}

func TestResolveLink(t *testing.T) {
	dir := t.TempDir()
	special(t, dir)
	tests := []struct {
		name, want string
		err        error
	}{
		{"inside.html", "real/page.html", nil},
		{"dirlink/page.html", "real/page.html", nil},
		{"zero.html", "", ErrOutside},
		{"outside.html", "", ErrOutside},
		{"dotdot.html", "", fs.ErrNotExist},
		{"loop1.html", "", syscall.ELOOP},
		{"dangling.html", "", fs.ErrNotExist},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ResolveLink(dir, tc.name)
			if got != tc.want || (tc.err == nil) != (err == nil) || tc.err != nil && !errors.Is(err, tc.err) {
				t.Errorf("got %q, %v; want %q, %v", got, err, tc.want, tc.err)
			}
		})
	}
	// A link out of the folder whose target exists.
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.html"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.html"), filepath.Join(dir, "out.html")); err != nil {
		t.Fatal(err)
	}
	if _, err := ResolveLink(dir, "out.html"); !errors.Is(err, ErrOutside) {
		t.Errorf("out.html: got %v, want ErrOutside", err)
	}
}

// TestFolderReadFile: Folder.ReadFile reads what OpenIn and ReadInto read, fails where they fail,
// and gives the file's FileInfo as os.File's Stat does (what a transaction keeps of the original:
// its mode, size, time, inode).
func TestFolderReadFile(t *testing.T) {
	dir, root, folder := specialFolder(t)
	if err := os.WriteFile(filepath.Join(dir, "big.html"), bytes.Repeat([]byte("x"), 5000), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, "big.html"), 0o755|fs.ModeSetgid); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 0, 16)
	for _, name := range []string{"real/page.html", "big.html", "inside.html", "zero.html", "outside.html",
		"loop1.html", "fifo.html", "real", "dirlink/page.html", "missing.html", "../x.html"} {
		for _, limit := range []int64{100, 1 << 20} {
			t.Run(fmt.Sprintf("%s/%d", name, limit), func(t *testing.T) {
				got, gfi, gerr := folder.ReadFile(name, buf, limit)
				var want []byte
				f, wfi, werr := OpenIn(root, name)
				if werr == nil {
					want, werr = ReadInto(nil, f, wfi, limit)
					f.Close()
				}
				if (gerr == nil) != (werr == nil) {
					t.Fatalf("got error %v, OpenIn and ReadInto %v", gerr, werr)
				}
				for _, e := range []error{ErrSymlink, ErrNotRegular, ErrTooLarge, fs.ErrNotExist} {
					if errors.Is(gerr, e) != errors.Is(werr, e) {
						t.Errorf("got error %v, OpenIn and ReadInto %v", gerr, werr)
					}
				}
				if werr != nil {
					return
				}
				if _, _, ok, _ := readBeneath(folder.dir, dir, name, nil, limit); folder.dir != nil && !ok {
					t.Error("read by OpenIn, not in one openat2")
				}
				if !bytes.Equal(got, want) {
					t.Errorf("read %d bytes, want %d", len(got), len(want))
				}
				if gfi.Name() != wfi.Name() || gfi.Size() != wfi.Size() || gfi.Mode() != wfi.Mode() ||
					!gfi.ModTime().Equal(wfi.ModTime()) || gfi.IsDir() || identOf(gfi) != identOf(wfi) ||
					fingerprint(gfi) != fingerprint(wfi) {
					t.Errorf("FileInfo %s %d %v %v, want %s %d %v %v", gfi.Name(), gfi.Size(), gfi.Mode(), gfi.ModTime(),
						wfi.Name(), wfi.Size(), wfi.Mode(), wfi.ModTime())
				}
			})
		}
	}
}
