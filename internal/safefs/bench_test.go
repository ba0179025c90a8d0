//go:build linux

package safefs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
)

// BenchmarkReplace measures what crash consistency costs: each iteration
// turns every page of a 10,000-page site (about 4.5 KB a page) into its next
// generation, reading each page and writing it to a temporary file beside it,
// then putting them in place:
//
//   - floor: os.ReadFile, a temporary file, os.Rename; no journal, no undo;
//   - safefs: OpenIn and ReadAll, Tx.WriteFile, Tx.Commit;
//   - syncfs: the floor with one syncfs before the renames (every page's data
//     on disk first: what file systems without replace-via-rename ordering
//     would need);
//   - fsync-each: the floor with an fsync of every temporary file.
//
// Run it with -benchtime 3x (each iteration is a whole site); compare ns/op,
// and µs/file, in one run.
func BenchmarkReplace(b *testing.B) {
	const n = 10000
	for _, mode := range []string{"floor", "safefs", "syncfs", "fsync-each"} {
		b.Run(mode, func(b *testing.B) {
			dir := b.TempDir()
			writeSite(b, dir, n, 0)
			gen := 0
			b.ResetTimer()
			for b.Loop() {
				gen++
				var err error
				if mode == "safefs" {
					err = toyBuild(context.Background(), dir, n, gen, nil)
				} else {
					err = floorBuild(dir, n, gen, mode)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/file")
		})
	}
}

// floorBuild is toyBuild without safefs: the I/O floor of a build.
func floorBuild(dir string, n, gen int, mode string) error {
	var temps []string
	for i := 0; i <= n; i++ {
		name, want := headersName, headersContent(gen)
		if i < n {
			name, want = pageName(i), content(i, gen)
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if old, err := os.ReadFile(p); err == nil && string(old) == want {
			continue
		}
		t := filepath.Join(filepath.Dir(p), fmt.Sprintf(".floor-%d.tmp", i))
		f, err := os.OpenFile(t, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		_, err = f.WriteString(want)
		if err == nil && mode == "fsync-each" {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		temps = append(temps, t, p)
	}
	if mode == "syncfs" {
		d, err := os.Open(dir)
		if err != nil {
			return err
		}
		_, _, errno := syscall.Syscall(sysSyncfs, d.Fd(), 0, 0)
		d.Close()
		if errno != 0 {
			return errno
		}
	}
	for i := 0; i < len(temps); i += 2 {
		if err := os.Rename(temps[i], temps[i+1]); err != nil {
			return err
		}
	}
	return nil
}

// sysSyncfs is syncfs(2) on linux/amd64 and arm64 (the syscall package lacks
// the constant; golang.org/x/sys would be a dependency for one number).
var sysSyncfs = map[string]uintptr{"amd64": 306, "arm64": 267}[runtime.GOARCH]
