// Command floor is the site benchmark's I/O floor: the least any tool that rewrites a site's pages
// in place must do. It reads every HTML file under a folder, writes it unchanged to a temporary
// file beside it and renames that over the original, nothing else, on as many goroutines as
// robotsmith uses (one per CPU).
//
//	floor public/
//
// The site benchmark (internal/sitebench) times robotsmith against it.
package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: floor DIR")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
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
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".html") && !strings.HasPrefix(d.Name(), ".floor-") {
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
