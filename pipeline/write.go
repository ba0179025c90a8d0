package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sync"
	"syscall"

	"github.com/robotsmith/robotsmith/internal/safefs"
	"github.com/robotsmith/robotsmith/watch"
)

// How a run reads and writes the output folder. Every read of an output file goes through readFile
// or readSiteFile, every write through writeFile (or createFile), and a build's writes are put in
// place by commit, all of them or none: internal/safefs does the work (its package doc has the
// design).

// maxFile is the most robotsmith reads of any one file of the output (a page, _headers, a sitemap,
// robots.txt): a larger file is an error naming it, found from its size before a byte is read, so
// no file (a link to /dev/zero is never opened at all) can take memory out of proportion. Real
// pages are kilobytes; search engines read at most the first 15 MB of one.
const maxFile = 128 << 20

// readFile reads the output file rel (a slash path relative to the output folder) into buf, grown
// as needed and returned for the next file's read: a regular file, never through a symbolic link
// (the walk decides what a link means), at most maxFile bytes. fi is the file as opened, which
// writeFile needs to replace it.
func (j *job) readFile(rel string, buf []byte) (data []byte, fi fs.FileInfo, err error) {
	data, fi, err = j.out.ReadFile(rel, buf, maxFile)
	if err != nil {
		return data, nil, j.fileError(rel, err)
	}
	return data, fi, nil
}

// fileError names the output file rel in err as messages name output files.
func (j *job) fileError(rel string, err error) error {
	var pe *fs.PathError
	var se *safefs.SizeError
	switch {
	case errors.As(err, &se):
		se.Name = j.outName(rel)
		return se
	case errors.As(err, &pe):
		return &fs.PathError{Op: pe.Op, Path: j.outName(rel), Err: pe.Err}
	}
	return fmt.Errorf("%s: %w", j.outName(rel), err)
}

// siteFile is a file of the output's that robotsmith reads whole and may rewrite: _headers,
// robots.txt, a sitemap.
type siteFile struct {
	rel  string      // the file to read and write: the name asked for, or the file a link of that name leads to
	data []byte      // its bytes; nil when there is no such file
	info fs.FileInfo // the file as read, for writeFile; nil when there is none (writing creates it)
	// skip, when not "", is why the file can be neither read nor written, as a warning: a link
	// that leads outside the output or to nothing, a FIFO, a device.
	skip string
}

// readSiteFile reads the site-level file rel (a slash path relative to the output folder). A
// symbolic link into the output is kept a link: its target is read, and is the file to write. A
// name that is missing is a file to create.
func (j *job) readSiteFile(rel string) (siteFile, error) {
	sf := siteFile{rel: rel}
	lfi, err := j.root.Lstat(rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return sf, nil
	case err != nil:
		return sf, j.fileError(rel, err)
	case lfi.Mode()&fs.ModeSymlink != 0:
		fl, warning, ok := j.classify(rel, lfi.Mode().Type())
		if !ok || fl&isLink == 0 {
			sf.skip = warning
			return sf, nil
		}
		if sf.rel, err = safefs.ResolveLink(j.outDir, rel); err != nil {
			return sf, j.fileError(rel, err)
		}
	case lfi.IsDir():
		// Not a file robotsmith may skip: the rules it needs cannot be written anywhere else.
		return sf, &fs.PathError{Op: "read", Path: j.outName(rel), Err: syscall.EISDIR}
	case !lfi.Mode().IsRegular():
		sf.skip = fmt.Sprintf("%s: %s: skipped, never read", j.outName(rel), safefs.Kind(lfi.Mode()))
		return sf, nil
	}
	sf.data, sf.info, err = j.readFile(sf.rel, nil)
	return sf, err
}

// writeFile is the one way a run writes the output: the new content of the file rel (a slash path
// relative to the output folder), whose read gave orig (nil for a file that does not exist yet),
// goes to a temporary file beside it, which keeps orig's mode and owner, until commit puts every
// file of the build in place at once. In check, which writes nothing, it does nothing. It may be
// called from many goroutines.
func (j *job) writeFile(rel string, orig fs.FileInfo, data []byte) error {
	if j.tx == nil {
		return nil
	}
	if err := j.tx.WriteFile(rel, orig, data); err != nil {
		return j.fileError(rel, err)
	}
	if j.own != nil {
		j.own.add(rel, data)
	}
	return nil
}

// createFile is writeFile for content too large to hold in memory (a pruned sitemap): write
// streams it into the temporary file. An error of write fails the build.
func (j *job) createFile(rel string, orig fs.FileInfo, write func(io.Writer) error) error {
	if j.tx == nil {
		return nil
	}
	f, err := j.tx.Create(rel, orig)
	if err != nil {
		return j.fileError(rel, err)
	}
	var w io.Writer = f
	var d *watch.Digest
	if j.own != nil {
		// Watch mode stamps what it writes, as it streams.
		d = j.own.own.NewDigest()
		w = io.MultiWriter(f, d)
	}
	err = write(w)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return j.fileError(rel, err)
	}
	if d != nil {
		j.own.set(rel, d.Stamp())
	}
	return nil
}

// ownWrites, in watch mode, stamps what each of a batch's writes puts in its file (watch.Own's
// stamp: a size and a hash, never the content), so that once the batch is in place the watcher
// can be told, and drop the events of robotsmith's own writes. Safe for concurrent use.
type ownWrites struct {
	own    *watch.Own
	mu     sync.Mutex
	stamps map[string]watch.Stamp // by slash path relative to the output folder
}

func (o *ownWrites) add(rel string, data []byte) { o.set(rel, o.own.Stamp(data)) }

func (o *ownWrites) set(rel string, s watch.Stamp) {
	o.mu.Lock()
	o.stamps[rel] = s
	o.mu.Unlock()
}

// commit puts every file writeFile wrote in place, or (an error) none: a failure, a file that
// another process changed meanwhile, or ctx ending (SIGINT, SIGTERM) undoes the files already
// replaced. It reports whether any file was written; its warnings are leftovers the next run
// removes.
func (j *job) commit(ctx context.Context) (wrote bool, warnings []string, err error) {
	if j.tx == nil {
		return false, nil, nil
	}
	n := j.tx.Len()
	if err := j.tx.Commit(ctx); err != nil {
		return false, nil, err
	}
	return n > 0, j.tx.Warnings, nil
}

// close ends the run's hold on the output: a build's transaction not committed is undone (every
// temporary file removed, the folder unlocked), and the folder is closed. Every run calls it, on
// every path. Its error is an undo that could not finish, which left files of robotsmith's for the
// next run to remove: a build that fails must say so (SPEC §10).
func (j *job) close() error {
	var err error
	if j.tx != nil {
		err = j.tx.Abort()
	}
	if j.out != nil {
		j.out.Close()
	}
	if j.root != nil {
		j.root.Close()
	}
	j.tx, j.root, j.out = nil, nil, nil
	return err
}

// recovered is the warning for what safefs found of an interrupted build in the output and undid
// or finished, "" for nothing.
func (j *job) recovered(r safefs.Recovery) string {
	if !r.Any() {
		return ""
	}
	return fmt.Sprintf("%s: %v", j.site.Output, r)
}
