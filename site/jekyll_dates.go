package site

// Jekyll's dates: Psych reads a plain YAML timestamp itself (a zone-less time is UTC), and Jekyll
// reads every other date with Ruby's Time.parse in the site's zone. Time.parse (Date._parse) reads
// far more than ISO 8601; what is written out here is what front matter holds in practice: ISO
// and slash dates, month names in either order, a time with an optional zone right after it
// (an offset, Z/UTC/GMT, or a North American or European abbreviation), a compact yyyymmdd date.
// Words it does not know, such as a stray year after the time, are skipped, as Ruby skips them.

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/robotsmith/robotsmith/frontmatter"
)

// Psych's scalar patterns (psych/scalar_scanner.rb) for plain YAML scalars.
var (
	psychDateRE = regexp.MustCompile(`^\d{4}-(?:1[012]|0\d|\d)-(?:[12]\d|3[01]|0\d|\d)$`)
	psychTimeRE = regexp.MustCompile(`^-?(\d{4})-(\d{1,2})-(\d{1,2})(?:[Tt]|\s+)(\d{1,2}):(\d\d):(\d\d)(?:\.(\d*))?(?:\s*(Z|[-+]\d{1,2}:?(?:\d\d)?))?$`)
)

// jekyllNodeDate reads a front matter or defaults `date` the way Jekyll does: Psych loads the
// YAML (a bare date is a Date, a timestamp without zone is UTC), Jekyll calls to_s and then
// Time.parse(...).localtime in the site's zone.
func jekyllNodeDate(n *frontmatter.Node, loc *time.Location) (time.Time, error) {
	v, ok := n.Scalar()
	if !ok {
		return time.Time{}, fmt.Errorf("not a date")
	}
	v = strings.TrimSpace(v)
	if n.Plain || n.Kind == frontmatter.KindTime {
		if psychDateRE.MatchString(v) {
			return jekyllParseTime(v, loc)
		}
		if m := psychTimeRE.FindStringSubmatch(v); m != nil {
			return psychTime(m).In(loc), nil
		}
	}
	return jekyllParseTime(v, loc)
}

func psychTime(m []string) time.Time {
	ns := 0
	if m[7] != "" {
		ns = atoi((m[7] + "000000000")[:9])
	}
	zone := time.UTC
	if z := m[8]; z != "" && z != "Z" {
		zone = offsetZone(z)
	}
	return time.Date(atoi(m[1]), time.Month(atoi(m[2])), atoi(m[3]), atoi(m[4]), atoi(m[5]), atoi(m[6]), ns, zone)
}

// offsetZone reads "+05:30", "-0800", "+9".
func offsetZone(z string) *time.Location {
	sign := 1
	if z[0] == '-' {
		sign = -1
	}
	z = strings.ReplaceAll(z[1:], ":", "")
	h, mi := z, "0"
	if len(z) > 2 {
		h, mi = z[:len(z)-2], z[len(z)-2:]
	}
	return time.FixedZone("", sign*(atoi(h)*3600+atoi(mi)*60))
}

var (
	rubyISODateRE = regexp.MustCompile(`(\d{4})([-/.])(\d{1,2})([-/.])(\d{1,2})`)
	rubyCompactRE = regexp.MustCompile(`^(\d{4})(\d{2})(\d{2})\b`)
	rubyUSDateRE  = regexp.MustCompile(`(?i)\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})`)
	rubyEUDateRE  = regexp.MustCompile(`(?i)\b(\d{1,2})(?:st|nd|rd|th)?\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?\s+(\d{4})`)
	rubyTimeRE    = regexp.MustCompile(`(?i)(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(?:([ap])\.?m\.?\b)?(?:\s*(z\b|utc\b|gmt\b|[-+]\d{1,2}(?::?\d{2})?|[a-z]{3,4}\b))?`)
)

var rubyMonths = map[string]int{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12}

// rubyZones are the zone abbreviations of Ruby's date_zone table that front matter uses.
var rubyZones = map[string]int{
	"utc": 0, "gmt": 0, "z": 0, "ut": 0,
	"est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6, "pst": -8, "pdt": -7,
	"akst": -9, "akdt": -8, "hst": -10, "ast": -4, "adt": -3,
	"wet": 0, "west": 1, "bst": 1, "cet": 1, "cest": 2, "met": 1, "mest": 2, "eet": 2, "eest": 3,
	"msk": 3, "ist": 5, "jst": 9, "kst": 9, "aest": 10, "aedt": 11, "nzst": 12, "nzdt": 13,
}

// jekyllParseTime is Ruby's Time.parse for the forms above; without a zone the time is in loc.
func jekyllParseTime(s string, loc *time.Location) (time.Time, error) {
	y, mo, d, rest, ok := rubyDate(strings.TrimSpace(s))
	if !ok || mo < 1 || mo > 12 || d < 1 || d > 31 {
		return time.Time{}, fmt.Errorf("invalid date %q", cutText(s))
	}
	var h, mi, sec, ns int
	zone := loc
	if m := rubyTimeRE.FindStringSubmatch(rest); m != nil {
		h, mi, sec = atoi(m[1]), atoi(m[2]), atoi(m[3])
		if m[4] != "" {
			ns = atoi((m[4] + "000000000")[:9])
		}
		switch strings.ToLower(m[5]) {
		case "p":
			if h < 12 {
				h += 12
			}
		case "a":
			if h == 12 {
				h = 0
			}
		}
		if z := strings.ToLower(m[6]); z != "" {
			if z[0] == '+' || z[0] == '-' {
				zone = offsetZone(z)
			} else if off, ok := rubyZones[z]; ok {
				zone = time.FixedZone(strings.ToUpper(z), off*3600)
			}
		}
	}
	return time.Date(y, time.Month(mo), d, h, mi, sec, ns, zone).In(loc), nil
}

// rubyDate finds the date in s and returns what is left around it, where the time is looked for.
func rubyDate(s string) (y, mo, d int, rest string, ok bool) {
	if m := rubyISODateRE.FindStringSubmatchIndex(s); m != nil && s[m[4]:m[5]] == s[m[8]:m[9]] {
		return atoi(s[m[2]:m[3]]), atoi(s[m[6]:m[7]]), atoi(s[m[10]:m[11]]), s[:m[0]] + " " + s[m[1]:], true
	}
	if m := rubyUSDateRE.FindStringSubmatchIndex(s); m != nil {
		return atoi(s[m[6]:m[7]]), rubyMonths[strings.ToLower(s[m[2]:m[3]])], atoi(s[m[4]:m[5]]), s[:m[0]] + " " + s[m[1]:], true
	}
	if m := rubyEUDateRE.FindStringSubmatchIndex(s); m != nil {
		return atoi(s[m[6]:m[7]]), rubyMonths[strings.ToLower(s[m[4]:m[5]])], atoi(s[m[2]:m[3]]), s[:m[0]] + " " + s[m[1]:], true
	}
	if m := rubyCompactRE.FindStringSubmatchIndex(s); m != nil {
		return atoi(s[m[2]:m[3]]), atoi(s[m[4]:m[5]]), atoi(s[m[6]:m[7]]), s[m[1]:], true
	}
	return 0, 0, 0, "", false
}

// cutText shortens a value quoted in a message.
func cutText(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}
