package rules

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/robotsmith/robotsmith/internal/excerpt"
	"github.com/robotsmith/robotsmith/internal/suggest"
	"github.com/robotsmith/robotsmith/problem"
)

// slot is one position of the fixed output order (SPEC §4). Each slot holds
// at most one value in a resolved set.
type slot int

const (
	slotIndex            slot = iota // index | noindex
	slotFollow                       // follow | nofollow
	slotNoarchive                    // noarchive
	slotNocache                      // nocache
	slotNosnippet                    // nosnippet
	slotNoimageindex                 // noimageindex
	slotNotranslate                  // notranslate
	slotIndexifembedded              // indexifembedded
	slotNoai                         // noai (advisory: no AI vendor documents honouring it)
	slotNoimageai                    // noimageai (advisory, likewise)
	slotMaxSnippet                   // max-snippet:N
	slotMaxImagePreview              // max-image-preview:none|standard|large
	slotMaxVideoPreview              // max-video-preview:N
	slotUnavailableAfter             // unavailable_after:DATE (Unix seconds)
	numSlots
)

// Image preview levels, most restrictive first.
const (
	imageNone int64 = iota
	imageStandard
	imageLarge
)

// maxNumber bounds max-snippet and max-video-preview so that no number
// collides with the "-1 = no limit" ordering key.
const maxNumber = math.MaxInt32

// tok is one parsed directive: a slot and its value. For index and follow
// v is 1 for the negative form; flags have v 1; numbers are N; the image
// level is imageNone..imageLarge; dates are Unix seconds (UTC).
type tok struct {
	slot slot
	v    int64
}

// key orders values of one slot: the smaller key is the more restrictive value.
func (t tok) key() int64 {
	switch t.slot {
	case slotIndex, slotFollow:
		return -t.v
	case slotMaxSnippet, slotMaxVideoPreview:
		if t.v == -1 {
			return math.MaxInt64 // no limit loses to any limit
		}
		return t.v
	case slotMaxImagePreview, slotUnavailableAfter:
		return t.v
	}
	return 0
}

// String is the canonical, lower-case spelling of the token.
func (t tok) String() string {
	switch t.slot {
	case slotIndex:
		if t.v == 1 {
			return "noindex"
		}
		return "index"
	case slotFollow:
		if t.v == 1 {
			return "nofollow"
		}
		return "follow"
	case slotNoarchive:
		return "noarchive"
	case slotNocache:
		return "nocache"
	case slotNosnippet:
		return "nosnippet"
	case slotNoimageindex:
		return "noimageindex"
	case slotNotranslate:
		return "notranslate"
	case slotIndexifembedded:
		return "indexifembedded"
	case slotNoai:
		return "noai"
	case slotNoimageai:
		return "noimageai"
	case slotMaxSnippet:
		return "max-snippet:" + strconv.FormatInt(t.v, 10)
	case slotMaxImagePreview:
		switch t.v {
		case imageNone:
			return "max-image-preview:none"
		case imageStandard:
			return "max-image-preview:standard"
		}
		return "max-image-preview:large"
	case slotMaxVideoPreview:
		return "max-video-preview:" + strconv.FormatInt(t.v, 10)
	case slotUnavailableAfter:
		return "unavailable_after:" + time.Unix(t.v, 0).UTC().Format(time.RFC3339)
	}
	return ""
}

// ParseValue parses one comma list (also used for a single list element) into
// canonical tokens, in the order written: "NoIndex , none" gives
// ["noindex", "noindex", "nofollow"]; "all" gives nothing. Spaces, semicolons and
// line breaks between known directives separate them too, with a warning
// (SplitDirectives). Unknown and obsolete directives are reported in warnings
// and dropped. Malformed values (max-snippet:abc, max-image-preview:huge, a bad
// date) make err non-nil (errors.Join of one error per bad token, each wrapping
// ErrMalformed); the well-formed tokens are still returned.
func ParseValue(s string) (tokens []string, warnings []string, err error) {
	toks, notes, _, err := parseValue(s, false, false)
	for _, t := range toks {
		tokens = append(tokens, t.String())
	}
	for _, n := range notes {
		warnings = append(warnings, n.msg)
	}
	return tokens, warnings, err
}

