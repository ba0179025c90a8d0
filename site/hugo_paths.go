package site

import (
	"errors"
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/gobuffalo/flect"
)

// hugoSanitize is Hugo's paths.Sanitize (common/paths/path.go), written out because Hugo's
// packages cannot be imported without the whole of Hugo: spaces become one "-", characters other
// than letters, digits, marks, "._~+#@-/\" and %XX escapes are dropped.
func hugoSanitize(s string) string {
	allowed := func(i int, r rune) bool {
		if r == ' ' {
			return false
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) {
			return true
		}
		switch r {
		case '.', '/', '\\', '_', '#', '+', '~', '-', '@':
			return true
		case '%':
			return i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2])
		}
		return false
	}
	var b strings.Builder
	prependHyphen, wasHyphen, any := false, false, false
	for i, r := range s {
		if allowed(i, r) {
			wasHyphen = r == '-'
			if prependHyphen {
				if !wasHyphen {
					b.WriteByte('-')
				}
				prependHyphen = false
			}
			b.WriteRune(r)
			any = true
		} else if any && !wasHyphen && unicode.IsSpace(r) {
			prependHyphen = true
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// permalinkToken finds the :tokens of a permalink pattern (resources/page/permalinks.go).
var permalinkToken = regexp.MustCompile(`:\w+(\[.+?\])?`)

// hugoReferenceTime tells date layouts (":2006") from other tokens, as Hugo does.
var hugoReferenceTime = time.Date(2019, time.November, 9, 23, 1, 42, 1, time.UTC)

var errPermalinkToken = errors.New("permalink attribute not recognised")

// expand expands a permalink pattern (or a url with :tokens) for a page.
func (h *hugoConfig) expand(pattern string, p *hugoSrc, sections map[string]*hugoSrc) (string, error) {
	pattern = strings.ReplaceAll(pattern, `\:`, "\x00")
	var firstErr error
	out := permalinkToken.ReplaceAllStringFunc(pattern, func(tok string) string {
		v, err := h.token(tok[1:], p, sections)
		if err != nil && firstErr == nil {
			firstErr = fmt.Errorf("expanding %q: %w", pattern, err)
		}
		return v
	})
	return strings.ReplaceAll(out, "\x00", ":"), firstErr
}

func (h *hugoConfig) urlize(s string) string { return h.sanitize(s) }

// slugElseTitle is a page's slug, else its urlised title.
func (h *hugoConfig) slugElseTitle(p *hugoSrc) string {
	if p.slug != "" {
		return h.urlize(p.slug)
	}
	return h.urlize(p.title)
}

func (h *hugoConfig) token(attr string, p *hugoSrc, sections map[string]*hugoSrc) (string, error) {
	d := p.date
	switch attr {
	case "year":
		return strconv.Itoa(d.Year()), nil
	case "month":
		return fmt.Sprintf("%02d", int(d.Month())), nil
	case "monthname":
		return d.Month().String(), nil
	case "day":
		return fmt.Sprintf("%02d", d.Day()), nil
	case "weekday":
		return strconv.Itoa(int(d.Weekday())), nil
	case "weekdayname":
		return d.Weekday().String(), nil
	case "yearday":
		return strconv.Itoa(d.YearDay()), nil
	case "section":
		return firstSeg(p.path), nil
	case "sectionslug":
		if firstSeg(p.path) == "" {
			return "", nil
		}
		return h.slugElseTitle(h.sectionPage(p.lang, "/"+firstSeg(p.path), sections)), nil
	case "sections":
		return strings.TrimPrefix(p.section, "/"), nil
	case "sectionslugs":
		return path.Join(h.sectionSlugs(p, sections)...), nil
	case "title":
		return h.urlize(p.title), nil
	case "slug":
		return h.slugElseTitle(p), nil
	case "slugorfilename":
		if p.slug != "" {
			return h.urlize(p.slug), nil
		}
		return h.filename(p), nil
	case "filename":
		return h.filename(p), nil
	case "contentbasename":
		return h.urlize(h.contentBaseName(p)), nil
	case "slugorcontentbasename":
		if p.slug != "" {
			return h.urlize(p.slug), nil
		}
		return h.urlize(h.contentBaseName(p)), nil
	}
	if strings.HasPrefix(attr, "sections[") {
		return path.Join(sliceSpec(strings.TrimPrefix(attr, "sections"), sectionEntries(p.section))...), nil
	}
	if strings.HasPrefix(attr, "sectionslugs[") {
		return path.Join(sliceSpec(strings.TrimPrefix(attr, "sectionslugs"), h.sectionSlugs(p, sections))...), nil
	}
	if hugoReferenceTime.Format(attr) != attr {
		return d.Format(attr), nil
	}
	return "", fmt.Errorf(":%s: %w", attr, errPermalinkToken)
}

func sectionEntries(section string) []string {
	if section == "/" || section == "" {
		return nil
	}
	return strings.Split(strings.TrimPrefix(section, "/"), "/")
}

// sectionPage is the branch page at a logical path, or a stand-in for a section with no
// _index file, titled by its name pluralised as Hugo does (hugolib/page__meta.go, with the
// inflection library Hugo uses).
func (h *hugoConfig) sectionPage(lang, p string, sections map[string]*hugoSrc) *hugoSrc {
	if s := sections[lang+"\x00"+p]; s != nil {
		return s
	}
	title := path.Base(p)
	if h.pluralizeTitles {
		title = flect.Pluralize(title)
	}
	return &hugoSrc{title: title}
}

func (h *hugoConfig) sectionSlugs(p *hugoSrc, sections map[string]*hugoSrc) []string {
	var out []string
	entries := sectionEntries(p.section)
	for i := range entries {
		out = append(out, h.slugElseTitle(h.sectionPage(p.lang, "/"+strings.Join(entries[:i+1], "/"), sections)))
	}
	return out
}

// filename is the urlised file name; a bundle's folder name for index files, "" for _index.
func (h *hugoConfig) filename(p *hugoSrc) string {
	switch p.base {
	case "index":
		return h.urlize(path.Base(p.dir))
	case "_index":
		return ""
	}
	return h.urlize(p.base)
}

func (h *hugoConfig) contentBaseName(p *hugoSrc) string {
	if p.base == "index" || p.base == "_index" {
		return path.Base("/" + p.dir)
	}
	return p.base
}

// sliceSpec applies a "[low:high]", "[n]" or "[last]" cut to s, leniently as Hugo's toSliceFunc.
func sliceSpec(cut string, s []string) []string {
	cut = strings.ToLower(strings.TrimSpace(cut))
	if cut == "" {
		return s
	}
	if len(cut) < 3 || cut[0] != '[' || cut[len(cut)-1] != ']' || len(s) == 0 {
		return nil
	}
	idx := func(x string, low bool) int {
		switch x {
		case "":
			if low {
				return 0
			}
			return len(s)
		case "last":
			return len(s) - 1
		}
		n, _ := strconv.Atoi(x)
		if n < 0 {
			n = 0
		}
		if n >= len(s) {
			if low {
				return -1
			}
			return len(s)
		}
		return n
	}
	inner := cut[1 : len(cut)-1]
	lo, hi, isRange := strings.Cut(inner, ":")
	if !isRange {
		n := idx(lo, true)
		if n < 0 || s[n] == "" {
			return nil
		}
		return []string{s[n]}
	}
	n1, n2 := idx(lo, true), idx(hi, false)
	if n1 < 0 || n2 < 0 || n1 > n2 {
		return nil
	}
	return s[n1:n2]
}
