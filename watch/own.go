package watch

import (
	"hash/maphash"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// Own remembers what robotsmith itself last wrote to each file, so that the watcher can drop the
// events of those writes: a change is dropped when the file's content is, byte for byte, what
// robotsmith put there (compared by content, not by who caused the event). Whoever writes next
// (the generator rewriting the page, an editor) changes the content, and that change is reported.
// So robotsmith never reacts to its own writes and never loops, whatever order the events come in.
//
// One Own is shared by the pipeline's workers (Record) and the watcher (Same); it is safe for
// concurrent use. It keeps a small record per file (its size and a 64-bit hash of its content),
// never the content.
type Own struct {
	seed  maphash.Seed
	mu    sync.Mutex
	files map[string]Stamp
}

// Stamp identifies a file's content: its length and a hash of its bytes. A Stamp is only
// comparable with Stamps of the same Own (each Own hashes with its own random seed, so no content
// can be crafted to look like robotsmith's).
type Stamp struct {
	Size int64
	Sum  uint64
}

// NewOwn returns an empty Own.
func NewOwn() *Own {
	return &Own{seed: maphash.MakeSeed(), files: make(map[string]Stamp)}
}

// Stamp returns the Stamp of content.
func (o *Own) Stamp(content []byte) Stamp {
	return Stamp{Size: int64(len(content)), Sum: maphash.Bytes(o.seed, content)}
}

// Digest is an io.Writer that stamps what is written through it, for a caller that streams a file
// rather than holding it: io.Copy(io.MultiWriter(tmp, d), r), then Record(name, d.Stamp()).
type Digest struct {
	h    maphash.Hash
	size int64
}

// NewDigest returns a Digest whose Stamp is comparable with o's.
func (o *Own) NewDigest() *Digest {
	d := &Digest{}
	d.h.SetSeed(o.seed)
	return d
}

// Write hashes p; it never fails.
func (d *Digest) Write(p []byte) (int, error) {
	d.size += int64(len(p))
	return d.h.Write(p)
}

// Stamp returns the Stamp of everything written so far.
func (d *Digest) Stamp() Stamp { return Stamp{Size: d.size, Sum: d.h.Sum64()} }

// Record notes that robotsmith has put content with Stamp s at path (call it once the file is in
// place, after the rename).
func (o *Own) Record(path string, s Stamp) {
	path = absClean(path)
	o.mu.Lock()
	o.files[path] = s
	o.mu.Unlock()
}

// Forget drops what was recorded for path (robotsmith removed the file, or gave it up).
func (o *Own) Forget(path string) {
	path = absClean(path)
	o.mu.Lock()
	delete(o.files, path)
	o.mu.Unlock()
}

// Same reports whether the file at path now holds exactly what robotsmith last recorded for it. A
// file that is gone, or that cannot be read, or whose content differs, is not robotsmith's (and
// its record is dropped, so later changes are compared to nothing).
func (o *Own) Same(path string) bool {
	path = absClean(path)
	o.mu.Lock()
	r, ok := o.files[path]
	o.mu.Unlock()
	if !ok {
		return false
	}
	same := o.compare(path, r)
	if !same {
		o.mu.Lock()
		if o.files[path] == r { // not re-recorded meanwhile
			delete(o.files, path)
		}
		o.mu.Unlock()
	}
	return same
}

// compare reads the file only when its size is the recorded one: a rewrite by the generator almost
// always changes the size, and then costs a stat. No shortcut by modification time or inode: a
// generator that rewrites a file in place within the clock's granularity would be taken for us.
func (o *Own) compare(path string, r Stamp) bool {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != r.Size {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	d := o.NewDigest()
	// Read one byte past the recorded size: a file still growing is not the one recorded.
	if _, err := io.Copy(d, io.LimitReader(f, r.Size+1)); err != nil {
		return false
	}
	return d.Stamp() == r
}

// absClean makes path absolute and clean, so that a path the pipeline records and the path an
// event names are the same string.
func absClean(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return filepath.Clean(path)
}