// note is a warning's code and message, before it is given its source (Warning).
type note struct {
	code problem.Code
	msg  string
}

// parseValue splits s into its directives (SplitDirectives) and parses each.
// With lenient set, a directive that looks misspelt is a warning rather than
// an error: a robots tag the theme wrote is not the user's typo (SPEC §4 fails
// closed on what the user wrote). With quoted set, the caller's message quotes
// s when it is one directive (one is true: parseInput's *Error), so an error
// about it does not quote it again (SPEC §10: a message quotes a value once).
func parseValue(s string, lenient, quoted bool) (toks []tok, warns []note, one bool, err error) {
	var errs []error
	items, loose := SplitDirectives(s)
	for _, p := range items {
		ts, warn, err := parseDirective(p, quoted && len(items) == 1)
		toks = append(toks, ts...)
		if m := (*misspelling)(nil); lenient && errors.As(err, &m) {
			m.bare = false // a warning quotes what it drops
			warn, err = note{problem.MisspeltInPageTag, m.Error() + "; dropped"}, nil
		}
		if warn.msg != "" {
			warns = append(warns, warn)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	// A value of thousands of bad words reports the first few and a count.
	if n := len(errs) - maxValueProblems; n > 0 {
		errs = append(errs[:maxValueProblems], problem.Newf(problem.MoreErrors, problem.Position{}, "and %d more problems in the value", n))
	}
	if n := len(warns) - maxValueProblems; n > 0 {
		warns = append(warns[:maxValueProblems], note{problem.MoreWarnings, fmt.Sprintf("and %d more directives, dropped", n)})
	}
	if loose != "" {
		warns = append(warns, note{problem.LooseSeparators, loose})
	}
	return toks, warns, len(items) == 1, errors.Join(errs...)
}

// maxValueProblems is how many errors, and how many warnings, one value reports before a count.
const maxValueProblems = 10

// parseDirective parses one trimmed directive such as "noindex",
// "max-snippet: 50" or "unavailable_after:2027-01-31". With whole set, the
// directive is the whole value and the caller's message quotes it, so an error
// names no part of it.
func parseDirective(p string, whole bool) (toks []tok, warn note, err error) {
	name, arg, hasArg := strings.Cut(p, ":")
	name = strings.ToLower(strings.TrimSpace(name))
	arg = strings.TrimSpace(arg)
	// its is how an error names the argument: quoted, or "its value" where the caller quotes it.
	its := func() string {
		if whole {
			return "its value"
		}
		return excerpt.Quote(arg)
	}
	flag := func(s slot, v int64) ([]tok, note, error) {
		if hasArg {
			if whole {
				return nil, note{}, fmt.Errorf("%w: %s takes no value", ErrMalformed, name)
			}
			return nil, note{}, fmt.Errorf("%w: %s takes no value (got %s)", ErrMalformed, name, excerpt.Quote(p))
		}
		return []tok{{s, v}}, note{}, nil
	}
	number := func(s slot) ([]tok, note, error) {
		if !hasArg || arg == "" {
			return nil, note{}, fmt.Errorf("%w: %s needs a number (%s:N, -1 for no limit)", ErrMalformed, name, name)
		}
		n, err := strconv.ParseInt(arg, 10, 64)
		if err != nil || n < -1 || n > maxNumber {
			return nil, note{}, fmt.Errorf("%w: %s: %s is not an integer from -1 to %d", ErrMalformed, name, its(), maxNumber)
		}
		return []tok{{s, n}}, note{}, nil
	}
	switch name {
	case "index":
		return flag(slotIndex, 0)
	case "noindex":
		return flag(slotIndex, 1)
	case "follow":
		return flag(slotFollow, 0)
	case "nofollow":
		return flag(slotFollow, 1)
	case "none":
		if _, _, err := flag(slotIndex, 1); err != nil {
			return nil, note{}, err
		}
		return []tok{{slotIndex, 1}, {slotFollow, 1}}, note{}, nil
	case "all":
		if _, _, err := flag(slotIndex, 0); err != nil {
			return nil, note{}, err
		}
		return nil, note{}, nil
	case "noarchive":
		return flag(slotNoarchive, 1)
	case "nocache":
		return flag(slotNocache, 1)
	case "nosnippet":
		return flag(slotNosnippet, 1)
	case "noimageindex":
		return flag(slotNoimageindex, 1)
	case "notranslate":
		return flag(slotNotranslate, 1)
	case "indexifembedded":
		return flag(slotIndexifembedded, 1)
	case "noai":
		return flag(slotNoai, 1)
	case "noimageai":
		return flag(slotNoimageai, 1)
	case "max-snippet":
		return number(slotMaxSnippet)
	case "max-video-preview":
		return number(slotMaxVideoPreview)
	case "max-image-preview":
		switch strings.ToLower(arg) {
		case "none":
			return []tok{{slotMaxImagePreview, imageNone}}, note{}, nil
		case "standard":
			return []tok{{slotMaxImagePreview, imageStandard}}, note{}, nil
		case "large":
			return []tok{{slotMaxImagePreview, imageLarge}}, note{}, nil
		}
		return nil, note{}, fmt.Errorf("%w: max-image-preview: %s is not none, standard or large", ErrMalformed, its())
	case "unavailable_after":
		if !hasArg || arg == "" {
			return nil, note{}, fmt.Errorf("%w: unavailable_after needs a date", ErrMalformed)
		}
		t, err := parseDate(arg, whole)
		if err != nil {
			return nil, note{}, fmt.Errorf("%w: unavailable_after: %v", ErrMalformed, err)
		}
		return []tok{{slotUnavailableAfter, t.Unix()}}, note{}, nil
	case "noodp", "noydir", "nositelinkssearchbox":
		return nil, note{problem.ObsoleteDirective, fmt.Sprintf("obsolete directive %q is ignored by Google and Bing; dropped", name)}, nil
	}
	return unknown(name, whole)
}

// knownDirectives are the directive names parseDirective reads, in the order a "did you mean"
// prefers them when two are equally near.
func knownDirectives() []string {
	return []string{"noindex", "nofollow", "none", "index", "follow", "all",
		"noarchive", "nocache", "nosnippet", "noimageindex", "notranslate", "indexifembedded",
		"noai", "noimageai", "max-snippet", "max-image-preview", "max-video-preview", "unavailable_after"}
}

// obsoleteDirectives are the directive names parseDirective reads as obsolete: dropped, with a
// warning.
func obsoleteDirectives() []string { return []string{"noodp", "noydir", "nositelinkssearchbox"} }

// isKnown reports whether a lower-case name is a directive parseDirective reads, known or obsolete.
func isKnown(name string) bool {
	return slices.Contains(knownDirectives(), name) || slices.Contains(obsoleteDirectives(), name)
}

// isFlag reports whether a lower-case name is a directive parseDirective reads that takes no value.
func isFlag(name string) bool {
	switch name {
	case "max-snippet", "max-image-preview", "max-video-preview", "unavailable_after":
		return false
	}
	return isKnown(name)
}

// maxTypoEdits is how near a known directive an unknown one must be to count as a misspelling
// (SPEC §4: within two edits).
const maxTypoEdits = 2

// squashed is the known directive that name (lower case) is once hyphens, underscores, spaces,
// semicolons and line breaks are taken out of both ("no-index", "no index", "max_snippet"), or "".
func squashed(name string) string {
	squash := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r == '-' || r == '_' || isLoose(r) {
				return -1
			}
			return unicode.ToLower(r)
		}, s)
	}
	sq := squash(name)
	for _, k := range knownDirectives() {
		if squash(k) == sq {
			return k
		}
	}
	return ""
}

