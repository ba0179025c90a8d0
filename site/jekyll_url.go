package site

// Jekyll's URL building, slugs, dates and Ruby's File.fnmatch, written to match Jekyll 4.3 (url.rb,
// drops/url_drop.rb, utils.rb, configuration.rb). These are hand-written because no Go library
// reproduces Ruby's semantics: Jekyll's slugify classes, Ruby's fnmatch where `*` crosses `/`, and
// Psych's reading of YAML timestamps differ from everything Go offers.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// jekyllStyles is STYLE_TO_PERMALINK in configuration.rb.
var jekyllStyles = map[string]string{
	"none":     "/:categories/:title:output_ext",
	"date":     "/:categories/:year/:month/:day/:title:output_ext",
	"ordinal":  "/:categories/:year/:y_day/:title:output_ext",
	"pretty":   "/:categories/:year/:month/:day/:title/",
	"weekdate": "/:categories/:year/W:week/:short_day/:title:output_ext",
}

// jekyllStyleTemplate turns a permalink style name into its template; custom strings stay.
func jekyllStyleTemplate(style string) string {
	if t, ok := jekyllStyles[style]; ok {
		return t
	}
	return style
}

// jekyllPermalinkSuffix is Utils.add_permalink_suffix.
func jekyllPermalinkSuffix(template, style string) string {
	switch style {
	case "pretty":
		return template + "/"
	case "date", "ordinal", "none":
		return template + ":output_ext"
	}
	if strings.HasSuffix(style, "/") {
		template += "/"
	}
	if strings.HasSuffix(style, ":output_ext") {
		template += ":output_ext"
	}
	return template
}

var (
	slugDefaultRE = regexp.MustCompile(`[^\p{M}\p{L}\p{Nd}]+`)
	slugPrettyRE  = regexp.MustCompile(`[^\p{M}\p{L}\p{Nd}._~!$&'()+,;=@]+`)
)

// jekyllSlugify is Utils.slugify in "default" (pretty=false) or "pretty" mode.
func jekyllSlugify(s string, pretty, cased bool) string {
	re := slugDefaultRE
	if pretty {
		re = slugPrettyRE
	}
	slug := re.ReplaceAllString(s, "-")
	slug = strings.TrimPrefix(slug, "-")
	slug = strings.TrimSuffix(slug, "-")
	if !cased {
		slug = strings.ToLower(slug)
	}
	return slug
}

// jekyllURLHash fills a template from a fixed set of placeholders, in order, by plain string
// replacement: URL#generate_url_from_hash, used for pages.
func jekyllURLHash(template string, keys []string, values map[string]string) string {
	out := template
	for _, k := range keys {
		if !strings.Contains(out, ":") {
			break
		}
		out = strings.ReplaceAll(out, ":"+k, jekyllEscape(values[k]))
	}
	return jekyllSanitizeURL(out)
}

var placeholderRE = regexp.MustCompile(`:([a-z_]+)`)

// jekyllURLDrop fills a template from a document's placeholders: URL#generate_url_from_drop. A
// placeholder the document does not have is an error, as in Jekyll.
func jekyllURLDrop(template string, lookup func(string) (string, bool)) (string, error) {
	var err error
	out := placeholderRE.ReplaceAllStringFunc(template, func(m string) string {
		name := m[1:]
		suffix := ""
		// Jekyll tries "name_" then "name" but chomps the name in place first, so a trailing
		// underscore is always kept as text after the value.
		if strings.HasSuffix(name, "_") {
			name = strings.TrimSuffix(name, "_")
			suffix = "_"
		}
		v, ok := lookup(name)
		if !ok {
			if err == nil {
				err = fmt.Errorf("permalink %q: the URL template has no %q key", template, name)
			}
			return m
		}
		return jekyllEscape(v) + suffix
	})
	if err != nil {
		return "", err
	}
	return jekyllSanitizeURL(out), nil
}

