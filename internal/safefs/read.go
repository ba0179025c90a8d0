package safefs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/robotsmith/robotsmith/problem"
)

// Errors a reader branches on (errors.Is). Those that reach the user carry their problem code,
// which the errors that wrap them (*fs.PathError) take.
var (
	// ErrNotRegular: a FIFO, socket, device or directory where a file's
	// bytes were expected. It is never read: a FIFO would block for ever and
	// /dev/zero never ends. Code problem.NotARegularFile.
	ErrNotRegular error = problem.New(problem.NotARegularFile, problem.Position{}, "not a regular file")
	// ErrSymlink: the last element of the name is a symbolic link, where the
	// caller asked not to follow one.
	ErrSymlink = errors.New("a symbolic link")
	// ErrTooLarge: more bytes than the caller's limit; the error is a
	// *SizeError. Code problem.FileTooLarge.
	ErrTooLarge error = problem.New(problem.FileTooLarge, problem.Position{}, "file too large")
	// ErrOutside: a symbolic link that leads out of the folder it is in.
	// Code problem.LinkOutside.
	ErrOutside error = problem.New(problem.LinkOutside, problem.Position{}, "a symbolic link that leads outside the folder")
	// ErrChanged: a file changed (replaced, rewritten or deleted) by another
	// process between robotsmith reading it and replacing it. Code
	// problem.FileChanged.
	ErrChanged error = problem.New(problem.FileChanged, problem.Position{}, "changed by another process during the build")
)

// SizeError is a file longer than a reader's limit.
type SizeError struct {
	Name  string
	Size  int64 // as fstat gave it; the bytes read past the limit when fstat said less
	Limit int64
}

func (e *SizeError) Error() string { return e.Name + ": " + e.msg() }

// msg is the message without the file's name.
func (e *SizeError) msg() string {
	return fmt.Sprintf("%s is more than %s, the most robotsmith reads of such a file", byteSize(e.Size), byteSize(e.Limit))
}

// Problem is the error as a problem.Problem of code problem.FileTooLarge; its Error() is Error().
func (e *SizeError) Problem() problem.Problem {
	return *problem.New(problem.FileTooLarge, problem.Position{File: e.Name}, e.msg())
}

// Unwrap returns ErrTooLarge.
func (e *SizeError) Unwrap() error { return ErrTooLarge }

func byteSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// openFlags never block: opening a FIFO for reading without O_NONBLOCK waits
// for a writer, for ever when there is none.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK

// Open opens name for reading when it is a regular file, following symbolic
// links (it is for input robotsmith does not write, such as its
// configuration). Anything else is an *fs.PathError wrapping ErrNotRegular,
// checked on the opened file, so a name swapped after a check cannot slip
// through.
func Open(name string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(name, openFlags, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := regular(f, name)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// ReadFile reads the regular file name (following symbolic links), at most
// limit bytes: a longer file is a *SizeError, found without reading more
// than limit+1 bytes.
func ReadFile(name string, limit int64) ([]byte, error) {
	f, fi, err := Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(f, fi, limit)
}

// ReadAll reads f, which fi describes, to its end, at most limit bytes. A file
// longer than limit is a *SizeError. The buffer is sized from fi once, and
// grows only if the file grew since; it never holds more than limit+1 bytes.
func ReadAll(f *os.File, fi fs.FileInfo, limit int64) ([]byte, error) {
	return ReadInto(nil, f, fi, limit)
}

// ReadInto is ReadAll into buf's memory, reused when it is large enough (a
// worker reading one page after another keeps one buffer): it returns the
// file's bytes in buf, or in a larger buffer that the next call can reuse.
func ReadInto(buf []byte, f *os.File, fi fs.FileInfo, limit int64) ([]byte, error) {
	return readInto(buf, f.Name(), fi.Size(), limit, f)
}

// readInto is ReadInto of the file name, which fstat says is size bytes long, read from r.
func readInto(buf []byte, name string, size, limit int64, r io.Reader) ([]byte, error) {
	if size > limit {
		return buf[:0], &SizeError{Name: name, Size: size, Limit: limit}
	}
	lr := io.LimitedReader{R: r, N: limit + 1}
	if need := int(size) + 1; cap(buf) < need { // +1: room for the read that sees EOF
		buf = make([]byte, 0, need+need/8)
	}
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return buf[:0], err
		}
	}
	if int64(len(buf)) > limit {
		return buf[:0], &SizeError{Name: name, Size: int64(len(buf)), Limit: limit}
	}
	return buf, nil
}

