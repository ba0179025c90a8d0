package frontmatter

import (
	"bytes"
	"errors"
	"io"
	"slices"
)

// headChunk is how much ReadHead reads at first: a page's front matter is rarely longer, and its
// body (tens of kilobytes of Markdown, some pages hundreds) is never needed.
const headChunk = 4 << 10

// ReadHead reads the beginning of a file from r, only as far as dialect's rules need to find its
// front matter (to the end of the block; the first lines of a file without one), appending it
// to buf[:0] and returning it. Parse reads the head exactly as it reads the whole file (format,
// values, offsets, problems), except Body, which holds only the part of the content that was
// read. Reading stops at the end of the block, so a site's Markdown is never read for its
// front matter, and one buffer serves file after file.
//
// Only a block that is never closed (`---` with no closing line, a JSON object with no end) makes
// it read the whole file: then the file has no front matter, or its error is at the end.
func ReadHead(r io.Reader, dialect Dialect, buf []byte) ([]byte, error) {
	buf = buf[:0]
	for {
		if cap(buf)-len(buf) < headChunk/2 {
			buf = slices.Grow(buf, max(headChunk, cap(buf)))
		}
		n, err := io.ReadFull(r, buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		eof := errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
		if err != nil && !eof {
			return buf, err
		}
		if end, ok := headEnd(buf, dialect, eof); ok {
			return buf[:end], nil
		}
	}
}

// headEnd says where the part of a file Parse needs ends, given its first len(src) bytes (all of
// it when eof): ok is false when it cannot be told yet. It follows split line by line, deciding
// on complete lines only, so that a partial line is never taken for a closing one.
func headEnd(src []byte, dialect Dialect, eof bool) (end int, ok bool) {
	if !eof && len(src) < len(bom) && bytes.HasPrefix([]byte(bom), src) {
		return 0, false
	}
	start := 0
	if bytes.HasPrefix(src, []byte(bom)) {
		start = len(bom)
	}
	// line is the end of the complete line starting at off.
	line := func(off int) (int, bool) {
		if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
			return off + i + 1, true
		}
		return len(src), eof
	}
	next, ok := line(start)
	if dialect == Hugo {
		for ok && start < len(src) && len(bytes.TrimSpace(src[start:next])) == 0 {
			start = next
			next, ok = line(start)
		}
		if ok && start < len(src) && src[start] == '{' {
			rest := bytes.TrimLeft(src[start+1:], " \t\r\n")
			if len(rest) == 0 && !eof {
				return 0, false
			}
			if looksLikeJSON(src[start+1:]) {
				if end, closed := jsonEnd(src, start); closed {
					return end, true
				}
				return len(src), eof
			}
		}
	}
	if !ok {
		return 0, false
	}
	open := string(bytes.TrimRight(src[start:next], " \t\r\n"))
	if open != "---" && !(open == "+++" && dialect == Hugo) {
		return next, true // no front matter: split decides on this line
	}
	for off := next; off < len(src); {
		end, ok := line(off)
		if !ok {
			return 0, false
		}
		l := string(bytes.TrimRight(src[off:end], " \t\r\n"))
		if l == open || (dialect == Jekyll && l == "...") {
			return end, true
		}
		off = end
	}
	return len(src), eof
}

// jsonEnd finds the end of the JSON object opening at src[start] by its braces, outside strings,
// and takes a newline after it: as far as the JSON decoder reads, whether the object is well
// formed (it ends there) or not (the decoder stops at its first error, which comes no later).
// closed is false when the object does not end in src.
func jsonEnd(src []byte, start int) (end int, closed bool) {
	depth, inString := 0, false
	for i := start; i < len(src); i++ {
		c := src[i]
		switch {
		case inString && c == '\\':
			i++
		case inString:
			inString = c != '"'
		case c == '"':
			inString = true
		case c == '{':
			depth++
		case c == '}':
			depth--
			if depth == 0 {
				return skipNewline(src, i+1), true
			}
		}
	}
	return 0, false
}
