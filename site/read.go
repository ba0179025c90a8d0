package site

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/robotsmith/robotsmith/frontmatter"
)

// readSources reads the front matter of n source files, on a fixed number of workers, and calls
// use(i, v) with what reading file(i) produced: v = read(i, head, err), where head is the file
// read only up to the end of its front matter (frontmatter.ReadHead) into the worker's own buffer,
// reused from file to file, or err why it could not be read. read and use may run for several
// files at once, so they must keep what they make of file i to file i's place; read must not keep
// head. Memory is the workers' buffers, not the sources' bytes.
//
// With r (Remap), a file that k kept a reading of, and that r does not name changed, is not read:
// use gets that reading. What reading each file produced is kept in k, unless the file could not
// be read (it is tried again next time).
//
// Once ctx ends (SIGINT, SIGTERM), no file is opened: each one left is read as a file that could
// not be read, with ctx's error, which costs nothing, and the caller gives the mapping up. A site's
// sources took seconds to read (of 10,000 pages, on a busy machine) and a signal waited for them
// all.
func readSources[T any](ctx context.Context, r *readings, k keeper[T], n int, file func(i int) string, dialect frontmatter.Dialect,
	read func(i int, head []byte, err error) T, use func(i int, v T)) {
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
				p := file(i)
				if r != nil {
					if v, ok := k.kept(i, p); ok && !r.named(p) {
						use(i, v)
						continue
					}
				}
				head, err := buf[:0], ctx.Err()
				if err == nil {
					if r != nil {
						r.opening(r.opened.Add(1))
					}
					head, err = readHead(p, dialect, buf)
					buf = head[:0]
				}
				v := read(i, head, err)
				if r != nil && err == nil {
					k.keep(i, p, v)
				}
				use(i, v)
			}
		}()
	}
	wg.Wait()
}
