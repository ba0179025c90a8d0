package site

import (
	"os"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/robotsmith/robotsmith/frontmatter"
)

// readHeads reads the front matter of n source files, on a fixed number of workers: each opens
// file(i), reads it only up to the end of its front matter (frontmatter.ReadHead) into its own
// buffer, reused from file to file, and calls fn(i, head, err). fn may run for several files at
// once, so it must keep what it reads of file i to file i's place, and must not keep head, whose
// bytes the worker reuses. Memory is the workers' buffers, not the sources' bytes.
func readHeads(n int, file func(i int) string, dialect frontmatter.Dialect, fn func(i int, head []byte, err error)) {
	// Reading a file that is not in the page cache waits on the disk: twice as many workers as
	// cores keep the cores busy parsing meanwhile.
	workers := min(n, 2*runtime.GOMAXPROCS(0))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				var head []byte
				f, err := os.Open(file(i))
				if err == nil {
					head, err = frontmatter.ReadHead(f, dialect, buf)
					f.Close()
					buf = head[:0]
				}
				fn(i, head, err)
			}
		}()
	}
	wg.Wait()
}