// unknown handles a directive name parseDirective does not know. One that looks like a misspelt
// known directive (within two edits of one, or the same once hyphens and underscores are
// ignored, or holding characters outside ASCII, such as a Cyrillic і in noіndex) is an error
// wrapping ErrMisspelt, naming the directive it resembles: a typo in a restriction must never
// publish a page its author meant to hide. Any other unknown name is a warning, and dropped.
// With whole set, the error does not quote the name, which the caller's message quotes.
func unknown(name string, whole bool) ([]tok, note, error) {
	near, d := suggest.Nearest(name, knownDirectives())
	if k := squashed(name); k != "" {
		near, d = k, 1
	}
	if !suggest.ASCII(name) || d <= maxTypoEdits {
		return nil, note{}, &misspelling{what: "directive", name: name, near: near, nonASCII: !suggest.ASCII(name), bare: whole}
	}
	return nil, note{problem.UnknownDirective, fmt.Sprintf("unknown directive %s; dropped", excerpt.Quote(name))}, nil
}

func isWeekday(s string) bool {
	switch strings.ToLower(s) {
	case "mon", "tue", "wed", "thu", "fri", "sat", "sun",
		"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday":
		return true
	}
	return false
}

// isoLayouts are the ISO 8601 forms read. Layouts without a zone are read as UTC.
var isoLayouts = [...]string{
	"2006-01-02",
	time.RFC3339Nano, // 2006-01-02T15:04:05.999999999Z07:00, also "Z"
	"2006-01-02T15:04:05.999999999Z0700",
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04Z0700",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02T15:04",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02 15:04",
	"2006-01-02 15:04:05.999999999 -0700 MST", // time.Time.String(), as YAML decoders may hand dates over
	"2006-01-02 15:04:05.999999999 -0700",     // Jekyll's front matter date: 2018-02-25 13:02:08 +0530
	"2006-01-02 15:04:05.999999999 -07:00",
	"2006-01-02 15:04 -0700",
	"2006-01-02 15:04 -07:00",
}