// jekyllSanitizeURL is URL#sanitize_url.
func jekyllSanitizeURL(s string) string {
	s = "/" + s
	s = strings.ReplaceAll(s, "..", "/")
	s = strings.ReplaceAll(s, "./", "")
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '/' && i > 0 && s[i-1] == '/' {
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

var simplePathRE = regexp.MustCompile(`^[a-zA-Z0-9./-]+$`)

// jekyllEscape percent-encodes a placeholder value the way URL.escape_path does for what matters
// here: the output file name is the unescaped URL, so a value must come back unchanged from
// jekyllUnescape (including a literal '%').
func jekyllEscape(s string) string {
	if s == "" || simplePathRE.MatchString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x80 && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~!$&'()*+,;=:@/", c) >= 0) {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}

// jekyllUnescape decodes %XX sequences and leaves malformed ones, like Addressable's unencode.
func jekyllUnescape(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(v))
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// rubyFnmatch is File.fnmatch(pattern, name) with no flags: `*` matches any run of characters,
// '/' included, `?` one character, `[...]` a class (`!` or `^` negates), `\` escapes.
func rubyFnmatch(pattern, name string) bool {
	if !strings.ContainsAny(pattern, "*?[\\") {
		return pattern == name // no wildcard: matched character by character
	}
	p, n := []rune(pattern), []rune(name)
	var match func(pi, ni int) bool
	match = func(pi, ni int) bool {
		for pi < len(p) {
			switch p[pi] {
			case '*':
				for pi < len(p) && p[pi] == '*' {
					pi++
				}
				if pi == len(p) {
					return true
				}
				for k := ni; k <= len(n); k++ {
					if match(pi, k) {
						return true
					}
				}
				return false
			case '?':
				if ni >= len(n) {
					return false
				}
				pi++
				ni++
			case '[':
				if ni >= len(n) {
					return false
				}
				end, ok := classMatch(p, pi, n[ni])
				if end < 0 || !ok {
					return false
				}
				pi = end
				ni++
			default:
				c := p[pi]
				if c == '\\' && pi+1 < len(p) {
					pi++
					c = p[pi]
				}
				if ni >= len(n) || n[ni] != c {
					return false
				}
				pi++
				ni++
			}
		}
		return ni == len(n)
	}
	return match(0, 0)
}

// classMatch matches c against the bracket expression starting at p[i] == '['. It returns the index
// after the closing ']' (-1 when unclosed) and whether c is in the class.
func classMatch(p []rune, i int, c rune) (int, bool) {
	i++
	neg := false
	if i < len(p) && (p[i] == '!' || p[i] == '^') {
		neg = true
		i++
	}
	found := false
	first := true
	for i < len(p) && (p[i] != ']' || first) {
		first = false
		lo := p[i]
		if lo == '\\' && i+1 < len(p) {
			i++
			lo = p[i]
		}
		hi := lo
		if i+2 < len(p) && p[i+1] == '-' && p[i+2] != ']' {
			hi = p[i+2]
			if hi == '\\' && i+3 < len(p) {
				i++
				hi = p[i+2]
			}
			i += 2
		}
		if lo <= c && c <= hi {
			found = true
		}
		i++
	}
	if i >= len(p) {
		return -1, false
	}
	return i + 1, found != neg
}

// rubyStrftime formats the strftime directives that url_drop.rb uses.
func rubyStrftime(t time.Time, f string) string {
	switch f {
	case "%Y":
		return fmt.Sprintf("%04d", t.Year())
	case "%m":
		return fmt.Sprintf("%02d", int(t.Month()))
	case "%d":
		return fmt.Sprintf("%02d", t.Day())
	case "%H":
		return fmt.Sprintf("%02d", t.Hour())
	case "%M":
		return fmt.Sprintf("%02d", t.Minute())
	case "%S":
		return fmt.Sprintf("%02d", t.Second())
	case "%-d":
		return strconv.Itoa(t.Day())
	case "%-m":
		return strconv.Itoa(int(t.Month()))
	case "%b":
		return t.Month().String()[:3]
	case "%B":
		return t.Month().String()
	case "%y":
		return fmt.Sprintf("%02d", t.Year()%100)
	case "%G":
		y, _ := t.ISOWeek()
		return fmt.Sprintf("%04d", y)
	case "%V":
		_, w := t.ISOWeek()
		return fmt.Sprintf("%02d", w)
	case "%u":
		wd := int(t.Weekday())
		if wd == 0 {
			wd = 7
		}
		return strconv.Itoa(wd)
	case "%a":
		return t.Weekday().String()[:3]
	case "%A":
		return t.Weekday().String()
	case "%j":
		return fmt.Sprintf("%03d", t.YearDay())
	}
	return ""
}

// jekyllDateKeys maps url_drop.rb's date placeholders to their strftime directives.
var jekyllDateKeys = map[string]string{
	"year": "%Y", "month": "%m", "day": "%d", "hour": "%H", "minute": "%M", "second": "%S",
	"i_day": "%-d", "i_month": "%-m", "short_month": "%b", "long_month": "%B", "short_year": "%y",
	"w_year": "%G", "week": "%V", "w_day": "%u", "short_day": "%a", "long_day": "%A", "y_day": "%j",
}

// rubyExtname is File.extname: "" for dot files without another dot.
func rubyExtname(name string) string {
	base := name
	if i := strings.LastIndexByte(base, '/'); i >= 0 {
		base = base[i+1:]
	}
	trimmed := strings.TrimLeft(base, ".")
	i := strings.LastIndexByte(trimmed, '.')
	if i < 0 {
		return ""
	}
	return trimmed[i:]
}

// special reports an entry Jekyll skips: it starts with '.', '_', '#' or '~'.
func jekyllSpecial(name string) bool {
	return name != "" && strings.ContainsRune("._#~", rune(name[0]))
}

// lowerASCII is Ruby's String#downcase for categories (full Unicode in Ruby 2.4+).
func lowerASCII(s string) string {
	return strings.Map(unicode.ToLower, s)
}