// OpenIn opens name, relative to root, for reading when it is a regular file
// and its last element is not a symbolic link (ErrSymlink: the caller decides
// what a link means, see ResolveLink). It is for the output folder, where a
// link must never be read as if it were the file it points to.
func OpenIn(root *os.Root, name string) (*os.File, fs.FileInfo, error) {
	lfi, err := root.Lstat(name)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case lfi.Mode()&fs.ModeSymlink != 0:
		return nil, nil, &fs.PathError{Op: "open", Path: name, Err: ErrSymlink}
	case !lfi.Mode().IsRegular():
		return nil, nil, &fs.PathError{Op: "open", Path: name, Err: ErrNotRegular}
	}
	f, err := root.OpenFile(name, openFlags, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := regular(f, name)
	if err == nil && !os.SameFile(fi, lfi) {
		// Swapped for something else (a link the open followed) between the
		// Lstat and the open.
		err = &fs.PathError{Op: "open", Path: name, Err: ErrChanged}
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// regular checks the opened file, not its name. (O_NONBLOCK changes nothing
// for a regular file's reads.)
func regular(f *os.File, name string) (fs.FileInfo, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fmt.Errorf("%w (%s)", ErrNotRegular, Kind(fi.Mode()))}
	}
	return fi, nil
}

// Kind names a kind of file that is not a regular file, for a message: "a
// FIFO", "a socket", "a character device", "a folder".
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "not a regular file"
}

// ResolveLink follows the symbolic link name (relative to dir, slash or OS
// separators) to the end of its chain and returns the target's path relative
// to dir, with slashes, when it is inside dir. A target outside dir (also
// through a link in a folder on the way) is ErrOutside; a missing target is
// fs.ErrNotExist and a loop syscall.ELOOP (errors.Is), both *fs.PathError.
//
// A page or _headers that is a link into the output is left as a link: its
// target is processed as itself, under its own name. One that leads outside
// is skipped with a warning: robotsmith never writes there.
func ResolveLink(dir, name string) (string, error) {
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", err
	}
	full := filepath.Join(dir, filepath.FromSlash(name))
	target, err := filepath.EvalSymlinks(full)
	if err != nil {
		// EvalSymlinks words a loop as a plain error ("too many links"); the
		// kernel's own resolution says ELOOP.
		if _, serr := os.Stat(full); errors.Is(serr, syscall.ELOOP) {
			return "", &fs.PathError{Op: "resolve", Path: name, Err: syscall.ELOOP}
		}
		return "", err
	}
	rel, err := filepath.Rel(realDir, target)
	if err != nil || !filepath.IsLocal(rel) {
		return "", &fs.PathError{Op: "resolve", Path: name, Err: ErrOutside}
	}
	return filepath.ToSlash(rel), nil
}

// A Folder opens the regular files beneath a folder as OpenIn does. Where the system resolves a
// name beneath a folder in one call (Linux's openat2, since 5.6), a file is opened with it: OpenIn
// walks the name twice, folder by folder (os.Root's Lstat, then its open, each opening and closing
// every folder on the way), which was most of the system calls of reading an already-processed
// page. Anything the one call does not open plainly (a link at the end of the name, a name that
// leaves the folder, an old kernel) goes to OpenIn, whose answer stands.
type Folder struct {
	root *os.Root
	dir  *os.File // the folder itself, which openat2 resolves names beneath; nil for none
}

// NewFolder is a Folder of root, which the caller keeps open while the Folder is used.
func NewFolder(root *os.Root) *Folder {
	d := &Folder{root: root}
	if beneathSupported() {
		if dir, err := root.Open("."); err == nil {
			d.dir = dir
		}
	}
	return d
}

// Open is OpenIn(root, name).
func (d *Folder) Open(name string) (*os.File, fs.FileInfo, error) {
	if d.dir != nil {
		if f, fi, ok := openBeneath(d.dir, d.root.Name(), name); ok {
			return f, fi, nil
		}
	}
	return OpenIn(d.root, name)
}

// ReadFile reads the file name beneath the folder whole, as Open and ReadInto do: into buf's
// memory, reused when it is large enough, or a larger buffer; a file longer than limit is a
// *SizeError.
func (d *Folder) ReadFile(name string, buf []byte, limit int64) ([]byte, fs.FileInfo, error) {
	if d.dir != nil {
		if data, fi, ok, err := readBeneath(d.dir, d.root.Name(), name, buf, limit); ok {
			return data, fi, err
		}
	}
	f, fi, err := OpenIn(d.root, name)
	if err != nil {
		return buf[:0], nil, err
	}
	defer f.Close()
	data, err := ReadInto(buf, f, fi, limit)
	return data, fi, err
}

// Close closes what the Folder opened (not the root).
func (d *Folder) Close() error {
	if d.dir == nil {
		return nil
	}
	return d.dir.Close()
}
