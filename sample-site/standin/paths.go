package standin

import (
	"path"
	"strings"
	"unicode"
)

// sanitize turns one path or path element into what Hugo writes, following
// the rules of Hugo's paths.Sanitize (common/paths/path.go): runs of
// white space become one "-", and characters other than letters, digits,
// marks and "._~+#@-/" are dropped ("%" is kept when it starts a %XX escape).
// The result is lower-cased, as Hugo does unless disablePathToLower is set.
//
// Hugo's function is internal to Hugo, so it is re-written here rather than
// imported (importing Hugo would pull in hundreds of packages).
func sanitize(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	hyphen := false
	for i, r := range s {
		switch {
		case allowedPathRune(s, i, r):
			if hyphen {
				b.WriteByte('-')
				hyphen = false
			}
			b.WriteRune(unicode.ToLower(r))
		case unicode.IsSpace(r):
			hyphen = b.Len() > 0
		}
	}
	return b.String()
}

func allowedPathRune(s string, i int, r rune) bool {
	if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) {
		return true
	}
	switch r {
	case '.', '/', '_', '#', '+', '~', '-', '@':
		return true
	case '%':
		return i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2])
	}
	return false
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// urlize is Hugo's urlize for taxonomy terms: the sanitised, lower-cased
// term, with slashes kept out so a term stays one path element.
func urlize(term string) string {
	return strings.Trim(strings.ReplaceAll(sanitize(term), "/", "-"), "-")
}

// sanitizeDir sanitises each element of a slash-separated content folder.
func sanitizeDir(dir string) string {
	if dir == "" || dir == "." {
		return ""
	}
	parts := strings.Split(dir, "/")
	for i, p := range parts {
		parts[i] = sanitize(p)
	}
	return strings.Join(parts, "/")
}

// urlTarget maps a front matter url (kept verbatim, as Hugo does) to the
// served URL path and the output file relative to public/. A url ending in
// "/" or whose last element has no dot gets index.html; otherwise it names
// the exact file. Cleaning a rooted path keeps ".." from leaving public/.
func urlTarget(u string) (rel, file string) {
	trailing := strings.HasSuffix(u, "/")
	p := path.Clean("/" + u)
	if p == "/" {
		return "/", "index.html"
	}
	if trailing || !strings.Contains(path.Base(p), ".") {
		return p + "/", strings.TrimPrefix(p, "/") + "/index.html"
	}
	return p, strings.TrimPrefix(p, "/")
}

// dirTarget is the served URL path and output file of a page whose URL is
// the folder dir (sanitised, without slashes at either end; "" is the home).
func dirTarget(dir string) (rel, file string) {
	if dir == "" {
		return "/", "index.html"
	}
	return "/" + dir + "/", dir + "/index.html"
}
