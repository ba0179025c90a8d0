// Command floor is the site benchmark's I/O floor: the least any tool that rewrites a site's pages
// in place must do. It reads every HTML file under a folder, writes it unchanged to a temporary
// file beside it and renames that over the original, nothing else, on as many goroutines as
// robotsmith uses (one per CPU).
//
//	floor public/
//	floor -safefs public/
//
// With -safefs it does the same writes through robotsmith's transaction (internal/safefs: the
// journal, its one sync, the originals kept as second links until the commit point, the renames,
// the cleanup) instead of a bare temporary file and rename: the difference between the two is
// what robotsmith's crash safety costs, measured on the same files in the same run.
//
// The site benchmark (internal/sitebench) times robotsmith against it.
package main

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/robotsmith/robotsmith/internal/safefs"
)

func main() {
	args := os.Args[1:]
	tx := len(args) == 2 && args[0] == "-safefs"
	if tx {
		args = args[1:]
	}
	if len(args) != 1 {
		fmt.Fprintln(os.Stderr, "usage: floor [-safefs] DIR")
		os.Exit(2)
	}
	var err error
	if tx {
		err = runTx(context.Background(), args[0])
	} else {
		err = run(args[0], rewrite)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

// run calls rewrite for every HTML file under dir, on one goroutine per CPU.
func run(dir string, rewrite func(string) error) error {
	next := make(chan string, runtime.GOMAXPROCS(0))
	errs := make(chan error, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var first error
			for p := range next {
				if err := rewrite(p); err != nil && first == nil {
					first = err
				}
			}
			errs <- first
		}()
	}
	// Files go to the workers as the walk finds them: the floor keeps no list.
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".html") && !strings.HasPrefix(d.Name(), ".floor-") && !safefs.Own(d.Name()) {
			next <- p
		}
		return err
	})
	close(next)
	wg.Wait()
	close(errs)
	for e := range errs {
		if err == nil {
			err = e
		}
	}
	return err
}

// rewrite reads p, writes it to a temporary file beside it and renames that over p.
func rewrite(p string) error {
	data, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".floor-*")
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), p)
}

// runTx is run with every file's new content written through one safefs transaction, put in place
// by its Commit.
func runTx(ctx context.Context, dir string) error {
	tx, err := safefs.Begin(ctx, dir)
	if err != nil {
		return err
	}
	defer tx.Abort()
	err = run(dir, func(p string) error {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		fi, err := f.Stat()
		if err != nil {
			return err
		}
		data, err := io.ReadAll(f)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		return tx.WriteFile(filepath.ToSlash(rel), fi, data)
	})
	if err != nil {
		return err
	}
	return tx.Commit(ctx)
}