// mailLayouts are RFC 822/1123 and RFC 850 forms without weekday and zone,
// which parseDate strips first. Go's "2" reads one or two digits.
var mailLayouts = [...]string{
	"2 Jan 2006 15:04:05",
	"2 Jan 2006 15:04",
	"2 Jan 06 15:04:05",
	"2 Jan 06 15:04",
	"2 Jan 2006",
	"2-Jan-06 15:04:05",
	"2-Jan-2006 15:04:05",
	"2-Jan-06 15:04",
	"2-Jan-2006 15:04",
	"2-Jan-06",
	"2-Jan-2006",
	"Jan 2 15:04:05 2006", // asctime, after its weekday is stripped
}

// zoneOffset gives the offset in seconds of the RFC 822 zone names (plus
// CET/CEST), or of a numeric "+hhmm"/"-hhmm" zone.
//
// Written by hand because time.Parse gives an unknown abbreviation such as
// "PST" a zero offset unless the machine's local zone happens to use it, so
// the same page would resolve differently on different machines.
func zoneOffset(z string) (int, bool) {
	switch strings.ToUpper(z) {
	case "UT", "UTC", "GMT", "Z":
		return 0, true
	case "EST":
		return -5 * 3600, true
	case "EDT":
		return -4 * 3600, true
	case "CDT":
		return -5 * 3600, true
	case "CST":
		return -6 * 3600, true
	case "MST":
		return -7 * 3600, true
	case "MDT":
		return -6 * 3600, true
	case "PST":
		return -8 * 3600, true
	case "PDT":
		return -7 * 3600, true
	case "CET":
		return 3600, true
	case "CEST":
		return 2 * 3600, true
	}
	if len(z) == 6 && z[3] == ':' {
		z = z[:3] + z[4:]
	}
	if len(z) == 5 && (z[0] == '+' || z[0] == '-') {
		h, err1 := strconv.Atoi(z[1:3])
		m, err2 := strconv.Atoi(z[3:5])
		if err1 != nil || err2 != nil || h > 23 || m > 59 || z[1] < '0' || z[3] < '0' {
			return 0, false
		}
		off := h*3600 + m*60
		if z[0] == '-' {
			off = -off
		}
		return off, true
	}
	return 0, false
}

// parseDate reads the date formats Google documents for unavailable_after
// ("a widely adopted format including RFC 822, RFC 850, and ISO 8601"): ISO
// 8601 dates and date-times, RFC 822/1123 ("Fri, 25 Jun 2010 15:00:00 PST",
// "25 Jun 2010 15:00:00 PST"), RFC 850 ("Friday, 25-Jun-10 15:00:00 PST") and
// asctime. A date without a zone is UTC. The result is whole seconds, UTC,
// within years 1 to 9999 so that it can be written back as ISO 8601.
//
// With whole set, the caller's message quotes the date already, and an error
// names no part of it; else an error quotes the part at fault.
func parseDate(s string, whole bool) (time.Time, error) {
	s = strings.Join(strings.Fields(s), " ")
	t, err := parseDateAny(s, whole)
	if err != nil {
		return time.Time{}, err
	}
	t = t.UTC().Truncate(time.Second)
	if y := t.Year(); y < 1 || y > 9999 {
		if whole {
			return time.Time{}, errors.New("the date is out of range")
		}
		return time.Time{}, fmt.Errorf("%s is out of range", excerpt.Quote(s))
	}
	return t, nil
}

// parseDateAny is parseDate's reading.
func parseDateAny(s string, whole bool) (time.Time, error) {
	// q names a part of s in an error: quoted, or not at all where the caller quotes s.
	q := func(part, instead string) string {
		if whole {
			return instead
		}
		return excerpt.Quote(part)
	}
	if len(s) >= 4 && s[0] >= '0' && s[0] <= '9' && s[1] >= '0' && s[1] <= '9' && s[2] >= '0' && s[2] <= '9' && s[3] >= '0' && s[3] <= '9' {
		// time.Time.String() names a zone without an abbreviation by its
		// offset again ("2027-01-31 10:00:00 +0530 +0530"), which no layout
		// reads: drop the repeat.
		if f := strings.Fields(s); len(f) == 4 && f[2] == f[3] && (f[3][0] == '+' || f[3][0] == '-') {
			s = strings.Join(f[:3], " ")
		}
		for _, l := range isoLayouts {
			if t, err := time.ParseInLocation(l, strings.ToUpper(s), time.UTC); err == nil {
				return t, nil
			}
		}
		return time.Time{}, fmt.Errorf("%s is not an ISO 8601 date (2027-01-31 or 2027-01-31T15:00:00Z)", q(s, "the date"))
	}
	rest := s
	// An optional weekday, with a comma (RFC 822/850) or without (asctime).
	if wd, after, ok := strings.Cut(rest, ","); ok {
		if !isWeekday(strings.TrimSpace(wd)) {
			return time.Time{}, fmt.Errorf("%s is not a weekday", q(wd, "the word before the date's comma"))
		}
		rest = strings.TrimSpace(after)
	} else if wd, after, ok := strings.Cut(rest, " "); ok && isWeekday(wd) {
		rest = after
	}
	off := 0
	if i := strings.LastIndexByte(rest, ' '); i >= 0 {
		// A last field starting with a letter or a sign is the zone; digits
		// (a year) or a time mean there is none, and the date is UTC.
		if z := rest[i+1:]; z != "" && (z[0] == '+' || z[0] == '-' || isLetter(z[0])) {
			o, ok := zoneOffset(z)
			if !ok {
				return time.Time{}, fmt.Errorf("%s is not a time zone robotsmith knows (use UTC, GMT, an RFC 822 zone such as PST, or +hhmm)", q(z, "the date's last word"))
			}
			off = o
			rest = rest[:i]
		}
	}
	for _, l := range mailLayouts {
		if t, err := time.ParseInLocation(l, rest, time.UTC); err == nil {
			return t.Add(-time.Duration(off) * time.Second), nil
		}
	}
	return time.Time{}, fmt.Errorf("%s is not a date in ISO 8601, RFC 822 or RFC 850 form", q(s, "the date"))
}

func isLetter(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }
